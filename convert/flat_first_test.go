package convert

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/schema"
)

// TestFirstFormat: KUDO's first params format converts as the list
// format does, in file order; errors point at the parameter's key.
func TestFirstFormat(t *testing.T) {
	first := "memory:\n  description: Memory\n  default: \"1Gi\"\nreplicas:\n  default: 3\n  trigger: update\nzeta: {}\nalpha:\n  required: true\n"
	list := "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: memory\n    description: Memory\n    default: \"1Gi\"\n  - name: replicas\n    default: 3\n    trigger: update\n  - name: zeta\n  - name: alpha\n    required: true\n"
	a, err := FromV1beta1([]byte(first))
	require.NoError(t, err)
	b, err := FromV1beta1([]byte(list))
	require.NoError(t, err)
	assert.True(t, a.Changed)
	assert.Equal(t, string(mustBytes(b.JSON(""))), string(mustBytes(a.JSON(""))))
	y, err := a.YAML()
	require.NoError(t, err)
	d, err := document.Read(y, document.Options{Order: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"memory", "replicas", "zeta", "alpha"}, d.Order["/properties"], "file order")
	require.NotEmpty(t, a.Notes)
	assert.Contains(t, a.Notes[len(a.Notes)-1].Message, "first params format")

	_, err = FromV1beta1([]byte("memory:\n  type: colour\n  default: x\n"))
	var el schema.ErrorList
	require.True(t, problem.As(err, &el))
	assert.Equal(t, "/memory/type", el[0].Pointer)
}

// TestFirstFormatFieldsKUDOIgnored: a field KUDO ignored (velodrome's
// `example`) does not stop the first format from being read; it is kept
// as an x-kudo-* keyword, as the list format keeps it, in source order,
// and goes back to the list as the same field.
func TestFirstFormatFieldsKUDOIgnored(t *testing.T) {
	first := "REPOSITORIES:\n  description: Repositories\n  example: \"kudobuilder/operators,kudobuilder/kudo\"\n  required: true\nSECRET:\n  description: s\nDISK:\n  default: 1Gi\n  hint: {unit: bytes}\n"
	list := "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: REPOSITORIES\n    description: Repositories\n    example: \"kudobuilder/operators,kudobuilder/kudo\"\n    required: true\n  - name: SECRET\n    description: s\n  - name: DISK\n    default: 1Gi\n    hint: {unit: bytes}\n"
	a, err := FromV1beta1([]byte(first))
	require.NoError(t, err)
	b, err := FromV1beta1([]byte(list))
	require.NoError(t, err)
	assert.Equal(t, string(mustBytes(b.JSON(""))), string(mustBytes(a.JSON(""))), "as the list format")
	props := a.Schema.(map[string]any)["properties"].(map[string]any)
	assert.Equal(t, "kudobuilder/operators,kudobuilder/kudo", props["REPOSITORIES"].(map[string]any)["x-kudo-example"])
	assert.Equal(t, map[string]any{"unit": "bytes"}, props["DISK"].(map[string]any)["x-kudo-hint"])
	y, err := a.YAML()
	require.NoError(t, err)
	d, err := document.Read(y, document.Options{Order: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"type", "description", "x-kudo-example"}, d.Order["/properties/REPOSITORIES"], "the field where the source had it")
}

// TestNotSchemaRefused: a map of values is refused, saying what was
// expected and found; schemas (also {} and true) are not.
func TestNotSchemaRefused(t *testing.T) {
	tests := []struct {
		name, in string
		refused  bool
		found    string
	}{
		{"flat values", "replicas: 3\nimage: nginx\n", true, "a flat map of values (keys image, replicas)"},
		{"nested values", "resources:\n  cpu: 1\nname: x\n", true, "a map of values (keys name, resources)"},
		{"many keys", "a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6\n", true, "a flat map of values (keys a, b, c, d, e and 1 more"},
		{"empty map", "{}\n", false, ""},
		{"true", "true\n", false, ""},
		{"description only", "description: anything\n", false, ""},
		{"x- extension", "x-kubernetes-preserve-unknown-fields: true\n", false, ""},
		{"$ref", "$ref: '#/$defs/a'\n$defs: {a: {}}\n", false, ""},
		{"first format", "a:\n  default: 1\n", false, ""},
		{"first format with a field KUDO ignored", "a:\n  default: 1\n  example: 2\n", false, ""},
		{"values with a service type", "service:\n  type: ClusterIP\n  port: 80\n", true, "a map of values (keys service)"},
		{"values beside a parameter", "a:\n  default: 1\nimage:\n  repository: nginx\n", true, "a map of values (keys a, image)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FromV1beta1([]byte(tc.in))
			_, lerr := LoadSchema([]byte(tc.in))
			if !tc.refused {
				assert.NoError(t, err)
				assert.NoError(t, lerr)
				return
			}
			for _, e := range []error{err, lerr} {
				var ne *schema.Error
				require.True(t, errors.As(e, &ne), "%T", e)
				assert.Equal(t, schema.KindNotSchema, ne.Kind)
				assert.Contains(t, ne.Message, "found "+tc.found)
				assert.Contains(t, e.Error(), "expected a parameter schema")
			}
		})
	}
}

var firstSeeds = []string{
	"memory:\n  description: m\n  default: \"1Gi\"\ncpus:\n  default: 0.25\n",
	"a: {default: 1, type: integer}\nb: {}\nc:\n",
	"x: {enum: [a, b], default: c}\n",
	"'comma,': {default: x, trigger: t, immutable: yes}\n",
	"a: {type: map, default: '{k: v}'}\nb: {type: array, default: '[1]'}\n",
	"replicas: 3\nimage: nginx\n",
	"REPOS:\n  description: r\n  example: \"a/b\"\n  required: true\nX: {type: map, example: '{a: 1}'}\n",
	"service: {type: ClusterIP, port: 80}\n",
}

// FuzzFirstFormat: no input makes the first-format converter panic; what
// it builds compiles, keeps the input's order and converts to itself.
func FuzzFirstFormat(f *testing.F) {
	for _, s := range firstSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		raw, order, err := readRaw(data)
		if err != nil {
			return
		}
		root, ok := raw.(map[string]any)
		if !ok || usesKeyword(root) || !isFirstFormat(root) {
			return
		}
		c, err := FromV1beta1(data)
		if err != nil {
			return
		}
		if _, err := schema.Parse(c.schemaJSON()); err != nil {
			t.Fatalf("converted schema does not compile: %v", err)
		}
		if ks := order[""]; len(ks) == len(root) {
			assert.Equal(t, ks, c.order["/properties"], "file order")
		}
		again, err := FromV1beta1(mustBytes(c.JSON("")))
		if err != nil || again.Changed {
			t.Fatalf("the converted schema converts again: %v", err)
		}
	})
}

// KUDO's early releases wrote params.yaml as a map from name to parameter.
func ExampleFromV1beta1_firstFormat() {
	c, err := FromV1beta1([]byte("memory:\n  description: Memory per pod\n  default: \"1Gi\"\nreplicas:\n  default: 3\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	out, _ := c.YAML()
	fmt.Print(string(out))
	// Output:
	// apiVersion: kudo.dev/v1beta2
	// title: Parameter Schema
	// $schema: https://json-schema.org/draft/2019-09/schema
	// type: object
	// properties:
	//   memory:
	//     type: string
	//     description: Memory per pod
	//     default: 1Gi
	//   replicas:
	//     type: integer
	//     default: 3
}

const twoVersionCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
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

// TestLoadSchemaCRD: a CRD manifest is read at its storage version,
// errors pointing into the manifest; kube's CRDVersions (tested
// there) reads the others.
func TestLoadSchemaCRD(t *testing.T) {
	s, err := LoadSchema([]byte(twoVersionCRD))
	require.NoError(t, err)
	assert.Error(t, s.Validate(map[string]any{"spec": map[string]any{"size": 0}}), "storage version v1 has minimum 1")

	bad := []byte(twoVersionCRD[:len(twoVersionCRD)-1] + "\n            x: {type: 7}\n")
	_, err = LoadSchema(bad)
	var el schema.ErrorList
	require.True(t, problem.As(err, &el))
	assert.Contains(t, el[0].Pointer, "/spec/versions/1/schema/openAPIV3Schema/")

	v1beta1 := []byte("apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nspec:\n  version: v1\n  validation:\n    openAPIV3Schema: {type: object, properties: {a: {type: integer}}}\n")
	s, err = LoadSchema(v1beta1)
	require.NoError(t, err)
	assert.Error(t, s.Validate(map[string]any{"a": "x"}), "spec.validation's schema is the only version's")

	noStorage := []byte("kind: CustomResourceDefinition\nspec:\n  versions:\n  - {name: a, schema: {openAPIV3Schema: {type: object}}}\n  - {name: b, schema: {openAPIV3Schema: {type: object}}}\n")
	_, err = LoadSchema(noStorage)
	assert.ErrorContains(t, err, "no version is marked storage: pick one of a, b")
}

// mustBytes is the bytes of an encoder that cannot fail on the plain
// values a test gives it.
func mustBytes(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
