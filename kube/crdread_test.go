package kube_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/schema"
)

const twoVersionCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: caches.example.paramkit.dev}
spec:
  group: example.paramkit.dev
  names: {kind: Cache, plural: caches}
  scope: Namespaced
  versions:
    - name: v1alpha1
      served: true
      storage: false
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: {type: object, properties: {size: {type: integer}}}
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: {type: object, properties: {size: {type: integer, minimum: 1}, color: {type: string}}}
`

func TestCRDVersions(t *testing.T) {
	vs, err := kube.CRDVersions([]byte(twoVersionCRD))
	require.NoError(t, err)
	require.Len(t, vs, 2)
	assert.Equal(t, "v1alpha1", vs[0].Name)
	assert.False(t, vs[0].Storage)
	assert.True(t, vs[0].Served)
	assert.Equal(t, "/spec/versions/0/schema/openAPIV3Schema", vs[0].Pointer)
	assert.Equal(t, "v1", vs[1].Name)
	assert.True(t, vs[1].Storage)
	assert.Equal(t, "/spec/versions/1/schema/openAPIV3Schema", vs[1].Pointer)
	small := map[string]any{"spec": map[string]any{"size": 0}}
	assert.NoError(t, vs[0].Schema.Validate(small), "v1alpha1 has no minimum")
	assert.Error(t, vs[1].Schema.Validate(small), "v1 has minimum 1")

	v1beta1 := []byte("apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nspec:\n  version: v1\n  validation:\n    openAPIV3Schema: {type: object}\n")
	vs, err = kube.CRDVersions(v1beta1)
	require.NoError(t, err)
	require.Len(t, vs, 1)
	assert.Equal(t, "v1", vs[0].Name)
	assert.True(t, vs[0].Storage)
	assert.Equal(t, "/spec/validation/openAPIV3Schema", vs[0].Pointer)
}

func TestCRDVersionsErrors(t *testing.T) {
	bad := []byte(twoVersionCRD[:len(twoVersionCRD)-1] + "\n            x: {type: 7}\n")
	tests := []struct {
		name, in string
		kind     schema.Kind
		pointer  string
	}{
		{"not a CRD", "kind: Pod\n", schema.KindNotSchema, "/kind"},
		{"no schema", "kind: CustomResourceDefinition\nspec:\n  versions:\n  - {name: v1}\n", schema.KindNotFound, "/spec"},
		{"syntax", "kind: [", schema.KindSyntax, ""},
		{"a version's schema does not compile", string(bad), schema.KindSchema, "/spec/versions/1/schema/openAPIV3Schema/properties/x/type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := kube.CRDVersions([]byte(tt.in))
			require.Error(t, err)
			el := schema.ErrorsOf(err)
			require.NotEmpty(t, el)
			assert.Equal(t, tt.kind, el[0].Kind, "%v", err)
			if tt.pointer != "" {
				assert.Contains(t, el[0].Pointer, tt.pointer)
			}
		})
	}
}

// A version other than the storage version (which convert.LoadSchema
// reads): pick it by name.
func ExampleCRDVersions() {
	vs, err := kube.CRDVersions([]byte(twoVersionCRD))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range vs {
		err := v.Schema.Validate(map[string]any{"spec": map[string]any{"size": 0}})
		fmt.Printf("%s storage=%t size 0 valid=%t (%s)\n", v.Name, v.Storage, err == nil, v.Pointer)
	}
	// Output:
	// v1alpha1 storage=false size 0 valid=true (/spec/versions/0/schema/openAPIV3Schema)
	// v1 storage=true size 0 valid=false (/spec/versions/1/schema/openAPIV3Schema)
}
