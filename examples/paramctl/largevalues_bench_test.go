package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// largeChart writes a chart whose values.yaml is about size bytes of
// services as real charts list them (nested maps, flow maps, lists,
// quoted and plain scalars, helm-docs comments), with a schema checking
// every one.
func largeChart(tb testing.TB, size int) (dir string, valuesSize int) {
	tb.Helper()
	dir = filepath.Join(tb.TempDir(), "big")
	require.NoError(tb, os.MkdirAll(dir, 0o755))
	var v bytes.Buffer
	for i := 0; v.Len() < size; i++ {
		fmt.Fprintf(&v, `service%d:
  enabled: true
  replicas: %d
  image:
    repository: registry.example.com/team/service-%d
    tag: "1.%d.%d"
    pullPolicy: IfNotPresent
  resources:
    limits: {cpu: 500m, memory: 512Mi}
    requests: {cpu: 100m, memory: 128Mi}
  env:
    - name: LOG_LEVEL
      value: info
    - name: RATIO
      value: "0.%d"
  # -- annotations for the pods
  annotations:
    example.com/owner: team-%d
`, i, i%7, i, i%30, i%11, i, i%13)
	}
	files := map[string][]byte{
		"Chart.yaml":  []byte("apiVersion: v2\nname: big\nversion: 0.1.0\n"),
		"values.yaml": v.Bytes(),
		"values.schema.json": []byte(`{"type":"object","additionalProperties":{"type":"object","properties":{` +
			`"enabled":{"type":"boolean"},"replicas":{"type":"integer","minimum":0},` +
			`"image":{"type":"object","properties":{"repository":{"type":"string"},"tag":{"type":"string"},"pullPolicy":{"enum":["Always","IfNotPresent","Never"]}}},` +
			`"resources":{"type":"object"},` +
			`"env":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"value":{"type":"string"}}}},` +
			`"annotations":{"type":"object","additionalProperties":{"type":"string"}}}}}`),
	}
	for name, data := range files {
		require.NoError(tb, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	return dir, v.Len()
}

// peakHeapAbove samples the live heap while f runs and returns the highest
// figure seen above the heap before f (a sampling, so a lower bound; the
// GC's own figure, the heap goal, follows it).
func peakHeapAbove(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	if peak < base {
		return 0
	}
	return peak - base
}

// BenchmarkLargeValuesFile: paramctl values and lint on a chart whose
// values.yaml is 4 MB (issue 35: 75x the file before). Besides time and
// allocations it reports the peak live heap of a run as a multiple of
// the file (x-file; the target is at most 25) and in MB.
func BenchmarkLargeValuesFile(b *testing.B) {
	dir, size := largeChart(b, 4<<20)
	for _, cmd := range []string{"values", "lint"} {
		b.Run(cmd, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			var peak uint64
			for b.Loop() {
				var stderr bytes.Buffer
				e := &env{stdin: bytes.NewReader(nil), stdout: io.Discard, stderr: &stderr}
				code := 0
				peak = max(peak, peakHeapAbove(func() { code = e.dispatch([]string{cmd, dir}) }))
				if code != 0 {
					b.Fatalf("exit %d: %s", code, stderr.String())
				}
			}
			b.ReportMetric(float64(peak)/float64(size), "x-file")
			b.ReportMetric(float64(peak)/1e6, "peak-MB")
		})
	}
}
