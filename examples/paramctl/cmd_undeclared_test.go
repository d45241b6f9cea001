package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A key the schema does not declare is a warning on standard error with
// the closest declared names; --strict refuses it with exit 1 and prints
// nothing on standard output.
func TestUndeclaredKeysUpdateAndPatch(t *testing.T) {
	patchFile := updWrite(t, "patch.yaml", "topology:\n  - datacenterName: dc1\n    lables: []\n")
	tests := []struct {
		name   string
		args   []string
		stderr string // the warning
		plan   string // then the plan line every update prints
	}{
		{"update -p", []string{"update", "--schema", updSchema, "--values", updValues, "-p", "nodeCuont=4"},
			"warning: /nodeCuont: \"nodeCuont\" is not declared by the schema; did you mean \"nodeCount\"?\n", "plan: deploy (changed /nodeCuont)\n"},
		{"update -p nested", []string{"update", "--schema", updSchema, "--values", updValues, "-p", "Authorization.ENABLE=true"},
			"warning: /Authorization/ENABLE: \"ENABLE\" is not declared by the schema; did you mean \"ENABLED\"?\n", "plan: auth-update (changed /Authorization/ENABLE)\n"},
		{"update -P", []string{"update", "--schema", updSchema, "--values", updValues, "-P", patchFile},
			"warning: /topology/0/lables: \"lables\" is not declared by the schema; did you mean \"labels\"?\n", "plan: deploy (changed /topology)\n"},
		{"patch --add", []string{"patch", "--schema", updSchema, "--values", updValues, "--add", "Authorization/NAEM=x"},
			"warning: /Authorization/NAEM: \"NAEM\" is not declared by the schema; did you mean \"NAME\"?\n", "plan: auth-update (changed /Authorization/NAEM)\n"},
		{"patch --replace", []string{"patch", "--schema", updSchema, "--values", updValues, "--add", "topology/0/label=x", "--replace", "topology/0/label=y"},
			"warning: /topology/0/label: \"label\" is not declared by the schema; did you mean \"labels\"?\n", "plan: deploy (changed /topology/0/label)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := updRun(t, "", tt.args...)
			assert.Equal(t, 0, code, errs)
			assert.NotEmpty(t, out)
			assert.Equal(t, tt.stderr+tt.plan, errs)

			code, out, errs = updRun(t, "", append(tt.args, "--strict")...)
			assert.Equal(t, 1, code)
			assert.Empty(t, out)
			ptr, msg, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(tt.stderr, "warning: "), "\n"), ": ")
			assert.True(t, strings.HasPrefix(errs, ptr+": "), errs)
			assert.Contains(t, errs, msg+" (strict: undeclared keys are refused)\n")
			assert.NotContains(t, errs, "warning:")
		})
	}
}

// Where the schema forbids the key, the error is as before, with the
// suggestion added; keys of a free-form object never warn.
func TestUndeclaredKeysForbiddenAndFreeForm(t *testing.T) {
	schemaFile := updWrite(t, "schema.yaml", `type: object
properties:
  replicas: {type: integer}
  labels: {type: object}
additionalProperties: false
`)
	patchFile := updWrite(t, "patch.yaml", "replicsa: 4\n")
	code, out, errs := updRun(t, "", "update", "--schema", schemaFile, "-p", "replicsa=4")
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Equal(t, "/replicsa: \"replicsa=4\": not allowed here: \"replicsa\" (the schema does not declare it); did you mean \"replicas\"?\n", errs)

	code, out, errs = updRun(t, "", "update", "--schema", schemaFile, "-P", patchFile)
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Equal(t, "/replicsa: not allowed here: \"replicsa\" (the schema does not declare it); \"replicsa\": did you mean \"replicas\"?\n", errs)

	code, out, errs = updRun(t, "", "update", "--schema", schemaFile, "--strict", "-p", "labels.tier=web", "-p", "replicas=2")
	assert.Equal(t, 0, code, errs)
	assert.Equal(t, "replicas: 2\nlabels:\n  tier: web\n", out) // schema order
	assert.Equal(t, "plan: deploy (changed \"\")\n", errs)      // an install; no warning
}

// A failed update names the undeclared key, as a warning before the
// errors it explains.
func TestUndeclaredKeyExplainsAFailure(t *testing.T) {
	schemaFile := updWrite(t, "schema.yaml", "type: object\nrequired: [replicas]\nproperties:\n  replicas: {type: integer}\n")
	code, out, errs := updRun(t, "", "update", "--schema", schemaFile, "-p", "replicsa=4")
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Equal(t, "warning: /replicsa: \"replicsa=4\": \"replicsa\" is not declared by the schema; did you mean \"replicas\"?\n"+
		"/replicas: missing required property: \"replicas\"\n", errs)
}
