package kube_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/kube"
)

// reviewBody is an AdmissionReview of a Cache whose parameters are params.
func reviewBody(uid, params string) []byte {
	return []byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"` + uid +
		`","kind":{"group":"example.paramkit.dev","version":"v2","kind":"Cache"},"operation":"CREATE","name":"c1","namespace":"ns",` +
		`"object":{"apiVersion":"example.paramkit.dev/v2","kind":"Cache","metadata":{"name":"c1"},"spec":{"parameters":` + params + `}}}}`)
}

// postReview posts body to url and returns the status and answer.
func postReview(t testing.TB, client *http.Client, url string, body []byte) (int, []byte) {
	t.Helper()
	resp, err := client.Post(url, "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

func admissionAnswer(t testing.TB, out []byte) *kube.AdmissionResponse {
	t.Helper()
	var r kube.AdmissionReview
	require.NoError(t, json.Unmarshal(out, &r), "%.300s", out)
	require.NotNil(t, r.Response, "%.300s", out)
	return r.Response
}

// The handlers' answers to what a hostile or broken client sends.
func TestReviewsAnswers(t *testing.T) {
	s := mustSchema(t, openSchema)
	rv := &kube.Reviews{MaxReviewBytes: 1 << 20}
	mux := http.NewServeMux()
	mux.Handle("/validate", rv.Admission(func(ctx context.Context, req *kube.AdmissionRequest) (*kube.AdmissionResponse, error) {
		return kube.Admit(ctx, s, req, kube.Validating())
	}))
	mux.Handle("/broken", rv.Admission(func(ctx context.Context, req *kube.AdmissionRequest) (*kube.AdmissionResponse, error) {
		// An error beside an allowed answer: never dropped.
		return &kube.AdmissionResponse{UID: req.UID, Allowed: true}, errors.New("the schema store is down")
	}))
	mux.Handle("/panics", rv.Admission(func(context.Context, *kube.AdmissionRequest) (*kube.AdmissionResponse, error) {
		panic("boom")
	}))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	cases := []struct {
		name, path string
		body       []byte
		code       int
		want       string // in the answer
		allowed    bool
	}{
		{"valid", "/validate", reviewBody("u1", `{"replicas":2}`), 200, `"uid":"u1","allowed":true`, true},
		{"two objects", "/validate", []byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u","operation":"CREATE","object":{"spec":{"parameters":{"replicas":"x"}}},"object":{"spec":{"parameters":{}}}}}`),
			400, `the review's request repeats the key "object"`, false},
		{"two uids", "/validate", []byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"a","uid":"b","operation":"CREATE","object":{}}}`),
			400, `repeats the key "uid"`, false},
		{"not a review", "/validate", []byte(`{"kind":"Pod"}`), 400, "expected an AdmissionReview", false},
		{"too large", "/validate", reviewBody("u", `{"x":"`+strings.Repeat("a", 1<<20)+`"}`), 413, "larger than the 1048576 bytes (1 MiB) /validate accepts", false},
		{"an error of the admit function denies", "/broken", reviewBody("u2", `{}`), 200, "the request could not be judged: the schema store is down", false},
		{"a panic", "/panics", reviewBody("u3", `{}`), 500, "internal error: boom", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out := postReview(t, srv.Client(), srv.URL+c.path, c.body)
			assert.Equal(t, c.code, code, "%.300s", out)
			assert.Contains(t, string(out), c.want)
			if code == 200 {
				assert.Equal(t, c.allowed, admissionAnswer(t, out).Allowed)
			}
		})
	}
	t.Run("GET", func(t *testing.T) {
		resp, err := srv.Client().Get(srv.URL + "/validate")
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
		assert.Equal(t, "POST", resp.Header.Get("Allow"))
	})
	t.Run("bad timeout", func(t *testing.T) {
		code, out := postReview(t, srv.Client(), srv.URL+"/validate?timeout=soon", reviewBody("u", `{}`))
		assert.Equal(t, 400, code)
		assert.Contains(t, string(out), "?timeout=soon is not a positive duration")
	})
}

// Warnings are capped as the apiserver keeps them, whatever the admit
// function returns (150,000 warnings were 10.35 MB before).
func TestReviewsCapWarnings(t *testing.T) {
	rv := &kube.Reviews{}
	srv := httptest.NewServer(rv.Admission(func(_ context.Context, req *kube.AdmissionRequest) (*kube.AdmissionResponse, error) {
		ws := make([]string, 150_000)
		for i := range ws {
			ws[i] = fmt.Sprintf("warning %d %s", i, strings.Repeat("é", 300))
		}
		return &kube.AdmissionResponse{UID: req.UID, Allowed: true, Warnings: ws}, nil
	}))
	defer srv.Close()
	code, out := postReview(t, srv.Client(), srv.URL, reviewBody("u", `{}`))
	require.Equal(t, 200, code)
	resp := admissionAnswer(t, out)
	assert.True(t, resp.Allowed)
	total := 0
	for _, w := range resp.Warnings {
		assert.LessOrEqual(t, len([]rune(w)), 256)
		total += len(w)
	}
	assert.LessOrEqual(t, total, 4<<10)
	assert.Contains(t, resp.Warnings[len(resp.Warnings)-1], "more warnings left out")
	assert.Less(t, len(out), 8<<10)
}

// A conversion review is answered by the function given; an object
// nested deeper than 1,000 levels fails it, as admission refuses one.
func TestReviewsConversion(t *testing.T) {
	rv := &kube.Reviews{}
	srv := httptest.NewServer(rv.Conversion(func(ctx context.Context, req *kube.ConversionRequest) *kube.ConversionResponse {
		return kube.ConvertReview(ctx, req, func(_ context.Context, obj []byte, to string) ([]byte, error) {
			return bytes.Replace(obj, []byte(`"v1"`), []byte(`"`+to+`"`), 1), nil
		})
	}))
	defer srv.Close()
	review := func(obj string) []byte {
		return []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"c","desiredAPIVersion":"v2","objects":[` + obj + `]}}`)
	}
	nested := func(n int) string {
		return `{"apiVersion":"v1","spec":` + strings.Repeat(`{"a":`, n-1) + "1" + strings.Repeat("}", n-1) + "}"
	}
	cases := []struct {
		name, obj, status, want string
	}{
		{"converted", `{"apiVersion":"v1"}`, "Success", `"convertedObjects":[{"apiVersion":"v2"}]`},
		{"1,000 levels", nested(1000), "Success", `"apiVersion":"v2"`},
		{"1,001 levels", nested(1001), "Failure", "object 0 of 1 nests deeper than 1000 levels"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out := postReview(t, srv.Client(), srv.URL, review(c.obj))
			require.Equal(t, 200, code, "%.300s", out)
			var r kube.ConversionReview
			require.NoError(t, json.Unmarshal(out, &r))
			assert.Equal(t, c.status, r.Response.Result.Status)
			assert.Contains(t, string(out), c.want)
			if c.status != "Success" {
				assert.Empty(t, r.Response.ConvertedObjects)
				assert.Contains(t, string(out), `"convertedObjects":[]`)
			}
		})
	}
}

// The review's deadline counts from the first byte: a body that trickles
// in past ?timeout=1s is answered 504 when the second is up (it was
// answered after 4.3 s before). The time is logged, not asserted.
func TestReviewsDeadlineFromTheFirstByte(t *testing.T) {
	rv := &kube.Reviews{}
	srv := httptest.NewServer(rv.Admission(func(context.Context, *kube.AdmissionRequest) (*kube.AdmissionResponse, error) {
		t.Error("a review whose body never arrived was judged")
		return nil, nil
	}))
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	start := time.Now()
	_, err = io.WriteString(conn, "POST /?timeout=1s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
	require.NoError(t, err)
	// A byte every 100 ms: the server's own read timeouts never fire.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				if _, err := io.WriteString(conn, " "); err != nil {
					return
				}
			}
		}
	}()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(30*time.Second)))
	out, _ := io.ReadAll(conn)
	t.Logf("a trickled body with ?timeout=1s answered after %v", time.Since(start).Round(time.Millisecond))
	assert.Contains(t, string(out), "HTTP/1.1 504")
	assert.Contains(t, string(out), "the review's deadline (1s) passed before its body arrived")
}

// heapObjects is the bytes in heap objects, live and not yet swept, so
// that garbage made by the reviews counts too.
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// undeclared is parameters with n short keys the schema does not declare.
func undeclared(n int) string {
	var b strings.Builder
	b.WriteString(`{"replicas":1`)
	for i := range n {
		fmt.Fprintf(&b, `,"u%x":1`, i)
	}
	b.WriteString("}")
	return b.String()
}

// costlyLoad is what one run of the security review's attack gave: 30
// clients each posting a costly review at once, and a small valid review
// posted once they are queued.
type costlyLoad struct {
	bodyBytes      int
	heapGrowthMB   float64 // peak heap growth (sampled, garbage included)
	answeredBefore int32   // costly reviews answered before the small one
	maxAtOnce      int32   // reviews judged at once, at most
	maxCostly      int32   // costly reviews judged at once, at most
}

// runCostlyLoad runs the attack with costly reviews of keys undeclared
// keys against a Reviews working on atOnce reviews at once (the
// default when 0).
func runCostlyLoad(t testing.TB, keys, atOnce int) costlyLoad {
	const clients = 30
	s := mustSchema(t, openSchema)
	rv := &kube.Reviews{AtOnce: atOnce}
	var costlyStarted, costlyAnswered, inFlight, costlyInFlight, maxInFlight, maxCostly atomic.Int32
	raise := func(m *atomic.Int32, v int32) {
		for {
			if old := m.Load(); v <= old || m.CompareAndSwap(old, v) {
				return
			}
		}
	}
	srv := httptest.NewServer(rv.Admission(func(ctx context.Context, req *kube.AdmissionRequest) (*kube.AdmissionResponse, error) {
		raise(&maxInFlight, inFlight.Add(1))
		defer inFlight.Add(-1)
		if req.UID == "costly" {
			costlyStarted.Add(1)
			raise(&maxCostly, costlyInFlight.Add(1))
			defer costlyInFlight.Add(-1)
		}
		return kube.Admit(ctx, s, req)
	}))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: clients + 1}}
	costly := reviewBody("costly", undeclared(keys))
	runtime.GC()
	base := heapObjects()
	var peak atomic.Uint64
	stopWatch := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for {
			if h := heapObjects(); h > peak.Load() {
				peak.Store(h)
			}
			select {
			case <-stopWatch:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			code, out := postReview(t, client, srv.URL+"?timeout=120s", costly)
			costlyAnswered.Add(1)
			if assert.Equal(t, 200, code, "%.300s", out) {
				assert.True(t, admissionAnswer(t, out).Allowed)
			}
		})
	}
	for costlyStarted.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	code, out := postReview(t, client, srv.URL+"?timeout=10s", reviewBody("small", `{"replicas":2}`))
	answeredBefore := costlyAnswered.Load()
	require.Equal(t, 200, code, "%.300s", out)
	assert.True(t, admissionAnswer(t, out).Allowed)
	wg.Wait()
	close(stopWatch)
	<-watched
	return costlyLoad{bodyBytes: len(costly), heapGrowthMB: float64(peak.Load()-min(base, peak.Load())) / 1e6,
		answeredBefore: answeredBefore, maxAtOnce: maxInFlight.Load(), maxCostly: maxCostly.Load()}
}

// TestReviewsUnderCostlyLoad is the security review's attack, at a
// size a busy machine runs in seconds: 30 clients each posting a costly
// review (15,000 undeclared keys, 146 KB: costly, as anything above
// SmallBytes is) and a small valid review posted once they are queued.
// What bounds the memory is asserted as it happens, not timed: at most
// AtOnce reviews are judged at once, costly ones at most CostlyAtOnce
// (a quarter of them), so the heap holds the bodies plus that many
// costly reviews' work, whatever the number of clients; and the small review is answered before the
// costly queue drains. The heap's growth is asserted too (400 MB, the
// issue's bound, far above what this size needs). The issue's own size
// (150,000 keys, 1.58 MB each) is BenchmarkReviewsUnderCostlyLoad, and
// test/e2e/cmd/costlyload measures the servers as processes.
func TestReviewsUnderCostlyLoad(t *testing.T) {
	const atOnce = 4
	r := runCostlyLoad(t, 15_000, atOnce)
	t.Logf("30 costly reviews of %d bytes at once: heap peak growth %.1f MB; at most %d judged at once (%d costly); the small review answered after %d of them",
		r.bodyBytes, r.heapGrowthMB, r.maxAtOnce, r.maxCostly, r.answeredBefore)
	assert.Greater(t, r.bodyBytes, int(kube.DefaultSmallReviewBytes), "the reviews are costly")
	assert.LessOrEqual(t, r.maxAtOnce, int32(atOnce), "reviews judged at once")
	assert.LessOrEqual(t, r.maxCostly, int32(kube.DefaultCostlyAtOnce(atOnce)), "costly reviews hold at most a quarter of the turns, never the last")
	assert.Positive(t, r.maxCostly)
	assert.Less(t, r.answeredBefore, int32(30-2), "the small review was answered before the costly queue drained")
	assert.LessOrEqual(t, r.heapGrowthMB, 400.0, "heap growth in MB")
}

// BenchmarkReviewsUnderCostlyLoad is the attack at the size
// (150,000 undeclared keys, 1.58 MB each; 15,000 under -race) with the
// default turns: it reports the heap's peak growth (the bound is
// 400 MB) and the costly reviews answered before the small one, and
// fails past the bound.
//
//	go test -run '^$' -bench ReviewsUnderCostlyLoad -benchtime 1x ./kube/
func BenchmarkReviewsUnderCostlyLoad(b *testing.B) {
	keys := 150_000
	if convRaceEnabled {
		keys = 15_000
	}
	for b.Loop() {
		r := runCostlyLoad(b, keys, 0)
		b.ReportMetric(r.heapGrowthMB, "heap-MB")
		b.ReportMetric(float64(r.answeredBefore), "costly-before-small")
		b.ReportMetric(float64(r.maxAtOnce), "max-at-once")
		if r.heapGrowthMB > 400 || r.answeredBefore >= 30-2 {
			b.Fatalf("heap growth %.1f MB (at most 400), the small review after %d of 30 costly ones", r.heapGrowthMB, r.answeredBefore)
		}
	}
}

// BenchmarkCostlyReview is the handling of one review of 150,000
// undeclared keys through the handler (HTTP included).
func BenchmarkCostlyReview(b *testing.B) {
	s := mustSchema(b, openSchema)
	rv := &kube.Reviews{}
	srv := httptest.NewServer(rv.Admission(func(ctx context.Context, req *kube.AdmissionRequest) (*kube.AdmissionResponse, error) {
		return kube.Admit(ctx, s, req)
	}))
	defer srv.Close()
	body := reviewBody("costly", undeclared(150_000))
	b.ReportAllocs()
	for b.Loop() {
		if code, out := postReview(b, srv.Client(), srv.URL, body); code != 200 {
			b.Fatalf("%d %.300s", code, out)
		}
	}
}

// ConvertReview refuses what admission refuses: an object nested deeper
// than 1,000 levels, before converting any.
func TestConvertReviewDepth(t *testing.T) {
	deep := func(n int) json.RawMessage {
		return json.RawMessage(`{"apiVersion":"v1","spec":` + strings.Repeat("[", n-1) + strings.Repeat("]", n-1) + "}")
	}
	calls := 0
	conv := func(_ context.Context, obj []byte, _ string) ([]byte, error) { calls++; return obj, nil }
	cases := []struct {
		depth  int
		status string
	}{{1000, "Success"}, {1001, "Failure"}, {5000, "Failure"}}
	for _, c := range cases {
		calls = 0
		resp := kube.ConvertReview(context.Background(), &kube.ConversionRequest{UID: "u", DesiredAPIVersion: "v2",
			Objects: []json.RawMessage{[]byte(`{"apiVersion":"v1"}`), deep(c.depth)}}, conv)
		assert.Equal(t, c.status, resp.Result.Status, "depth %d", c.depth)
		if c.status == "Failure" {
			assert.Equal(t, 0, calls, "nothing converted")
			assert.Contains(t, resp.Result.Message, "object 1 of 2 nests deeper than 1000 levels")
			assert.Empty(t, resp.ConvertedObjects)
		}
	}
}
