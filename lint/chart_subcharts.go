package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/paramkit/paramkit/internal/helmvalues"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/secret"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// subchartFiles is one subchart folder under a chart's charts/ as
// ReadChart finds it: its Chart.yaml's name and dependencies, its
// values.yaml and values.schema.json, and its own subcharts.
type subchartFiles struct {
	dir    string // relative to the top chart: "charts/common"
	name   string
	values []byte
	schema []byte
	deps   []helmvalues.Dep
	subs   []*subchartFiles
	// archive names a packaged subchart (charts/x.tgz), which paramctl
	// does not unpack: judging the values is refused.
	archive string
}

// readSubcharts reads the subchart folders under dir/charts (a missing
// folder is none), each with its own subcharts.
func readSubcharts(fsys fs.FS, dir string) ([]*subchartFiles, error) {
	entries, err := fs.ReadDir(fsys, path.Join(dir, "charts"))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, ioError(err)
	}
	var out []*subchartFiles
	for _, e := range entries {
		if strings.IndexAny(e.Name(), "._") == 0 {
			continue // Helm's loader ignores them too
		}
		sub := path.Join(dir, "charts", e.Name())
		if !e.IsDir() {
			if strings.HasSuffix(e.Name(), ".tgz") || strings.HasSuffix(e.Name(), ".tar.gz") {
				out = append(out, &subchartFiles{dir: sub, archive: sub})
			}
			continue
		}
		meta, err := readChartFile(fsys, path.Join(sub, chartFile))
		if errors.Is(err, fs.ErrNotExist) {
			// Helm refuses the chart ("Chart.yaml file is missing");
			// paramctl leaves the folder out.
			continue
		}
		if err != nil {
			return nil, ioError(err)
		}
		s := &subchartFiles{dir: sub}
		s.name, s.deps = chartDeps(meta)
		if s.name == "" {
			s.name = e.Name()
		}
		for _, f := range []struct {
			name string
			dst  *[]byte
		}{{chartSchemaFile, &s.schema}, {chartValuesFile, &s.values}} {
			data, err := readChartFile(fsys, path.Join(sub, f.name))
			switch {
			case err == nil:
				*f.dst = data
			case !errors.Is(err, fs.ErrNotExist):
				return nil, ioError(err)
			}
		}
		if s.subs, err = readSubcharts(fsys, sub); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// chartDeps reads a Chart.yaml's name and dependencies as Helm does
// (nil dependencies when it lists none); what it cannot read is
// chart-file's to report.
func chartDeps(meta []byte) (string, []helmvalues.Dep) {
	m, err := helmvalues.ReadMap(meta)
	if err != nil {
		return "", nil
	}
	name, _ := m["name"].(string)
	list, ok := m["dependencies"].([]any)
	if !ok || len(list) == 0 {
		return name, nil
	}
	var deps []helmvalues.Dep
	for _, x := range list {
		d, ok := x.(map[string]any)
		if !ok {
			continue
		}
		dep := helmvalues.Dep{}
		dep.Name, _ = d["name"].(string)
		dep.Alias, _ = d["alias"].(string)
		dep.Condition, _ = d["condition"].(string)
		if tags, ok := d["tags"].([]any); ok {
			for _, t := range tags {
				if s, ok := t.(string); ok {
					dep.Tags = append(dep.Tags, s)
				}
			}
		}
		dep.ImportValues, _ = d["import-values"].([]any)
		deps = append(deps, dep)
	}
	return name, deps
}

// withSubcharts computes the values as helm template does for a chart
// with subcharts (ProcessDependencies, then CoalesceValues): each
// enabled subchart's values under its name or alias, with the parent's
// globals. It returns the chart tree Helm validates (only the enabled
// subcharts). Each subchart's values.yaml becomes a source of values
// below its place, behind every file and --set of the user's.
func (c *Chart) withSubcharts(hv *helmValues, valuesFile string, chartVals, user map[string]any) (*helmvalues.Chart, error) {
	name, deps := chartDeps(c.Metadata)
	root := &helmvalues.Chart{Name: name, Values: chartVals, Schema: c.Schema, Deps: deps}
	var subSources []valuesSource
	var build func(files []*subchartFiles) ([]*helmvalues.Chart, error)
	build = func(files []*subchartFiles) ([]*helmvalues.Chart, error) {
		var out []*helmvalues.Chart
		for _, f := range files {
			if f.archive != "" {
				return nil, schema.ErrorIn(f.archive, schema.NewError(schema.KindUsage, "",
					"a packaged subchart: paramctl reads subchart folders, not archives; unpack it (tar -xzf %s -C %s) to judge the values as Helm does", path.Base(f.archive), path.Dir(f.archive)))
			}
			file := path.Join(path.Dir(valuesFile), f.dir, chartValuesFile)
			v, err := hv.readFileAs(file, f.values)
			if err != nil {
				return nil, err
			}
			subs, err := build(f.subs)
			if err != nil {
				return nil, err
			}
			out = append(out, &helmvalues.Chart{Name: f.name, Dir: f.dir, Values: v.values, Schema: f.schema, Deps: f.deps, Subs: subs})
			v.source.dir = f.dir
			subSources = append(subSources, v.source)
		}
		return out, nil
	}
	subs, err := build(c.subcharts)
	if err != nil {
		return nil, err
	}
	root.Subs = subs
	if missing := helmvalues.Missing(root); len(missing) > 0 {
		return nil, schema.ErrorIn(chartFile, schema.NewError(schema.KindIO, "",
			"found in Chart.yaml, but missing in charts/ directory: %s (helm template refuses the chart until helm dependency build)", strings.Join(missing, ", ")))
	}
	if err := helmvalues.Process(root, user); err != nil {
		return nil, schema.ErrorIn(chartFile, schema.NewError(schema.KindSyntax, "", "%v", err))
	}
	values, err := helmvalues.CoalesceChart(root, user)
	if err != nil {
		return nil, schema.ErrorIn(valuesFile, schema.NewError(schema.KindSyntax, "", "%v", err))
	}
	hv.values = values
	// A subchart's values sit under the path of its (enabled) place.
	placed := map[string][][]string{}
	var walk func(c *helmvalues.Chart, prefix []string)
	walk = func(c *helmvalues.Chart, prefix []string) {
		for _, s := range c.Subs {
			p := append(append([]string(nil), prefix...), s.Name)
			placed[s.Dir] = append(placed[s.Dir], p)
			walk(s, p)
		}
	}
	walk(root, nil)
	var kept []valuesSource
	for _, s := range subSources {
		for _, p := range placed[s.dir] {
			s.prefix = p
			kept = append(kept, s)
		}
	}
	hv.sources = append(kept, hv.sources...)
	hv.top = len(kept)
	return root, nil
}

// subValues is one subchart values file as readFileAs reads it.
type subValues struct {
	values map[string]any
	source valuesSource
}

// readFileAs reads a subchart's values.yaml as Helm does, without
// adding it to the sources (it goes below its place).
func (hv *helmValues) readFileAs(name string, data []byte) (*subValues, error) {
	if r, ok := hv.memo.subValues(name, data); ok {
		hv.warnings = append(hv.warnings, r.warnings...)
		return &subValues{values: value.DeepCopy(r.values).(map[string]any), source: r.source}, nil
	}
	n, w := len(hv.sources), len(hv.warnings)
	v, err := hv.readFile(name, data)
	if err != nil {
		return nil, err
	}
	src := hv.sources[n]
	hv.sources = hv.sources[:n]
	hv.memo.keepSubValues(name, data, memoValues{values: value.DeepCopy(v).(map[string]any), source: src, warnings: slices.Clone(hv.warnings[w:])})
	return &subValues{values: v, source: src}, nil
}

// judgeTree validates as Helm's ValidateAgainstSchema does: the values
// against the chart's schema, then each enabled subchart's values (where
// present and not null) against its own schema, with the pointers of the
// whole values. A subchart's schema that does not compile is an error
// naming its file.
func (hv *helmValues) judgeTree(c *helmvalues.Chart, values map[string]any, prefix []string, schemaFile string) ([]Finding, error) {
	var out []Finding
	if c.Schema != nil {
		s, err := hv.memo.parse(c.Schema)
		if err != nil {
			return nil, schema.ErrorIn(schemaFile, err)
		}
		out = append(out, hv.judgeAt(s, values, prefix)...)
	}
	subs := append([]*helmvalues.Chart(nil), c.Subs...)
	sort.SliceStable(subs, func(i, j int) bool { return subs[i].Name < subs[j].Name })
	for _, sub := range subs {
		raw, ok := values[sub.Name]
		if !ok || raw == nil {
			continue
		}
		p := append(append([]string(nil), prefix...), sub.Name)
		sv, ok := raw.(map[string]any)
		if !ok {
			f := Finding{Rule: chartValuesRule.ID, Severity: Error, Pointer: pointer.Join(p...),
				Message: fmt.Sprintf("subchart %s: invalid type for values: expected object (map), got %s", sub.Name, kindOf(raw))}
			hv.place(&f)
			out = append(out, f)
			continue
		}
		fs, err := hv.judgeTree(sub, sv, p, path.Join(path.Dir(hv.sources[hv.top].name), sub.Dir, chartSchemaFile))
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	if len(prefix) == 0 {
		hv.hideSecretSets(out)
	}
	return out, nil
}

// judgeAt is judge for the values of a (sub)chart at prefix of the
// whole values: pointers and places are the whole values'.
func (hv *helmValues) judgeAt(s *schema.Schema, values map[string]any, prefix []string) []Finding {
	if len(prefix) == 0 {
		return hv.judge(s)
	}
	whole := hv.values
	hv.values = values
	var out []Finding
	for _, e := range schema.ErrorsOf(params.Validate(s, values)) {
		out = append(out, Finding{Rule: chartValuesRule.ID, Severity: Error, Pointer: e.Pointer, Message: e.Message, Kind: e.Kind})
	}
	hv.values = whole
	base := pointer.Join(prefix...)
	for i := range out {
		rel := out[i].Pointer
		out[i].Pointer = base + rel
		out[i].Message = "subchart " + prefix[len(prefix)-1] + ": " + out[i].Message
		if rel == "/global" || strings.HasPrefix(rel, "/global/") {
			// The parent's globals win over the subchart's: place a
			// global at the file that wrote it at the top.
			g := Finding{Pointer: rel}
			if hv.place(&g) != nil {
				out[i].File, out[i].Line, out[i].Column = g.File, g.Line, g.Column
				continue
			}
		}
		src := hv.place(&out[i])
		if out[i].Kind == schema.KindType && src != nil {
			if msg := hv.twoReadings(s, src, out[i].Pointer, rel); msg != "" {
				out[i].Message = "subchart " + prefix[len(prefix)-1] + ": " + msg
				continue
			}
		}
		if hv.hint(s, &out[i], src, rel) {
			out[i].Message = "subchart " + prefix[len(prefix)-1] + ": " + out[i].Message
			continue
		}
		if s.HoldsSecretAt(rel) {
			continue // a secret's text is never quoted
		}
		if note := hv.numberNote(nil, src, out[i].Pointer); note != "" {
			out[i].Message += " (" + note + ")"
		}
	}
	return out
}

// subchartKeys are the top-level keys of a chart's values that belong to
// its subcharts (their names and aliases, and tags where a dependency has
// any): not undeclared keys of the parent's schema.
func (c *Chart) subchartKeys() map[string]bool {
	keys := map[string]bool{}
	_, deps := chartDeps(c.Metadata)
	for _, d := range deps {
		keys[d.Name] = true
		if d.Alias != "" {
			keys[d.Alias] = true
		}
		if len(d.Tags) > 0 {
			keys["tags"] = true
		}
	}
	for _, s := range c.subcharts {
		if s.name != "" {
			keys[s.name] = true
		}
	}
	return keys
}

// withoutSubchartKeys drops the drift findings about subcharts' keys.
func withoutSubchartKeys(fs []Finding, keys map[string]bool) []Finding {
	if len(keys) == 0 {
		return fs
	}
	var out []Finding
	for _, f := range fs {
		toks, err := pointer.Split(f.Pointer)
		if err == nil && len(toks) > 0 && keys[toks[0]] {
			continue
		}
		out = append(out, f)
	}
	return out
}

// hideSecretSets hides the value of each --set assignment a finding
// names where the assignment writes what the schema of the chart or of
// any subchart holds as a secret (a parent's global reaches every
// subchart).
func (hv *helmValues) hideSecretSets(fs []Finding) {
	if hv.tree == nil {
		return
	}
	hidden := map[string]bool{}
	for _, src := range hv.sources {
		if src.flag == "" {
			continue
		}
		for _, p := range src.paths {
			if treeHoldsSecret(hv.tree, p) {
				hidden[src.name] = true
			}
		}
	}
	for i := range fs {
		if hidden[fs[i].File] {
			fs[i].File = secret.Assignment(true, fs[i].File)
		}
	}
}

func treeHoldsSecret(c *helmvalues.Chart, p []string) bool {
	if c.Schema != nil {
		if s, err := schema.Parse(c.Schema); err == nil && s.HoldsSecretAt(pointer.Join(p...)) {
			return true
		}
	}
	for _, sub := range c.Subs {
		if len(p) > 1 && sub.Name == p[0] && treeHoldsSecret(sub, p[1:]) {
			return true
		}
		if len(p) > 0 && p[0] == "global" && treeHoldsSecret(sub, p) {
			return true
		}
	}
	return false
}

// within is a pointer into the whole values as a pointer into the
// source's own file (below a subchart values file's place).
func (src *valuesSource) within(ptr string) string {
	if len(src.prefix) == 0 {
		return ptr
	}
	toks, err := pointer.Split(ptr)
	if err != nil || len(toks) < len(src.prefix) {
		return ptr
	}
	return pointer.Join(toks[len(src.prefix):]...)
}
