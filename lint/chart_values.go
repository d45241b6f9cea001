package lint

import (
	"context"

	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"

	yaml "go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/helmvalues"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/secret"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// HelmValues computes the values Helm v4 renders the chart with and judges
// them as helm template does, with the findings of the rule chart-values about
// them. Values headed for Helm are read as Helm reads them, not typed by
// the schema: YAML 1.1 booleans (yes, on), every number through a
// float64 (1.10 is 1.1, 9007199254740993 is 9007199254740992), the last
// of duplicate keys (a warning), a comment-only file empty values. The
// values files are merged in order (values.yaml's as the chart's, then
// ExtraValues as -f files), then Sets in Helm's order, and the user
// values coalesced over the chart's with Helm's null rule: a null
// removes the key where the chart has a value for it, and nulls in
// values.yaml are dropped. Each error is placed in the last file (or
// --set) that wrote the value, with a line where it is a file; where
// paramkit's schema-typed reading would differ, the message says how
// Helm reads the value and how to write it so that both agree.
//
// Numbers in the values are json.Number with the text of the value Helm
// holds. A chart without a schema gets its values and no findings; a
// values file Helm cannot read, or a --set it refuses, is an error (a
// *schema.Error naming the file or flag).
func (c *Chart) HelmValues() (map[string]any, []Finding, error) {
	if c == nil {
		return nil, nil, schema.NewError(schema.KindUsage, "", "lint: no chart")
	}
	hv, err := c.helmValues(orDefault(c.ValuesFile, chartValuesFile), newChartMemo())
	if err != nil {
		return nil, nil, err
	}
	out := hv.warnings
	if hv.tree != nil {
		fs, err := hv.judgeTree(hv.tree, hv.values, nil, orDefault(c.SchemaFile, chartSchemaFile))
		if err != nil {
			return hv.values, nil, err
		}
		out = append(out, fs...)
	} else if c.Schema != nil {
		s, err := schema.Parse(c.Schema)
		if err != nil {
			return hv.values, nil, schema.ErrorIn(orDefault(c.SchemaFile, chartSchemaFile), err)
		}
		out = append(out, hv.judge(s)...)
	}
	sortFindings(out)
	return hv.values, out, nil
}

// chartValues is what Chart.Lint reports about the values: values.yaml
// with ExtraValues and Sets, then each overlay on top of them on its own
// (a finding the first run has already is not repeated; one an overlay
// causes elsewhere says so). Nothing when the schema does not compile
// (its findings say why).
func chartValues(c *Chart, valuesFile string) ([]Finding, error) {
	// One memo for the whole run: each overlay's reading reuses the
	// subcharts' values files and compiled schemas the first computed.
	memo := newChartMemo()
	memo.keepOwn = len(c.Overlays) > 0
	var s *schema.Schema
	if c.Schema != nil || len(c.subcharts) == 0 {
		var err error
		if s, err = memo.parse(c.Schema); err != nil {
			return nil, nil
		}
	}
	hv, err := c.helmValues(valuesFile, memo)
	if err != nil {
		return nil, err
	}
	judged, err := hv.judgeChart(s, valuesFile)
	if err != nil {
		return nil, err
	}
	out := append(hv.warnings, judged...)
	if s != nil {
		out = append(out, withoutSubchartKeys(valuesDrift(s, c.Values, valuesFile, out), c.subchartKeys())...)
	}
	seen := map[Finding]bool{}
	for _, f := range out {
		seen[f] = true
	}
	for _, o := range c.Overlays {
		oc := *c
		oc.ExtraValues = append(append([]ValuesFile(nil), c.ExtraValues...), o)
		ohv, err := oc.helmValues(valuesFile, memo)
		if err != nil {
			return nil, err
		}
		ojudged, err := ohv.judgeChart(s, valuesFile)
		if err != nil {
			return nil, err
		}
		for _, f := range append(ohv.warnings, ojudged...) {
			if seen[f] {
				continue
			}
			seen[f] = true
			if f.File != o.Name {
				f.Message += " (with " + o.Name + " on top)"
			}
			out = append(out, f)
		}
	}
	return out, nil
}

// chartValuesDriftRule warns of keys in values.yaml that the schema does not
// declare (their parent lists properties and gives no
// additionalProperties schema): the schema and the chart's values have
// drifted apart, and users read the schema's docs. Chart.Lint runs it
// whatever the sets; a key the schema forbids is an error of
// ChartValues instead.
var chartValuesDriftRule = &Rule{
	ID: "chart-values-drift", Set: "chart", Severity: Warning,
	Doc: "in a Helm chart, every key of values.yaml is declared by values.schema.json",
	Run: func(*Pass) {}, // Chart.Lint reports its findings
}

// valuesDrift is ChartValuesDrift's findings: the undeclared keys of
// values.yaml as Helm reads it, at their lines, but those an error
// already names.
func valuesDrift(s *schema.Schema, data []byte, file string, errs []Finding) []Finding {
	v, err := helmvalues.Read(data)
	if err != nil {
		return nil
	}
	named := map[string]bool{}
	for _, f := range errs {
		if f.Severity == Error {
			named[f.Pointer] = true
		}
	}
	var out []Finding
	undeclared, _, _ := params.Undeclared(context.Background(), s, v, nil, 0) // fails only for a nil or zero schema: no findings
	for _, w := range undeclared {
		if named[w.Pointer] {
			continue
		}
		out = append(out, Finding{Rule: chartValuesDriftRule.ID, Severity: Warning, File: file, Pointer: w.Pointer,
			Message: "values.yaml sets it, values.schema.json does not declare it: " + w.Message})
	}
	if len(out) == 0 {
		return nil
	}
	// The node trees, for the lines, only when there is a finding to
	// place.
	text := newValuesText(data)
	for i := range out {
		node, dl := text.treeAt(out[i].Pointer)
		line, col, _ := document.Locate(node, out[i].Pointer)
		if line > 0 {
			line += dl
		}
		out[i].Line, out[i].Column = line, col
	}
	return out
}

// valuesSource is one writer of values: a file (with its parsed text for
// lines) or one --set-family assignment (with the paths it wrote).
type valuesSource struct {
	name string
	// file is the text of a values file, parsed for lines when a finding
	// needs one (tree); nil for an assignment.
	file  *valuesText
	flag  string
	paths [][]string
	// prefix is where a subchart's values.yaml sits in the values (its
	// name or alias, below its parents'); dir is its folder's path.
	prefix []string
	dir    string
}

type helmValues struct {
	// memo holds what readings of the same chart share (nil: nothing).
	memo     *chartMemo
	values   map[string]any
	sources  []valuesSource
	warnings []Finding
	// top is the index in sources of the chart's own values file (after
	// its subcharts' values files); tree the chart with its enabled
	// subcharts, nil for a chart without any.
	top  int
	tree *helmvalues.Chart
}

// helmValues reads and merges the chart's values as Helm does.
func (c *Chart) helmValues(valuesFile string, memo *chartMemo) (*helmValues, error) {
	hv := &helmValues{memo: memo}
	chartVals, err := hv.readFileOnce(valuesFile, c.Values)
	if err != nil {
		return nil, err
	}
	for _, set := range c.Sets {
		if !slices.Contains(helmvalues.Flags[:], set.Flag) {
			return nil, schema.NewError(schema.KindUsage, "", "--%s: %v", set.Flag, helmvalues.ErrFlag)
		}
	}
	user := map[string]any{}
	for _, f := range c.ExtraValues {
		v, err := hv.readFile(f.Name, f.Data)
		if err != nil {
			return nil, err
		}
		user = helmvalues.MergeMaps(user, v)
	}
	for _, flag := range helmvalues.Flags {
		for _, set := range c.Sets {
			if set.Flag != flag {
				continue
			}
			name := "--" + flag + " " + set.Value
			if user, err = helmvalues.Apply(flag, set.Value, user, c.ReadFile); err != nil {
				return nil, schema.ErrorIn(name, schema.NewError(schema.KindSyntax, "", "%v", err))
			}
			probe, _ := helmvalues.Apply(flag, set.Value, map[string]any{}, func(string) ([]byte, error) { return nil, nil })
			hv.sources = append(hv.sources, valuesSource{name: name, flag: flag, paths: leafPaths(probe, nil, nil)})
		}
	}
	if len(c.subcharts) > 0 {
		if hv.tree, err = c.withSubcharts(hv, valuesFile, chartVals, user); err != nil {
			return nil, err
		}
		return hv, nil
	}
	// Both were read for this reading alone (the memo keeps subcharts'
	// values only): coalescing takes them over rather than copying them.
	hv.values = helmvalues.CoalesceOwned(chartVals, user)
	return hv, nil
}

// valuesText is a values file's text and, once a finding asked for a
// line, a node tree. The tree (about 20 times the text) is not held
// while the values are read and judged, so that a large values file costs
// what its values do; where the file parses a batch of top-level entries
// at a time as it does whole (see duplicateKeysByEntry), a finding's
// line costs the tree of its top-level key's batch only.
type valuesText struct {
	data   []byte
	node   *yaml.Node
	parsed bool
	// batches are the file's batches, and rootBatch the batch of each
	// top-level key, when the file parses by batches; nil otherwise.
	batches   []helmvalues.Entry
	rootBatch map[string]int
	// at is the batch atNode is the tree of: the last one parsed.
	at     int
	atNode *yaml.Node
}

// newValuesText keeps a values file's text, and the batches it parses
// by as it does whole, if any.
func newValuesText(data []byte) *valuesText {
	t := &valuesText{data: data}
	_, t.batches, t.rootBatch = duplicateKeysBatched("", data, helmvalues.BatchBytes)
	return t
}

// tree is the file's node tree: nil for no file, or one that does not
// parse. Where the file parses by batches, the tree of the root's batch
// (see treeAt).
func (src *valuesSource) tree() *yaml.Node {
	if src.file == nil {
		return nil
	}
	n, _ := src.file.treeAt("")
	return n
}

// treeAt is the node tree in which the pointer ptr (into the file's
// values) is found, with the number of the file's lines before that tree:
// the batch that holds ptr's top-level key (the first batch for the root
// or a key the file lacks, whose tree's root is where the file's is), or
// the whole file's tree. Nil when the file does not parse.
func (t *valuesText) treeAt(ptr string) (*yaml.Node, int) {
	if t.batches == nil {
		if !t.parsed {
			t.node, _ = document.ParseNode(t.data)
			t.parsed = true
		}
		return t.node, 0
	}
	i := 0
	if toks, err := pointer.Split(ptr); err == nil && len(toks) > 0 {
		if j, ok := t.rootBatch[toks[0]]; ok {
			i = j
		}
	}
	if t.atNode == nil || t.at != i {
		n, err := document.ParseNode(t.batches[i].Text)
		if err != nil || n == nil { // it parsed before: never so
			t.batches = nil
			return t.treeAt(ptr)
		}
		t.at, t.atNode = i, n
	}
	return t.atNode, t.batches[i].Line - 1
}

// readFile reads one values file as Helm does, keeps its text for lines,
// and warns of duplicate keys.
func (hv *helmValues) readFile(name string, data []byte) (map[string]any, error) {
	// The node trees for duplicate keys are dropped before the values
	// are read: the two are never held together.
	dups, batches, rootBatch := duplicateKeysBatched(name, data, helmvalues.BatchBytes)
	hv.warnings = append(hv.warnings, dups...)
	v, err := helmvalues.Read(data)
	if err != nil {
		// The YAML reader's message carries the line where it knows it.
		if _, derr := document.Read(data, document.Options{}); derr != nil {
			return nil, schema.ErrorIn(name, derr)
		}
		return nil, schema.ErrorIn(name, schema.NewError(schema.KindSyntax, "", "Helm cannot read it: %v", err))
	}
	hv.sources = append(hv.sources, valuesSource{name: name, file: &valuesText{data: data, batches: batches, rootBatch: rootBatch}})
	return v, nil
}

// duplicateKeysBatched warns of each key given twice in one mapping of a
// values file. The file is parsed a batch of top-level entries (about
// batch bytes) at a time where that finds what parsing it whole finds
// (see helmvalues.Entries): the node tree of a whole file is about 20
// times its text. It returns the batches, and the batch of each
// top-level key, when the file parses by them (nil otherwise).
func duplicateKeysBatched(file string, data []byte, batch int) ([]Finding, []helmvalues.Entry, map[string]int) {
	if entries := helmvalues.Batches(data, batch); len(entries) > 1 && len(data) <= document.MaxDocumentBytes {
		if fs, rootBatch, ok := duplicateKeysByEntry(file, entries); ok {
			return fs, entries, rootBatch
		}
	}
	n, _ := document.ParseNode(data)
	return duplicateKeys(file, n, "", 0), nil, nil
}

// duplicateKeysByEntry is duplicateKeysBatched for the entries of a document,
// with the entry of each top-level key; ok is false when an entry does
// not parse as a mapping, two entries give the same key, or a top-level
// key is a merge key (<<): then only parsing the whole document tells.
func duplicateKeysByEntry(file string, entries []helmvalues.Entry) (out []Finding, rootBatch map[string]int, ok bool) {
	rootBatch = map[string]int{}
	for j, e := range entries {
		n, err := document.ParseNode(e.Text)
		if err != nil || n == nil || n.Kind != yaml.MappingNode {
			return nil, nil, false
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
				return nil, nil, false
			}
			if at, seen := rootBatch[k.Value]; seen && at != j {
				return nil, nil, false
			}
			rootBatch[k.Value] = j
		}
		out = append(out, duplicateKeys(file, n, "", e.Line-1)...)
	}
	return out, rootBatch, true
}

// readFileOnce is readFile for the chart's own values file, which every
// reading of the run (values.yaml, then each overlay on top) starts
// from: parsed once, its values copied out on each use (coalescing
// changes them), its source and warnings added as readFile adds them.
// Without overlays (keepOwn unset) it is readFile.
func (hv *helmValues) readFileOnce(name string, data []byte) (map[string]any, error) {
	if hv.memo == nil || !hv.memo.keepOwn {
		return hv.readFile(name, data)
	}
	sv, err := hv.readFileAs(name, data)
	if err != nil {
		return nil, err
	}
	hv.sources = append(hv.sources, sv.source)
	return sv.values, nil
}

// duplicateKeys warns of each key given twice in one mapping: Helm keeps
// the last value, most YAML tools refuse the file. The node's lines are
// dl lines before the file's.
func duplicateKeys(file string, n *yaml.Node, ptr string, dl int) []Finding {
	if n == nil {
		return nil
	}
	var out []Finding
	switch n.Kind {
	case yaml.MappingNode:
		first := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
				continue
			}
			p := ptr + "/" + pointer.Escape(k.Value)
			line := k.Line + dl
			if before, ok := first[k.Value]; ok {
				out = append(out, Finding{Rule: chartValuesRule.ID, Severity: Warning, File: file, Pointer: p, Line: line, Column: k.Column,
					Message: fmt.Sprintf("%q is given twice (lines %d and %d): Helm keeps the last value, other YAML readers refuse the file", k.Value, before, line)})
			} else {
				first[k.Value] = line
			}
			out = append(out, duplicateKeys(file, n.Content[i+1], p, dl)...)
		}
	case yaml.SequenceNode:
		for i, e := range n.Content {
			out = append(out, duplicateKeys(file, e, fmt.Sprintf("%s/%d", ptr, i), dl)...)
		}
	}
	return out
}

// leafPaths lists the paths to the leaves of v (empty maps and lists
// count as leaves).
func leafPaths(v any, prefix []string, out [][]string) [][]string {
	switch t := v.(type) {
	case map[string]any:
		if len(t) > 0 {
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				out = leafPaths(t[k], append(append([]string(nil), prefix...), k), out)
			}
			return out
		}
	case []any:
		if len(t) > 0 {
			for i, x := range t {
				out = leafPaths(x, append(append([]string(nil), prefix...), fmt.Sprint(i)), out)
			}
			return out
		}
	}
	if len(prefix) == 0 {
		return out
	}
	return append(out, prefix)
}

// judge validates the values against the schema as helm template does
// and places each error.
func (hv *helmValues) judge(s *schema.Schema) []Finding {
	var out []Finding
	for _, e := range schema.ErrorsOf(params.Validate(s, hv.values)) {
		// A key the schema forbids is an error at the key (one a key),
		// so its finding has the key's line.
		out = append(out, Finding{Rule: chartValuesRule.ID, Severity: Error, Pointer: e.Pointer, Message: e.Message, Kind: e.Kind})
	}
	for i := range out {
		src := hv.place(&out[i])
		out[i].File = hv.shownName(s, out[i].File)
		if out[i].Kind == schema.KindType && src != nil {
			if msg := hv.twoReadings(s, src, out[i].Pointer, out[i].Pointer); msg != "" {
				out[i].Message = msg
				continue
			}
		}
		if hv.hint(s, &out[i], src, out[i].Pointer) {
			continue
		}
		if note := hv.numberNote(s, src, out[i].Pointer); note != "" {
			out[i].Message += " (" + note + ")"
		}
	}
	return out
}

// shownName is the name of a source as a finding shows it: a --set
// assignment that writes a secret (writeOnly, format: password) without
// its value, as every message hides one.
func (hv *helmValues) shownName(s *schema.Schema, name string) string {
	for _, src := range hv.sources {
		if src.name != name || src.flag == "" {
			continue
		}
		for _, p := range src.paths {
			if s.HoldsSecretAt(pointer.Join(p...)) {
				return secret.Assignment(true, name)
			}
		}
	}
	return name
}

// place gives a finding the file (or --set), line and column of its
// value: the last source that writes it, else the one that writes the
// longest part of its pointer (the object a required property is
// missing from), the chart's values file when none. It returns the
// source that writes the value itself, nil when none does.
func (hv *helmValues) place(f *Finding) *valuesSource {
	toks, err := pointer.Split(f.Pointer)
	if err != nil {
		toks = nil
	}
	f.File = hv.sources[hv.top].name
	best := -1
	for j := len(hv.sources) - 1; j >= 0; j-- {
		src := &hv.sources[j]
		line, col, depth := src.locate(toks)
		if depth == len(toks) && (src.tree() != nil || depth > 0) {
			f.File, f.Line, f.Column = src.name, line, col
			return src
		}
		if depth > best {
			best = depth
			f.File, f.Line, f.Column = src.name, line, col
		}
	}
	return nil
}

// locate says how many tokens of the path the source writes and where.
func (src *valuesSource) locate(toks []string) (line, col, depth int) {
	if len(src.prefix) > 0 {
		if len(toks) < len(src.prefix) || !slices.Equal(toks[:len(src.prefix)], src.prefix) {
			return 0, 0, -1
		}
		sub := *src
		sub.prefix = nil
		line, col, depth = sub.locate(toks[len(src.prefix):])
		if depth < 0 {
			return 0, 0, -1
		}
		return line, col, depth + len(src.prefix)
	}
	if src.file != nil {
		if node, dl := src.file.treeAt(pointer.Join(toks...)); node != nil {
			for d := len(toks); d >= 0; d-- {
				if l, c, ok := document.Locate(node, pointer.Join(toks[:d]...)); ok {
					if l > 0 {
						l += dl
					}
					if d == 0 && node.Kind == yaml.MappingNode && len(node.Content) == 0 {
						return l, c, 0
					}
					return l, c, d
				}
			}
			return 0, 0, -1
		}
	}
	best := -1
	for _, p := range src.paths {
		d := 0
		for d < len(p) && d < len(toks) && p[d] == toks[d] {
			d++
		}
		if d > best {
			best = d
		}
	}
	return 0, 0, best
}

// twoReadings is the message for a type error where Helm's reading of a
// plain scalar differs from paramkit's schema-typed one: how Helm reads
// it and how to write it so that both agree.
// ptr points into the whole values, rel into the values s judges (a
// subchart's).
func (hv *helmValues) twoReadings(s *schema.Schema, src *valuesSource, ptr, rel string) string {
	v, ok := pointer.Get(hv.values, ptr)
	if !ok {
		return ""
	}
	var as string
	switch t := v.(type) {
	case nil:
		as = "null"
	case bool:
		as = fmt.Sprintf("the boolean %v", t)
	case json.Number:
		as = "the number " + string(t)
	default:
		return ""
	}
	wantsString := false
	if n := s.Lookup(rel); n != nil && n.Allows("string") {
		wantsString = true
	}
	secret := s.SecretAt(rel)
	var node *yaml.Node
	if src.file != nil {
		node, _ = src.file.treeAt(src.within(ptr))
	}
	if node == nil {
		if src.flag != "set" || !wantsString {
			return ""
		}
		if secret {
			return "--set reads the value (value hidden) as " + kindOf(v) + "; the schema wants a string: give it with --set-string"
		}
		return fmt.Sprintf("--set reads %s as %s; the schema wants a string: give it with --set-string", jsonText(v), as)
	}
	n := nodeAt(node, src.within(ptr))
	if n == nil || n.Kind != yaml.ScalarNode || n.Style != 0 {
		return ""
	}
	text := n.Value
	if secret {
		if wantsString {
			return "Helm reads the value (value hidden) as " + kindOf(v) + "; the schema wants a string: quote it"
		}
		return ""
	}
	if text == "" {
		if wantsString {
			return `Helm reads an empty value as null; the schema wants a string: write "" or remove the key`
		}
		return ""
	}
	if wantsString {
		return fmt.Sprintf("Helm reads %s as %s; the schema wants a string: write %q", text, as, text)
	}
	return ""
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	}
	return "a number"
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// nodeAt is the node a pointer resolves to in parsed YAML (the last of
// duplicate keys, as Helm keeps it), nil when none.
func nodeAt(n *yaml.Node, ptr string) *yaml.Node {
	toks, err := pointer.Split(ptr)
	if err != nil || n == nil {
		return nil
	}
	for _, t := range toks {
		for d := 0; n.Kind == yaml.AliasNode && n.Alias != nil && d < document.MaxDepth; d++ {
			n = n.Alias
		}
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Value == t {
					next = n.Content[i+1]
				}
			}
		case yaml.SequenceNode:
			if i, err := pointer.Index(t, len(n.Content)); err == nil {
				next = n.Content[i]
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return n
}

// judgeChart is judge, or judgeTree for a chart with subcharts.
func (hv *helmValues) judgeChart(s *schema.Schema, valuesFile string) ([]Finding, error) {
	if hv.tree == nil {
		return hv.judge(s), nil
	}
	return hv.judgeTree(hv.tree, hv.values, nil, path.Join(path.Dir(valuesFile), chartSchemaFile))
}
