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

// BenchmarkLintChartSubchartsOverlays is BenchmarkLintChartSubcharts with
// ghost's overlays of the oracle's cases each checked on its own, as a
// chart's ci/*.yaml are: every reading shares the subcharts' values
// files and compiled schemas.
func BenchmarkLintChartSubchartsOverlays(b *testing.B) {
	dir := filepath.Join(helmTestdata, "subcharts", "ghost")
	overlays, err := filepath.Glob(filepath.Join(helmTestdata, "subcharts", "overlays", "ghost-*.yaml"))
	require.NoError(b, err)
	require.NotEmpty(b, overlays)
	var files []lint.ValuesFile
	for _, f := range overlays {
		data, err := os.ReadFile(f)
		require.NoError(b, err)
		files = append(files, lint.ValuesFile{Name: filepath.Base(f), Data: data})
	}
	fsys := os.DirFS(dir)
	b.ReportAllocs()
	for b.Loop() {
		c, err := lint.ReadChart(fsys)
		require.NoError(b, err)
		c.Overlays = files
		if _, err := c.Lint(lint.Kudo()); err != nil {
			b.Fatal(err)
		}
	}
}
