package kudo_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/encode"
)

// storedForm is what an apiserver keeps of an object: no key order (JSON
// with sorted keys, as a stored unstructured object is written).
func storedForm(t *testing.T, data []byte) []byte {
	t.Helper()
	v, err := document.DecodeJSON(data)
	require.NoError(t, err)
	return encode.JSON(v, nil, "")
}

func convertOV(t *testing.T, data []byte, to string) []byte {
	t.Helper()
	out, err := kudo.ConvertObject(context.Background(), data, to, nil)
	require.NoError(t, err)
	return out
}

// An old client writes a v1beta1 OperatorVersion; the apiserver stores it
// as v1beta2 and reads it back as v1beta1 through the conversion webhook:
// the client must see its own list, in its order and without fields it
// never wrote.
func TestOperatorVersionListThroughStorage(t *testing.T) {
	written := []byte(`{"apiVersion":"kudo.dev/v1beta1","kind":"OperatorVersion","metadata":{"name":"zk-0.1.0"},
"spec":{"parameters":[
 {"name":"ZOO_VERSION","displayName":"ZooKeeper version","default":"1.10"},
 {"name":"NODE_COUNT","default":"3","value-type":"integer"},
 {"name":"BACKUP_ENABLED","default":"false","value-type":"boolean","trigger":"backup"}]}}`)
	up := convertOV(t, written, "kudo.dev/v1beta2")
	stored := storedForm(t, up)
	down := convertOV(t, stored, "kudo.dev/v1beta1")
	got, err := document.DecodeJSON(down)
	require.NoError(t, err)
	want, err := document.DecodeJSON(written)
	require.NoError(t, err)
	assert.Equal(t, want.(map[string]any)["spec"], got.(map[string]any)["spec"], "the old client reads the list it wrote")
	anns := got.(map[string]any)["metadata"].(map[string]any)["annotations"].(map[string]any)
	assert.NotContains(t, anns, "paramkit.dev/v1beta1-parameters", "the v1beta1 form carries the list itself")
	assert.Contains(t, anns, "paramkit.dev/v1beta2-parameters")

	// And up again: the same v1beta2 schema as the first time.
	again := convertOV(t, storedForm(t, down), "kudo.dev/v1beta2")
	u, err := document.DecodeJSON(up)
	require.NoError(t, err)
	a, err := document.DecodeJSON(again)
	require.NoError(t, err)
	assert.Equal(t, u.(map[string]any)["spec"], a.(map[string]any)["spec"])

	// convert.FromV1beta1 alone (paramctl convert) adds no annotation.
	plain, err := convert.FromV1beta1(written)
	require.NoError(t, err)
	_, hasAnns := plain.Document.(map[string]any)["metadata"].(map[string]any)["annotations"]
	assert.False(t, hasAnns)
}

// A list the schema gives back as it is needs no annotation: a v1beta2
// object that goes down and up stays exactly itself.
func TestOperatorVersionListNotKeptWhenTheSchemaGivesItBack(t *testing.T) {
	v2 := []byte(`{"apiVersion":"kudo.dev/v1beta2","kind":"OperatorVersion","metadata":{"name":"x"},"spec":{"parameters":{"type":"object","properties":{"A":{"type":"string"}}}}}`)
	down := convertOV(t, v2, "kudo.dev/v1beta1")
	up := convertOV(t, storedForm(t, down), "kudo.dev/v1beta2")
	got, err := document.DecodeJSON(up)
	require.NoError(t, err)
	md, _ := got.(map[string]any)["metadata"].(map[string]any)
	anns, _ := md["annotations"].(map[string]any)
	assert.NotContains(t, anns, "paramkit.dev/v1beta1-parameters")
}

// When a v1beta2 client changed the schema, the kept list no longer
// describes it and the list is made from the schema.
func TestKeptListIgnoredWhenTheSchemaChanged(t *testing.T) {
	written := []byte(`{"apiVersion":"kudo.dev/v1beta1","kind":"OperatorVersion","spec":{"parameters":[{"name":"B"},{"name":"A"}]}}`)
	up := convertOV(t, written, "kudo.dev/v1beta2")
	v, err := document.DecodeJSON(up)
	require.NoError(t, err)
	doc := v.(map[string]any)
	assert.Contains(t, doc["metadata"].(map[string]any)["annotations"], "paramkit.dev/v1beta1-parameters", "the schema alone gives B, A back sorted")
	doc["spec"].(map[string]any)["parameters"].(map[string]any)["properties"].(map[string]any)["C"] = map[string]any{"type": "string"}
	down := convertOV(t, encode.JSON(doc, nil, ""), "kudo.dev/v1beta1")
	got, err := document.DecodeJSON(down)
	require.NoError(t, err)
	list := got.(map[string]any)["spec"].(map[string]any)["parameters"].([]any)
	require.Len(t, list, 3, "the new parameter is there")
}
