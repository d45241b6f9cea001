//go:build helm

package helm

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// stageTree copies a chart folder whole (its subcharts too) and replaces
// its templates with the one that prints the values.
func stageTree(t *testing.T, chart string) string {
	t.Helper()
	src := filepath.Join(testdata, chart)
	dir := filepath.Join(t.TempDir(), filepath.Base(chart))
	require.NoError(t, filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if rel == "templates" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
	}))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "templates"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "templates", "values.yaml"), []byte(valuesTemplate), 0o644))
	return dir
}

// subchartPointers are the places Helm's schema error names, as
// pointers into the whole values: Helm writes each chart's errors under
// a line with the chart's name (the top chart's own, or a subchart's
// name or alias) and pointers into that chart's values.
func subchartPointers(msg, top string) []string {
	var out []string
	prefix := ""
	header := regexp.MustCompile(`^([A-Za-z0-9_.-]+):$`)
	at := regexp.MustCompile(`at '([^']*)'`)
	for _, line := range strings.Split(msg, "\n") {
		if m := header.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			prefix = ""
			if m[1] != top {
				prefix = "/" + m[1]
			}
			continue
		}
		for _, m := range at.FindAllStringSubmatch(line, -1) {
			out = append(out, prefix+m[1])
		}
	}
	return out
}

// TestHelmSubcharts runs the cases of subcharts.json (charts with
// vendored subcharts, staged whole) through helm template and paramctl
// values; with -update it records Helm's verdicts in
// subchart-verdicts.json for TestValuesAgreesWithHelmSubcharts.
func TestHelmSubcharts(t *testing.T) {
	helm, paramctl := tools(t)
	data, err := os.ReadFile(filepath.Join(testdata, "subcharts.json"))
	require.NoError(t, err)
	var cs []Case
	require.NoError(t, json.Unmarshal(data, &cs))
	agree := 0
	for i := range cs {
		c := &cs[i]
		c.Helm = runHelm(t, helm, stageTree(t, c.Chart), *c)
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
			same = containsAll(errorPointers(stderr.String()), subchartPointers(c.Helm.Error, filepath.Base(c.Chart)))
		}
		if same {
			agree++
		} else {
			t.Errorf("%s: helm ok=%v %s%s\nparamctl exit %d: %s%s", c.Name, c.Helm.OK, c.Helm.Values, c.Helm.Error, code, stdout.String(), stderr.String())
		}
	}
	t.Logf("paramctl values agrees with helm template on %d of %d subchart cases", agree, len(cs))
	if *update {
		out, err := json.MarshalIndent(cs, "", " ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(testdata, "subchart-verdicts.json"), append(out, '\n'), 0o644))
	}
}
