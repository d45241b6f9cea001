package lint

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
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
// CRD does, instead of the manifest as one schema (which reported
// apiVersion, kind and spec as unknown fields).
func TestLintReadsCRD(t *testing.T) {
	for _, sets := range [][]*Set{{kudoSet}, {structuralSet}, {kudoSet, structuralSet, clusterAppSet}} {
		got, err := Document([]byte(twoVersionCRD), sets...)
		require.NoError(t, err)
		require.NotEmpty(t, got)
		for _, f := range got {
			for _, k := range []string{"apiVersion", "kind", "spec", "metadata"} {
				assert.NotContains(t, f.Message, `unknown field "`+k+`"`)
			}
			assert.Contains(t, f.Pointer, "/spec/versions/")
		}
	}
	got, err := Document([]byte(twoVersionCRD), kudoSet)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, "kudo-enum-default", got[0].Rule)
	assert.Equal(t, "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/a/default", got[0].Pointer)
}

// TestLintRefusesOperatorFile: an operator.yaml is no schema; Lint says
// to lint its package folder instead of returning nothing.
func TestLintRefusesOperatorFile(t *testing.T) {
	op := "apiVersion: kudo.dev/v1beta1\nname: zookeeper\noperatorVersion: 0.3.0\ntasks:\n  - name: deploy\n    kind: Apply\nplans:\n  deploy: {strategy: serial, phases: []}\n"
	fs, err := Document([]byte(op), kudoSet)
	require.ErrorIs(t, err, ErrOperatorFile)
	assert.Nil(t, fs)
	assert.Contains(t, err.Error(), "Package.Lint")
	assert.Contains(t, err.Error(), "ReadPackage")
}

const brokenV1beta1 = "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: A\n    type: integer\n    default: abc\n"

// TestLintV1beta1ConversionFindings: a v1beta1 params file that does not
// convert gives findings of kudo-params (pointer into the file), with any
// set, and is never linted as a raw JSON Schema.
func TestLintV1beta1ConversionFindings(t *testing.T) {
	for _, sets := range [][]*Set{{kudoSet}, {structuralSet}, {clusterAppSet}} {
		t.Run(sets[0].Name, func(t *testing.T) {
			fs, err := Document([]byte(brokenV1beta1), sets...)
			require.NoError(t, err)
			require.Len(t, fs, 1, "%v", fs)
			assert.Equal(t, "kudo-params", fs[0].Rule)
			assert.Equal(t, Error, fs[0].Severity)
			assert.Equal(t, "/parameters/0/default", fs[0].Pointer)
			assert.Equal(t, `parameter "A": default "abc" is not an integer`, fs[0].Message)
		})
	}
	// A params file that converts is linted as the schema it converts to,
	// findings placed on the parameter, not as a raw schema.
	fs, err := Document([]byte("apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: A\n    type: integer\n    default: 3\n    enum: [1, 2]\n"), kudoSet, structuralSet)
	require.NoError(t, err)
	var rules []string
	for _, f := range fs {
		rules = append(rules, f.Rule)
		assert.NotContains(t, f.Message, `unknown field "parameters"`)
	}
	assert.Contains(t, rules, "kudo-enum-default")
	assert.NotContains(t, rules, "kudo-params")
	// A map of values stays refused.
	_, err = Document([]byte("replicas: 3\nimage: nginx\n"), kudoSet)
	var e *schema.Error
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, schema.KindNotSchema, e.Kind)
}

// TestLintPackageConversionFindings: in a package, the same fault is a
// finding in params.yaml with its line, not an error.
func TestLintPackageConversionFindings(t *testing.T) {
	pkg := &Package{ParamsFile: "params.yaml", Params: []byte(brokenV1beta1),
		Templates: map[string][]byte{"templates/t.yaml": []byte("{{ .Params.A }}")}}
	fs, err := pkg.Lint(kudoSet)
	require.NoError(t, err)
	require.Len(t, fs, 1, "%v", fs)
	assert.Equal(t, "kudo-params", fs[0].Rule)
	assert.Equal(t, "params.yaml", fs[0].File)
	assert.Equal(t, "/parameters/0/default", fs[0].Pointer)
	assert.Equal(t, 5, fs[0].Line)
}

// TestLintOperatorVersion: an OperatorVersion is linted as the schema it
// carries, findings pointing into the manifest, not as a document that
// is no schema.
func TestLintOperatorVersion(t *testing.T) {
	tests := []struct{ name, in, pointer string }{
		{"v1beta2", "apiVersion: kudo.dev/v1beta2\nkind: OperatorVersion\nmetadata: {name: x}\nspec:\n  parameters:\n    type: object\n    properties:\n      a: {type: string, enum: [x], default: y}\n",
			"/spec/parameters/properties/a/default"},
		{"v1beta1", "apiVersion: kudo.dev/v1beta1\nkind: OperatorVersion\nmetadata: {name: x}\nspec:\n  parameters:\n    - name: b\n    - name: a\n      enum: [x]\n      default: y\n",
			"/spec/parameters/1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs, err := Document([]byte(tt.in), kudoSet)
			require.NoError(t, err)
			require.Len(t, fs, 1, "%v", fs)
			assert.Equal(t, "kudo-enum-default", fs[0].Rule)
			assert.Equal(t, tt.pointer, fs[0].Pointer)
		})
	}
	fs, err := Document([]byte("apiVersion: kudo.dev/v1beta2\nkind: OperatorVersion\nmetadata: {name: x}\nspec: {}\n"), kudoSet)
	require.NoError(t, err)
	assert.Empty(t, fs)
}
