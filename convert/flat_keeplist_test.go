package convert_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert"
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

// An old client writes a v1beta1 OperatorVersion; the apiserver stores it
// as v1beta2 and reads it back as v1beta1: the client must see its own
// list, in its order and without fields it never wrote.
func TestKeepV1beta1ListThroughStorage(t *testing.T) {
	written := []byte(`{"apiVersion":"kudo.dev/v1beta1","kind":"OperatorVersion","metadata":{"name":"zk-0.1.0"},
"spec":{"parameters":[
 {"name":"ZOO_VERSION","displayName":"ZooKeeper version","default":"1.10"},
 {"name":"NODE_COUNT","default":"3","value-type":"integer"},
 {"name":"BACKUP_ENABLED","default":"false","value-type":"boolean","trigger":"backup"}]}}`)
	up, err := convert.FromV1beta1(written, convert.KeepV1beta1List())
	require.NoError(t, err)
	stored := storedForm(t, mustBytes(up.JSON("")))

	down, err := convert.ToV1beta1(stored)
	require.NoError(t, err)
	got, err := document.DecodeJSON(mustBytes(down.JSON("")))
	require.NoError(t, err)
	want, err := document.DecodeJSON(written)
	require.NoError(t, err)
	assert.Equal(t, want.(map[string]any)["spec"], got.(map[string]any)["spec"], "the old client reads the list it wrote")
	anns := got.(map[string]any)["metadata"].(map[string]any)["annotations"].(map[string]any)
	assert.NotContains(t, anns, convert.ListAnnotation, "the v1beta1 form carries the list itself")
	assert.Contains(t, anns, convert.ParametersAnnotation)

	// And up again: the same v1beta2 schema as the first time.
	again, err := convert.FromV1beta1(storedForm(t, mustBytes(down.JSON(""))), convert.KeepV1beta1List())
	require.NoError(t, err)
	assert.Equal(t, up.Document.(map[string]any)["spec"], again.Document.(map[string]any)["spec"])

	// Without the option (paramctl convert), no annotation is added.
	plain, err := convert.FromV1beta1(written)
	require.NoError(t, err)
	_, hasMeta := plain.Document.(map[string]any)["metadata"].(map[string]any)["annotations"]
	assert.False(t, hasMeta)
}

// When a v1beta2 client changed the schema, the kept list no longer
// describes it and the list is made from the schema.
func TestKeptListIgnoredWhenTheSchemaChanged(t *testing.T) {
	written := []byte(`{"apiVersion":"kudo.dev/v1beta1","kind":"OperatorVersion","spec":{"parameters":[{"name":"B"},{"name":"A"}]}}`)
	up, err := convert.FromV1beta1(written, convert.KeepV1beta1List())
	require.NoError(t, err)
	doc := up.Document.(map[string]any)
	doc["spec"].(map[string]any)["parameters"].(map[string]any)["properties"].(map[string]any)["C"] = map[string]any{"type": "string"}
	down, err := convert.ToV1beta1(encode.JSON(doc, nil, ""))
	require.NoError(t, err)
	got, err := document.DecodeJSON(mustBytes(down.JSON("")))
	require.NoError(t, err)
	list := got.(map[string]any)["spec"].(map[string]any)["parameters"].([]any)
	require.Len(t, list, 3, "the new parameter is there")
}

// mustBytes is the bytes of an encoder that cannot fail on the plain
// values a test gives it.
func mustBytes(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
