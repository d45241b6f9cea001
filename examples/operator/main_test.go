package main

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/paramkit/paramkit/examples/operator/opversion"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/kube"
)

// TestConversionOfAnInstanceWhoseOperatorVersionIsGone: the apiserver
// converts every object of a v1beta1 LIST through /convert, so an
// Instance whose OperatorVersion was deleted must still convert, both
// ways and back to the same values, or every v1beta1 read of its
// namespace fails.
func TestConversionOfAnInstanceWhoseOperatorVersionIsGone(t *testing.T) {
	h, err := conversion(opversion.New(fake.NewClientBuilder().WithScheme(Scheme()).Build(), nil))
	require.NoError(t, err)
	stored := `{"apiVersion":"kudo.dev/v1beta2","kind":"Instance","metadata":{"name":"orphan","namespace":"default"},` +
		`"spec":{"operatorVersion":{"name":"gone-1.0"},"parameters":{"name":"3","on":"true","n":3,"big":9007199254740993,"b":true,"obj":{"a":["x",1]}},"planExecution":{"planName":"deploy","uid":"u"}}}`
	convert := func(obj []byte, to string) []byte {
		t.Helper()
		resp := h.Convert(context.Background(), &kube.ConversionRequest{UID: "c", DesiredAPIVersion: to, Objects: []json.RawMessage{obj}})
		require.Equal(t, kube.StatusSuccess, resp.Result.Status, resp.Result.Message)
		require.Len(t, resp.ConvertedObjects, 1)
		return resp.ConvertedObjects[0]
	}
	old := convert([]byte(stored), "kudo.dev/v1beta1")
	oldObj, err := params.Decode(nil, old)
	require.NoError(t, err)
	for k, v := range oldObj.(map[string]any)["spec"].(map[string]any)["parameters"].(map[string]any) {
		assert.IsType(t, "", v, "v1beta1 parameter %s is text", k)
	}
	back := convert(old, "kudo.dev/v1beta2")
	want, err := params.Decode(nil, []byte(stored))
	require.NoError(t, err)
	got, err := params.Decode(nil, back)
	require.NoError(t, err)
	assert.Equal(t, want, got, "v1beta2 → v1beta1 → v1beta2 gives the stored object back")

	// A v1beta1 create naming a version that does not exist converts, so
	// that admission can refuse it with spec.operatorVersion.name rather
	// than the apiserver failing with an internal error.
	created := convert([]byte(`{"apiVersion":"kudo.dev/v1beta1","kind":"Instance","metadata":{"name":"new","namespace":"default"},"spec":{"operatorVersion":{"name":"gone-1.0"},"parameters":{"a":"1"}}}`), "kudo.dev/v1beta2")
	assert.Contains(t, string(created), `"apiVersion":"kudo.dev/v1beta2"`)
}
