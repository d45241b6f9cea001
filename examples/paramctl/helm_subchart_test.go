package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestValuesAgreesWithHelmSubcharts: on every case Helm v4.3.1 judged
// for a chart with vendored subcharts (test/helm's TestHelmSubcharts
// records them: an alias, a condition, tags, globals, a null and a
// string where a subchart's values go), paramctl values gives Helm's
// verdict and values, and names every place Helm's error names, as a
// pointer into the whole values (Helm's are into each subchart's own,
// under a line with its name), in the file or --set that wrote it.
func TestValuesAgreesWithHelmSubcharts(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(helmTestdata, "subchart-verdicts.json"))
	require.NoError(t, err)
	var cases []helmCase
	require.NoError(t, json.Unmarshal(data, &cases))
	require.NotEmpty(t, cases)
	header := regexp.MustCompile(`^([A-Za-z0-9_.-]+):$`)
	at := regexp.MustCompile(`at '([^']*)'`)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			args := []string{"values", filepath.Join(helmTestdata, c.Chart), "-o", "json"}
			for i := 0; i < len(c.Args); i++ {
				if c.Args[i] == "-f" {
					args = append(args, "-f", filepath.Join(helmTestdata, c.Args[i+1]))
					i++
					continue
				}
				args = append(args, c.Args[i])
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
			prefix := ""
			for _, line := range strings.Split(c.Helm.Error, "\n") {
				if m := header.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
					prefix = ""
					if m[1] != filepath.Base(c.Chart) {
						prefix = "/" + m[1]
					}
					continue
				}
				for _, m := range at.FindAllStringSubmatch(line, -1) {
					p := prefix + m[1]
					if p == "" {
						p = `""`
					}
					// paramctl names the place, or (a missing or
					// undeclared key) the key below it.
					below := ": " + strings.TrimSuffix(p, `""`) + "/"
					assert.True(t, strings.Contains(errs, ": "+p+": error: ") || strings.Contains(errs, below), "helm names %s: %s", p, errs)
				}
			}
		})
	}
}

// TestValuesSubchartPlaces: a failing value of a subchart is placed in
// the file that wrote it: an overlay's line, the subchart's own
// values.yaml, or the parent's global the subchart inherits.
func TestValuesSubchartPlaces(t *testing.T) {
	parent := filepath.Join(helmTestdata, "subcharts", "parent")
	overlay := func(name string) string { return filepath.Join(helmTestdata, "subcharts", "overlays", name+".yaml") }
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"an overlay under an alias", []string{"-f", overlay("other-replicas-string")},
			[]string{overlay("other-replicas-string") + `:2:3: /other/replicas: error: subchart other: expected integer, but got string "3"`}},
		{"the parent's global", []string{"-f", overlay("global-region-asia")},
			[]string{overlay("global-region-asia") + ":2:3: /other/global/region: error:", overlay("global-region-asia") + ":2:3: /sub/global/region: error:"}},
		{"the subchart's own default", []string{"-f", overlay("gated-enabled")},
			[]string{filepath.Join(parent, "charts", "gated", "values.yaml") + `:2:1: /gated/port: error: subchart gated: expected integer, but got string "http"`}},
		{"--set", []string{"--set", "sub.replicas=0"},
			[]string{"--set sub.replicas=0: /sub/replicas: error: subchart sub: must be >= 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := paramctl(t, "", append([]string{"values", parent}, tc.args...)...)
			assert.Equal(t, 1, code, errs)
			for _, w := range tc.want {
				assert.Contains(t, errs, w)
			}
		})
	}
	t.Run("a --set that writes a subchart's secret is named without its value", func(t *testing.T) {
		code, _, errs := paramctl(t, "", "values", parent, "--set", "sub.password=hunter2,sub.replicas=0")
		assert.Equal(t, 1, code, errs)
		assert.Contains(t, errs, "--set sub.password=(value hidden): /sub/replicas: error:")
		assert.Contains(t, errs, "--set sub.password=(value hidden): /sub/password: error:")
		assert.NotContains(t, errs, "hunter2")
	})
	t.Run("a subchart's number as Helm reads it", func(t *testing.T) {
		f := filepath.Join(t.TempDir(), "x.yaml")
		require.NoError(t, os.WriteFile(f, []byte("sub:\n  replicas: 1e-400\n"), 0o644))
		code, _, errs := paramctl(t, "", "values", parent, "-f", f)
		assert.Equal(t, 1, code, errs)
		assert.Contains(t, errs, f+":2:3: /sub/replicas: error: subchart sub:")
		assert.Contains(t, errs, "(Helm reads 1e-400 as the number 0: every YAML number goes through a float64)")
	})
	t.Run("a subchart's string node Helm reads as a number", func(t *testing.T) {
		ghost := filepath.Join(helmTestdata, "subcharts", "ghost")
		f := filepath.Join(t.TempDir(), "x.yaml")
		require.NoError(t, os.WriteFile(f, []byte("mysql:\n  auth:\n    username: 1.10\n"), 0o644))
		code, _, errs := paramctl(t, "", "values", ghost, "-f", f)
		assert.Equal(t, 1, code, errs)
		assert.Contains(t, errs, f+`:3:5: /mysql/auth/username: error: subchart mysql: Helm reads 1.10 as the number 1.1; the schema wants a string: write "1.10"`)
		code, _, errs = paramctl(t, "", "values", ghost, "--set", "mysql.auth.username=1234")
		assert.Equal(t, 1, code, errs)
		assert.Contains(t, errs, "--set reads 1234 as the number 1234; the schema wants a string: give it with --set-string")
	})
	t.Run("a packaged subchart is refused", func(t *testing.T) {
		dir := t.TempDir()
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "charts"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "Chart.yaml"), []byte("apiVersion: v2\nname: p\nversion: 0.1.0\n"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "charts", "common-2.0.0.tgz"), []byte("not read"), 0o644))
		code, _, errs := paramctl(t, "", "values", dir)
		assert.Equal(t, 2, code)
		assert.Contains(t, errs, "a packaged subchart: paramctl reads subchart folders, not archives")
	})
}

// TestLintSubchartsWithoutParentSchema: paramctl lint CHART/ of a chart
// without values.schema.json still checks each ci overlay against its
// subcharts' schemas, as helm template -f ci/X.yaml does, and fails
// where Helm fails (TestValuesAgreesWithHelmSubcharts has Helm's verdict
// on sub-replicas-0.yaml).
func TestLintSubchartsWithoutParentSchema(t *testing.T) {
	src := filepath.Join(helmTestdata, "subcharts", "parent")
	dir := filepath.Join(t.TempDir(), "parent")
	require.NoError(t, os.CopyFS(dir, os.DirFS(src)))
	require.NoError(t, os.Remove(filepath.Join(dir, "values.schema.json")))
	code, out, errs := paramctl(t, "", "lint", dir+"/")
	assert.Equal(t, 0, code, out+errs)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "ci"), 0o755))
	data, err := os.ReadFile(filepath.Join(helmTestdata, "subcharts", "overlays", "sub-replicas-0.yaml"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ci", "sub-replicas-0.yaml"), data, 0o644))
	code, out, errs = paramctl(t, "", "lint", dir+"/")
	assert.Equal(t, 1, code, out+errs)
	assert.Contains(t, out+errs, "ci/sub-replicas-0.yaml:2:3: /sub/replicas: error chart-values: subchart sub: must be >= 1")
}
