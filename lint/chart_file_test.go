package lint

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestChartMetadata: Chart.yaml's findings carry the file, pointer and
// line helm lint's verdict is about (test/helm and paramctl's
// TestLintChartFileAgreesWithHelm compare the verdicts with helm lint).
func TestChartMetadata(t *testing.T) {
	type want struct {
		line    int
		pointer string
		sev     Severity
		message string
	}
	tests := []struct {
		name, in string
		want     []want
	}{
		{"ok", "apiVersion: v2\nname: a\nversion: 1.2.3\n", nil},
		{"no version", "apiVersion: v2\nname: a\n", []want{{1, "", Error, "version is required"}, {1, "", Warning, "version '' is not a valid SemVerV2"}}},
		{"apiVersion v3", "apiVersion: v3\nname: a\nversion: 1.0.0\n", []want{{1, "/apiVersion", Error, `apiVersion 'v3' is not valid. The value must be either "v1" or "v2"`}}},
		{"broken YAML", "apiVersion: v2\nname: a\ndescription: [x\n", []want{{3, "", Error, "unable to parse YAML: line 3: the '[' here is never closed (expected ',' or ']')"}}},
		{"a float version", "apiVersion: v2\nname: a\nversion: 1.0\n", []want{
			{3, "/version", Error, `version should be of type string but it's of type float64: quote it ("1.0")`},
			{3, "/version", Warning, "version '1' is not a valid SemVerV2"}}},
		{"a loose version", "apiVersion: v2\nname: a\nversion: v1.2\n", []want{{3, "/version", Warning, "version 'v1.2' is not a valid SemVerV2"}}},
		{"type", "apiVersion: v1\nname: a\nversion: 1.0.0\ntype: service\n", []want{{4, "/type", Error, "chart.metadata.type must be application or library"}}},
		{"dependencies", "apiVersion: v2\nname: a\nversion: 1.0.0\ndependencies:\n- name: x\n  alias: a.b\n- name: p\n- name: p\n",
			[]want{{6, "/dependencies/0/alias", Error, `dependency "x" has disallowed characters in the alias`}, {8, "/dependencies/2", Error, `more than one dependency with name or alias "p"`}}},
		{"not a map", "- a\n", []want{{1, "", Error, "unable to parse YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := []want{}
			for _, f := range chartFileFindings([]byte(tt.in)) {
				assert.Equal(t, "chart-file", f.Rule)
				assert.Equal(t, chartFile, f.File)
				got = append(got, want{f.Line, f.Pointer, f.Severity, f.Message})
			}
			if tt.want == nil {
				tt.want = []want{}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
