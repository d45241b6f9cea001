package convert

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
)

const richOperatorVersion = `apiVersion: kudo.dev/v1beta2
kind: OperatorVersion
metadata:
  name: my-operator-0.2.0
  labels: {app: my}
spec:
  version: 0.2.0
  parameters:
    title: My Operator
    $schema: https://json-schema.org/draft/2019-09/schema
    type: object
    required: [clusterName, nodes]
    $defs:
      port: {type: integer, minimum: 1, maximum: 65535}
    properties:
      clusterName: {type: string, title: ClusterName, description: The cluster, default: my-cluster, oldName: CLUSTER_NAME}
      nodes: {type: integer, default: 3, enum: [1, 3, 5], trigger: scale}
      ratio: {type: number, default: 0.25, maximum: 1}
      enabled: {type: boolean, default: false, immutable: true}
      zones: {type: array, items: {type: string}, default: [a, b]}
      backup:
        type: object
        properties:
          enabled: {type: boolean}
        x-kudo-group: backup
      port: {$ref: '#/$defs/port', default: 8080}
      anything: {description: free}
      version: {type: string, default: "1.10"}
`

// toV1 runs ToV1beta1 and returns the v1beta1 document as plain values.
func toV1(t *testing.T, in []byte) (*Converted, map[string]any) {
	t.Helper()
	c, err := ToV1beta1(in)
	require.NoError(t, err)
	return c, c.Document.(map[string]any)
}

// listEntry finds a v1beta1 list entry by name.
func listEntry(t *testing.T, doc map[string]any, name string) map[string]any {
	t.Helper()
	for _, e := range doc["spec"].(map[string]any)["parameters"].([]any) {
		if m := e.(map[string]any); m["name"] == name {
			return m
		}
	}
	t.Fatalf("no entry %q", name)
	return nil
}

func TestToV1beta1WritesAFlatListAndKeepsTheSchema(t *testing.T) {
	c, doc := toV1(t, []byte(richOperatorVersion))
	assert.True(t, c.Changed)
	out, err := c.YAML()
	require.NoError(t, err)
	golden(t, "golden/rich-operatorversion.v1beta1.yaml", out)

	assert.Equal(t, apiV1beta1, doc["apiVersion"])
	assert.Equal(t, "0.2.0", doc["spec"].(map[string]any)["version"], "other fields stay")
	assert.Equal(t, map[string]any{"app": "my"}, doc["metadata"].(map[string]any)["labels"])
	assert.Equal(t, map[string]any{
		"name": "nodes", "required": true, "default": "3", "value-type": "integer",
		"enum": []any{"1", "3", "5"}, "trigger": "scale",
	}, listEntry(t, doc, "nodes"))
	assert.Equal(t, map[string]any{"name": "zones", "default": `["a","b"]`, "value-type": "array"}, listEntry(t, doc, "zones"))
	assert.Equal(t, map[string]any{"name": "backup", "value-type": "map"}, listEntry(t, doc, "backup"))
	assert.Equal(t, map[string]any{"name": "port", "default": "8080"}, listEntry(t, doc, "port"))
	assert.Equal(t, map[string]any{"name": "enabled", "default": "false", "value-type": "boolean", "immutable": true}, listEntry(t, doc, "enabled"))
	ann, ok := pointer.Get(doc, pointer.Join("metadata", "annotations", ParametersAnnotation))
	require.True(t, ok)
	kept := plainDoc(t, []byte(ann.(string)))
	orig := plainDoc(t, []byte(richOperatorVersion))
	want, _ := pointer.Get(orig, "/spec/parameters")
	assert.True(t, value.Equal(want, kept))

	// The list alone, read by an old client, converts to a sensible schema.
	delete(doc["metadata"].(map[string]any), "annotations")
	fresh, err := FromV1beta1(encode.JSON(doc, nil, ""))
	require.NoError(t, err)
	props := fresh.Schema.(map[string]any)["properties"].(map[string]any)
	assert.Equal(t, json.Number("3"), props["nodes"].(map[string]any)["default"])
	assert.Equal(t, []any{"a", "b"}, props["zones"].(map[string]any)["default"])
	assert.Equal(t, "1.10", props["version"].(map[string]any)["default"])
}

func TestV1beta2ToV1beta1AndBackIsExact(t *testing.T) {
	orig := []byte(richOperatorVersion)
	want, err := FromV1beta1(orig) // unchanged: the original with its key order
	require.NoError(t, err)
	require.False(t, want.Changed)

	down, _ := toV1(t, orig)
	for _, form := range []struct {
		name string
		data []byte
	}{
		{"yaml", must(down.YAML())},
		{"json", mustBytes(down.JSON(""))},
		// what an apiserver hands back: keys sorted, the list as it was
		{"json sorted", encode.JSON(down.Document, nil, "")},
	} {
		t.Run(form.name, func(t *testing.T) {
			up, err := FromV1beta1(form.data)
			require.NoError(t, err)
			assert.True(t, up.Changed)
			assert.True(t, value.Equal(want.Document, up.Document), "diff at %v", value.Diff(want.Document, up.Document))
			// the schema keeps its key order, kept in the annotation
			assert.Equal(t, string(encode.JSON(want.Schema, encode.ByKeyOrder(subOrder(want.order, "/spec/parameters")), "  ")),
				string(encode.JSON(up.Schema, encode.ByKeyOrder(subOrder(up.order, "/spec/parameters")), "  ")))
			require.Len(t, up.Notes, 1)
			assert.Contains(t, up.Notes[0].Message, "restored")
		})
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// edit converts the rich object down, lets f change the v1beta1 document
// as an old client would, and converts it up again.
func edit(t *testing.T, f func(doc map[string]any)) (*Converted, map[string]any) {
	t.Helper()
	_, doc := toV1(t, []byte(richOperatorVersion))
	f(doc)
	up, err := FromV1beta1(encode.JSON(doc, nil, ""))
	require.NoError(t, err)
	kept := plainDoc(t, []byte(richOperatorVersion))
	want, _ := pointer.Get(kept, "/spec/parameters")
	return up, want.(map[string]any)
}

func TestOldClientEditsAreHonoured(t *testing.T) {
	t.Run("changed default", func(t *testing.T) {
		up, want := edit(t, func(doc map[string]any) { listEntry(t, doc, "nodes")["default"] = "5" })
		want["properties"].(map[string]any)["nodes"].(map[string]any)["default"] = json.Number("5")
		assert.True(t, value.Equal(want, up.Schema), "diff %v", value.Diff(want, up.Schema))
		require.Len(t, up.Notes, 1)
		assert.Contains(t, up.Notes[0].Message, `parameter "nodes" changed through v1beta1 (default)`)
	})
	t.Run("changed type re-types default and enum", func(t *testing.T) {
		up, want := edit(t, func(doc map[string]any) {
			e := listEntry(t, doc, "ratio")
			e["value-type"] = "string"
		})
		ratio := want["properties"].(map[string]any)["ratio"].(map[string]any)
		ratio["type"] = "string"
		ratio["default"] = "0.25"
		assert.True(t, value.Equal(want, up.Schema), "diff %v", value.Diff(want, up.Schema))
	})
	t.Run("removed description and displayName", func(t *testing.T) {
		up, want := edit(t, func(doc map[string]any) {
			e := listEntry(t, doc, "clusterName")
			delete(e, "description")
			delete(e, "displayName")
		})
		cn := want["properties"].(map[string]any)["clusterName"].(map[string]any)
		delete(cn, "description")
		delete(cn, "title")
		assert.True(t, value.Equal(want, up.Schema), "diff %v", value.Diff(want, up.Schema))
	})
	t.Run("added and removed parameters, required changed", func(t *testing.T) {
		up, want := edit(t, func(doc map[string]any) {
			spec := doc["spec"].(map[string]any)
			var list []any
			for _, e := range spec["parameters"].([]any) {
				if e.(map[string]any)["name"] != "anything" {
					list = append(list, e)
				}
			}
			list = append(list, map[string]any{"name": "NEW", "default": "7", "value-type": "integer", "required": true})
			spec["parameters"] = list
		})
		props := want["properties"].(map[string]any)
		delete(props, "anything")
		props["NEW"] = map[string]any{"type": "integer", "default": json.Number("7")}
		want["required"] = []any{"clusterName", "nodes", "NEW"}
		assert.True(t, value.Equal(want, up.Schema), "diff %v", value.Diff(want, up.Schema))
		var msgs []string
		for _, n := range up.Notes {
			msgs = append(msgs, n.Message)
		}
		assert.Contains(t, msgs, `parameter "NEW" is new in the v1beta1 list: converted`)
		assert.Contains(t, msgs, `parameter "anything" is no longer in the v1beta1 list: removed from the schema`)
	})
	t.Run("unreadable annotation", func(t *testing.T) {
		up, _ := edit(t, func(doc map[string]any) {
			doc["metadata"].(map[string]any)["annotations"].(map[string]any)[ParametersAnnotation] = "{not json"
		})
		props := up.Schema.(map[string]any)["properties"].(map[string]any)
		assert.Equal(t, json.Number("3"), props["nodes"].(map[string]any)["default"])
		require.NotEmpty(t, up.Notes)
		assert.Contains(t, up.Notes[0].Message, "cannot be read")
		_, hasAnn := up.Document.(map[string]any)["metadata"].(map[string]any)["annotations"]
		assert.False(t, hasAnn, "the annotation is removed either way")
	})
}

func TestToV1beta1Kinds(t *testing.T) {
	// already v1beta1: unchanged
	in := testdata(t, "kep/operatorversion-upgrade.v1beta1.yaml")
	c, err := ToV1beta1(in)
	require.NoError(t, err)
	assert.False(t, c.Changed)
	assert.Equal(t, string(in), string(must(c.YAML())))

	// no parameters: absent stays absent both ways
	c, err = ToV1beta1([]byte("apiVersion: kudo.dev/v1beta2\nkind: OperatorVersion\nspec: {version: 1}\n"))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"apiVersion": apiV1beta1, "kind": "OperatorVersion", "spec": map[string]any{"version": json.Number("1")}}, c.Document)
	up, err := FromV1beta1(mustBytes(c.JSON("")))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"apiVersion": apiV1beta2, "kind": "OperatorVersion", "spec": map[string]any{"version": json.Number("1")}}, up.Document)

	// a boolean schema
	c, err = ToV1beta1([]byte("apiVersion: kudo.dev/v1beta2\nkind: OperatorVersion\nspec: {parameters: true}\n"))
	require.NoError(t, err)
	up, err = FromV1beta1(mustBytes(c.JSON("")))
	require.NoError(t, err)
	assert.Equal(t, true, up.Schema)

	for _, bad := range []string{"[]", "kind: Instance\n", "kind: OperatorVersion\n", "kind: OperatorVersion\nspec: {parameters: 3}\n", "kind: OperatorVersion\nmetadata: 3\nspec: {parameters: {}}\n"} {
		_, err := ToV1beta1([]byte(bad))
		assert.Error(t, err, bad)
	}
}
