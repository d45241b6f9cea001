package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The load test: a realistic Instance of the cassandra-3.11 operator
// version (nested parameters, arrays of objects, triggers, an immutable
// part) sent as a mix of admission and conversion reviews over real HTTPS
// on loopback.

const cassandraParams = `{
  "clusterName": "orders",
  "version": "3.11.8",
  "nodes": {"count": 6, "antiAffinity": true, "topology": [
    {"datacenter": "dc1", "rack": "r1", "nodes": 3, "labels": [{"key": "zone", "value": "eu-west-1a"}, {"key": "tier", "value": "gold"}]},
    {"datacenter": "dc2", "rack": "r1", "nodes": 3, "labels": [{"key": "zone", "value": "eu-west-1b"}]}]},
  "resources": {"cpu": "2000m", "memory": "8Gi", "heap": {"size": "4Gi"}, "storage": {"size": "100Gi", "class": "ssd"}},
  "network": {"nativeTransportPort": 9042, "tls": {"enabled": true, "secretName": "orders-tls"}},
  "config": {"numTokens": 16, "concurrentReads": 64, "extraJvmOpts": ["-XX:+UseG1GC", "-XX:MaxGCPauseMillis=200"], "custom": {"auto_snapshot": "true", "commitlog_sync": "periodic"}},
  "backup": {"enabled": true, "bucket": "s3://orders-backup", "credentials": {"secretName": "aws"}},
  "monitoring": {"labels": {"team": "payments"}}
}`

// cassandraV1beta1 is the same Instance as v1beta1 stored it: one string
// per top-level parameter.
const cassandraV1beta1 = `{
  "clusterName": "orders",
  "version": "3.11.8",
  "nodes": "{count: 6, antiAffinity: true, topology: [{datacenter: dc1, rack: r1, nodes: 3, labels: [{key: zone, value: eu-west-1a}, {key: tier, value: gold}]}, {datacenter: dc2, rack: r1, nodes: 3, labels: [{key: zone, value: eu-west-1b}]}]}",
  "resources": "{cpu: 2000m, memory: 8Gi, heap: {size: 4Gi}, storage: {size: 100Gi, class: ssd}}",
  "network": "{\"nativeTransportPort\": 9042, \"tls\": {\"enabled\": true, \"secretName\": \"orders-tls\"}}",
  "config": "{numTokens: 16, concurrentReads: 64, extraJvmOpts: [-XX:+UseG1GC, -XX:MaxGCPauseMillis=200], custom: {auto_snapshot: \"true\", commitlog_sync: periodic}}",
  "backup": "{enabled: true, bucket: \"s3://orders-backup\", credentials: {secretName: aws}}",
  "monitoring": "{labels: {team: payments}}"
}`

// loadCase is one kind of request of the mix and what its answer must say.
type loadCase struct {
	name, path string
	body       []byte
	want       string // a substring of a correct answer
}

func cassandraInstance(apiVersion, name, params string) string {
	return `{"apiVersion":"` + apiVersion + `","kind":"Instance","metadata":{"name":"` + name + `","namespace":"prod","uid":"0b4c3c1e-2f0a-4e7e-8a8c-1d2e3f4a5b6c","resourceVersion":"981723","generation":7,` +
		`"labels":{"kudo.dev/operator":"cassandra","app.kubernetes.io/part-of":"orders"},"annotations":{"kudo.dev/last-plan":"deploy"}},` +
		`"spec":{"operatorVersion":{"name":"cassandra-3.11"},"parameters":` + params + `},` +
		`"status":{"planStatus":{"deploy":{"status":"COMPLETE","name":"deploy"}},"aggregatedStatus":{"status":"COMPLETE"}}}`
}

func loadMix(tb testing.TB) []loadCase {
	compact := func(s string) string {
		var b bytes.Buffer
		require.NoError(tb, json.Compact(&b, []byte(s)))
		return b.String()
	}
	params := compact(cassandraParams)
	changed := strings.Replace(params, `"memory":"8Gi"`, `"memory":"16Gi"`, 1)
	admission := func(op string, obj, old string) []byte {
		o := `null`
		if old != "" {
			o = old
		}
		return []byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"e2a8f0c4-0000-4000-8000-000000000000",` +
			`"kind":{"group":"kudo.dev","version":"v1beta2","kind":"Instance"},"resource":{"group":"kudo.dev","version":"v1beta2","resource":"instances"},` +
			`"name":"orders","namespace":"prod","operation":"` + string(op) + `","userInfo":{"username":"system:serviceaccount:kudo-system:manager","groups":["system:serviceaccounts"]},` +
			`"object":` + obj + `,"oldObject":` + o + `,"dryRun":false}}`)
	}
	conversion := func(to string, objs ...string) []byte {
		return []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"c0a8f0c4-0000-4000-8000-000000000000","desiredAPIVersion":"` +
			to + `","objects":[` + strings.Join(objs, ",") + `]}}`)
	}
	v1 := cassandraInstance(V1beta1, "orders", compact(cassandraV1beta1))
	v2 := cassandraInstance(V1beta2, "orders", params)
	return []loadCase{
		{"validate-create", "/validate", admission("CREATE", v2, ""), `"warnings":["plan: deploy"]`},
		{"validate-update", "/validate", admission("UPDATE", cassandraInstance(V1beta2, "orders", changed), v2), `"warnings":["plan: update-resources"]`},
		{"mutate-create", "/mutate", admission("CREATE", v2, ""), `"patchType":"JSONPatch"`},
		{"convert-up", "/convert", conversion(V1beta2, v1), `"result":{"status":"Success"}`},
		{"convert-down", "/convert", conversion(V1beta1, v2), `"result":{"status":"Success"}`},
	}
}

// loadResult holds what one load run measured.
type loadResult struct {
	requests, failures int
	// work is the time to answer a review (decode, decide, encode), as
	// wall time and as the CPU time of the thread that did it; server adds
	// reading the request and writing the answer; client is what the
	// clients saw.
	work, workCPU, server, client []time.Duration
	firstFailure                  string
}

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(float64(len(s)-1) * p)
	return s[i]
}

// runLoad sends n requests from clients concurrent clients, each with its
// own connection, and records server handling and client latency.
func runLoad(tb testing.TB, n, clients int, mix []loadCase) loadResult {
	var mu sync.Mutex
	var serverTimes, workTimes, workCPU []time.Duration
	h := testHandler(tb, nil)
	h.timed = func(work func()) {
		// The thread's CPU time leaves out the time the goroutine waited
		// while the 32 clients, in this same process on the same cores,
		// ran: what the webhook costs rather than what the test machine
		// could give it.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		c0, w0 := threadCPUTime(), time.Now()
		work()
		w, c := time.Since(w0), threadCPUTime()-c0
		mu.Lock()
		workTimes = append(workTimes, w)
		workCPU = append(workCPU, c)
		mu.Unlock()
	}
	timed := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Handling time starts once the request is in: reading the body
		// measures the client and the network, not the webhook.
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		start := time.Now()
		h.ServeHTTP(w, r)
		d := time.Since(start)
		mu.Lock()
		serverTimes = append(serverTimes, d)
		mu.Unlock()
	})
	ts := startServer(tb, timed, nil)
	// Warm up: the schema is compiled on first use, once.
	for _, c := range mix {
		code, body := ts.post(tb, c.path, c.body)
		require.Equal(tb, 200, code)
		require.Contains(tb, string(body), c.want, c.name)
	}
	mu.Lock()
	serverTimes, workTimes, workCPU = serverTimes[:0], workTimes[:0], workCPU[:0]
	mu.Unlock()

	var next atomic.Int64
	var failures atomic.Int64
	var firstFailure atomic.Value
	clientTimes := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := newClient(ts.Pool)
			defer client.CloseIdleConnections()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				lc := mix[i%len(mix)]
				start := time.Now()
				resp, err := client.Post(ts.URL+lc.path+"?timeout=10s", "application/json", bytes.NewReader(lc.body))
				var body []byte
				if err == nil {
					body, err = io.ReadAll(resp.Body)
					resp.Body.Close()
				}
				clientTimes[c] = append(clientTimes[c], time.Since(start))
				switch {
				case err != nil:
				case resp.StatusCode != 200:
					err = fmt.Errorf("%s: HTTP %d: %s", lc.name, resp.StatusCode, body)
				case !bytes.Contains(body, []byte(lc.want)):
					err = fmt.Errorf("%s: answer lacks %s: %s", lc.name, lc.want, body)
				}
				if err != nil {
					failures.Add(1)
					firstFailure.CompareAndSwap(nil, err.Error())
				}
			}
		}()
	}
	wg.Wait()
	res := loadResult{requests: n, failures: int(failures.Load())}
	if f, ok := firstFailure.Load().(string); ok {
		res.firstFailure = f
	}
	for _, ct := range clientTimes {
		res.client = append(res.client, ct...)
	}
	mu.Lock()
	res.server = slices.Clone(serverTimes)
	res.work = slices.Clone(workTimes)
	res.workCPU = slices.Clone(workCPU)
	mu.Unlock()
	return res
}

// TestLoadMix is the load test's correctness half, small enough for every
// run: 32 clients, every answer right. The figures come from BenchmarkLoad.
func TestLoadMix(t *testing.T) {
	// The v1beta1 Instance unwraps to exactly the v1beta2 one.
	h := testHandler(t, nil)
	var v1 bytes.Buffer
	require.NoError(t, json.Compact(&v1, []byte(cassandraV1beta1)))
	up, msg := convertOne(t, h, V1beta2, json.RawMessage(cassandraInstance(V1beta1, "orders", v1.String())))
	require.Empty(t, msg)
	require.Equal(t, decodeJSON(t, cassandraParams), paramsOf(up))

	res := runLoad(t, 160, 32, loadMix(t))
	require.Zero(t, res.failures, res.firstFailure)
	require.Len(t, res.server, 160)
	require.Len(t, res.work, 160)
}

// BenchmarkLoad is the load test: b.N mixed admission and conversion
// reviews of a realistic Instance from 32 concurrent clients over HTTPS on
// loopback. Run it as
//
//	go test -run XXX -bench BenchmarkLoad -benchtime 6000x ./examples/paramctl
//
// It reports, p50 and p99 in microseconds: the handling time (answering
// the review: decoding, deciding, encoding) as the CPU time of the thread
// that did it and as wall time, the server time (from the whole request
// being in to the answer written), and the clients' latency; it fails on
// any wrong answer. The clients run in the same process on the same
// cores, so every wall-clock figure includes waiting for them.
func BenchmarkLoad(b *testing.B) {
	mix := loadMix(b)
	b.ResetTimer()
	res := runLoad(b, b.N, 32, mix)
	b.StopTimer()
	if res.failures > 0 {
		b.Fatalf("%d of %d requests failed; first: %s", res.failures, res.requests, res.firstFailure)
	}
	us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
	if threadCPUTime() >= 0 {
		b.ReportMetric(us(percentile(res.workCPU, 0.50)), "handling-cpu-p50-µs")
		b.ReportMetric(us(percentile(res.workCPU, 0.99)), "handling-cpu-p99-µs")
	}
	b.ReportMetric(us(percentile(res.work, 0.50)), "handling-p50-µs")
	b.ReportMetric(us(percentile(res.work, 0.99)), "handling-p99-µs")
	b.ReportMetric(us(percentile(res.server, 0.50)), "server-p50-µs")
	b.ReportMetric(us(percentile(res.server, 0.99)), "server-p99-µs")
	b.ReportMetric(us(percentile(res.client, 0.50)), "client-p50-µs")
	b.ReportMetric(us(percentile(res.client, 0.99)), "client-p99-µs")
	b.ReportMetric(0, "failures")
}

// BenchmarkHandle is the handling of each request of the mix without
// HTTP: what one review costs the webhook.
func BenchmarkHandle(b *testing.B) {
	h := testHandler(b, nil)
	for _, c := range loadMix(b) {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := h.ServeReview(ctx, c.path, c.body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
