package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	yaml "go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/lint"
)

// suiteCharts are the charts the project tests with: each folder with
// Chart.yaml directly under these.
var suiteChartRoots = []string{filepath.Join(helmTestdata, "charts"), filepath.Join(helmTestdata, "subcharts"), "testdata/charts"}

func suiteCharts(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, root := range suiteChartRoots {
		ents, err := os.ReadDir(root)
		require.NoError(t, err)
		for _, e := range ents {
			if _, err := os.Stat(filepath.Join(root, e.Name(), "Chart.yaml")); err == nil {
				out = append(out, filepath.Join(root, e.Name()))
			}
		}
	}
	return out
}

// stageWithGeneratedSchemas copies a chart folder (its subcharts too)
// and replaces every values.schema.json with the one paramctl schema
// generates from that chart's values.yaml and ci/*.yaml; closed closes
// the top chart's root (a subchart stays open).
func stageWithGeneratedSchemas(t *testing.T, chart string, closed bool) string {
	t.Helper()
	dst := t.TempDir()
	var charts []string
	require.NoError(t, filepath.WalkDir(chart, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(chart, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if d.Name() == "Chart.yaml" {
			charts = append(charts, filepath.Dir(target))
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	}))
	for _, c := range charts {
		_ = os.Remove(filepath.Join(c, "values.schema.json"))
		args := []string{"schema", "--write", c}
		if closed && c == dst { // a subchart stays open: its parent sets more than global
			args = append(args, "--closed")
		}
		if _, err := os.Stat(filepath.Join(c, "values.yaml")); err != nil {
			continue
		}
		code, _, errs := paramctl(t, "", args...)
		require.Equal(t, 0, code, "%s: %s", c, errs)
	}
	return dst
}

// valueSet is one way the chart is installed: -f files and --set kin.
type valueSet struct {
	name  string
	files []string
	sets  []lint.HelmSet
}

// helmAccepted are the recorded cases of the Helm oracle
// (verdicts.json, subchart-verdicts.json) that Helm rendered, by chart.
func helmAccepted(t *testing.T) map[string][]valueSet {
	t.Helper()
	out := map[string][]valueSet{}
	for _, f := range []string{"verdicts.json", "subchart-verdicts.json"} {
		data, err := os.ReadFile(filepath.Join(helmTestdata, f))
		require.NoError(t, err)
		var cases []struct {
			Name, Chart string
			Args        []string
			Helm        struct{ OK bool }
		}
		require.NoError(t, json.Unmarshal(data, &cases))
		for _, c := range cases {
			if !c.Helm.OK {
				continue
			}
			vs := valueSet{name: c.Name}
			ok := true
			for i := 0; i+1 < len(c.Args); i += 2 {
				switch flag := strings.TrimLeft(c.Args[i], "-"); {
				case flag == "f" || flag == "values":
					vs.files = append(vs.files, filepath.Join(helmTestdata, c.Args[i+1]))
				case flag == "set-file":
					ok = false // names a file relative to where the oracle ran
				case slices.Contains(helmSetFlags, flag):
					vs.sets = append(vs.sets, lint.HelmSet{Flag: flag, Value: c.Args[i+1]})
				default:
					ok = false
				}
			}
			if ok && len(c.Args)%2 == 0 {
				out[filepath.Join(helmTestdata, c.Chart)] = append(out[filepath.Join(helmTestdata, c.Chart)], vs)
			}
		}
	}
	return out
}

// TestGeneratedSchemasAcceptWhatHelmAccepts (issue 36 item 2): on every
// chart the project tests with, the schemas paramctl schema generates
// (the chart's and each vendored subchart's, open and --closed) accept
// values.yaml, each ci/*.yaml on top of it, and every value set the
// Helm oracle rendered with the chart's own schemas, judged as Helm
// judges them (paramkit's Helm reading: merge, null rule, subcharts with
// global). Value sets Helm refused with the chart's own schema are left
// out: a generated schema is built to accept, not to refuse the same.
// With --closed, the oracle's value sets count for a chart with
// subcharts only (its dependencies' keys, tags and import-values are
// declared); elsewhere they add root keys a closed root refuses.
func TestGeneratedSchemasAcceptWhatHelmAccepts(t *testing.T) {
	accepted := helmAccepted(t)
	total := 0
	for _, chart := range suiteCharts(t) {
		sets := []valueSet{{name: "values.yaml alone"}}
		ci, _ := filepath.Glob(filepath.Join(chart, "ci", "*.yaml"))
		for _, f := range ci {
			sets = append(sets, valueSet{name: "ci/" + filepath.Base(f), files: []string{f}})
		}
		own := len(sets)
		sets = append(sets, accepted[chart]...)
		_, err := os.Stat(filepath.Join(chart, "charts"))
		withSubcharts := err == nil
		for _, closed := range []bool{false, true} {
			staged := stageWithGeneratedSchemas(t, chart, closed)
			for i, vs := range sets {
				if closed && i >= own && !withSubcharts {
					// A closed root refuses keys values.yaml does not
					// have: that is what --closed asks for.
					continue
				}
				name := chart + " " + vs.name
				if closed {
					name += " (closed)"
				}
				t.Run(name, func(t *testing.T) {
					c, err := lint.ReadChart(os.DirFS(staged))
					if err != nil && strings.Contains(chart, "missing") {
						t.Skip("a dependency Chart.yaml lists is missing: Helm refuses the chart")
					}
					require.NoError(t, err)
					c.ValuesFile, c.SchemaFile = "values.yaml", "values.schema.json"
					for _, f := range vs.files {
						data, err := os.ReadFile(f)
						require.NoError(t, err)
						c.ExtraValues = append(c.ExtraValues, lint.ValuesFile{Name: f, Data: data})
					}
					c.Sets = vs.sets
					_, findings, err := c.HelmValues()
					if err != nil && strings.Contains(chart, "missing") {
						t.Skip("a dependency Chart.yaml lists is missing: Helm refuses the chart")
					}
					require.NoError(t, err)
					for _, f := range findings {
						assert.NotEqual(t, lint.Error, f.Severity, "%s:%d: %s: %s", f.File, f.Line, f.Pointer, f.Message)
					}
					total++
				})
			}
		}
	}
	t.Logf("%d value sets accepted by generated schemas", total)
}

// TestGeneratedSchemasAcceptAsSubchart: each suite chart with its
// generated schemas, vendored by a parent that sets global and hands it
// values (at least {}, which makes Helm keep, and validate, the nulls of
// the chart's own values.yaml), accepts values.yaml and each ci/*.yaml
// as the parent hands them, judged by paramkit's Helm reading. test/helm's
// TestGeneratedSchemasHelm found the case with Helm itself (traefik's
// null booleans typed by helm-docs).
func TestGeneratedSchemasAcceptAsSubchart(t *testing.T) {
	total := 0
	for _, chart := range suiteCharts(t) {
		if strings.Contains(chart, "missing") {
			continue // a dependency Chart.yaml lists is missing: Helm refuses the chart
		}
		meta, err := os.ReadFile(filepath.Join(chart, "Chart.yaml"))
		require.NoError(t, err)
		var m struct{ Name, Version string }
		require.NoError(t, yaml.Unmarshal(meta, &m))
		staged := stageWithGeneratedSchemas(t, chart, false)
		parent := t.TempDir()
		require.NoError(t, os.CopyFS(filepath.Join(parent, "charts", m.Name), os.DirFS(staged)))
		chartYAML := fmt.Sprintf("apiVersion: v2\nname: umbrella\nversion: 0.1.0\ndependencies:\n  - name: %s\n    version: %q\n    repository: file://charts/%s\n", m.Name, m.Version, m.Name)
		require.NoError(t, os.WriteFile(filepath.Join(parent, "Chart.yaml"), []byte(chartYAML), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(parent, "values.yaml"), []byte("global:\n  paramkitUmbrella: {region: eu, replicas: 2}\n"), 0o644))
		sets := map[string]map[string]any{"values.yaml alone": {}}
		ci, _ := filepath.Glob(filepath.Join(chart, "ci", "*.yaml"))
		for _, f := range ci {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			v, err := readHelmValues(data)
			require.NoError(t, err)
			sets["ci/"+filepath.Base(f)] = v
		}
		for name, v := range sets {
			t.Run(chart+" "+name, func(t *testing.T) {
				c, err := lint.ReadChart(os.DirFS(parent))
				require.NoError(t, err)
				data, err := json.Marshal(map[string]any{m.Name: v})
				require.NoError(t, err)
				c.ExtraValues = []lint.ValuesFile{{Name: "parent.json", Data: data}}
				_, findings, err := c.HelmValues()
				require.NoError(t, err)
				for _, f := range findings {
					assert.NotEqual(t, lint.Error, f.Severity, "%s:%d: %s: %s", f.File, f.Line, f.Pointer, f.Message)
				}
				total++
			})
		}
	}
	t.Logf("%d value sets accepted by generated schemas with the chart as a subchart", total)
}
