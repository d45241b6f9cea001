package edit

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// Property describes a parameter to add to a schema: what the KEP's
// add-parameter wizard asks for.
type Property struct {
	// Type is the JSON Schema type: string, integer, number, boolean,
	// object, array or null.
	Type        string
	Title       string
	Description string
	// Default is the default value (plain values, json.Number for
	// numbers); it is written only when HasDefault is set.
	Default    any
	HasDefault bool
	// Required adds the name to the parent object's required list.
	Required bool
	// Trigger names the plan a change triggers; it must not differ from a
	// trigger above it.
	Trigger   string
	Immutable bool
	// Enum lists the allowed values; the default must be one of them.
	Enum []any
}

// The order keywords of a new property are written in.
var specKeyOrder = []string{"type", "title", "description", "default", "enum", "trigger", "immutable", "properties", "required"}

var jsonTypes = []string{"string", "integer", "number", "boolean", "object", "array", "null"}

// value returns the property's schema as plain values.
func (p Property) value() map[string]any {
	m := map[string]any{"type": p.Type}
	if p.Title != "" {
		m["title"] = p.Title
	}
	if p.Description != "" {
		m["description"] = p.Description
	}
	if p.HasDefault {
		m["default"] = p.Default
	}
	if len(p.Enum) > 0 {
		m["enum"] = p.Enum
	}
	if p.Trigger != "" {
		m["trigger"] = p.Trigger
	}
	if p.Immutable {
		m["immutable"] = true
	}
	return m
}

// check validates the spec on its own: a known type, a default and enum
// values of that type, the default one of the enum values.
func (p Property) check(d schema.Dialect) error {
	if !slices.Contains(jsonTypes, p.Type) {
		return fmt.Errorf("type %q is not a JSON Schema type (use %s)", p.Type, strings.Join(jsonTypes, ", "))
	}
	if err := value.CheckNumbers(p.Default); err != nil {
		return fmt.Errorf("default: %v", err)
	}
	typeOnly, err := schema.FromValue(map[string]any{"$schema": string(d), "type": p.Type})
	if err != nil {
		return err
	}
	for i, e := range p.Enum {
		if err := typeOnly.Validate(e); err != nil {
			return fmt.Errorf("enum value %d (%s) is not of type %s", i, compactJSON(e), p.Type)
		}
	}
	v := p.value()
	v["$schema"] = string(d)
	own, err := schema.FromValue(v)
	if err != nil {
		return err
	}
	if p.HasDefault {
		if err := own.Validate(p.Default); err != nil {
			return fmt.Errorf("default %s does not satisfy the property's schema: %v", compactJSON(p.Default), firstMessage(err))
		}
	}
	return nil
}

func firstMessage(err error) string {
	var ve schema.ErrorList
	if errors.As(err, &ve) && len(ve) > 0 {
		return ve[0].Message
	}
	return err.Error()
}

func compactJSON(v any) string { return string(encode.JSON(v, nil, "")) }

// AddProperty adds a parameter to a schema document (YAML or JSON) and
// returns the new document. at is a JSON pointer into the values
// (/backup/retentionDays): the property is added to the properties of
// the object at its parent, creating missing intermediate objects. An
// existing property is never replaced. The default is validated against
// the new property's schema, and a trigger may not differ from a trigger
// above it.
//
// Everything else in the file stays as it was: the new text is spliced
// in, so key order, comments, quoting and layout are kept byte for byte.
// Where the layout defeats splicing (for example a YAML alias on the
// path), the YAML tree is re-encoded instead, which keeps order and
// comments but may change spacing. A parent defined through $ref gets the
// property in the definition it refers to (every use of it sees it).
//
// A document that is no usable schema gives schema.Parse's ErrorList; a
// property that cannot be added gives a *schema.Error whose Pointer is at
// (KindPath for a malformed path, KindTriggerConflict for a trigger other
// than the one above it, KindInvalid for a default the schema refuses
// there, KindSchema for an edit that would not compile, KindUsage for any
// other refusal).
func AddProperty(doc []byte, at string, p Property) ([]byte, error) {
	s, err := schema.Parse(doc)
	if err != nil {
		return nil, err
	}
	// Every refusal below is about the property asked for at at.
	fail := func(kind schema.Kind, format string, a ...any) ([]byte, error) {
		return nil, schema.NewError(kind, at, format, a...)
	}
	toks, err := pointer.Split(at)
	if err != nil {
		return fail(schema.KindPath, "%v", err)
	}
	if len(toks) == 0 {
		return fail(schema.KindPath, "the path names no property: give one such as /backup/retentionDays")
	}
	for _, t := range toks {
		if t == "" {
			return fail(schema.KindPath, "a property name may not be empty")
		}
	}
	if err := p.check(s.Dialect()); err != nil {
		return fail(schema.KindUsage, "%v", err)
	}
	plan, perr := planAddition(s, toks, p)
	if perr != nil {
		perr.Pointer = at
		return nil, perr
	}
	out, spliceErr, err := applyPlan(doc, plan)
	if err != nil {
		return fail(schema.KindUsage, "%v", err)
	}
	// The result must read back as exactly the intended document, compile,
	// and accept the default where the property now stands.
	ns, err := schema.Parse(out)
	if err != nil {
		return fail(schema.KindSchema, "the edited schema does not compile: %v", err)
	}
	if !value.Equal(ns.Document(), plan.want) {
		why := ""
		if spliceErr != nil {
			why = " (" + spliceErr.Error() + ")"
		}
		return fail(schema.KindUsage, "could not edit the file without changing other content%s; please add the property by hand", why)
	}
	if p.HasDefault {
		if err := ns.ValidateAt(plan.newPointer, p.Default); err != nil {
			return fail(schema.KindInvalid, "default %s does not satisfy the schema there: %v", compactJSON(p.Default), firstMessage(err))
		}
	}
	return out, nil
}

// addition is what AddProperty changes: an entry added to the properties
// of the schema object at holder (created when missing), and maybe the
// name added to the holder's required list.
type addition struct {
	holder     string         // schema pointer of the object schema that gets the entry
	name       string         // key of the new entry under properties
	entry      map[string]any // the entry's schema (with intermediate objects)
	required   string         // name to add to holder's required list, or ""
	newPointer string         // schema pointer of the new property
	want       any            // the whole document after the edit, as plain values
}

// planAddition plans the edit. Its error is about the property asked for:
// AddProperty gives it that place.
func planAddition(s *schema.Schema, toks []string, p Property) (*addition, *schema.Error) {
	n := s.Root()
	ancestors := []*schema.Node{n}
	i := 0
	for ; i < len(toks)-1; i++ {
		c := ownOrScopeProperty(n, toks[i])
		if c == nil {
			break
		}
		n = c
		ancestors = append(ancestors, n)
	}
	if i == len(toks)-1 && ownOrScopeProperty(n, toks[i]) != nil {
		return nil, schema.NewError(schema.KindUsage, "", "the property already exists (at %s); remove it first to redefine it", pointer.Quote(ownOrScopeProperty(n, toks[i]).Pointer))
	}
	// The parameter's parent must hold an object.
	if ts := n.Types(); ts != nil && !slices.Contains(ts, "object") {
		return nil, schema.NewError(schema.KindUsage, "", "%s is of type %s, not an object: a property cannot be added below it", pointer.Quote(n.Pointer), strings.Join(ts, "|"))
	}
	// A trigger may only repeat the plan above it.
	if p.Trigger != "" {
		for _, a := range ancestors {
			for _, m := range a.Scope() {
				if m.Trigger != "" && m.Trigger != p.Trigger {
					return nil, schema.NewError(schema.KindTriggerConflict, "", "trigger %q conflicts with trigger %q at %s: a parameter inherits the plan above it", p.Trigger, m.Trigger, m.Pointer+"/trigger")
				}
			}
		}
	}
	holder := n
	for _, m := range n.Scope() {
		if _, ok := m.Keyword("properties"); ok {
			holder = m
			break
		}
	}
	if holder == n && n.Ref != "" {
		if n.RefTarget == nil {
			return nil, schema.NewError(schema.KindUsage, "", "%s is defined by $ref %q, which is not in this document", pointer.Quote(n.Pointer), n.Ref)
		}
		holder = n.RefTarget
	}
	if holder.Bool != nil {
		return nil, schema.NewError(schema.KindUsage, "", "%s is a boolean schema: write it as an object schema first", pointer.Quote(holder.Pointer))
	}

	// The entry: the property, wrapped in the objects still missing.
	missing := toks[i : len(toks)-1]
	name := toks[len(toks)-1]
	entry := p.value()
	requiredIn := ""
	if p.Required {
		requiredIn = name
	}
	for j := len(missing) - 1; j >= 0; j-- {
		obj := map[string]any{"type": "object", "properties": map[string]any{name: entry}}
		if requiredIn != "" {
			obj["required"] = []any{requiredIn}
			requiredIn = ""
		}
		name, entry = missing[j], obj
	}
	a := &addition{holder: holder.Pointer, name: name, entry: entry, required: requiredIn}
	a.newPointer = pointer.Append(pointer.Append(holder.Pointer, "properties"), toks[i])
	for _, t := range toks[i+1:] {
		a.newPointer = pointer.Append(pointer.Append(a.newPointer, "properties"), t)
	}

	// The document as it should read afterwards.
	want := value.DeepCopy(s.Document())
	hv, _ := pointer.Get(want, holder.Pointer)
	hm, ok := hv.(map[string]any)
	if !ok {
		return nil, schema.NewError(schema.KindUsage, "", "%s is not a schema object", pointer.Quote(holder.Pointer))
	}
	props, ok := hm["properties"].(map[string]any)
	if !ok {
		if _, exists := hm["properties"]; exists {
			return nil, schema.NewError(schema.KindUsage, "", "%s/properties is not an object", holder.Pointer)
		}
		props = map[string]any{}
		hm["properties"] = props
	}
	if _, exists := props[name]; exists {
		return nil, schema.NewError(schema.KindUsage, "", "%s/properties/%s already exists", holder.Pointer, pointer.Escape(name))
	}
	props[name] = value.DeepCopy(entry)
	if a.required != "" {
		req, exists := hm["required"]
		list, ok := req.([]any)
		if exists && !ok {
			return nil, schema.NewError(schema.KindUsage, "", "%s/required is not a list", holder.Pointer)
		}
		if !containsValue(list, a.required) {
			hm["required"] = append(list, a.required)
		} else {
			a.required = ""
		}
	}
	a.want = want
	return a, nil
}

func containsValue(l []any, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// ownOrScopeProperty finds a property of n, also where $ref and allOf
// bring it.
func ownOrScopeProperty(n *schema.Node, name string) *schema.Node {
	for _, m := range n.Scope() {
		if c := m.Property(name); c != nil {
			return c
		}
	}
	return nil
}

// applyPlan writes the addition into the source text: spliced in, or
// where that fails (spliceErr says why), by re-encoding the YAML tree.
func applyPlan(src []byte, a *addition) (out []byte, spliceErr, err error) {
	ed, err := newEditor(src)
	if err != nil {
		return nil, nil, err
	}
	out, spliceErr = ed.splice(a)
	if spliceErr == nil {
		return out, nil, nil
	}
	if ed.json {
		return nil, nil, spliceErr
	}
	out, err = ed.reencode(a)
	return out, spliceErr, err
}

// editor splices new text into a YAML or JSON document.
type editor struct {
	src     []byte
	root    *yaml.Node
	json    bool
	oneLine bool  // a JSON document on one line: new text stays on it
	lines   []int // byte offset of the start of each line (index 0 is line 1)
	step    int   // the file's indentation step
	flat    []*yaml.Node
	end     map[*yaml.Node]int // index in flat just after a node's subtree
}

func newEditor(src []byte) (*editor, error) {
	root, err := document.ParseNode(src)
	if err != nil {
		return nil, err
	}
	if root == nil || root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("the schema document is not an object")
	}
	ed := &editor{src: src, root: root, end: map[*yaml.Node]int{}}
	t := bytes.TrimSpace(src)
	ed.json = len(t) > 0 && t[0] == '{'
	ed.oneLine = ed.json && bytes.IndexByte(t, '\n') < 0
	ed.lines = []int{0}
	for i, c := range src {
		if c == '\n' {
			ed.lines = append(ed.lines, i+1)
		}
	}
	var flatten func(n *yaml.Node)
	flatten = func(n *yaml.Node) {
		ed.flat = append(ed.flat, n)
		if n.Kind != yaml.AliasNode {
			for _, c := range n.Content {
				flatten(c)
			}
		}
		ed.end[n] = len(ed.flat)
	}
	flatten(root)
	ed.step = ed.indentStep()
	return ed, nil
}

// indentStep guesses the file's indentation from its first nested block
// mapping; 2 when there is none.
func (ed *editor) indentStep() int {
	var find func(n *yaml.Node, col int) int
	find = func(n *yaml.Node, col int) int {
		if n.Kind != yaml.MappingNode {
			return 0
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			v := n.Content[i+1]
			if v.Kind == yaml.MappingNode && len(v.Content) > 0 && v.Content[0].Line > n.Content[i].Line {
				if d := v.Content[0].Column - n.Content[i].Column; d > 0 && d <= 8 {
					return d
				}
			}
			if d := find(v, col); d > 0 {
				return d
			}
		}
		return 0
	}
	if d := find(ed.root, 1); d > 0 {
		return d
	}
	return 2
}

// offset converts a 1-based line and column (in characters) to a byte offset.
func (ed *editor) offset(line, col int) int {
	if line-1 >= len(ed.lines) {
		return len(ed.src)
	}
	off := ed.lines[line-1]
	for c := 1; c < col && off < len(ed.src); c++ {
		_, size := utf8.DecodeRune(ed.src[off:])
		off += size
	}
	return off
}

// nodeAt returns the YAML node at a pointer into the document; aliases on
// the way are refused, since an edit there would change every place that
// shares the anchored node.
func (ed *editor) nodeAt(ptr string) (*yaml.Node, error) {
	toks, err := pointer.Split(ptr)
	if err != nil {
		return nil, err
	}
	n := ed.root
	for _, t := range toks {
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == t && n.Content[i].Tag != "!!merge" {
					next = n.Content[i+1]
				}
			}
		case yaml.SequenceNode:
			if i, err := pointer.Index(t, len(n.Content)); err == nil {
				next = n.Content[i]
			}
		}
		if next == nil {
			return nil, fmt.Errorf("%s: not found in the text (a merge key?)", ptr)
		}
		if next.Kind == yaml.AliasNode || next.Anchor != "" {
			return nil, fmt.Errorf("%s: a YAML anchor or alias is on the path", ptr)
		}
		n = next
	}
	return n, nil
}

// member returns the value of a key of a mapping node.
func member(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

type insertion struct {
	at   int
	text string
}

// splice inserts the new text without touching anything else.
func (ed *editor) splice(a *addition) ([]byte, error) {
	holder, err := ed.nodeAt(a.holder)
	if err != nil {
		return nil, err
	}
	if holder.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s is not a mapping", a.holder)
	}
	var ins []insertion
	var holderEntries []entryKV
	if props := member(holder, "properties"); props != nil {
		if props.Kind != yaml.MappingNode || props.Anchor != "" {
			return nil, fmt.Errorf("properties is not a plain mapping")
		}
		in, err := ed.addToMapping(props, []entryKV{{a.name, a.entry}})
		if err != nil {
			return nil, err
		}
		ins = append(ins, in)
	} else {
		holderEntries = append(holderEntries, entryKV{"properties", map[string]any{a.name: a.entry}})
	}
	if a.required != "" {
		if req := member(holder, "required"); req != nil {
			in, err := ed.addToSequence(req, a.required)
			if err != nil {
				return nil, err
			}
			ins = append(ins, in)
		} else {
			holderEntries = append(holderEntries, entryKV{"required", []any{a.required}})
		}
	}
	if len(holderEntries) > 0 {
		in, err := ed.addToMapping(holder, holderEntries)
		if err != nil {
			return nil, err
		}
		ins = append(ins, in)
	}
	out := append([]byte(nil), ed.src...)
	// Highest offset first, so earlier offsets stay valid; at the same
	// offset the later insertion first, so the texts keep their order.
	order := make([]int, len(ins))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(x, y int) bool {
		a, b := ins[order[x]], ins[order[y]]
		if a.at != b.at {
			return a.at > b.at
		}
		return order[x] > order[y]
	})
	crlf := bytes.Contains(ed.src, []byte("\r\n"))
	for _, i := range order {
		in := ins[i]
		if crlf {
			in.text = strings.ReplaceAll(in.text, "\n", "\r\n")
		}
		out = append(out[:in.at], append([]byte(in.text), out[in.at:]...)...)
	}
	return out, nil
}

type entryKV struct {
	key string
	val any
}

// addToMapping returns the insertion that appends entries to a mapping.
func (ed *editor) addToMapping(m *yaml.Node, entries []entryKV) (insertion, error) {
	if m.Style&yaml.FlowStyle != 0 || ed.json {
		return ed.addToFlow(m, '{', '}', func(indent string, multiline bool) string {
			var parts []string
			for _, e := range entries {
				parts = append(parts, ed.flowEntry(e, indent, multiline))
			}
			sep := ", "
			if multiline {
				sep = ",\n" + indent
			}
			return strings.Join(parts, sep)
		})
	}
	if len(m.Content) == 0 {
		return insertion{}, fmt.Errorf("an empty block mapping")
	}
	col := m.Content[0].Column
	at := ed.blockEnd(m, col)
	var b strings.Builder
	if at == len(ed.src) && len(ed.src) > 0 && ed.src[len(ed.src)-1] != '\n' {
		b.WriteByte('\n')
	}
	for _, e := range entries {
		text, err := ed.blockEntry(e)
		if err != nil {
			return insertion{}, err
		}
		for _, line := range strings.SplitAfter(text, "\n") {
			if line != "" {
				b.WriteString(strings.Repeat(" ", col-1))
				b.WriteString(line)
			}
		}
	}
	return insertion{at, b.String()}, nil
}

// addToSequence returns the insertion that appends a string to a sequence.
func (ed *editor) addToSequence(sq *yaml.Node, s string) (insertion, error) {
	if sq.Kind != yaml.SequenceNode || sq.Anchor != "" {
		return insertion{}, fmt.Errorf("required is not a plain list")
	}
	if sq.Style&yaml.FlowStyle != 0 || ed.json {
		return ed.addToFlow(sq, '[', ']', func(string, bool) string { return ed.scalar(s) })
	}
	if len(sq.Content) == 0 {
		return insertion{}, fmt.Errorf("an empty block sequence")
	}
	first := sq.Content[0]
	// The dash stands before the first item on its line.
	off := ed.offset(first.Line, first.Column)
	dash := bytes.LastIndexByte(ed.src[ed.lines[first.Line-1]:off], '-')
	if dash < 0 {
		return insertion{}, fmt.Errorf("cannot find the list's dash")
	}
	prefix := string(ed.src[ed.lines[first.Line-1] : ed.lines[first.Line-1]+dash])
	if strings.TrimLeft(prefix, " ") != "" {
		return insertion{}, fmt.Errorf("the list does not start its line")
	}
	at := ed.blockEnd(sq, len(prefix)+1)
	var b strings.Builder
	if at == len(ed.src) && len(ed.src) > 0 && ed.src[len(ed.src)-1] != '\n' {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%s- %s\n", prefix, ed.scalar(s))
	return insertion{at, b.String()}, nil
}

// blockEnd returns the offset where a line appended to a block collection
// whose entries start at column col goes: after its last content, before
// trailing blank lines and the comments of what follows.
func (ed *editor) blockEnd(n *yaml.Node, col int) int {
	lastLine := 0
	for _, x := range ed.flat[indexOf(ed.flat, n):ed.end[n]] {
		lastLine = max(lastLine, x.Line)
	}
	next := len(ed.lines) + 1
	if i := ed.end[n]; i < len(ed.flat) {
		next = ed.flat[i].Line
	}
	// A document end marker also ends the collection.
	for l := lastLine + 1; l < next && l <= len(ed.lines); l++ {
		if line := ed.line(l); strings.HasPrefix(line, "...") || strings.HasPrefix(line, "---") {
			next = l
			break
		}
	}
	l := next
	for l-1 > lastLine {
		line := ed.line(l - 1)
		trimmed := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if trimmed == "" || (strings.HasPrefix(trimmed, "#") && indent < col-1) {
			l--
			continue
		}
		break
	}
	if l-1 >= len(ed.lines) {
		return len(ed.src)
	}
	return ed.lines[l-1]
}

// line returns the text of a 1-based line without its line break.
func (ed *editor) line(l int) string {
	start := ed.lines[l-1]
	end := len(ed.src)
	if l < len(ed.lines) {
		end = ed.lines[l]
	}
	return strings.TrimRight(string(ed.src[start:end]), "\r\n")
}

func indexOf(l []*yaml.Node, n *yaml.Node) int {
	for i, x := range l {
		if x == n {
			return i
		}
	}
	return 0
}

// addToFlow returns the insertion that appends to a flow collection (or
// a JSON object or array) before its closing bracket.
func (ed *editor) addToFlow(n *yaml.Node, open, close byte, render func(indent string, multiline bool) string) (insertion, error) {
	start := ed.offset(n.Line, n.Column)
	if start >= len(ed.src) || ed.src[start] != open {
		return insertion{}, fmt.Errorf("cannot find the opening %q", open)
	}
	end, err := matchingClose(ed.src, start)
	if err != nil {
		return insertion{}, err
	}
	// Where the content ends, before white space and the bracket.
	last := end
	for last > start+1 && isSpace(ed.src[last-1]) {
		last--
	}
	multiline := bytes.IndexByte(ed.src[start:end], '\n') >= 0
	if len(n.Content) == 0 {
		if !ed.json || ed.oneLine {
			return insertion{start + 1, render("", false)}, nil
		}
		// An empty JSON object or array: open it up on lines of its own.
		base := ed.lineIndent(n.Line)
		inner := base + strings.Repeat(" ", ed.step)
		return insertion{start + 1, "\n" + inner + render(inner, true) + "\n" + base}, nil
	}
	if !multiline {
		return insertion{last, ", " + render("", false)}, nil
	}
	indent := strings.Repeat(" ", n.Content[0].Column-1)
	if n.Content[0].Line == n.Line {
		indent = ed.lineIndent(n.Line) + strings.Repeat(" ", ed.step)
	}
	return insertion{last, ",\n" + indent + render(indent, true)}, nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// lineIndent returns the leading spaces of a line.
func (ed *editor) lineIndent(l int) string {
	line := ed.line(l)
	return line[:len(line)-len(strings.TrimLeft(line, " "))]
}

// matchingClose returns the offset of the bracket closing the flow
// collection opened at start, skipping quoted strings and comments.
func matchingClose(src []byte, start int) (int, error) {
	depth := 0
	for i := start; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '\'':
			for i++; i < len(src); i++ {
				if src[i] == '\'' {
					if i+1 < len(src) && src[i+1] == '\'' {
						i++
						continue
					}
					break
				}
			}
		case '#':
			if i > 0 && isSpace(src[i-1]) {
				for i < len(src) && src[i] != '\n' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("unclosed flow collection")
}

// specOrder orders the keys of new schema objects.
type specOrder struct{}

func (specOrder) Order(keys []string) []string {
	out := make([]string, 0, len(keys))
	for _, k := range specKeyOrder {
		if slices.Contains(keys, k) {
			out = append(out, k)
		}
	}
	for _, k := range keys {
		if !slices.Contains(specKeyOrder, k) {
			out = append(out, k)
		}
	}
	return out
}

func (specOrder) Key(k string) encode.Orderer {
	if k == "default" || k == "enum" {
		return nil // values keep their own (sorted) order
	}
	return specOrder{}
}

func (specOrder) Elem(int) encode.Orderer { return nil }

// blockEntry renders "key: value" as block YAML at column 1 with the
// file's indentation step; lists of scalars are written in flow style.
func (ed *editor) blockEntry(e entryKV) (string, error) {
	vn := encode.YAMLNode(e.val, specOrder{})
	flowScalarLists(vn)
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{encode.YAMLNode(e.key, nil), vn}}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(ed.step)
	if err := enc.Encode(m); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return b.String(), nil
}

func flowScalarLists(n *yaml.Node) {
	if n.Kind == yaml.SequenceNode {
		scalars := true
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				scalars = false
			}
		}
		if scalars {
			n.Style = yaml.FlowStyle
		}
	}
	for _, c := range n.Content {
		flowScalarLists(c)
	}
}

// flowEntry renders "key: value" for a flow mapping or a JSON object.
func (ed *editor) flowEntry(e entryKV, indent string, multiline bool) string {
	if ed.json {
		ind := ""
		if multiline {
			ind = strings.Repeat(" ", ed.step)
		}
		var b strings.Builder
		writeJSON(&b, e.val, specOrder{}, indent, ind)
		return string(encode.JSON(e.key, nil, "")) + ": " + b.String()
	}
	vn := encode.YAMLNode(e.val, specOrder{})
	setFlow(vn)
	return ed.scalar(e.key) + ": " + strings.TrimSuffix(encodeNode(vn), "\n")
}

// writeJSON writes v as indented JSON starting at indentation prefix,
// keeping lists of scalars on one line as hand-written schemas do. With
// no indentation unit it writes one line, spaced as people write it.
func writeJSON(b *strings.Builder, v any, o encode.Orderer, prefix, unit string) {
	nl := "\n"
	if unit == "" {
		nl, prefix = "", ""
	}
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 0 {
			b.WriteString("{}")
			return
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if o != nil {
			keys = o.Order(keys)
		}
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
				if nl == "" {
					b.WriteString(" ")
				}
			}
			b.WriteString(nl + prefix + unit)
			b.Write(encode.JSON(k, nil, ""))
			b.WriteString(": ")
			var ko encode.Orderer
			if o != nil {
				ko = o.Key(k)
			}
			writeJSON(b, t[k], ko, prefix+unit, unit)
		}
		b.WriteString(nl + prefix + "}")
	case []any:
		scalars := true
		for _, x := range t {
			switch x.(type) {
			case map[string]any, []any:
				scalars = false
			}
		}
		if scalars {
			for i, x := range t {
				if i == 0 {
					b.WriteString("[")
				} else {
					b.WriteString(", ")
				}
				b.Write(encode.JSON(x, nil, ""))
			}
			if len(t) == 0 {
				b.WriteString("[")
			}
			b.WriteString("]")
			return
		}
		b.WriteString("[")
		for i, x := range t {
			if i > 0 {
				b.WriteString(",")
				if nl == "" {
					b.WriteString(" ")
				}
			}
			b.WriteString(nl + prefix + unit)
			writeJSON(b, x, nil, prefix+unit, unit)
		}
		b.WriteString(nl + prefix + "]")
	default:
		b.Write(encode.JSON(v, nil, ""))
	}
}

func setFlow(n *yaml.Node) {
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		n.Style = yaml.FlowStyle
	}
	for _, c := range n.Content {
		setFlow(c)
	}
}

func encodeNode(n *yaml.Node) string {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	_ = enc.Encode(n)
	_ = enc.Close()
	return b.String()
}

// scalar renders a string as a YAML or JSON scalar.
func (ed *editor) scalar(s string) string {
	if ed.json {
		return string(encode.JSON(s, nil, ""))
	}
	return strings.TrimSuffix(encodeNode(encode.YAMLNode(s, nil)), "\n")
}

// reencode edits the YAML tree and writes the whole document again: order
// and comments stay, spacing may not. It is the fallback where splicing
// cannot find its way (anchors, odd layouts).
func (ed *editor) reencode(a *addition) ([]byte, error) {
	root, err := document.ParseNode(ed.src)
	if err != nil {
		return nil, err
	}
	holder := root
	toks, _ := pointer.Split(a.holder)
	for _, t := range toks {
		for holder.Kind == yaml.AliasNode && holder.Alias != nil {
			holder = holder.Alias
		}
		var next *yaml.Node
		switch holder.Kind {
		case yaml.MappingNode:
			next = member(holder, t)
		case yaml.SequenceNode:
			if i, err := pointer.Index(t, len(holder.Content)); err == nil {
				next = holder.Content[i]
			}
		}
		if next == nil {
			return nil, fmt.Errorf("could not find %s in the text", a.holder)
		}
		holder = next
	}
	for holder.Kind == yaml.AliasNode && holder.Alias != nil {
		holder = holder.Alias
	}
	if holder.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s is not a mapping", a.holder)
	}
	entry := encode.YAMLNode(a.entry, specOrder{})
	flowScalarLists(entry)
	if props := member(holder, "properties"); props != nil && props.Kind == yaml.MappingNode {
		props.Content = append(props.Content, encode.YAMLNode(a.name, nil), entry)
	} else {
		pm := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{encode.YAMLNode(a.name, nil), entry}}
		holder.Content = append(holder.Content, encode.YAMLNode("properties", nil), pm)
	}
	if a.required != "" {
		if req := member(holder, "required"); req != nil && req.Kind == yaml.SequenceNode {
			req.Content = append(req.Content, encode.YAMLNode(a.required, nil))
		} else {
			holder.Content = append(holder.Content, encode.YAMLNode("required", nil),
				&yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{encode.YAMLNode(a.required, nil)}})
		}
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(ed.step)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
