package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const brokenV1beta1 = "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: A\n    type: integer\n    default: abc\n"

// TestLintV1beta1ConversionFaults: a v1beta1 params file that does not
// convert is linted, not passed and not refused: its faults are findings
// of kudo-params (exit 1) alone, with any rule set, and inside a package
// folder too (it was exit 2).
func TestLintV1beta1ConversionFaults(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "params.yaml")
	require.NoError(t, os.WriteFile(file, []byte(brokenV1beta1), 0o644))
	pkg := filepath.Join(dir, "pkg")
	require.NoError(t, os.MkdirAll(filepath.Join(pkg, "templates"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(pkg, "params.yaml"), []byte(brokenV1beta1), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(pkg, "operator.yaml"), []byte("apiVersion: kudo.dev/v1beta1\nname: x\noperatorVersion: 0.1.0\ntasks: []\nplans: {deploy: {}}\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(pkg, "templates", "a.yaml"), []byte("{{ .Params.A }}\n"), 0o644))

	const msg = `error kudo-params: parameter "A": default "abc" is not an integer`
	for _, rules := range []string{"kudo", "structural", "cluster-app"} {
		t.Run(rules, func(t *testing.T) {
			code, out, errOut := paramctl(t, "", "lint", "--rules", rules, file)
			assert.Equal(t, 1, code, errOut)
			assert.Equal(t, lintName([]string{file}, file)+":5:5: /parameters/0/default: "+msg+"\n", out)
			assert.NotContains(t, out, `unknown field "parameters"`)

			code, out, errOut = paramctl(t, "", "lint", "--rules", rules, pkg)
			assert.Equal(t, 1, code, errOut)
			assert.Equal(t, lintName([]string{pkg}, filepath.Join(pkg, "params.yaml"))+":5:5: /parameters/0/default: "+msg+"\n", out)
		})
	}
}

// TestSchemaHintIsTrue: a command that needs a schema says 'paramctl lint
// X' lists the faults only where lint does (a v1beta1 parameter that does
// not convert); for an unknown CRD version it names the versions there
// are instead, and for a map of values it says nothing of lint.
func TestSchemaHintIsTrue(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "params.yaml")
	require.NoError(t, os.WriteFile(file, []byte(brokenV1beta1), 0o644))
	code, _, errOut := paramctl(t, "", "validate", "--schema", file, "/dev/null")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "'paramctl lint "+file+"' lists such faults as findings (exit 1)")
	code, out, _ := paramctl(t, "", "lint", file)
	assert.Equal(t, 1, code, "the hint holds")
	assert.Contains(t, out, "kudo-params")

	code, _, errOut = paramctl(t, "", "list", "--schema", "testdata/crd/widgets.yaml", "--crd-version", "v9")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `no version "v9" with a schema (it has v1alpha1, v1)`)
	assert.NotContains(t, errOut, "paramctl lint")

	code, _, errOut = paramctl(t, "replicas: 3\nimage: nginx\n", "list", "--schema", "-")
	assert.Equal(t, 2, code)
	assert.NotContains(t, errOut, "paramctl lint")
}
