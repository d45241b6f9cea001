//go:build helm

package helm

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"helm.sh/helm/v4/pkg/action"

	"github.com/paramkit/paramkit/lint"
)

// benchChart is the chart of the speed comparison (issue 36 item 5):
// prometheus with its four subcharts vendored (alertmanager,
// kube-state-metrics, prometheus-node-exporter, prometheus-pushgateway),
// templates, schemas and ci/*.yaml as published (testdata/prometheus,
// see SOURCES there).
const benchChart = "testdata/prometheus"

// cpuPerOp reports the process's CPU time (user and system, the
// garbage collector's included) per iteration as cpu-ns/op: on a
// machine shared with other builds the wall time (ns/op) follows the
// load, the CPU time much less. Call it before the loop; the returned
// function after it.
func cpuPerOp(b *testing.B) func() {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := cpu()
	return func() {
		b.ReportMetric(float64(cpu()-start)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkHelmLint is `helm lint CHART`: Helm's lint action, in this
// process, on the chart with its four subcharts (their values and
// schemas judged, the templates rendered).
func BenchmarkHelmLint(b *testing.B) {
	dir, err := filepath.Abs(benchChart)
	require.NoError(b, err)
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		l := action.NewLint()
		l.Namespace = "default"
		res := l.Run([]string{dir}, map[string]any{})
		if len(res.Errors) > 0 {
			b.Fatal(res.Errors)
		}
	}
}

// lintChart is what `paramctl lint CHART` runs on a chart folder: read
// it through os.Root (its subcharts and ci/*.yaml too) and lint it
// with paramctl's default rule set (kudo); overlays false leaves the
// ci/*.yaml out, as helm lint does.
func lintChart(tb testing.TB, dir string, overlays bool) []lint.Finding {
	root, err := os.OpenRoot(dir)
	require.NoError(tb, err)
	defer root.Close()
	c, err := lint.ReadChart(root.FS())
	require.NoError(tb, err)
	if !overlays {
		c.Overlays = nil
	}
	fs, err := c.Lint(lint.Kudo())
	require.NoError(tb, err)
	return fs
}

// BenchmarkParamkitLint is `paramctl lint CHART` on the same chart:
// values.yaml and each of the chart's 19 ci/*.yaml overlays judged with
// every subchart's values and schema.
func BenchmarkParamkitLint(b *testing.B) {
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		for _, f := range lintChart(b, benchChart, true) {
			if f.Severity == lint.Error {
				b.Fatal(f)
			}
		}
	}
}

// BenchmarkParamkitLintNoOverlays is BenchmarkParamkitLint without the
// ci/*.yaml overlays: the values helm lint judges, values.yaml alone.
func BenchmarkParamkitLintNoOverlays(b *testing.B) {
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		for _, f := range lintChart(b, benchChart, false) {
			if f.Severity == lint.Error {
				b.Fatal(f)
			}
		}
	}
}
