package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestValuesNumbersAsHelmReadsThem: where Helm's float64 reading of a
// YAML number changes the verdict (testdata/helm/charts/numbers, judged
// by Helm in verdicts.json), the finding says how Helm read the text;
// where the text means the number Helm holds, it says nothing of it.
func TestValuesNumbersAsHelmReadsThem(t *testing.T) {
	chart := filepath.Join(helmTestdata, "charts", "numbers")
	for _, tc := range []struct {
		overlay, want, not string
	}{
		{"above-rounds", "/above: error: must be > 0.1 but found 0.1 (Helm reads 0.10000000000000001 as the number 0.1: every YAML number goes through a float64)", ""},
		{"tiny-1e-400", "(Helm reads 1e-400 as the number 0: every YAML number goes through a float64)", ""},
		{"tiny-edge-plus", "(Helm reads 0.0000010000000000000001 as the number 0.0000010000000000000002", ""},
		{"big-2p53-plus-2", "/big: error:", "Helm reads"},
		{"step-float-sum", "/step: error:", "Helm reads"},
		{"count-1.5", "/count: error:", "Helm reads"},
		{"hundred-100.00000000000001", "/hundred: error:", "Helm reads"},
	} {
		t.Run(tc.overlay, func(t *testing.T) {
			code, _, errs := paramctl(t, "", "values", chart, "-f", filepath.Join(chart, "ci", tc.overlay+".yaml"))
			assert.Equal(t, 1, code, errs)
			assert.Contains(t, errs, tc.want)
			if tc.not != "" {
				assert.NotContains(t, errs, tc.not)
			}
		})
	}
	// Helm reads 9007199254740993 as 9007199254740992, which the maximum
	// allows: no finding at all.
	code, _, errs := paramctl(t, "", "values", chart, "-f", filepath.Join(chart, "ci", "big-2p53-plus-1.yaml"))
	assert.Equal(t, 0, code, errs)
}
