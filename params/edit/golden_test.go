package edit_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/edit"
	"github.com/paramkit/paramkit/schema"
)

var update = flag.Bool("update", false, "rewrite golden files")

// The real charts paramctl's tests use (examples/paramctl/testdata/helm/charts,
// SOURCES there says where each comes from): values.yaml files with
// comments, typed by their values.schema.json.
const charts = "../../examples/paramctl/testdata/helm/charts"

// TestChartsGolden edits real charts' values.yaml files and records the
// lines that differ (testdata/charts/NAME.diff): only the changed values'
// lines, everything else byte for byte.
func TestChartsGolden(t *testing.T) {
	tests := []struct {
		chart string
		set   []string
		ops   []string
	}{
		{chart: "traefik", set: []string{"image.tag=v3.1.0", "deployment.replicas=3", "log.level=DEBUG", "log.otlp.http.headers.x-team=edge"}, ops: []string{"remove commonLabels"}},
		{chart: "prometheus-mysql-exporter", set: []string{"image.pullPolicy=Always", "resources.limits.cpu=100m", "serviceMonitor.interval=30s"}},
		{chart: "alertmanager", set: []string{"service.port=9095", "replicaCount=2", "image.tag=v0.28.0"}, ops: []string{"remove extraArgs"}},
		{chart: "cert-manager", set: []string{"replicaCount=3", "podDisruptionBudget.enabled=true", "podDisruptionBudget.minAvailable=1"}, ops: []string{"add extraArgs=--v=2"}},
		{chart: "cluster-aws", set: []string{"global.connectivity.baseDomain=example.com", "global.managementCluster=golem", "global.metadata.description=Production cluster", "global.release.version=31.0.0"}},
	}
	for _, tt := range tests {
		t.Run(tt.chart, func(t *testing.T) {
			dir := filepath.Join(charts, tt.chart)
			raw, err := os.ReadFile(filepath.Join(dir, "values.schema.json"))
			require.NoError(t, err)
			s, err := schema.Parse(raw)
			require.NoError(t, err)
			src, err := os.ReadFile(filepath.Join(dir, "values.yaml"))
			require.NoError(t, err)
			old, err := params.Decode(s, src)
			require.NoError(t, err)
			r, err := (&params.Update{Schema: s, Old: old, Set: tt.set, Operations: tt.ops, Sparse: true}).Run()
			require.NoError(t, err)
			out, err := edit.Values(s, src, old, r.Values)
			require.NoError(t, err)
			got, err := params.Decode(s, out)
			require.NoError(t, err)
			assert.True(t, params.Identical(r.Values, got), "the edited file reads as the update's values")

			diff := lineDiff(string(src), string(out))
			golden := filepath.Join("testdata", "charts", tt.chart+".diff")
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(diff), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), diff)
		})
	}
}

// lineDiff lists the lines that differ between a and b, hunk by hunk
// (a longest common subsequence of lines), as "@@ -A +B @@" headers
// followed by "-old" and "+new" lines.
func lineDiff(a, b string) string {
	x, y := strings.SplitAfter(a, "\n"), strings.SplitAfter(b, "\n")
	// lcs[i][j]: the longest common subsequence of x[i:] and y[j:].
	lcs := make([][]int32, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		if i < len(x) && j < len(y) && x[i] == y[j] {
			i, j = i+1, j+1
			continue
		}
		fmt.Fprintf(&out, "@@ -%d +%d @@\n", i+1, j+1)
		for i < len(x) || j < len(y) {
			if i < len(x) && j < len(y) && x[i] == y[j] {
				break
			}
			if i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]) {
				out.WriteString("-" + strings.TrimSuffix(x[i], "\n") + "\n")
				i++
			} else {
				out.WriteString("+" + strings.TrimSuffix(y[j], "\n") + "\n")
				j++
			}
		}
	}
	return out.String()
}
