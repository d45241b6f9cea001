package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/kube"
)

// The bounded answers of issue #26 (item 2, in the handler) seen from a
// client of the server, over TLS, with the server's heap growth logged:
// a review with 150,000 undeclared keys (an 11.8 MB answer with 150,001
// warnings before), a 2 MiB key (echoed twice before), and ?timeout=
// honoured when the schema source hangs.
//
// The work on undeclared keys is bounded too (params.Undeclared with a limit: a
// suggestion only for the warnings that fit, the deadline checked during
// the walk); before, one review of 150,000 short undeclared keys took
// about 2 s of CPU in params.Undeclared (a suggestion for every key),
// past a ?timeout=1s, and peaked the heap at about 120 MB; six at once
// at 760 MB. BenchmarkWideReview measures it; the bound is tested where
// it is kept, in params (TestUndeclaredFirstBoundsItsWork).

// shortKeys is kep-0.2.0's parameters with n short undeclared keys
// (within the 3 MiB an admission review may have).
func shortKeys(n int) string {
	var b strings.Builder
	b.WriteString(`{"clusterName":"prod","backup":{"enabled":true}`)
	for i := range n {
		fmt.Fprintf(&b, `,"u%x":1`, i)
	}
	b.WriteString("}")
	return b.String()
}

func wideReview(t testing.TB, params string) []byte {
	return mustJSON(t, map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
		"request": map[string]any{"uid": "u", "kind": map[string]any{"group": "kudo.dev", "version": "v1beta2", "kind": "Instance"},
			"operation": "CREATE", "object": json.RawMessage(instanceJSON(V1beta2, "kep-0.2.0", params, ""))}})
}

// checkBoundedAnswer checks what the apiserver would keep of an answer:
// under 256 KiB, warnings at most 256 characters each and 4 KiB in all,
// no long key echoed.
func checkBoundedAnswer(t *testing.T, path string, out []byte) {
	t.Helper()
	assert.Less(t, len(out), 256<<10, "%s answer", path)
	assert.NotContains(t, string(out), strings.Repeat("k", 1024), "%s: a long key is cut", path)
	var r kube.AdmissionReview
	require.NoError(t, json.Unmarshal(out, &r), "%.300s", out)
	n := 0
	for _, w := range r.Response.Warnings {
		n += len(w)
		assert.LessOrEqual(t, utf8.RuneCountInString(w), 256)
	}
	assert.LessOrEqual(t, n, 4<<10, "%s warnings", path)
}

func TestBoundedAnswersThroughTheServer(t *testing.T) {
	ts := startServer(t, testHandler(t, nil), nil)
	// 20,000 keys are 20,000 warnings, as far past the apiserver's 4 KiB
	// as the 150,000 (the bound on answers holds from the first
	// key past it), in a second, -race or not. The work on that many
	// keys is bounded and tested where it is kept
	// (TestUndeclaredFirstBoundsItsWork in params), and
	// BenchmarkWideReview measures the 150,000.
	const keys = 20_000
	cases := []struct {
		name   string
		body   []byte
		copies int
	}{
		{fmt.Sprintf("%d undeclared keys, six reviews at once", keys), wideReview(t, shortKeys(keys)), 6},
		{"a 2 MiB key", wideReview(t, wideKEP(0, 2<<20)), 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, path := range []string{"/validate", "/mutate"} {
				heap := watchHeap()
				var wg sync.WaitGroup
				outs := make([][]byte, c.copies)
				codes := make([]int, c.copies)
				for i := range c.copies {
					wg.Go(func() {
						resp, err := ts.Client.Post(ts.URL+path+"?timeout=30s", "application/json", bytes.NewReader(c.body))
						if err != nil {
							t.Error(err)
							return
						}
						defer resp.Body.Close()
						codes[i] = resp.StatusCode
						outs[i], _ = io.ReadAll(resp.Body)
					})
				}
				wg.Wait()
				growth := heap.growth()
				t.Logf("%s %s: %d bytes of request each, answers of %d bytes, heap peak growth %.1f MB",
					c.name, path, len(c.body), len(outs[0]), float64(growth)/1e6)
				for i := range c.copies {
					require.Equal(t, 200, codes[i], "%.300s", outs[i])
					checkBoundedAnswer(t, path, outs[i])
				}
			}
		})
	}
}

// blockingResolver answers only when the review's context ends, or after
// a minute: a schema source that hangs.
var blockingResolver = ResolverFunc(func(ctx context.Context, _, _ string) (*kudo.OperatorVersion, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(time.Minute):
		return nil, errors.New("the review's deadline was not honoured")
	}
})

func TestTimeoutHonouredThroughTheServer(t *testing.T) {
	ts := startServer(t, testHandler(t, func(o *Options) { o.Resolver = blockingResolver }), nil)
	body := wideReview(t, `{"clusterName":"prod"}`)
	for _, path := range []string{"/validate", "/mutate"} {
		resp, err := ts.Client.Post(ts.URL+path+"?timeout=1s", "application/json", bytes.NewReader(body))
		require.NoError(t, err)
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s", out)
		var r kube.AdmissionReview
		require.NoError(t, json.Unmarshal(out, &r), "%s", out)
		require.NotNil(t, r.Response)
		assert.False(t, r.Response.Allowed, "%s: %s", path, out)
		assert.Contains(t, string(out), "deadline exceeded")
		require.NotNil(t, r.Response.Result, "%s", out)
		assert.Equal(t, int32(http.StatusGatewayTimeout), r.Response.Result.Code, "%s: a deadline hit while looking up the schema is a timeout: %s", path, out)
		assert.Equal(t, "Timeout", r.Response.Result.Reason, "%s", path)
		t.Logf("%s ?timeout=1s with a schema source that hangs: %s", path, out)
	}
}

// BenchmarkWideReview is the handling of one review whose parameters
// hold 150,000 short undeclared keys (issue #26), without HTTP.
func BenchmarkWideReview(b *testing.B) {
	h := testHandler(b, nil)
	body := wideReview(b, shortKeys(150_000))
	for _, path := range []string{"/validate", "/mutate"} {
		b.Run(strings.TrimPrefix(path, "/"), func(b *testing.B) {
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := h.ServeReview(ctx, path, body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A review beyond MaxReviewsAtOnce waits for a turn until its deadline,
// then gets 503 with Retry-After; once a turn is free, reviews go on.
func TestReviewsAtOnceWaitForATurn(t *testing.T) {
	working := make(chan struct{}, 1)
	hanging := ResolverFunc(func(ctx context.Context, ns, name string) (*kudo.OperatorVersion, error) {
		working <- struct{}{}
		return blockingResolver(ctx, ns, name)
	})
	ts := startServer(t, testHandler(t, func(o *Options) { o.Resolver = hanging; o.MaxReviewsAtOnce = 1 }), nil)
	body := wideReview(t, `{"clusterName":"prod"}`)
	post := func(timeout string) (int, http.Header, string) {
		resp, err := ts.Client.Post(ts.URL+"/validate?timeout="+timeout, "application/json", bytes.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(out)
	}
	holding := make(chan int, 1)
	go func() { // holds the only turn for 2 s (its schema source hangs)
		code, _, _ := post("2s")
		holding <- code
	}()
	<-working // the first review has the turn, and hangs for 2 s
	code, header, out := post("200ms")
	assert.Equal(t, http.StatusServiceUnavailable, code, out)
	assert.Equal(t, "1", header.Get("Retry-After"))
	assert.Contains(t, out, "works on 1 reviews at once")
	assert.Equal(t, http.StatusOK, <-holding, "the first review answered (a denial for its timeout)")
	code, _, out = post("1s")
	assert.Equal(t, http.StatusOK, code, "the turn is free again: %s", out)
	<-working // and this review had it
}

// The turns bound the memory of reviews worked on at once: six reviews
// of 150,000 keys sent at once, one at a time, grow the heap (garbage
// included) by well under what six at a time do. These reviews are
// costly (above kube.DefaultSmallReviewBytes), and costly reviews hold
// at most a quarter of the turns (kube.DefaultCostlyAtOnce): 24 turns
// let six run at once, 1 one.
func TestReviewsAtOnceBoundTheHeap(t *testing.T) {
	keys := 150_000
	if raceEnabled {
		keys = 30_000 // the same shape in seconds under -race
	}
	body := wideReview(t, shortKeys(keys))
	peak := map[int]float64{}
	for _, atOnce := range []int{24, 1} {
		ts := startServer(t, testHandler(t, func(o *Options) { o.MaxReviewsAtOnce = atOnce }), nil)
		heap := watchHeap()
		var wg sync.WaitGroup
		for range 6 {
			wg.Go(func() {
				resp, err := ts.Client.Post(ts.URL+"/validate?timeout=60s", "application/json", bytes.NewReader(body))
				if !assert.NoError(t, err) {
					return
				}
				defer resp.Body.Close()
				out, _ := io.ReadAll(resp.Body)
				assert.Equal(t, http.StatusOK, resp.StatusCode, "%.300s", out)
			})
		}
		wg.Wait()
		peak[atOnce] = float64(heap.growth()) / 1e6
		t.Logf("six reviews of %d bytes, %d turns (%d costly at a time): heap peak growth %.1f MB", len(body), atOnce, kube.DefaultCostlyAtOnce(atOnce), peak[atOnce])
	}
	assert.Less(t, peak[1], peak[24]*0.6, "one at a time holds less than six at a time")
}
