package kube_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/schema"
)

// An admission webhook's path served by Reviews: the body read within a
// budget and the review's ?timeout=, the review decoded, judged by Admit
// and answered. In production, serve the mux with kube.Server (HTTPS,
// handshake timeouts, the certificate re-read on rotation).
func ExampleReviews() {
	s, err := schema.Parse([]byte(`{"type": "object", "properties": {"replicas": {"type": "integer", "default": 3}}}`))
	if err != nil {
		panic(err)
	}
	rv := &kube.Reviews{}
	mux := http.NewServeMux()
	mux.Handle("/mutate", rv.Admission(func(ctx context.Context, req *kube.AdmissionRequest) (*kube.AdmissionResponse, error) {
		return kube.Admit(ctx, s, req)
	}))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	review := `{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {
		"uid": "705ab4f5", "kind": {"group": "example.paramkit.dev", "version": "v1", "kind": "Cache"},
		"operation": "CREATE", "name": "c1",
		"object": {"apiVersion": "example.paramkit.dev/v1", "kind": "Cache", "spec": {"parameters": {}}}}}`
	resp, err := http.Post(srv.URL+"/mutate?timeout=10s", "application/json", bytes.NewReader([]byte(review)))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	var answer kube.AdmissionReview
	if err := json.Unmarshal(out, &answer); err != nil {
		panic(err)
	}
	fmt.Println(resp.StatusCode, answer.Response.UID, answer.Response.Allowed)
	fmt.Println(string(answer.Response.Patch))
	// Output:
	// 200 705ab4f5 true
	// [{"op":"add","path":"/spec/parameters/replicas","value":3}]
}
