package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/kube"
)

// TestSmallReviewNotQueuedBehindCostlyOnes: the security review's
// starvation (small valid reviews waited 16.8 s on average behind costly
// ones). Costly reviews (above 64 KiB) that hold their turn until the test
// lets them go fill the costly turns and the queue; a small valid review
// posted then is answered while every costly one still waits. Order, not
// a stopwatch: before, it waited for a turn behind them.
func TestSmallReviewNotQueuedBehindCostlyOnes(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 64)
	dir := NewDirResolver("testdata/webhook/schemas")
	resolver := ResolverFunc(func(ctx context.Context, ns, name string) (*kudo.OperatorVersion, error) {
		if name == "hang-0.1.0" {
			entered <- struct{}{}
			select {
			case <-release:
			case <-ctx.Done():
			}
			return dir.Resolve(ctx, ns, "kep-0.2.0")
		}
		return dir.Resolve(ctx, ns, name)
	})
	ts := startServer(t, testHandler(t, func(o *Options) { o.Resolver = resolver; o.MaxReviewsAtOnce = 3 }), nil)
	costly := mustJSON(t, map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
		"request": map[string]any{"uid": "costly", "kind": map[string]any{"group": "kudo.dev", "version": "v1beta2", "kind": "Instance"},
			"operation": "CREATE", "object": json.RawMessage(instanceJSON(V1beta2, "hang-0.1.0", shortKeys(10_000), ""))}})
	require.Greater(t, len(costly), 64<<10)
	post := func(body []byte, timeout string) (int, string) {
		resp, err := ts.Client.Post(ts.URL+"/validate?timeout="+timeout, "application/json", bytes.NewReader(body))
		if !assert.NoError(t, err) {
			return 0, ""
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(out)
	}
	const costlyReviews = 8
	var wg sync.WaitGroup
	answered := make(chan struct{}, costlyReviews)
	for range costlyReviews {
		wg.Go(func() {
			code, out := post(costly, "60s")
			assert.Equal(t, http.StatusOK, code, "%.300s", out)
			answered <- struct{}{}
		})
	}
	// The costly reviews that may work at once (a quarter of the three
	// turns, at least one: kube.DefaultCostlyAtOnce) work and hang; the
	// others wait for a turn.
	for range kube.DefaultCostlyAtOnce(3) {
		<-entered
	}
	code, out := post(wideReview(t, `{"clusterName":"prod"}`), "10s")
	assert.Equal(t, http.StatusOK, code, out)
	assert.Contains(t, out, `"allowed":true`)
	assert.Empty(t, answered, "the small review was answered while every costly one waited")
	close(release)
	wg.Wait()
}
