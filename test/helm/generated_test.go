//go:build helm

package helm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"helm.sh/helm/v4/pkg/cli/values"
	"helm.sh/helm/v4/pkg/getter"
	"sigs.k8s.io/yaml"
)

// generatedChartRoots hold the charts the project tests with, each
// folder with Chart.yaml directly below one of them: the Helm oracle's
// charts, its charts with vendored subcharts, paramctl's own test
// charts, and prometheus with its four subcharts (real templates) and
// each of those subcharts as a chart of its own.
var generatedChartRoots = []string{
	filepath.Join(testdata, "charts"),
	filepath.Join(testdata, "subcharts"),
	"../../examples/paramctl/testdata/charts",
	"testdata",
	"testdata/prometheus/charts",
}

// realisticSets are value sets written for this check, beside the
// chart's ci/*.yaml (which paramctl schema reads as evidence): overlays
// in testdata/prometheus-overlays and the --set lines of a real install.
var realisticSets = map[string][]genSet{
	"testdata/prometheus": {
		{"production.yaml", []string{"-f", "testdata/prometheus-overlays/production.yaml"}},
		{"server-only.yaml", []string{"-f", "testdata/prometheus-overlays/server-only.yaml"}},
		{"subcharts.yaml", []string{"-f", "testdata/prometheus-overlays/subcharts.yaml"}},
		{"scrape.yaml", []string{"-f", "testdata/prometheus-overlays/scrape.yaml"}},
		{"ingress by --set", []string{"--set", "server.ingress.enabled=true", "--set", "server.ingress.hosts[0]=prometheus.example.com", "--set", "server.ingress.ingressClassName=nginx"}},
		{"statefulset by --set", []string{"--set", "server.statefulSet.enabled=true,server.replicaCount=2"}},
		{"NodePort by --set", []string{"--set", "server.image.tag=v3.5.0", "--set", "server.service.type=NodePort", "--set", "server.service.nodePort=30090"}},
		{"node-exporter port by --set", []string{"--set", "prometheus-node-exporter.service.port=9200"}},
		{"subcharts.yaml and --set", []string{"-f", "testdata/prometheus-overlays/subcharts.yaml", "--set", "alertmanager.enabled=false", "--set-string", "server.podAnnotations.checksum=0123"}},
	},
}

// genSet is one way the chart is installed: Helm's value flags, each
// file named by an absolute path.
type genSet struct {
	name string
	args []string
}

// genChart is a chart of the check and its value sets.
type genChart struct {
	dir  string // absolute
	name string // Chart.yaml's name
	// own counts the sets that are the chart's own (values.yaml alone
	// and each ci/*.yaml); the rest are the oracle's recorded cases.
	own  int
	sets []genSet
}

// generatedCharts lists the charts of generatedChartRoots with their
// value sets: values.yaml alone, each ci/*.yaml on top of it, and every
// case the Helm oracle recorded as rendered with the chart's own schema
// (verdicts.json, subchart-verdicts.json).
func generatedCharts(t *testing.T) []genChart {
	t.Helper()
	td, err := filepath.Abs(testdata)
	require.NoError(t, err)
	recorded := map[string][]genSet{}
	for _, f := range []string{"verdicts.json", "subchart-verdicts.json"} {
		data, err := os.ReadFile(filepath.Join(testdata, f))
		require.NoError(t, err)
		var cs []Case
		require.NoError(t, json.Unmarshal(data, &cs))
		for _, c := range cs {
			if !c.Helm.OK {
				continue
			}
			args := slices.Clone(c.Args)
			for i := 0; i+1 < len(args); i++ {
				switch args[i] {
				case "-f", "--values":
					args[i+1] = filepath.Join(td, args[i+1])
				case "--set-file":
					k, v, _ := strings.Cut(args[i+1], "=")
					args[i+1] = k + "=" + filepath.Join(td, v)
				}
			}
			dir := filepath.Join(td, c.Chart)
			recorded[dir] = append(recorded[dir], genSet{name: c.Name, args: args})
		}
	}
	var out []genChart
	for _, root := range generatedChartRoots {
		ents, err := os.ReadDir(root)
		require.NoError(t, err)
		for _, e := range ents {
			dir, err := filepath.Abs(filepath.Join(root, e.Name()))
			require.NoError(t, err)
			meta, err := os.ReadFile(filepath.Join(dir, "Chart.yaml"))
			if err != nil {
				continue
			}
			var m struct{ Name string }
			require.NoError(t, yaml.Unmarshal(meta, &m))
			c := genChart{dir: dir, name: m.Name, sets: []genSet{{name: "values.yaml alone"}}}
			ci, _ := filepath.Glob(filepath.Join(dir, "ci", "*.yaml"))
			sort.Strings(ci)
			for _, f := range ci {
				c.sets = append(c.sets, genSet{name: "ci/" + filepath.Base(f), args: []string{"-f", f}})
			}
			c.own = len(c.sets)
			for _, r := range realisticSets[filepath.ToSlash(filepath.Join(root, e.Name()))] {
				args := slices.Clone(r.args)
				for i := 0; i+1 < len(args); i++ {
					if args[i] == "-f" {
						args[i+1], err = filepath.Abs(args[i+1])
						require.NoError(t, err)
					}
				}
				c.sets = append(c.sets, genSet{name: r.name, args: args})
			}
			for _, s := range recorded[dir] {
				if !slices.ContainsFunc(c.sets, func(o genSet) bool { return slices.Equal(o.args, s.args) }) {
					c.sets = append(c.sets, s)
				}
			}
			out = append(out, c)
		}
	}
	return out
}

// copyTree copies a folder whole.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	}))
}

// chartFolders are the folders of a chart tree that hold a Chart.yaml:
// the chart and each vendored subchart, the chart first.
func chartFolders(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "Chart.yaml" {
			out = append(out, filepath.Dir(p))
		}
		return err
	}))
	return out
}

// schemaMode is how a staged chart's schemas are made.
type schemaMode int

const (
	noSchema  schemaMode = iota // every values.schema.json removed: Helm judges with the templates alone
	generated                   // every values.schema.json replaced by paramctl schema's
	closed                      // generated, the top chart's root --closed
)

// stageGenerated copies a chart tree into dst and replaces every
// values.schema.json (the chart's and each vendored subchart's) as mode
// says: removed, or written by `paramctl schema --write` from that
// chart's values.yaml and ci/*.yaml as a user would run it.
func stageGenerated(t *testing.T, paramctl, chart, dst string, mode schemaMode) {
	t.Helper()
	copyTree(t, chart, dst)
	if _, err := os.Stat(filepath.Join(chart, "charts")); err != nil {
		// Dependencies Chart.yaml lists and no charts/ holds (cluster-aws):
		// left out, as the oracle's stage leaves them out, so that Helm
		// renders the chart's own values instead of refusing the chart.
		data, err := os.ReadFile(filepath.Join(dst, "Chart.yaml"))
		require.NoError(t, err)
		var meta map[string]any
		require.NoError(t, yaml.Unmarshal(data, &meta))
		if _, ok := meta["dependencies"]; ok {
			delete(meta, "dependencies")
			out, err := yaml.Marshal(meta)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dst, "Chart.yaml"), out, 0o644))
		}
	}
	for _, c := range chartFolders(t, dst) {
		require.NoError(t, os.RemoveAll(filepath.Join(c, "values.schema.json")))
		if mode == noSchema {
			continue
		}
		if _, err := os.Stat(filepath.Join(c, "values.yaml")); err != nil {
			continue
		}
		args := []string{"schema", "--write", c}
		if mode == closed && c == dst {
			args = append(args, "--closed")
		}
		out, err := exec.Command(paramctl, args...).CombinedOutput()
		require.NoError(t, err, "paramctl %s: %s", strings.Join(args, " "), out)
	}
}

// helmTemplate runs helm template on a staged chart; nil when Helm
// rendered it, else Helm's error.
func helmTemplate(t *testing.T, helm, chart string, args []string) error {
	t.Helper()
	cmd := exec.Command(helm, append([]string{"template", "x", chart}, args...)...)
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+t.TempDir(), "HELM_CONFIG_HOME="+t.TempDir(), "HELM_DATA_HOME="+t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%v: %s", err, strings.ReplaceAll(strings.TrimSpace(stderr.String()), chart, "CHART"))
	}
	return nil
}

// userValues are the values a set gives, as Helm computes them from its
// flags (its own values.Options): what a parent's values hand the chart
// when it is a subchart.
func userValues(args []string) (map[string]any, error) {
	var o values.Options
	for i := 0; i+1 < len(args); i += 2 {
		v := args[i+1]
		switch args[i] {
		case "-f", "--values":
			o.ValueFiles = append(o.ValueFiles, v)
		case "--set":
			o.Values = append(o.Values, v)
		case "--set-string":
			o.StringValues = append(o.StringValues, v)
		case "--set-json":
			o.JSONValues = append(o.JSONValues, v)
		case "--set-file":
			o.FileValues = append(o.FileValues, v)
		case "--set-literal":
			o.LiteralValues = append(o.LiteralValues, v)
		default:
			return nil, fmt.Errorf("flag %s", args[i])
		}
	}
	return o.MergeValues(getter.Providers{})
}

// umbrellaGlobal is what the parent of the subchart check sets under
// global: keys no chart of the suite declares, which Helm hands every
// subchart.
const umbrellaGlobal = `global:
  paramkitUmbrella:
    region: eu
    replicas: 2
    tags: [a, b]
`

// stageUmbrella makes a parent chart that vendors the staged chart under
// charts/ (a dependency of Chart.yaml) and sets umbrellaGlobal.
func stageUmbrella(t *testing.T, child genChart, staged string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "umbrella")
	meta, err := os.ReadFile(filepath.Join(staged, "Chart.yaml"))
	require.NoError(t, err)
	var m struct{ Version string }
	require.NoError(t, yaml.Unmarshal(meta, &m))
	copyTree(t, staged, filepath.Join(dir, "charts", child.name))
	chartYAML := fmt.Sprintf("apiVersion: v2\nname: umbrella\nversion: 0.1.0\ndependencies:\n  - name: %s\n    version: %q\n    repository: file://charts/%s\n", child.name, m.Version, child.name)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "Chart.yaml"), []byte(chartYAML), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "values.yaml"), []byte(umbrellaGlobal), 0o644))
	return dir
}

// TestGeneratedSchemasHelm (issue 36 item 2): on every chart the
// project tests with, the schemas `paramctl schema` writes (the
// chart's and each vendored subchart's) never make Helm refuse a value
// set that Helm renders with the chart's own templates and no schema:
// values.yaml alone, each ci/*.yaml, and every case the oracle recorded
// as rendered with the chart's own schema. Each set is rendered by real
// `helm template` (which validates the values against every
// values.schema.json), with the generated schemas open, with the top
// chart --closed (the chart's own sets; all sets where the chart has
// subcharts, whose keys a closed root still allows), and with the chart
// as a subchart of a parent that sets global (the chart's values as the
// parent hands them, computed by Helm's own values.Options).
func TestGeneratedSchemasHelm(t *testing.T) {
	helm, paramctl := tools(t)
	runs, skipped := map[string]int{}, 0
	repo, err := filepath.Abs("../..")
	require.NoError(t, err)
	for _, c := range generatedCharts(t) {
		if filepath.Base(c.dir) == "missing" {
			continue // a dependency Chart.yaml lists is missing: Helm refuses the chart whatever its values
		}
		base := filepath.Join(t.TempDir(), c.name)
		stageGenerated(t, paramctl, c.dir, base, noSchema)
		open := filepath.Join(t.TempDir(), c.name)
		stageGenerated(t, paramctl, c.dir, open, generated)
		shut := filepath.Join(t.TempDir(), c.name)
		stageGenerated(t, paramctl, c.dir, shut, closed)
		umbrella := stageUmbrella(t, c, open)
		_, err := os.Stat(filepath.Join(c.dir, "charts"))
		withSubcharts := err == nil
		rel, _ := filepath.Rel(repo, c.dir)
		for i, s := range c.sets {
			t.Run(rel+" "+s.name, func(t *testing.T) {
				if err := helmTemplate(t, helm, base, s.args); err != nil {
					skipped++
					t.Skipf("Helm refuses it with the chart's templates and no schema: %v", err)
				}
				err := helmTemplate(t, helm, open, s.args)
				require.NoError(t, err, "generated schemas: Helm refuses what it renders without them")
				runs["open"]++
				if i < c.own || withSubcharts {
					err := helmTemplate(t, helm, shut, s.args)
					require.NoError(t, err, "generated schemas, the root --closed: Helm refuses what it renders without them")
					runs["closed"]++
				}
				vals, err := userValues(s.args)
				require.NoError(t, err)
				data, err := json.Marshal(map[string]any{c.name: vals})
				require.NoError(t, err)
				f := filepath.Join(t.TempDir(), "parent-values.json")
				require.NoError(t, os.WriteFile(f, data, 0o644))
				err = helmTemplate(t, helm, umbrella, []string{"-f", f})
				require.NoError(t, err, "generated schemas, the chart a subchart of a parent that sets global: Helm refuses it")
				runs["subchart"]++
			})
		}
	}
	t.Logf("helm template accepted every value set with the generated schemas: %d open, %d with the root closed, %d as a subchart; %d sets left out (Helm refuses them without a schema)", runs["open"], runs["closed"], runs["subchart"], skipped)
}

// TestGeneratedSchemasHelmUnseen measures how a generated schema does on
// overlays it has not seen: for each chart with at least two ci/*.yaml,
// each overlay in turn is left out of the evidence (`paramctl schema
// --ci=false -f` every other overlay) and rendered by helm template
// against the schema so made. A refusal here is not a broken promise
// (the schema never saw the overlay's keys or types), so the test
// fails only where Helm cannot run; it logs the figure and each
// refusal.
func TestGeneratedSchemasHelmUnseen(t *testing.T) {
	helm, paramctl := tools(t)
	tried, refused := 0, 0
	for _, c := range generatedCharts(t) {
		ci, _ := filepath.Glob(filepath.Join(c.dir, "ci", "*.yaml"))
		if len(ci) < 2 {
			continue
		}
		base := filepath.Join(t.TempDir(), c.name)
		stageGenerated(t, paramctl, c.dir, base, noSchema)
		staged := filepath.Join(t.TempDir(), c.name)
		stageGenerated(t, paramctl, c.dir, staged, generated)
		for _, out := range ci {
			if helmTemplate(t, helm, base, []string{"-f", out}) != nil {
				continue // the templates refuse it
			}
			args := []string{"schema", "--fresh", "--ci=false", "--write", staged}
			for _, f := range ci {
				if f != out {
					args = append(args, "-f", f)
				}
			}
			o, err := exec.Command(paramctl, args...).CombinedOutput()
			require.NoError(t, err, "%s", o)
			tried++
			if err := helmTemplate(t, helm, staged, []string{"-f", out}); err != nil {
				refused++
				t.Logf("%s: refused by a schema made without it: %v", out, err)
			}
		}
	}
	t.Logf("overlays left out of the evidence: %d of %d rendered by helm template", tried-refused, tried)
}
