package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
)

// One review through a real TLS connection on loopback, as the apiserver
// sends it: a keep-alive HTTP/1.1 client posting an AdmissionReview of an
// Instance of an operator version with 40 parameters (half of them set,
// the rest defaulted), to paramkit's /validate and /mutate and, for
// comparison, to a minimal webhook behind the same Server that reads the
// review and allows it. What paramkit adds to a call is the difference.
//
//	go test -run XXX -bench BenchmarkOneCall -benchmem ./examples/paramctl

// fortyReview is an AdmissionReview creating an Instance of forty-1.0.0.
func fortyReview(tb testing.TB, uid string) []byte {
	tb.Helper()
	params := map[string]any{
		"name00": "prod", "name01": "blue-team", "name02": "eu-west", "name03": "x",
		"count00": 3, "count01": 12, "count02": 100, "count03": 99999,
		"flag00": true, "flag01": false, "mode00": "fast", "mode01": "balanced",
		"backup":    map[string]any{"enabled": true, "schedule": "0 4 * * *", "retention": 14},
		"zones":     []any{"a", "b"},
		"ports":     []any{8080, 8443, 9090},
		"labels":    map[string]any{"team": "storage", "tier": "gold", "cost-center": "4711"},
		"resources": map[string]any{"cpu": "2", "memory": "8Gi"},
	}
	object := map[string]any{
		"apiVersion": "kudo.dev/v1beta2", "kind": "Instance",
		"metadata": map[string]any{
			"name": "forty", "namespace": "default", "uid": "7d7b3f8e-1f0c-4a43-9a55-3d1b5b0e2a11",
			"creationTimestamp": nil, "labels": map[string]any{"kudo.dev/operator": "forty"},
			"managedFields": []any{map[string]any{"manager": "kubectl", "operation": "Update", "apiVersion": "kudo.dev/v1beta2",
				"time": "2026-11-28T02:00:00Z", "fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:spec": map[string]any{".": map[string]any{}}}}},
		},
		"spec": map[string]any{"operatorVersion": map[string]any{"name": "forty-1.0.0"}, "parameters": params},
	}
	gvk := map[string]any{"group": "kudo.dev", "version": "v1beta2", "kind": "Instance"}
	gvr := map[string]any{"group": "kudo.dev", "version": "v1beta2", "resource": "instances"}
	return mustJSON(tb, map[string]any{
		"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
		"request": map[string]any{
			"uid": uid, "kind": gvk, "resource": gvr, "requestKind": gvk, "requestResource": gvr,
			"name": "forty", "namespace": "default", "operation": "CREATE",
			"userInfo": map[string]any{"username": "alice", "groups": []any{"system:authenticated"}},
			"object":   object, "oldObject": nil, "dryRun": false,
			"options": map[string]any{"kind": "CreateOptions", "apiVersion": "meta.k8s.io/v1", "fieldManager": "kubectl-create"},
		},
	})
}

// minimalWebhook reads the review and allows it: the floor any webhook
// pays for a call.
var minimalWebhook = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	var review struct {
		APIVersion string `json:"apiVersion"`
		Request    struct {
			UID string `json:"uid"`
		} `json:"request"`
	}
	if err := json.NewDecoder(r.Body).Decode(&review); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"apiVersion":%q,"kind":"AdmissionReview","response":{"uid":%q,"allowed":true}}`, review.APIVersion, review.Request.UID)
})

func BenchmarkOneCall(b *testing.B) {
	paramkit := testHandler(b, func(o *Options) { o.Resolver = NewDirResolver("testdata/webhook/forty") })
	body := fortyReview(b, "a1000000-0000-4000-8000-000000000001")
	for _, c := range []struct {
		name string
		h    http.Handler
		path string
		want string
	}{
		{"minimal", minimalWebhook, "/validate", `"allowed":true`},
		{"validate", paramkit, "/validate", `"allowed":true`},
		{"mutate", paramkit, "/mutate", `"patchType":"JSONPatch"`},
	} {
		b.Run(c.name, func(b *testing.B) {
			ts := startServer(b, c.h, nil)
			client := newClient(ts.Pool)
			defer client.CloseIdleConnections()
			url := ts.URL + c.path + "?timeout=10s"
			call := func() {
				resp, err := client.Post(url, "application/json", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				out, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 || !bytes.Contains(out, []byte(c.want)) {
					b.Fatalf("%d %v: %.300s", resp.StatusCode, err, out)
				}
			}
			call() // the handshake and the schema's compilation, once
			b.ReportAllocs()
			b.ResetTimer()
			cpu := processCPUTime()
			for b.Loop() {
				call()
			}
			if cpu >= 0 {
				// CPU time of the whole process (client and server): less
				// moved by other load on the machine than wall time.
				b.ReportMetric(float64(processCPUTime()-cpu)/float64(b.N)/1e3, "cpu-µs/op")
			}
		})
	}
}

// BenchmarkOneReview is BenchmarkOneCall's review without HTTP or TLS:
// the handler's own part of a call.
func BenchmarkOneReview(b *testing.B) {
	paramkit := testHandler(b, func(o *Options) { o.Resolver = NewDirResolver("testdata/webhook/forty") })
	body := fortyReview(b, "a1000000-0000-4000-8000-000000000001")
	for _, path := range []string{"/validate", "/mutate"} {
		b.Run(path[1:], func(b *testing.B) {
			ctx := context.Background()
			if _, err := paramkit.ServeReview(ctx, path, body); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := paramkit.ServeReview(ctx, path, body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
