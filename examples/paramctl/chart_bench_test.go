package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/lint"
)

// BenchmarkLintChartSubcharts (issue 36 item 5): paramctl lint's work on
// a chart with vendored subcharts, bitnami's ghost with mysql and common
// (and mysql's own common): read the folder, lint with the kudo set,
// judge values.yaml with every subchart's values and schema. The issue's
// figure to beat is helm lint on the same chart.
func BenchmarkLintChartSubcharts(b *testing.B) {
	dir := filepath.Join(helmTestdata, "subcharts", "ghost")
	fsys := os.DirFS(dir)
	b.ReportAllocs()
	for b.Loop() {
		c, err := lint.ReadChart(fsys)
		require.NoError(b, err)
		if _, err := c.Lint(lint.Kudo()); err != nil {
			b.Fatal(err)
		}
	}
}
