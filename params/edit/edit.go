package edit

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/splice"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/internal/order"
	"github.com/paramkit/paramkit/schema"
	yaml "go.yaml.in/yaml/v3"
)

// Values returns the values file src (YAML or JSON), which reads as old,
// edited so that it reads as new: new is the result of an ordinary update
// of old (params.Update with Sparse set, so that no default the user
// never wrote is written), whatever the update was made of.
//
// Only the text of the values that differ changes. Comments, key order,
// quoting, blank lines and indentation stay: a changed scalar is rewritten
// in place (in its old quoting where that reads back the same); a new key
// goes where the schema orders it among its siblings, with the file's
// indentation (a key the schema does not declare goes last); a removed
// key takes its comment lines with it (those just above it, and the
// commented-out lines indented below it, as Helm charts write them);
// items added to or removed from a block list, at its end or in one run
// inside it, change only their own lines; a block scalar (|) stays one. A
// value whose shape changes (a scalar becoming an object, `{}` filled) is
// written anew in the file's style. A JSON file stays JSON. Where writing
// a collection anew would lose a comment inside it, Values refuses rather
// than lose it.
//
// Values reads with s as params.Decode does (s may be nil: YAML 1.2 core
// rules), so a scalar is written as it must be to read back as intended:
// a string that would read as another type is quoted, a number keeps its
// exact text. The result is checked before it is returned: decoding it
// gives new exactly (numbers by their text).
//
// Every failure is a schema.ErrorList's Err (read it with
// schema.ErrorsOf): src that is no YAML or JSON document gives kind
// schema.KindSyntax; old that is not what src reads as, a part of new
// that is no value, or a file that cannot be edited in place (a change
// to or a removal of a YAML anchor that aliases elsewhere share, a layout
// the editor cannot place text in) gives kind schema.KindUsage at the
// value's pointer, naming no value. src is not changed.
func Values(s *schema.Schema, src []byte, old, new any) ([]byte, error) {
	oldV, err := value.Plain(old)
	if err != nil {
		return nil, usage("", "the old values: %v", err)
	}
	newV, err := value.Plain(new)
	if err != nil {
		return nil, usage("", "the new values: %v", err)
	}
	d, err := splice.Parse(src)
	if err != nil {
		return nil, schema.ErrorList{schema.NewError(schema.KindSyntax, "", "%v", err)}.Err()
	}
	var read any
	if d.Root != nil {
		if read, err = params.Decode(s, src); err != nil {
			return nil, schema.ErrorsOf(err).Err()
		}
	}
	if !value.Identical(read, oldV) && !(read == nil && isEmptyMap(oldV)) {
		return nil, usage("", "the old values are not what the file holds: give the values the file reads as")
	}
	if value.Identical(oldV, newV) {
		return slices.Clone(src), nil
	}
	var root *schema.Node
	if s != nil {
		root = s.Root()
	}
	e := &editor{d: d, unit: strings.Repeat(" ", d.Step)}
	var out []byte
	if d.Root == nil {
		out, err = e.wholeDocument(s, newV)
		if err != nil {
			return nil, err
		}
	} else {
		if err := e.value(d.Root, nil, "", root, oldV, newV, d.JSON); err != nil {
			ptr, msg := pointerOf(err), err.Error()
			var pe *placeError
			if errors.As(err, &pe) {
				msg = pe.msg
			}
			return nil, usage(ptr, "cannot edit the file in place: %s", msg)
		}
		out = d.Apply(e.edits)
	}
	// The result must read back as exactly the new values.
	got, err := params.Decode(s, out)
	if err != nil || !value.Identical(got, newV) {
		at := ""
		if err == nil {
			if diff := value.Diff(got, newV); len(diff) > 0 {
				at = diff[0]
			}
		}
		return nil, usage(at, "cannot edit the file in place: the edited text would not read back as the new values (an unusual layout); write the file whole with params.MarshalYAML")
	}
	return out, nil
}

func isEmptyMap(v any) bool {
	m, ok := v.(map[string]any)
	return ok && len(m) == 0
}

func usage(ptr, format string, a ...any) error {
	return schema.ErrorList{schema.NewError(schema.KindUsage, ptr, format, a...)}.Err()
}

// placeError is a failure to place text at a pointer. A hard one (an
// anchor) also stops the collections above from being written anew.
type placeError struct {
	ptr  string
	msg  string
	hard bool
}

func (p *placeError) Error() string {
	if p.ptr == "" {
		return p.msg
	}
	return pointer.Quote(p.ptr) + ": " + p.msg
}

func fail(ptr, format string, a ...any) error {
	return &placeError{ptr: ptr, msg: fmt.Sprintf(format, a...)}
}

func anchorError(ptr string) error {
	return &placeError{ptr: ptr, msg: "the value is a YAML anchor that aliases elsewhere share: edit it by hand", hard: true}
}

func hard(err error) bool {
	var p *placeError
	return errors.As(err, &p) && p.hard
}

func pointerOf(err error) string {
	var p *placeError
	if errors.As(err, &p) {
		return p.ptr
	}
	return ""
}

// editor collects the edits that turn the old text into the new.
type editor struct {
	d     *splice.Doc
	unit  string // one indentation step
	edits []splice.Edit
}

func (e *editor) add(at, end int, text string) {
	e.edits = append(e.edits, splice.Edit{At: at, End: end, Text: text})
}

// wholeDocument writes the values after what an empty (or comment-only)
// file holds.
func (e *editor) wholeDocument(s *schema.Schema, v any) ([]byte, error) {
	doc, err := params.MarshalYAML(s, v)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(e.d.Src)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	if e.d.CRLF() {
		doc = bytes.ReplaceAll(doc, []byte("\n"), []byte("\r\n"))
	}
	return append(out, doc...), nil
}

// value edits node n (the value of key when it stands in a mapping) from
// o to v. flow is set inside a flow collection or a JSON document.
func (e *editor) value(n, key *yaml.Node, ptr string, sn *schema.Node, o, v any, flow bool) error {
	if value.Identical(o, v) {
		return nil
	}
	if n.Anchor != "" {
		return anchorError(ptr)
	}
	mark := len(e.edits)
	var err error
	om, isMap := o.(map[string]any)
	nm, toMap := v.(map[string]any)
	ol, isList := o.([]any)
	nl, toList := v.([]any)
	switch {
	case isMap && toMap && n.Kind == yaml.MappingNode && len(n.Content) > 0 && len(nm) > 0:
		err = e.mapping(n, ptr, sn, om, nm, flow || n.Style&yaml.FlowStyle != 0)
	case isList && toList && n.Kind == yaml.SequenceNode && len(ol) != len(nl) && len(ol) > 0 && len(nl) > 0 && len(n.Content) == len(ol) &&
		!flow && n.Style&yaml.FlowStyle == 0:
		err = e.blockSequence(n, ptr, sn, ol, nl)
	case isList && toList && n.Kind == yaml.SequenceNode && len(ol) == len(nl) && len(nl) > 0 && len(n.Content) == len(nl):
		inFlow := flow || n.Style&yaml.FlowStyle != 0
		for i := range nl {
			if err = e.value(n.Content[i], nil, pointer.Append(ptr, strconv.Itoa(i)), elem(sn, i), ol[i], nl[i], inFlow); err != nil {
				break
			}
		}
	default:
		return e.replace(n, key, ptr, sn, v, flow)
	}
	if err == nil {
		return nil
	}
	// The collection could not be edited entry by entry: write it anew,
	// unless that would lose comments (or an anchor is inside).
	e.edits = e.edits[:mark]
	if hard(err) {
		return err
	}
	if start, end, serr := e.span(n, key, flow); serr != nil || hasComment(e.d.Src[start:end]) {
		return err
	}
	if rerr := e.replace(n, key, ptr, sn, v, flow); rerr != nil {
		return err
	}
	return nil
}

func elem(sn *schema.Node, i int) *schema.Node {
	if sn == nil {
		return nil
	}
	return sn.Elem(i)
}

func child(sn *schema.Node, k string) *schema.Node {
	if sn == nil {
		return nil
	}
	return sn.Child(k)
}

type entry struct {
	i    int // index of the entry in the mapping
	k, v *yaml.Node
}

// mapping edits the entries of a mapping: removes, changes, adds.
func (e *editor) mapping(n *yaml.Node, ptr string, sn *schema.Node, om, nm map[string]any, flow bool) error {
	var entries, kept []entry
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Tag == "!!merge" || k.Kind != yaml.ScalarNode {
			return fail(ptr, "a merge key or a complex key")
		}
		en := entry{i / 2, k, n.Content[i+1]}
		entries = append(entries, en)
		if _, ok := nm[k.Value]; ok {
			kept = append(kept, en)
		}
	}
	if len(kept) == 0 {
		if flow || e.d.JSON {
			return fail(ptr, "no key stays") // written anew above
		}
		// Every key changes: the new ones go where the first old one was.
		keys := make([]string, 0, len(nm))
		for k := range nm {
			keys = append(keys, k)
		}
		keys = order.At(sn).Order(sortedStrings(keys))
		at, err := e.headStart(entries[0].k)
		if err != nil {
			return fail(ptr, "%v", err)
		}
		text, err := e.blockEntries(keys, nm, sn, entries[0].k.Column)
		if err != nil {
			return err
		}
		e.add(at, at, text)
		return e.remove(n, ptr, entries, nm, flow)
	}
	// The kept entries' own edits first: where a new sibling goes at the
	// offset where a new key of theirs goes (the end of their last line),
	// Apply puts the later insertion first, so theirs stays inside.
	for _, en := range kept {
		k := en.k.Value
		if err := e.value(en.v, en.k, pointer.Append(ptr, k), child(sn, k), om[k], nm[k], flow); err != nil {
			return err
		}
	}
	if err := e.insert(n, ptr, sn, kept, om, nm, flow); err != nil {
		return err
	}
	return e.remove(n, ptr, entries, nm, flow)
}

// remove deletes the entries new no longer has.
func (e *editor) remove(n *yaml.Node, ptr string, entries []entry, nm map[string]any, flow bool) error {
	for _, en := range entries {
		if _, ok := nm[en.k.Value]; !ok && (hasAnchor(en.k) || hasAnchor(en.v)) {
			return anchorError(pointer.Append(ptr, en.k.Value))
		}
	}
	if flow || e.d.JSON {
		last := -1 // the last entry kept
		for j, en := range entries {
			if _, ok := nm[en.k.Value]; ok {
				last = j
			}
		}
		for j, en := range entries {
			if _, ok := nm[en.k.Value]; ok {
				continue
			}
			if j > last {
				// The entries after the last one kept go with the comma
				// before them, in one cut.
				from, err := e.end(entries[last].v, true)
				if err != nil {
					return err
				}
				to, err := e.end(entries[len(entries)-1].v, true)
				if err != nil {
					return err
				}
				e.add(from, to, "")
				break
			}
			e.add(e.d.Start(en.k), e.d.Start(entries[j+1].k), "")
		}
		return nil
	}
	for _, en := range entries {
		if _, ok := nm[en.k.Value]; ok {
			continue
		}
		from, err := e.headStart(en.k)
		if err != nil {
			return fail(pointer.Append(ptr, en.k.Value), "%v", err)
		}
		to, err := e.extentEnd(en)
		if err != nil {
			return err
		}
		// A removed block between blank lines takes one of them along.
		fromLine, toLine := e.d.LineOf(from), e.d.LineOf(to)
		if to == e.d.LineStart(toLine) && toLine <= e.d.Lines() && to < len(e.d.Src) &&
			strings.TrimSpace(e.d.Line(toLine)) == "" && (fromLine == 1 || strings.TrimSpace(e.d.Line(fromLine-1)) == "") {
			to = e.d.LineStart(toLine + 1)
		}
		e.add(from, to, "")
	}
	return nil
}

// insert adds the keys new has and old had not, each after the last kept
// sibling the schema orders before it (before the first kept one when
// none is), keys the schema does not declare after the last.
func (e *editor) insert(n *yaml.Node, ptr string, sn *schema.Node, kept []entry, om, nm map[string]any, flow bool) error {
	var added []string
	for k := range nm {
		if _, ok := om[k]; !ok {
			added = append(added, k)
		}
	}
	if len(added) == 0 {
		return nil
	}
	rank := order.Rank(sn)
	rankOf := func(k string) int {
		if r, ok := rank[k]; ok {
			return r
		}
		return len(rank)
	}
	sort.Slice(added, func(a, b int) bool {
		ra, rb := rankOf(added[a]), rankOf(added[b])
		if ra != rb {
			return ra < rb
		}
		return added[a] < added[b]
	})
	// Group the new keys by the kept entry they follow (-1: before the
	// first kept one).
	groups := map[int][]string{}
	var anchors []int
	for _, k := range added {
		r := rankOf(k)
		after := -1
		for j, en := range kept {
			if r == len(rank) || rankOf(en.k.Value) < r {
				after = j
			}
		}
		if _, ok := groups[after]; !ok {
			anchors = append(anchors, after)
		}
		groups[after] = append(groups[after], k)
	}
	for _, a := range anchors {
		if err := e.insertGroup(n, ptr, sn, kept, a, groups[a], nm, flow); err != nil {
			return err
		}
	}
	return nil
}

func (e *editor) insertGroup(n *yaml.Node, ptr string, sn *schema.Node, kept []entry, after int, keys []string, nm map[string]any, flow bool) error {
	first := kept[0].k
	if flow || e.d.JSON {
		multiline := false
		if start := e.d.Start(n); start < len(e.d.Src) && (e.d.Src[start] == '{') {
			if c, err := splice.MatchingClose(e.d.Src, start); err == nil {
				multiline = bytes.IndexByte(e.d.Src[start:c], '\n') >= 0
			}
		}
		indent := ""
		sep := ", "
		if multiline {
			indent = strings.Repeat(" ", first.Column-1)
			if first.Line == n.Line {
				indent = e.d.LineIndent(n.Line) + e.unit
			}
			sep = ",\n" + indent
		}
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = e.flowEntry(k, nm[k], child(sn, k), indent, multiline)
		}
		text := strings.Join(parts, sep)
		if after < 0 {
			at := e.d.Start(first)
			e.add(at, at, text+sep)
			return nil
		}
		at, err := e.end(kept[after].v, true)
		if err != nil {
			return err
		}
		e.add(at, at, sep+text)
		return nil
	}
	col := first.Column
	if after < 0 {
		at, err := e.headStart(first)
		if err != nil {
			return fail(ptr, "%v", err)
		}
		text, err := e.blockEntries(keys, nm, sn, col)
		if err != nil {
			return err
		}
		e.add(at, at, text)
		return nil
	}
	at, err := e.extentEnd(kept[after])
	if err != nil {
		return err
	}
	text, err := e.blockEntries(keys, nm, sn, col)
	if err != nil {
		return err
	}
	if at == len(e.d.Src) && at > 0 && e.d.Src[at-1] != '\n' {
		text = "\n" + text
	}
	e.add(at, at, text)
	return nil
}

// replace writes v in place of the node n.
func (e *editor) replace(n, key *yaml.Node, ptr string, sn *schema.Node, v any, flow bool) error {
	if hasAnchor(n) {
		return anchorError(ptr)
	}
	start, end, err := e.span(n, key, flow)
	if err != nil {
		return fail(ptr, "%v", err)
	}
	if e.d.JSON {
		unit := e.unit
		if e.d.OneLine {
			unit = ""
		}
		e.add(start, end, encode.HandwrittenJSON(v, order.At(sn), e.d.LineIndent(e.d.LineOf(start)), unit))
		return nil
	}
	m, isMap := v.(map[string]any)
	l, isList := v.([]any)
	collection := isMap && len(m) > 0 || isList && len(l) > 0
	if str, ok := v.(string); ok && !flow && n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		// A block scalar stays one where the new text can be one.
		if text, ok := literalBlock(str, e.d.LineIndent(n.Line)+e.unit); ok {
			e.add(start, end, text)
			return nil
		}
	}
	if !collection || flow || n.Style&yaml.FlowStyle != 0 && len(n.Content) > 0 {
		var text string
		switch {
		case collection:
			text = e.flowText(v, sn)
		case isString(v):
			text = e.stringText(n, sn, v.(string), flow)
		default:
			text = scalarText(v)
		}
		if key != nil && !flow && (n.Kind != yaml.ScalarNode || emptyValue(n, key)) {
			// A block value under its key, or an empty one: the value
			// goes on the key's line.
			kend, err := e.end(key, false)
			if err != nil {
				return fail(ptr, "%v", err)
			}
			e.add(kend, end, ": "+text)
			return nil
		}
		e.add(start, end, text)
		return nil
	}
	block, err := e.encode(e.yamlNode(v, sn))
	if err != nil {
		return fail(ptr, "%v", err)
	}
	block = strings.TrimSuffix(block, "\n")
	sameKind := n.Kind == yaml.MappingNode && isMap || n.Kind == yaml.SequenceNode && isList
	if key == nil || sameKind && n.Line > key.Line {
		// In the old collection's place, lines at its column.
		e.add(start, end, indentLines(block, strings.Repeat(" ", n.Column-1), false))
		return nil
	}
	// A new block under the key, one step in.
	kend, err := e.end(key, false)
	if err != nil {
		return fail(ptr, "%v", err)
	}
	indent := strings.Repeat(" ", key.Column-1) + e.unit
	e.add(kend, end, ":\n"+indentLines(block, indent, true))
	return nil
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

// blockSequence edits a block sequence that grows or shrinks at its end:
// the items both have are edited in place, new items are appended after
// the last one, items past the new end are removed with their comments.
func (e *editor) blockSequence(n *yaml.Node, ptr string, sn *schema.Node, ol, nl []any) error {
	// Items removed or inserted in one run, the others as they were: only
	// those items' lines change.
	p := 0
	for p < min(len(ol), len(nl)) && value.Identical(ol[p], nl[p]) {
		p++
	}
	if d := len(ol) - len(nl); d > 0 && p < len(nl) && identicalLists(ol[p+d:], nl[p:]) {
		return e.removeItems(n, ptr, p, p+d)
	}
	if d := len(nl) - len(ol); d > 0 && p < len(ol) && identicalLists(ol[p:], nl[p+d:]) {
		item := n.Content[p]
		from, dash, err := e.dash(item)
		if err != nil {
			return fail(ptr, "%v", err)
		}
		var b strings.Builder
		for i := p; i < p+d; i++ {
			text, err := e.itemText(nl[i], elem(sn, i), dash)
			if err != nil {
				return fail(pointer.Append(ptr, strconv.Itoa(i)), "%v", err)
			}
			b.WriteString(text)
		}
		e.add(from, from, b.String())
		return nil
	}
	for i := range min(len(ol), len(nl)) {
		if err := e.value(n.Content[i], nil, pointer.Append(ptr, strconv.Itoa(i)), elem(sn, i), ol[i], nl[i], false); err != nil {
			return err
		}
	}
	if len(nl) > len(ol) {
		last := n.Content[len(n.Content)-1]
		_, dash, err := e.dash(last)
		if err != nil {
			return fail(ptr, "%v", err)
		}
		at, err := e.itemEnd(last, dash)
		if err != nil {
			return err
		}
		var b strings.Builder
		if at == len(e.d.Src) && at > 0 && e.d.Src[at-1] != '\n' {
			b.WriteByte('\n')
		}
		for i := len(ol); i < len(nl); i++ {
			text, err := e.itemText(nl[i], elem(sn, i), dash)
			if err != nil {
				return fail(pointer.Append(ptr, strconv.Itoa(i)), "%v", err)
			}
			b.WriteString(text)
		}
		e.add(at, at, b.String())
		return nil
	}
	return e.removeItems(n, ptr, len(nl), len(ol))
}

// removeItems removes the items [from, to) of a block sequence with their
// comment lines.
func (e *editor) removeItems(n *yaml.Node, ptr string, from, to int) error {
	for i := from; i < to; i++ {
		item := n.Content[i]
		if hasAnchor(item) {
			return anchorError(pointer.Append(ptr, strconv.Itoa(i)))
		}
		start, dash, err := e.dash(item)
		if err != nil {
			return fail(pointer.Append(ptr, strconv.Itoa(i)), "%v", err)
		}
		end, err := e.itemEnd(item, dash)
		if err != nil {
			return err
		}
		e.add(start, end, "")
	}
	return nil
}

func identicalLists(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !value.Identical(a[i], b[i]) {
			return false
		}
	}
	return true
}

// hasAnchor reports an anchor in n or below it: removing its text would
// leave aliases elsewhere without it.
func hasAnchor(n *yaml.Node) bool {
	if n.Anchor != "" {
		return true
	}
	if n.Kind == yaml.AliasNode {
		return false
	}
	for _, c := range n.Content {
		if hasAnchor(c) {
			return true
		}
	}
	return false
}
