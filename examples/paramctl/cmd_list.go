package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/trigger"
)

type listOptions struct {
	schema     string
	output     string
	crdVersion string
	write      string
	check      string
	force      bool
}

func init() {
	register(&command{
		name:  "list",
		usage: "--schema S [--crd-version V] [-o table|markdown|json] [--write FILE [--force] | --check FILE]",
		short: "list the parameter tree: name, type, default, required, trigger, immutable, description",
		long: `-o markdown writes documentation for a README: one table per object, the Trigger and
Immutable columns only when the schema uses trigger or immutable, enum values and examples
beside each description (whose Markdown is kept), long defaults cut short, and what lies
under patternProperties, additionalProperties and oneOf/anyOf too.

--write FILE puts that documentation between the lines <!-- DOCS_START --> and
<!-- DOCS_END --> of FILE (a chart's README.md), replacing what stood there and nothing
else; the file is replaced whole or not at all. --check FILE changes nothing and exits 1
when that section differs from what --write would put there (for CI).`,
		setup: func(fs *flag.FlagSet) any {
			o := &listOptions{}
			fs.StringVar(&o.schema, "schema", "", "the parameter schema (YAML or JSON; - for standard input; a Helm chart folder for its values.schema.json)")
			fs.StringVar(&o.output, "o", "table", "output format: table, markdown or json")
			fs.StringVar(&o.crdVersion, "crd-version", "", "with a CustomResourceDefinition as --schema, the `VERSION` whose schema to list (default: the storage version)")
			fs.StringVar(&o.write, "write", "", "put the markdown between <!-- DOCS_START --> and <!-- DOCS_END --> in `FILE`")
			fs.BoolVar(&o.force, "force", false, "with --write: replace FILE even when it is read-only, or its owner cannot be kept")
			fs.StringVar(&o.check, "check", "", "exit 1 when the section between <!-- DOCS_START --> and <!-- DOCS_END --> in `FILE` is stale")
			return o
		},
		run: runList,
	})
}

// paramRow is one parameter of the tree, as `list -o json` prints it.
type paramRow struct {
	// Pointer locates the parameter in a values document; "*" stands for
	// any array index or map key.
	Pointer string `json:"pointer"`
	Name    string `json:"name"`
	Depth   int    `json:"depth"`
	Type    string `json:"type"`
	// Default is the default as JSON, absent when there is none.
	Default  json.RawMessage `json:"default,omitempty"`
	Required bool            `json:"required"`
	// Trigger is the plan a change here triggers: the parameter's own
	// trigger, else the nearest ancestor's, else "deploy".
	Trigger    string `json:"trigger"`
	OwnTrigger string `json:"ownTrigger"`
	// Immutable is true when the parameter or an ancestor is immutable.
	Immutable   bool   `json:"immutable"`
	Description string `json:"description"`
	Title       string `json:"title,omitempty"`
	Deprecated  bool   `json:"deprecated,omitempty"`
	// KeyPattern is the pattern the keys of a patternProperties row
	// match.
	KeyPattern string `json:"keyPattern,omitempty"`

	// enum and examples are the node's enum values and examples, as JSON,
	// for the markdown.
	enum, examples []string
	// path is the dotted name for documentation (backup.credentials.name,
	// topology[].name, nodePools.*.size); object says whether the row
	// has rows below it.
	path   string
	object bool
	// hidden is set for a secret (writeOnly, format: password, or an
	// object holding one): its default, enum values and examples are
	// shown as (value hidden), and left out of JSON ("hidden": true).
	hidden bool
}

func runList(e *env, opts any, args []string) int {
	o := opts.(*listOptions)
	switch o.output {
	case "table", "markdown", "json":
	default:
		return e.fail(exitUsage, "unknown output format %q: use table, markdown or json", o.output)
	}
	if o.schema == "" {
		return e.fail(exitUsage, "list needs --schema\nusage: paramctl list %s", commands["list"].usage)
	}
	if len(args) > 0 {
		return e.fail(exitUsage, "list takes no arguments (got %q)\nusage: paramctl list %s", args[0], commands["list"].usage)
	}
	docsFile := o.write + o.check
	if docsFile != "" {
		switch {
		case o.write != "" && o.check != "":
			return e.fail(exitUsage, "--write and --check exclude each other: --write updates the file, --check only compares")
		case o.output != "table" && o.output != "markdown":
			return e.fail(exitUsage, "--write and --check put markdown in the file: -o %s does not go with them", o.output)
		}
	}
	s, code := e.schemaVersionOrFail(o.schema, o.crdVersion)
	if s == nil {
		return code
	}
	rows, complete := parameterRows(s)
	if dir := chartDir(o.schema); dir != "" {
		chartDocs(dir, s, rows)
	}
	if !complete {
		fmt.Fprintf(e.stderr, "the parameter tree has more than %d rows (definitions shared many times over); the list stops there\n", maxListRows)
	}
	if docsFile != "" {
		var b strings.Builder
		writeParamsMarkdown(&b, s, rows)
		return e.docsSection(o.write != "", o.force, docsFile, b.String())
	}
	switch o.output {
	case "json":
		return e.writeJSON(rows)
	case "markdown":
		writeParamsMarkdown(e.stdout, s, rows)
	default:
		writeParamsTable(e.stdout, rows)
	}
	return exitOK
}

// The markers of the generated section in a README, as schemadocs and
// Giant Swarm's charts write them.
const (
	docsStart = "<!-- DOCS_START -->"
	docsEnd   = "<!-- DOCS_END -->"
)

// docsSection writes (or, with write false, checks) the section between
// the markers of file: the markers on lines of their own, a blank line,
// the markdown, a blank line. Line endings follow the file's (CRLF stays
// CRLF). The file is replaced atomically, and not at all when the section
// is up to date.
func (e *env) docsSection(write, force bool, file, markdown string) int {
	data, err := e.readInput(file)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	updated, err := replaceSection(data, markdown)
	if err != nil {
		return e.fail(exitUsage, "%s: %v", file, err)
	}
	fresh := bytes.Equal(updated, data)
	switch {
	case !write && fresh:
		fmt.Fprintf(e.stderr, "%s: the parameter docs are up to date\n", file)
		return exitOK
	case !write:
		fmt.Fprintf(e.stderr, "%s: the parameter docs between %s and %s are stale: run paramctl list -o markdown --write %s\n", file, docsStart, docsEnd, file)
		return exitInvalid
	case fresh:
		fmt.Fprintf(e.stderr, "%s: the parameter docs are up to date\n", file)
		return exitOK
	}
	if file == "-" {
		return e.fail(exitUsage, "--write needs a file, not standard input")
	}
	if err := writeFileAtomic(file, updated, e.writeOptions(force)...); err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	fmt.Fprintf(e.stderr, "%s: parameter docs written\n", file)
	return exitOK
}

// replaceSection returns data with what stands between the docsStart and
// docsEnd lines replaced by the markdown. Each marker must stand once,
// start first.
func replaceSection(data []byte, markdown string) ([]byte, error) {
	start, end := bytes.Index(data, []byte(docsStart)), bytes.Index(data, []byte(docsEnd))
	switch {
	case start < 0 || end < 0:
		return nil, fmt.Errorf("no %s ... %s section: put the two markers on lines of their own where the docs go", docsStart, docsEnd)
	case bytes.Count(data, []byte(docsStart)) > 1 || bytes.Count(data, []byte(docsEnd)) > 1:
		return nil, fmt.Errorf("%s or %s stands more than once: keep one section", docsStart, docsEnd)
	case end < start:
		return nil, fmt.Errorf("%s comes before %s", docsEnd, docsStart)
	}
	// The file's line endings, as the text around the section shows them
	// (not the section, which this replaces).
	nl := "\n"
	if bytes.Contains(data[:start], []byte("\r\n")) || bytes.Contains(data[end:], []byte("\r\n")) {
		nl = "\r\n"
	}
	markdown = strings.ReplaceAll(markdown, "\r\n", "\n")
	body := nl + nl + strings.ReplaceAll(strings.TrimRight(markdown, "\n"), "\n", nl) + nl + nl
	var out bytes.Buffer
	out.Write(data[:start+len(docsStart)])
	out.WriteString(body)
	out.Write(data[end:])
	return out.Bytes(), nil
}

// parameterRows flattens the parameter tree in the order of the schema
// file: properties (through $ref and allOf), and below an array or a map
// whose items or values are objects, their properties.
// complete is false when the list stopped at maxListRows.
//
// Plans come from the trigger package, which resolves updates: a row's
// trigger is the plan a change there runs.
func parameterRows(s *schema.Schema) (rows []paramRow, complete bool) {
	l := &lister{rows: []paramRow{}, onPath: map[*schema.Node]string{}}
	l.walk(s.Root(), "", "", 0, "", false)
	plans := map[string]trigger.Parameter{}
	for _, p := range trigger.Parameters(s) {
		if _, dup := plans[p.Pointer]; !dup {
			plans[p.Pointer] = p
		}
	}
	for i, r := range l.rows {
		if p, ok := plans[r.Pointer]; ok {
			l.rows[i].Trigger, l.rows[i].OwnTrigger = p.Plan, p.Trigger
		}
	}
	return l.rows, len(l.rows) < maxListRows
}

// maxListRows bounds the listing: a definition used twice at each of n
// levels makes 2^n parameters.
var maxListRows = 100_000

type lister struct {
	rows []paramRow
	// onPath maps the nodes being listed to the pointer of their row, so
	// that a $ref back up the tree is named instead of listed endlessly.
	onPath map[*schema.Node]string
}

// walk lists the parameters below n. It returns the pointer of the row
// above that n refers back to, or "".
func (l *lister) walk(n *schema.Node, ptr, path string, depth int, inherited string, immutable bool) string {
	scope := sameValue(n)
	for _, m := range scope {
		if at, ok := l.onPath[m]; ok {
			return at
		}
	}
	for _, m := range scope {
		l.onPath[m] = ptr
	}
	defer func() {
		for _, m := range scope {
			delete(l.onPath, m)
		}
	}()
	seen := map[string]bool{}
	for _, m := range scope {
		for _, p := range m.Properties() {
			if seen[p.Name()] {
				continue
			}
			seen[p.Name()] = true
			childPath := p.Name()
			if path != "" {
				childPath = path + "." + p.Name()
			}
			// Required only where the value must have it: its own scope
			// ($ref, allOf), not one anyOf/oneOf branch.
			l.add(p, newRow(p, appendToken(ptr, p.Name()), p.Name(), childPath, depth, inherited, immutable, requiredIn(scopeOf(n), p.Name())))
		}
	}
	// The items of an array, the values of a map: a row of their own
	// when they hold parameters.
	type sub struct {
		node       *schema.Node
		name, glue string
		pattern    string
	}
	subs := []sub{{itemsOf(scope), "[]", "", ""}, {valuesOf(scope), "*", ".", ""}}
	for _, m := range scope {
		for _, pp := range m.PatternProperties() {
			subs = append(subs, sub{pp, "*", ".", pp.Name()})
		}
	}
	for _, sb := range subs {
		if sb.node == nil || !hasProperties(sb.node, 0) {
			continue
		}
		row := newRow(sb.node, appendToken(ptr, "*"), sb.name, path+sb.glue+sb.name, depth, inherited, immutable, false)
		row.KeyPattern = sb.pattern
		l.add(sb.node, row)
	}
	return ""
}

// add appends a row and the rows below it.
func (l *lister) add(n *schema.Node, row paramRow) {
	if len(l.rows) >= maxListRows {
		return
	}
	idx := len(l.rows)
	l.rows = append(l.rows, row)
	if at := l.walk(n, row.Pointer, row.path, row.Depth+1, row.Trigger, row.Immutable); at != "" {
		l.rows[idx].Description = strings.TrimSpace(fmt.Sprintf("%s (recursive: the parameters of %s)", l.rows[idx].Description, displayPointer(at)))
	}
	l.rows[idx].object = len(l.rows) > idx+1
}

// sameValue lists the nodes that describe the value n governs: its scope
// ($ref, allOf) and, through any depth of nesting, the anyOf/oneOf
// subschemas of each with their scopes, each node once.
func sameValue(n *schema.Node) []*schema.Node {
	var out []*schema.Node
	seen := map[*schema.Node]bool{}
	var add func(m *schema.Node, depth int)
	add = func(m *schema.Node, depth int) {
		if m == nil || depth > 16 {
			return
		}
		for _, x := range m.Scope() {
			if seen[x] {
				continue
			}
			seen[x] = true
			out = append(out, x)
			for _, b := range x.AnyOf() {
				add(b, depth+1)
			}
			for _, b := range x.OneOf() {
				add(b, depth+1)
			}
		}
	}
	add(n, 0)
	return out
}

func newRow(n *schema.Node, ptr, name, path string, depth int, inherited string, immutable, required bool) paramRow {
	r := paramRow{Pointer: ptr, Name: name, Depth: depth, Type: typeLabel(n), Required: required, path: path}
	for _, m := range n.Scope() {
		if r.OwnTrigger == "" {
			r.OwnTrigger = m.Trigger()
		}
		if m.Immutable() {
			immutable = true
		}
		if r.Description == "" {
			r.Description = m.Description()
		}
		if r.Title == "" {
			r.Title = m.Title()
		}
		if m.Deprecated() {
			r.Deprecated = true
		}
		if r.Default == nil && m.HasDefault() {
			r.Default = mustBytes(params.MarshalJSON(nil, m.Default(), ""))
		}
		if r.enum == nil && len(m.Enum()) > 0 {
			for _, v := range m.Enum() {
				r.enum = append(r.enum, string(mustBytes(params.MarshalJSON(nil, v, ""))))
			}
		}
		if r.enum == nil {
			r.enum = labelledValues(m)
		}
		if ex, ok := m.Keyword("examples"); ok && r.examples == nil {
			if list, ok := ex.([]any); ok {
				for _, v := range list {
					r.examples = append(r.examples, string(mustBytes(params.MarshalJSON(nil, v, ""))))
				}
			}
		}
	}
	if n.HoldsSecret() && (r.Default != nil || len(r.enum) > 0 || len(r.examples) > 0) {
		r.hidden = true
		if r.Default != nil {
			r.Default = json.RawMessage(schema.Hidden) // text for the table, never JSON
		}
		if len(r.enum) > 0 {
			r.enum = []string{schema.Hidden}
		}
		if len(r.examples) > 0 {
			r.examples = []string{schema.Hidden}
		}
	}
	r.Immutable = immutable
	switch {
	case r.OwnTrigger != "":
		r.Trigger = r.OwnTrigger
	case inherited != "":
		r.Trigger = inherited
	default:
		r.Trigger = "deploy"
	}
	return r
}

// labelledValues lists the values of a oneOf whose branches each allow one
// value (const), labelled by their titles: `"a"` (Label A). nil for any
// other node.
func labelledValues(n *schema.Node) []string {
	if len(n.OneOf()) == 0 {
		return nil
	}
	var out []string
	for _, b := range n.OneOf() {
		c, ok := b.Keyword("const")
		if !ok {
			return nil
		}
		v := string(mustBytes(params.MarshalJSON(nil, c, "")))
		if b.Title() != "" {
			v += " (" + b.Title() + ")"
		}
		out = append(out, v)
	}
	return out
}

func requiredIn(scope []*schema.Node, name string) bool {
	for _, m := range scope {
		for _, r := range m.RequiredNames() {
			if r == name {
				return true
			}
		}
	}
	return false
}

func itemsOf(scope []*schema.Node) *schema.Node {
	for _, m := range scope {
		if m.Items() != nil {
			return m.Items()
		}
	}
	return nil
}

func valuesOf(scope []*schema.Node) *schema.Node {
	for _, m := range scope {
		if m.AdditionalProperties() != nil && m.AdditionalProperties().Bool() == nil {
			return m.AdditionalProperties()
		}
	}
	return nil
}

// hasProperties reports whether values under n have parameters of their
// own to list, also through anyOf/oneOf and patternProperties.
func hasProperties(n *schema.Node, depth int) bool {
	if depth > 8 {
		return false
	}
	for _, m := range sameValue(n) {
		for range m.Properties() {
			return true
		}
		if m.Items() != nil && hasProperties(m.Items(), depth+1) {
			return true
		}
		if v := m.AdditionalProperties(); v != nil && v.Bool() == nil && hasProperties(v, depth+1) {
			return true
		}
		for _, pp := range m.PatternProperties() {
			if hasProperties(pp, depth+1) {
				return true
			}
		}
	}
	return false
}

// typeLabel names a node's type: "string", "integer|null", "array<string>",
// "object<string>" for a map of strings; "" where any type goes.
func typeLabel(n *schema.Node) string {
	ts := n.Types()
	label := strings.Join(ts, "|")
	scope := scopeOf(n)
	if len(ts) == 1 && ts[0] == "array" {
		if it := itemsOf(scope); it != nil && !hasProperties(it, 0) {
			if t := typeLabel(it); t != "" {
				label += "<" + t + ">"
			}
		}
	}
	if len(ts) == 1 && ts[0] == "object" {
		if v := valuesOf(scope); v != nil && !hasProperties(v, 0) {
			if t := typeLabel(v); t != "" {
				label += "<" + t + ">"
			}
		}
	}
	return label
}

func yesIf(b bool) string {
	if b {
		return "yes"
	}
	return ""
}

func describeRow(r paramRow) string {
	d := r.Description
	if d == "" {
		d = r.Title
	}
	d = strings.Join(strings.Fields(d), " ")
	if r.Deprecated {
		d = strings.TrimSpace("(deprecated) " + d)
	}
	return d
}

// writeParamsTable prints the tree as a table whose first column is
// indented to show nesting.
func writeParamsTable(w io.Writer, rows []paramRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tTYPE\tDEFAULT\tREQUIRED\tTRIGGER\tIMMUTABLE\tDESCRIPTION")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s%s\t%s\t%s\t%s\t%s\t%s\t%s\n", strings.Repeat("  ", r.Depth), r.Name, r.Type,
			tableCell(string(r.Default), maxDefaultWidth), yesIf(r.Required), r.Trigger, yesIf(r.Immutable), describeRow(r))
	}
	tw.Flush()
}

// maxDefaultWidth bounds the DEFAULT column of the table: one long default
// (a script, a certificate) would otherwise push every description off
// the screen. -o json and -o markdown keep defaults whole.
const maxDefaultWidth = 40

// tableCell is s on one line for a tabwriter cell, cut to max runes with
// "…" at the end when longer.
func tableCell(s string, max int) string {
	s = strings.NewReplacer("\t", " ", "\n", " ").Replace(s)
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// writeParamsMarkdown prints documentation a README can include: one table
// per object, the root first, in the order of the schema. The Trigger and
// Immutable columns appear when the schema uses trigger or immutable
// (KUDO); enum values and examples follow each description, whose
// Markdown is kept; defaults and examples longer than maxDefaultWidth are
// cut short.
func writeParamsMarkdown(w io.Writer, s *schema.Schema, rows []paramRow) {
	root := s.Root()
	title := "Parameters"
	if root.Title() != "" {
		title = root.Title()
	}
	fmt.Fprintf(w, "## %s\n", mdText(title))
	if root.Description() != "" {
		fmt.Fprintf(w, "\n%s\n", mdProse(root.Description()))
	}
	if len(rows) == 0 {
		fmt.Fprintln(w, "\nThis schema declares no parameters.")
		return
	}
	kudo := false
	for _, r := range rows {
		kudo = kudo || r.OwnTrigger != "" || r.Immutable
	}
	// Group the rows by the object that holds them: the root ("") or the
	// path of an object row.
	children := map[string][]paramRow{}
	parents := []string{""}
	var stack []paramRow
	for _, r := range rows {
		stack = stack[:r.Depth]
		parent := ""
		if r.Depth > 0 {
			parent = stack[r.Depth-1].path
		}
		children[parent] = append(children[parent], r)
		if r.object {
			parents = append(parents, r.path)
		}
		stack = append(stack, r)
	}
	byPath := map[string]paramRow{}
	for _, r := range rows {
		byPath[r.path] = r
	}
	for _, p := range parents {
		if onlyItems(children[p]) {
			continue // the table of the items or values follows; the anchor is the same
		}
		if p != "" {
			r := byPath[p]
			fmt.Fprintf(w, "\n### `%s`\n", p)
			if d := mdDescription(r, false); d != "" {
				fmt.Fprintf(w, "\n%s\n", d)
			}
		}
		if kudo {
			fmt.Fprintln(w, "\n| Parameter | Type | Default | Required | Trigger | Immutable | Description |")
			fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
		} else {
			fmt.Fprintln(w, "\n| Parameter | Type | Default | Required | Description |")
			fmt.Fprintln(w, "|---|---|---|---|---|")
		}
		for _, r := range children[p] {
			name := mdCode(r.path)
			if r.object {
				name = fmt.Sprintf("[%s](#%s)", name, mdAnchor(r.path))
			}
			def := ""
			if r.Default != nil {
				def = mdCode(tableCell(string(r.Default), maxDefaultWidth))
			}
			if kudo {
				fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", name, mdText(r.Type), def, yesIf(r.Required), mdText(r.Trigger), yesIf(r.Immutable), mdDescription(r, true))
			} else {
				fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", name, mdText(r.Type), def, yesIf(r.Required), mdDescription(r, true))
			}
		}
	}
}

// mdDescription is a row's description for the markdown: the title in
// bold where there is a description too, the description with its
// Markdown kept, then the key pattern, the enum values and the examples:
// one line each within a table cell (inCell), paragraphs otherwise.
func mdDescription(r paramRow, inCell bool) string {
	var parts []string
	text := strings.TrimSpace(r.Description)
	title := strings.TrimSpace(r.Title)
	switch {
	case text != "" && title != "" && !strings.HasPrefix(text, title):
		text = "**" + mdText(title) + ".** " + mdProse(text)
	case text != "":
		text = mdProse(text)
	default:
		text = mdProse(title)
	}
	if r.Deprecated {
		text = strings.TrimSpace("**Deprecated.** " + text)
	}
	if text != "" {
		parts = append(parts, text)
	}
	if r.KeyPattern != "" {
		parts = append(parts, "Keys match "+mdCode(r.KeyPattern)+".")
	}
	if len(r.enum) > 0 {
		parts = append(parts, "Allowed values: "+mdCodeList(r.enum)+".")
	}
	if len(r.examples) > 0 {
		label := "Example: "
		if len(r.examples) > 1 {
			label = "Examples: "
		}
		parts = append(parts, label+mdCodeList(r.examples)+".")
	}
	if inCell {
		return strings.Join(parts, "<br>")
	}
	return strings.Join(parts, "\n\n")
}

// mdCodeList writes values as inline code, comma-separated, each cut to
// maxDefaultWidth; a label in parentheses after a value (labelledValues)
// stays text.
func mdCodeList(vals []string) string {
	out := make([]string, len(vals))
	for i, v := range vals {
		label := ""
		if j := strings.Index(v, " ("); j > 0 && strings.HasSuffix(v, ")") && json.Valid([]byte(v[:j])) {
			v, label = v[:j], " "+mdText(v[j+1:])
		}
		out[i] = mdCode(tableCell(v, maxDefaultWidth)) + label
	}
	return strings.Join(out, ", ")
}

// mdProse makes a description safe in a Markdown table cell and keeps its
// Markdown (**bold**, `code`, links): a pipe is escaped (also in code, as
// GitHub's tables require), < and > outside code become entities (an
// HTML-like <PORT> would vanish otherwise), a paragraph break becomes
// <br><br> and any other line break a space.
func mdProse(s string) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), "\r\n", "\n")
	paras := strings.Split(s, "\n\n")
	for i, p := range paras {
		paras[i] = strings.Join(strings.Fields(p), " ")
	}
	s = strings.Join(paras, "<br><br>")
	var b strings.Builder
	inCode := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '`':
			inCode = !inCode
			b.WriteByte(c)
		case c == '|':
			b.WriteString(`\|`)
		case c == '<' && !inCode && !strings.HasPrefix(s[i:], "<br>"):
			b.WriteString("&lt;")
		case c == '>' && !inCode && !strings.HasSuffix(s[:i+1], "<br>"):
			b.WriteString("&gt;")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// onlyItems reports whether rows are only the items or values row of an
// array or map, which has a table of its own.
func onlyItems(rows []paramRow) bool {
	for _, r := range rows {
		if (r.Name != "[]" && r.Name != "*") || !r.object {
			return false
		}
	}
	return len(rows) > 0
}

// mdText makes text safe in a Markdown table cell.
func mdText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	r := strings.NewReplacer(`|`, `\|`, `<`, `&lt;`, `>`, `&gt;`, `*`, `\*`, `_`, `\_`, "`", "\\`", `[`, `\[`, `]`, `\]`)
	return r.Replace(s)
}

// mdCode writes s as inline code, in a table cell.
func mdCode(s string) string {
	s = strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "|", `\|`)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// mdAnchor is the anchor GitHub gives the heading "### `path`".
func mdAnchor(path string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(path) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		case r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// MarshalJSON gives every row the same keys in DESIGN's order: a
// parameter without a default has "default": null, one that inherits its
// plan "ownTrigger": null (as `triggers -o json` writes it).
func (r paramRow) MarshalJSON() ([]byte, error) {
	out := struct {
		Pointer     string          `json:"pointer"`
		Name        string          `json:"name"`
		Depth       int             `json:"depth"`
		Type        string          `json:"type"`
		Default     json.RawMessage `json:"default,omitempty"`
		Hidden      bool            `json:"hidden,omitempty"`
		Required    bool            `json:"required"`
		Trigger     string          `json:"trigger"`
		OwnTrigger  *string         `json:"ownTrigger"`
		Immutable   bool            `json:"immutable"`
		Description string          `json:"description"`
		Title       string          `json:"title,omitempty"`
		Deprecated  bool            `json:"deprecated,omitempty"`
	}{r.Pointer, r.Name, r.Depth, r.Type, r.Default, r.hidden, r.Required, r.Trigger, nil, r.Immutable, r.Description, r.Title, r.Deprecated}
	switch {
	case r.hidden: // a secret: no "default", "hidden": true
		out.Default = nil
	case out.Default == nil:
		out.Default = json.RawMessage("null")
	}
	if r.OwnTrigger != "" {
		out.OwnTrigger = &r.OwnTrigger
	}
	return json.Marshal(out)
}

// scopeOf is n.Scope() as a slice.
func scopeOf(n *schema.Node) []*schema.Node {
	var out []*schema.Node
	for _, m := range n.Scope() {
		out = append(out, m)
	}
	return out
}
