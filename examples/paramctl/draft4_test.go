package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// tsSchema is an excerpt of SchemaStore's tsconfig schema, a real draft-04
// schema ("id", definitions, allOf and anyOf of $refs); see
// testdata/tsconfig/NOTICE.
const tsSchema = "testdata/tsconfig/tsconfig.schema.json"

func TestDraft4RealSchema(t *testing.T) {
	for _, doc := range []string{"testdata/tsconfig/hejlsberg.json", "testdata/tsconfig/tsconfig-test.json"} {
		code, out, errs := updRun(t, "", "validate", "--schema", tsSchema, doc)
		assert.Equal(t, 0, code, errs)
		assert.Equal(t, "valid\n", out, doc)
	}

	code, _, errs := updRun(t, `{"compilerOptions":{"target":"es2099","strict":"yes"},"compileOnSave":1}`, "validate", "--schema", tsSchema, "-")
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "/compileOnSave: expected boolean or null, but got number 1\n")
	assert.Contains(t, errs, "/compilerOptions/strict: expected boolean or null, but got string \"yes\"\n")
	assert.Contains(t, errs, "/compilerOptions/target: fails every alternative of anyOf; the closest, anyOf/0, fails: value must be one of")
	assert.NotContains(t, errs, "does not match pattern", "one error for the anyOf, not one per alternative")

	// Declared names are found through allOf and anyOf of $refs.
	code, _, errs = updRun(t, "", "update", "--schema", tsSchema, "--values", "testdata/tsconfig/tsconfig-test.json",
		"-p", "compilerOptions.strcit=true", "-p", "compilerOptions.strict=true", "-p", "files=[a.ts]", "-p", "exclud=[x]")
	assert.Equal(t, 0, code, errs)
	assert.Equal(t, "warning: /compilerOptions/strcit: \"strcit\" is not declared by the schema; did you mean \"strict\"?\n"+
		"warning: /exclud: \"exclud\" is not declared by the schema; did you mean \"exclude\"?\n"+
		"plan: deploy (changed /compilerOptions/strcit, /exclud, /files)\n", errs)

	// The kudo rules know draft-04's "id".
	code, out, errs := updRun(t, "", "lint", tsSchema)
	assert.Equal(t, 0, code, errs)
	assert.Empty(t, out)
}
