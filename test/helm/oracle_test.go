//go:build helm

package helm

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

var update = flag.Bool("update", false, "rewrite the golden file of Helm's verdicts")

// testdata is where the cases and the golden file live: beside the
// paramctl tests that read them.
const testdata = "../../examples/paramctl/testdata/helm"

// Case is one run: a chart and Helm's value flags.
type Case struct {
	Name  string   `json:"name"`
	Chart string   `json:"chart"`
	Args  []string `json:"args"`
	Helm  *Verdict `json:"helm,omitempty"`
}

// Verdict is what `helm template` said: whether it rendered, the values
// it rendered with (as its toJson wrote them), its error's first line.
type Verdict struct {
	OK     bool            `json:"ok"`
	Values json.RawMessage `json:"values,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// tools builds helm (or takes $PARAMKIT_HELM) and paramctl once.
func tools(t *testing.T) (helm, paramctl string) {
	t.Helper()
	dir := t.TempDir()
	helm = os.Getenv("PARAMKIT_HELM")
	if helm == "" {
		helm = filepath.Join(dir, "helm")
		start := time.Now()
		out, err := exec.Command("go", "build", "-o", helm, "helm.sh/helm/v4/cmd/helm").CombinedOutput()
		require.NoError(t, err, "building helm: %s", out)
		t.Logf("helm built in %s", time.Since(start).Round(time.Second))
	}
	paramctl = filepath.Join(dir, "paramctl")
	cmd := exec.Command("go", "build", "-o", paramctl, "./examples/paramctl")
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "building paramctl: %s", out)
	return helm, paramctl
}

// valuesTemplate renders the values Helm computed, as its toJson writes
// them, into one ConfigMap.
const valuesTemplate = `apiVersion: v1
kind: ConfigMap
metadata:
  name: values
data:
  values: {{ toJson .Values | quote }}
`

// stage copies a chart's values, schema and Chart.yaml (its dependencies
// left out: only the chart's own values are compared) with one template
// that prints the values.
func stage(t *testing.T, chart string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), filepath.Base(chart))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "templates"), 0o755))
	for _, f := range []string{"values.yaml", "values.schema.json"} {
		data, err := os.ReadFile(filepath.Join(testdata, chart, f))
		if os.IsNotExist(err) {
			continue
		}
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), data, 0o644))
	}
	data, err := os.ReadFile(filepath.Join(testdata, chart, "Chart.yaml"))
	require.NoError(t, err)
	var meta map[string]any
	require.NoError(t, yaml.Unmarshal(data, &meta))
	delete(meta, "dependencies")
	out, err := yaml.Marshal(meta)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "Chart.yaml"), out, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "templates", "values.yaml"), []byte(valuesTemplate), 0o644))
	return dir
}

// runHelm runs helm template on the staged chart with the case's flags
// (their paths relative to testdata).
func runHelm(t *testing.T, helm, staged string, c Case) *Verdict {
	t.Helper()
	args := append([]string{"template", "x", staged, "--show-only", "templates/values.yaml"}, c.Args...)
	cmd := exec.Command(helm, args...)
	cmd.Dir = testdata
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+t.TempDir(), "HELM_CONFIG_HOME="+t.TempDir(), "HELM_DATA_HOME="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		msg = strings.ReplaceAll(msg, staged, "CHART")
		return &Verdict{Error: msg}
	}
	var cm struct {
		Data struct {
			Values string `json:"values"`
		} `json:"data"`
	}
	require.NoError(t, yaml.Unmarshal(stdout.Bytes(), &cm), "%s", stdout.String())
	return &Verdict{OK: true, Values: json.RawMessage(cm.Data.Values)}
}

// cases are the hand-written cases and, for each chart, the chart alone
// and each ci/*.yaml on top of it, as chart-testing runs them.
func cases(t *testing.T) []Case {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testdata, "cases.json"))
	require.NoError(t, err)
	var cs []Case
	require.NoError(t, json.Unmarshal(data, &cs))
	charts, err := filepath.Glob(filepath.Join(testdata, "charts", "*", "Chart.yaml"))
	require.NoError(t, err)
	sort.Strings(charts)
	for _, ch := range charts {
		rel, _ := filepath.Rel(testdata, filepath.Dir(ch))
		if rel == "charts/issue27" {
			continue // its cases are in cases.json
		}
		cs = append(cs, Case{Name: rel + " alone", Chart: rel})
		overlays, _ := filepath.Glob(filepath.Join(filepath.Dir(ch), "ci", "*.yaml"))
		sort.Strings(overlays)
		for _, o := range overlays {
			f, _ := filepath.Rel(testdata, o)
			cs = append(cs, Case{Name: f, Chart: rel, Args: []string{"-f", f}})
		}
	}
	return cs
}

// TestHelmOracle runs every case through helm template and paramctl
// values, reports where they differ, and with -update records Helm's
// verdicts in testdata/helm/verdicts.json.
func TestHelmOracle(t *testing.T) {
	helm, paramctl := tools(t)
	version, _ := exec.Command(helm, "version", "--short").Output()
	t.Logf("helm %s", strings.TrimSpace(string(version)))
	cs := cases(t)
	agree := 0
	for i := range cs {
		c := &cs[i]
		c.Helm = runHelm(t, helm, stage(t, c.Chart), *c)
		pc := exec.Command(paramctl, append([]string{"values", c.Chart, "-o", "json"}, c.Args...)...)
		pc.Dir = testdata
		var stdout, stderr bytes.Buffer
		pc.Stdout, pc.Stderr = &stdout, &stderr
		err := pc.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		same := code == c.Helm.ExitCode()
		if same && c.Helm.OK {
			same = jsonEqual(t, c.Helm.Values, stdout.Bytes())
		}
		if same && code == 1 {
			same = containsAll(errorPointers(stderr.String()), c.Helm.Pointers())
		}
		if same {
			agree++
		} else {
			t.Errorf("%s: helm ok=%v %s%s\nparamctl exit %d: %s%s", c.Name, c.Helm.OK, c.Helm.Values, c.Helm.Error, code, stdout.String(), stderr.String())
		}
	}
	t.Logf("paramctl values agrees with helm template on %d of %d cases", agree, len(cs))
	if *update {
		out, err := json.MarshalIndent(cs, "", " ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(testdata, "verdicts.json"), append(out, '\n'), 0o644))
	}
}

// ExitCode is the exit code paramctl values gives for Helm's verdict: 0
// rendered, 1 refused by the schema, 2 unreadable input.
func (v *Verdict) ExitCode() int {
	switch {
	case v.OK:
		return 0
	case strings.Contains(v.Error, "values don't meet the specifications of the schema"):
		return 1
	}
	return 2
}

// Pointers are the places Helm's schema error names.
func (v *Verdict) Pointers() []string {
	var out []string
	for _, m := range regexp.MustCompile(`at '([^']*)'`).FindAllStringSubmatch(v.Error, -1) {
		out = append(out, m[1])
	}
	return out
}

// errorPointers are the pointers of paramctl values' error lines.
func errorPointers(stderr string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`(?m)^.*?: (/[^:]*|""): error: `).FindAllStringSubmatch(stderr, -1) {
		p := m[1]
		if p == `""` {
			p = ""
		}
		out = append(out, p)
	}
	return out
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		found := false
		for _, h := range have {
			// The place, or (an undeclared key) the key below it.
			found = found || h == w || strings.HasPrefix(h, w+"/")
		}
		if !found {
			return false
		}
	}
	return true
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	var x, y any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if da.Decode(&x) != nil || db.Decode(&y) != nil {
		return false
	}
	return assert.ObjectsAreEqual(x, y)
}
