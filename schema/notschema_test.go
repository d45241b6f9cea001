package schema_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// TestParseRefusesNonSchemas: a root object none of whose keys is a
// schema keyword is no schema. Parse and FromValue refuse it with one
// Error of KindNotSchema saying what was expected, what was found and,
// for a file paramkit reads elsewhere, where to read it; {} and true and
// anything with a keyword (or an x- or $ key) stay schemas.
func TestParseRefusesNonSchemas(t *testing.T) {
	tests := []struct {
		name, in string
		found    string // "" for a schema
		hint     string
	}{
		{"flat values", "replicas: 3\nimage: nginx\n", "a flat map of values (keys image, replicas)", ""},
		{"nested values", "resources: {cpu: 1}\nname: x\n", "a map of values (keys name, resources)", ""},
		{"v1beta1 params", "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: A\n    default: x\n", "keys apiVersion, parameters", "KUDO params file: read it with convert.LoadSchema"},
		{"first format", "memory:\n  description: m\n  default: 1Gi\n", "keys memory", "KUDO's first format (a map from name to parameter): read it with convert.LoadSchema"},
		{"first format with a field KUDO ignored", "REPOS:\n  description: r\n  example: a/b\n", "keys REPOS", "KUDO's first format (a map from name to parameter): read it with convert.LoadSchema"},
		{"values with a service type", "service: {type: ClusterIP, port: 80}\n", "a map of values (keys service)", ""},
		{"CRD", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.b.c}\nspec: {group: b.c}\n", "keys apiVersion, kind, metadata, spec", "CustomResourceDefinition manifest: read it with convert.LoadSchema"},
		{"OperatorVersion", "apiVersion: kudo.dev/v1beta1\nkind: OperatorVersion\nspec: {parameters: []}\n", "keys apiVersion, kind, spec", "OperatorVersion: read it with convert.LoadSchema"},
		{"operator.yaml", "apiVersion: kudo.dev/v1beta1\nname: zk\noperatorVersion: 0.1.0\ntasks: []\nplans: {deploy: {}}\n", "keys apiVersion, name, operatorVersion, plans, tasks", "operator.yaml: read its package folder with convert.ReadSchema"},
		{"empty object", "{}\n", "", ""},
		{"true", "true\n", "", ""},
		{"apiVersion only", "apiVersion: kudo.dev/v1beta2\n", "", ""},
		{"description only", "description: anything\n", "", ""},
		{"KUDO keyword", "trigger: deploy\n", "", ""},
		{"x- extension", "x-kubernetes-preserve-unknown-fields: true\n", "", ""},
		{"$ key", "$comment: hi\n", "", ""},
		{"draft-04 id", "id: http://example.com/s\n", "", ""},
		{"v1beta2 schema", "apiVersion: kudo.dev/v1beta2\ntype: object\nproperties: {a: {type: string}}\n", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := schema.Parse([]byte(tt.in))
			if tt.found == "" {
				require.NoError(t, err)
				return
			}
			var e *schema.Error
			require.True(t, errors.As(err, &e), "%T %v", err, err)
			assert.Equal(t, schema.KindNotSchema, e.Kind)
			assert.Equal(t, "", e.Pointer)
			assert.Contains(t, e.Message, "expected a JSON Schema")
			assert.Contains(t, e.Message, tt.found)
			if tt.hint != "" {
				assert.Contains(t, e.Message, tt.hint)
			} else {
				assert.NotContains(t, e.Message, "read it with")
			}
		})
	}
	_, err := schema.FromValue(map[string]any{"replicas": "3"})
	var e *schema.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, schema.KindNotSchema, e.Kind)
}
