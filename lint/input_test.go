package lint

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const twoVersionCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  versions:
    - name: v1beta1
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: {type: object, properties: {a: {type: string, enum: [x], default: y}}}
    - name: v1
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: {type: object, properties: {a: {type: string}}}
`

// TestLintReadsCRD: Lint on a CRD manifest lints each version's schema as
// LintCRD does, instead of the manifest as one schema (which reported
// apiVersion, kind and spec as unknown fields).
func TestLintReadsCRD(t *testing.T) {
	for _, sets := range [][]*Set{{Kudo}, {Structural}, {Kudo, Structural, ClusterApp}} {
		got, err := Lint([]byte(twoVersionCRD), sets...)
		require.NoError(t, err)
		want, err := LintCRD([]byte(twoVersionCRD), "", sets...)
		require.NoError(t, err)
		assert.Equal(t, want, got)
		for _, f := range got {
			for _, k := range []string{"apiVersion", "kind", "spec", "metadata"} {
				assert.NotContains(t, f.Message, `unknown field "`+k+`"`)
			}
			assert.Contains(t, f.Pointer, "/spec/versions/")
		}
	}
	got, err := Lint([]byte(twoVersionCRD), Kudo)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, "kudo-enum-default", got[0].Rule)
	assert.Equal(t, "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/a/default", got[0].Pointer)
}

// TestLintRefusesOperatorFile: an operator.yaml is no schema; Lint says
// to lint its package folder instead of returning nothing.
func TestLintRefusesOperatorFile(t *testing.T) {
	op := "apiVersion: kudo.dev/v1beta1\nname: zookeeper\noperatorVersion: 0.3.0\ntasks:\n  - name: deploy\n    kind: Apply\nplans:\n  deploy: {strategy: serial, phases: []}\n"
	fs, err := Lint([]byte(op), Kudo)
	require.ErrorIs(t, err, ErrOperatorFile)
	assert.Nil(t, fs)
	assert.Contains(t, err.Error(), "LintPackage")
	assert.Contains(t, err.Error(), "ReadPackage")
}
