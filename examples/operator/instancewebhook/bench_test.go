package instancewebhook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
	admissionv1 "k8s.io/api/admission/v1"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/paramkit/paramkit/examples/operator/instancewebhook"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params"
)

// The review the benchmarks answer: an update of one parameter of an
// Instance of my-operator-0.2.0, as the apiserver sends it.
var (
	benchOld = instance("my-operator-0.2.0", `{"clusterName":"prod","nodeCount":3,"storageBytes":9007199254740993,"backup":{"enabled":true,"credentials":{"name":"u","password":"p"}}}`, "deploy")
	benchNew = instance("my-operator-0.2.0", `{"clusterName":"prod","nodeCount":4,"storageBytes":9007199254740993,"backup":{"enabled":true,"credentials":{"name":"u","password":"p"}}}`, "deploy")
)

func reviewBody(b *testing.B) []byte {
	req := request(admissionv1.Update, benchNew, benchOld)
	body, err := json.Marshal(admissionv1.AdmissionReview{
		TypeMeta: metav1TypeMeta(),
		Request:  &req.AdmissionRequest,
	})
	require.NoError(b, err)
	return body
}

// BenchmarkAdmissionReview is one review of the mutating webhook as the
// manager's webhook server answers it: controller-runtime reads the
// AdmissionReview, the handler decides, controller-runtime writes the
// response (no TLS, no network).
func BenchmarkAdmissionReview(b *testing.B) {
	hook := &admission.Webhook{Handler: instancewebhook.NewMutator(versions(b))}
	body := reviewBody(b)
	// Warm the cache: the operator version compiles once, not per review.
	w := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, instancewebhook.MutatePath, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	hook.ServeHTTP(w, req)
	require.Equal(b, http.StatusOK, w.Code)
	require.Contains(b, w.Body.String(), `"allowed":true`)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		w := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, instancewebhook.MutatePath, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		hook.ServeHTTP(w, req)
	}
}

// BenchmarkAdmissionParamkit is paramkit's part of the same review:
// reading both objects' parameters exactly, the update decision against
// the cached operator version (defaults, validation, immutability, plan)
// and the JSON patch with exact numbers.
func BenchmarkAdmissionParamkit(b *testing.B) {
	ov, err := versions(b).Get(context.Background(), "default", "my-operator-0.2.0")
	require.NoError(b, err)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		obj, _ := params.Decode(nil, benchNew)
		old, _ := params.Decode(nil, benchOld)
		desired := obj.(map[string]any)["spec"].(map[string]any)["parameters"]
		r, err := ov.Update(old.(map[string]any)["spec"].(map[string]any)["parameters"], desired)
		if err != nil || r.Plan != "deploy" {
			b.Fatal(err, r)
		}
		_ = mustBytes(params.MarshalJSON(nil, kube.JSONPatch("/spec/parameters", desired, r.Values), ""))
	}
}

// mustBytes is the bytes of an encoder that cannot fail on the plain
// values a test gives it.
func mustBytes(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
