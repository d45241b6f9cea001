//go:build helm

package helm

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// ChartFileCase is one Chart.yaml and what helm lint said of it.
type ChartFileCase struct {
	Name     string   `json:"name"`
	OK       bool     `json:"ok"`
	Errors   []string `json:"errors"`
	Warnings []string `json:"warnings"`
}

// stageChartFile makes a chart of one Chart.yaml, a values.yaml and one
// template, so that helm lint has nothing but Chart.yaml to object to.
func stageChartFile(t *testing.T, file string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(file), ".yaml"))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "templates"), 0o755))
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "Chart.yaml"), data, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "values.yaml"), []byte("a: 1\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "templates", "cm.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: {{ .Values.a | quote }}\n"), 0o644))
	return dir
}

// TestHelmLintChartFile runs helm lint on each Chart.yaml of
// testdata/helm/chartfiles and paramctl lint beside it; with -update it
// records helm's verdicts in chartfile-verdicts.json.
func TestHelmLintChartFile(t *testing.T) {
	helm, paramctl := tools(t)
	files, err := filepath.Glob(filepath.Join(testdata, "chartfiles", "*.yaml"))
	require.NoError(t, err)
	sort.Strings(files)
	var cs []ChartFileCase
	agree := 0
	for _, f := range files {
		dir := stageChartFile(t, f)
		c := ChartFileCase{Name: filepath.Base(f), Errors: []string{}, Warnings: []string{}}
		out, err := exec.Command(helm, "lint", dir).CombinedOutput()
		c.OK = err == nil
		for _, line := range strings.Split(string(out), "\n") {
			line = strings.ReplaceAll(strings.TrimSpace(line), dir, "CHART")
			switch {
			case strings.HasPrefix(line, "[ERROR]"):
				c.Errors = append(c.Errors, line)
			case strings.HasPrefix(line, "[WARNING]"):
				c.Warnings = append(c.Warnings, line)
			case strings.HasPrefix(line, "Error") && !c.OK && len(c.Errors) == 0:
				c.Errors = append(c.Errors, line)
			}
		}
		cs = append(cs, c)
		var stdout bytes.Buffer
		pc := exec.Command(paramctl, "lint", dir, "-o", "json")
		pc.Stdout = &stdout
		_ = pc.Run()
		var fs []struct{ Rule, Severity string }
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &fs), stdout.String())
		errs, warns := 0, 0
		for _, x := range fs {
			if x.Rule == "chart-file" && x.Severity == "error" {
				errs++
			}
			if x.Rule == "chart-file" && x.Severity == "warning" {
				warns++
			}
		}
		chartWarnings := 0
		for _, w := range c.Warnings {
			if strings.HasPrefix(w, "[WARNING] Chart.yaml:") {
				chartWarnings++
			}
		}
		if (errs > 0) == !c.OK && (warns > 0) == (chartWarnings > 0) {
			agree++
		} else {
			t.Errorf("%s: helm ok=%v %v %v; paramctl %d errors %d warnings: %s", c.Name, c.OK, c.Errors, c.Warnings, errs, warns, stdout.String())
		}
	}
	t.Logf("paramctl lint agrees with helm lint on Chart.yaml in %d of %d cases", agree, len(cs))
	if *update {
		out, err := json.MarshalIndent(cs, "", " ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(testdata, "chartfile-verdicts.json"), append(out, '\n'), 0o644))
	}
}
