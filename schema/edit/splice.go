package edit

// The text editor: it splices new entries into the source text of a YAML
// or JSON document, keeping everything around them as it was.

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/pointer"
	yaml "go.yaml.in/yaml/v3"
)

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
