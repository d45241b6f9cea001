package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// helmCase is one recorded run of helm template (test/helm writes them:
// go test -tags helm -update there).
type helmCase struct {
	Name  string   `json:"name"`
	Chart string   `json:"chart"`
	Args  []string `json:"args"`
	Helm  struct {
		OK     bool            `json:"ok"`
		Values json.RawMessage `json:"values"`
		Error  string          `json:"error"`
	} `json:"helm"`
}

const helmTestdata = "testdata/helm"

// TestValuesAgreesWithHelm: on every case Helm v4.3.1 judged (issue 27's
// cases and the ci overlays of real charts), paramctl values gives
// Helm's verdict (0 rendered, 1 refused by values.schema.json with every
// place Helm names, 2 input Helm cannot read) and, where Helm rendered,
// exactly Helm's values.
func TestValuesAgreesWithHelm(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(helmTestdata, "verdicts.json"))
	require.NoError(t, err)
	var cases []helmCase
	require.NoError(t, json.Unmarshal(data, &cases))
	require.NotEmpty(t, cases)
	at := regexp.MustCompile(`at '([^']*)'`)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			args := []string{"values", filepath.Join(helmTestdata, c.Chart), "-o", "json"}
			for i := 0; i < len(c.Args); i++ {
				a := c.Args[i]
				switch {
				case a == "-f":
					args = append(args, a, filepath.Join(helmTestdata, c.Args[i+1]))
					i++
				case a == "--set-file":
					k, v, _ := strings.Cut(c.Args[i+1], "=")
					args = append(args, a, k+"="+filepath.Join(helmTestdata, v))
					i++
				default:
					args = append(args, a)
				}
			}
			code, out, errs := paramctl(t, "", args...)
			want := 2
			switch {
			case c.Helm.OK:
				want = 0
			case strings.Contains(c.Helm.Error, "values don't meet the specifications of the schema"):
				want = 1
			}
			require.Equal(t, want, code, "helm: %s\nparamctl: %s%s", c.Helm.Error, out, errs)
			if want == 0 {
				assert.Equal(t, decodeNumbers(t, c.Helm.Values), decodeNumbers(t, []byte(out)))
			}
			for _, m := range at.FindAllStringSubmatch(c.Helm.Error, -1) {
				p := m[1]
				if p == "" {
					p = `""`
				}
				// paramctl names the place, or (an undeclared key) the key below it.
				below := strings.TrimSuffix(": "+m[1], `""`) + "/"
				assert.True(t, strings.Contains(errs, ": "+p+": error: ") || strings.Contains(errs, below), "helm names %s: %s", p, errs)
			}
		})
	}
}

func decodeNumbers(t *testing.T, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	require.NoError(t, dec.Decode(&v), "%s", data)
	return v
}

// TestLintChartAgreesWithHelm: paramctl lint CHART/ (values.yaml, then
// each ci/*.yaml on top of it on its own, as chart-testing runs them)
// reports a chart-values error in exactly the overlays where helm
// template -f ci/X.yaml failed, and in values.yaml exactly where helm
// template of the chart alone failed.
func TestLintChartAgreesWithHelm(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(helmTestdata, "verdicts.json"))
	require.NoError(t, err)
	var cases []helmCase
	require.NoError(t, json.Unmarshal(data, &cases))
	failed := map[string]map[string]bool{} // chart -> files Helm failed with
	for _, c := range cases {
		if !strings.HasSuffix(c.Name, " alone") && !strings.Contains(c.Name, "/ci/") {
			continue
		}
		if failed[c.Chart] == nil {
			failed[c.Chart] = map[string]bool{}
		}
		file := "values.yaml"
		if len(c.Args) == 2 {
			file, _ = filepath.Rel(c.Chart, c.Args[1])
		}
		failed[c.Chart][file] = !c.Helm.OK
	}
	require.NotEmpty(t, failed)
	for chart, files := range failed {
		t.Run(chart, func(t *testing.T) {
			dir := filepath.Join(helmTestdata, chart)
			_, out, errs := paramctl(t, "", "lint", dir, "-o", "json")
			var fs []struct {
				Rule, Severity, File string
			}
			require.NoError(t, json.Unmarshal([]byte(out), &fs), "%s%s", out, errs)
			got := map[string]bool{}
			for _, f := range fs {
				if f.Rule == "chart-values" && f.Severity == "error" {
					got[strings.TrimPrefix(f.File, lintName([]string{dir}, dir)+"/")] = true
				}
			}
			for file, helmFailed := range files {
				if file == "values.yaml" && !helmFailed {
					// An overlay's finding may land in values.yaml; the chart alone passed.
					continue
				}
				assert.Equal(t, helmFailed, got[file], "%s: helm failed=%v", file, helmFailed)
			}
		})
	}
}

// TestLintChartFileAgreesWithHelm: for each Chart.yaml of
// testdata/helm/chartfiles, paramctl lint reports a chart-file error
// exactly where helm lint v4.3.1 failed, and a chart-file warning exactly
// where it warned about Chart.yaml (test/helm recorded its verdicts).
func TestLintChartFileAgreesWithHelm(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(helmTestdata, "chartfile-verdicts.json"))
	require.NoError(t, err)
	var cases []struct {
		Name     string   `json:"name"`
		OK       bool     `json:"ok"`
		Errors   []string `json:"errors"`
		Warnings []string `json:"warnings"`
	}
	require.NoError(t, json.Unmarshal(data, &cases))
	require.NotEmpty(t, cases)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), strings.TrimSuffix(c.Name, ".yaml"))
			require.NoError(t, os.MkdirAll(dir, 0o755))
			meta, err := os.ReadFile(filepath.Join(helmTestdata, "chartfiles", c.Name))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, "Chart.yaml"), meta, 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "values.yaml"), []byte("a: 1\n"), 0o644))
			_, out, errs := paramctl(t, "", "lint", dir, "-o", "json")
			var fs []struct{ Rule, Severity, Message string }
			require.NoError(t, json.Unmarshal([]byte(out), &fs), "%s%s", out, errs)
			var gotErr, gotWarn []string
			for _, f := range fs {
				if f.Rule == "chart-file" && f.Severity == "error" {
					gotErr = append(gotErr, f.Message)
				}
				if f.Rule == "chart-file" && f.Severity == "warning" {
					gotWarn = append(gotWarn, f.Message)
				}
			}
			assert.Equal(t, !c.OK, len(gotErr) > 0, "helm: %v; paramctl: %v", c.Errors, gotErr)
			helmWarns := false
			for _, w := range c.Warnings {
				helmWarns = helmWarns || strings.HasPrefix(w, "[WARNING] Chart.yaml:")
			}
			assert.Equal(t, helmWarns, len(gotWarn) > 0, "helm: %v; paramctl: %v", c.Warnings, gotWarn)
			// Where helm says why on Chart.yaml, paramctl says the same.
			for _, e := range c.Errors {
				if msg, ok := strings.CutPrefix(e, "[ERROR] Chart.yaml: "); ok && !strings.Contains(msg, "unable to parse") {
					assert.Contains(t, strings.Join(gotErr, "\n"), strings.SplitN(msg, ":", 2)[0])
				}
			}
		})
	}
}
