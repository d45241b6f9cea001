package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/kube"
)

// A cluster-wide storage migration as Kubernetes' storage version
// migrator drives it: a LIST of the stored v1beta1 Instances (one review
// of many objects) and then one rewrite per Instance (one review of one
// object each), every object converted to v1beta2 through /convert over
// HTTPS. BenchmarkStorageMigration times it through the paramkit webhook
// and through minimalConvert, a hand-written webhook that does the least
// a conversion can (encoding/json into maps, each string parameter read
// as JSON if it is JSON), for the same objects, and reports both and
// their ratio.

const migrationObjects = 500

// minimalConvert is the hand-written baseline: no schema, no limits, no
// exact numbers.
func minimalConvert(w http.ResponseWriter, r *http.Request) {
	var review struct {
		APIVersion string `json:"apiVersion"`
		Request    struct {
			UID               string           `json:"uid"`
			DesiredAPIVersion string           `json:"desiredAPIVersion"`
			Objects           []map[string]any `json:"objects"`
		} `json:"request"`
	}
	if err := json.NewDecoder(r.Body).Decode(&review); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	out := make([]any, len(review.Request.Objects))
	for i, o := range review.Request.Objects {
		o["apiVersion"] = review.Request.DesiredAPIVersion
		if spec, ok := o["spec"].(map[string]any); ok {
			if p, ok := spec["parameters"].(map[string]any); ok {
				for k, v := range p {
					if s, ok := v.(string); ok {
						var x any
						if json.Unmarshal([]byte(s), &x) == nil {
							p[k] = x
						}
					}
				}
			}
		}
		out[i] = o
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"apiVersion": review.APIVersion, "kind": "ConversionReview",
		"response": map[string]any{"uid": review.Request.UID, "convertedObjects": out, "result": map[string]any{"status": "Success"}}})
}

// storedV1beta1 returns n stored v1beta1 Instances: the load test's
// Cassandra Instance as down-conversion writes it (so that the baseline,
// which reads only JSON text, has the same work to do).
func storedV1beta1(tb testing.TB, n int) []json.RawMessage {
	h := testHandler(tb, nil)
	var params bytes.Buffer
	require.NoError(tb, json.Compact(&params, []byte(cassandraParams)))
	objs := make([]json.RawMessage, n)
	for i := range objs {
		objs[i] = json.RawMessage(cassandraInstance(V1beta2, fmt.Sprintf("orders-%d", i), params.String()))
	}
	resp := h.Convert(context.Background(), &kube.ConversionRequest{UID: "u", DesiredAPIVersion: V1beta1, Objects: objs})
	require.Equal(tb, "Success", resp.Result.Status, resp.Result.Message)
	return resp.ConvertedObjects
}

func conversionBody(uid string, objs []json.RawMessage) []byte {
	b, _ := json.Marshal(kube.ConversionReview{APIVersion: "apiextensions.k8s.io/v1", Kind: "ConversionReview",
		Request: &kube.ConversionRequest{UID: uid, DesiredAPIVersion: V1beta2, Objects: objs}})
	return b
}

// migrate runs one storage migration against a server and checks that
// every object came back as v1beta2.
func migrateAll(tb testing.TB, ts *testServer, list []byte, singles [][]byte) {
	post := func(body []byte, want int) {
		resp, err := ts.Client.Post(ts.URL+"/convert?timeout=30s", "application/json", bytes.NewReader(body))
		require.NoError(tb, err)
		out, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(tb, err)
		require.Equal(tb, 200, resp.StatusCode)
		var r struct {
			Response struct {
				ConvertedObjects []struct {
					APIVersion string `json:"apiVersion"`
				} `json:"convertedObjects"`
			} `json:"response"`
		}
		require.NoError(tb, json.Unmarshal(out, &r))
		require.Len(tb, r.Response.ConvertedObjects, want)
		require.Equal(tb, V1beta2, r.Response.ConvertedObjects[0].APIVersion)
	}
	post(list, migrationObjects)
	for _, s := range singles {
		post(s, 1)
	}
}

func BenchmarkStorageMigration(b *testing.B) {
	objs := storedV1beta1(b, migrationObjects)
	list := conversionBody("list", objs)
	singles := make([][]byte, len(objs))
	for i, o := range objs {
		singles[i] = conversionBody(fmt.Sprintf("u-%d", i), []json.RawMessage{o})
	}
	paramkit := startServer(b, testHandler(b, nil), nil)
	minimal := startServer(b, http.HandlerFunc(minimalConvert), nil)
	migrateAll(b, paramkit, list, singles) // warm up: schema compiled, connections open
	migrateAll(b, minimal, list, singles)
	var tp, tm time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		migrateAll(b, paramkit, list, singles)
		tp += time.Since(start)
		start = time.Now()
		migrateAll(b, minimal, list, singles)
		tm += time.Since(start)
	}
	b.StopTimer()
	ms := func(d time.Duration) float64 { return float64(d) / float64(b.N) / float64(time.Millisecond) }
	b.ReportMetric(ms(tp), "paramkit-ms/migration")
	b.ReportMetric(ms(tm), "minimal-ms/migration")
	b.ReportMetric(float64(tp)/float64(tm), "ratio")
}
