// Package splice edits the source text of a YAML or JSON document in
// place: it finds where a node's text starts and ends, where a line added
// to a collection goes, and applies insertions and replacements without
// touching any other byte. schema/edit (schema files) and params/edit
// (values files) are built on it.
package splice

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

// Doc is a document's text with its YAML node tree.
type Doc struct {
	Src  []byte
	Root *yaml.Node // nil for an empty document
	// JSON is set when the document is written as JSON (it opens with {
	// or [): new text is then JSON too.
	JSON bool
	// OneLine is set for a JSON document on one line: new text stays on it.
	OneLine bool
	// Step is the file's indentation step (2 when it shows none).
	Step  int
	lines []int // byte offset of the start of each line (index 0 is line 1)
	flat  []*yaml.Node
	end   map[*yaml.Node]int // index in flat just after a node's subtree
	index map[*yaml.Node]int // a node's index in flat
}

// Parse reads a document's text and node tree.
func Parse(src []byte) (*Doc, error) {
	root, err := document.ParseNode(src)
	if err != nil {
		return nil, err
	}
	d := &Doc{Src: src, Root: root, end: map[*yaml.Node]int{}, index: map[*yaml.Node]int{}}
	t := bytes.TrimSpace(src)
	d.JSON = len(t) > 0 && (t[0] == '{' || t[0] == '[')
	d.OneLine = d.JSON && bytes.IndexByte(t, '\n') < 0
	d.lines = []int{0}
	for i, c := range src {
		if c == '\n' {
			d.lines = append(d.lines, i+1)
		}
	}
	var flatten func(n *yaml.Node)
	flatten = func(n *yaml.Node) {
		d.index[n] = len(d.flat)
		d.flat = append(d.flat, n)
		if n.Kind != yaml.AliasNode {
			for _, c := range n.Content {
				flatten(c)
			}
		}
		d.end[n] = len(d.flat)
	}
	if root != nil {
		flatten(root)
	}
	d.Step = d.indentStep()
	return d, nil
}

// CRLF reports that the document's lines end in "\r\n".
func (d *Doc) CRLF() bool { return bytes.Contains(d.Src, []byte("\r\n")) }

// indentStep guesses the file's indentation from its first nested block
// mapping; 2 when there is none.
func (d *Doc) indentStep() int {
	var find func(n *yaml.Node) int
	find = func(n *yaml.Node) int {
		if n == nil || n.Kind != yaml.MappingNode {
			return 0
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			v := n.Content[i+1]
			if v.Kind == yaml.MappingNode && len(v.Content) > 0 && v.Content[0].Line > n.Content[i].Line {
				if s := v.Content[0].Column - n.Content[i].Column; s > 0 && s <= 8 {
					return s
				}
			}
			if s := find(v); s > 0 {
				return s
			}
		}
		return 0
	}
	if s := find(d.Root); s > 0 {
		return s
	}
	return 2
}

// Lines is the number of lines.
func (d *Doc) Lines() int { return len(d.lines) }

// LineStart is the byte offset where a 1-based line starts (the end of
// the text past the last line).
func (d *Doc) LineStart(l int) int {
	if l-1 >= len(d.lines) {
		return len(d.Src)
	}
	return d.lines[l-1]
}

// Offset converts a 1-based line and column (in characters) to a byte offset.
func (d *Doc) Offset(line, col int) int {
	if line-1 >= len(d.lines) {
		return len(d.Src)
	}
	off := d.lines[line-1]
	for c := 1; c < col && off < len(d.Src); c++ {
		_, size := utf8.DecodeRune(d.Src[off:])
		off += size
	}
	return off
}

// Start is the byte offset where a node's text starts.
func (d *Doc) Start(n *yaml.Node) int { return d.Offset(n.Line, n.Column) }

// LineOf is the 1-based line of a byte offset.
func (d *Doc) LineOf(off int) int {
	return sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > off })
}

// Line returns the text of a 1-based line without its line break.
func (d *Doc) Line(l int) string {
	start := d.lines[l-1]
	end := len(d.Src)
	if l < len(d.lines) {
		end = d.lines[l]
	}
	return strings.TrimRight(string(d.Src[start:end]), "\r\n")
}

// LineIndent returns the leading spaces of a line.
func (d *Doc) LineIndent(l int) string {
	line := d.Line(l)
	return line[:len(line)-len(strings.TrimLeft(line, " "))]
}

// LastLine is the last line on which a node or one of its descendants starts.
func (d *Doc) LastLine(n *yaml.Node) int {
	last := 0
	for _, x := range d.flat[d.index[n]:d.end[n]] {
		last = max(last, x.Line)
	}
	return last
}

// Next is the node that follows n's subtree in document order, nil at the end.
func (d *Doc) Next(n *yaml.Node) *yaml.Node {
	if i := d.end[n]; i < len(d.flat) {
		return d.flat[i]
	}
	return nil
}

// BlockEnd returns the offset where a line appended to a block collection
// whose entries start at column col goes: after its last content, before
// trailing blank lines and the comments of what follows.
func (d *Doc) BlockEnd(n *yaml.Node, col int) int {
	lastLine := d.LastLine(n)
	next := len(d.lines) + 1
	if x := d.Next(n); x != nil {
		next = x.Line
	}
	// A document end marker also ends the collection.
	for l := lastLine + 1; l < next && l <= len(d.lines); l++ {
		if line := d.Line(l); strings.HasPrefix(line, "...") || strings.HasPrefix(line, "---") {
			next = l
			break
		}
	}
	l := next
	for l-1 > lastLine {
		line := d.Line(l - 1)
		trimmed := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if trimmed == "" || (strings.HasPrefix(trimmed, "#") && indent < col-1) {
			l--
			continue
		}
		break
	}
	return d.LineStart(l)
}

// NodeAt returns the YAML node at a pointer into the document; aliases on
// the way are refused, since an edit there would change every place that
// shares the anchored node.
func (d *Doc) NodeAt(ptr string) (*yaml.Node, error) {
	toks, err := pointer.Split(ptr)
	if err != nil {
		return nil, err
	}
	n := d.Root
	if n == nil {
		return nil, fmt.Errorf("%s: the document is empty", ptr)
	}
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

// Member returns the value of a key of a mapping node.
func Member(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// Edit replaces the bytes [At, End) with Text; End == At inserts.
type Edit struct {
	At, End int
	Text    string
}

// Apply returns the text with the edits made. Edits must not overlap;
// insertions at the same offset keep their order, and stand before the
// rest of a replacement that starts there. Text written with "\n"
// gets the file's "\r\n" where the file uses it.
func (d *Doc) Apply(edits []Edit) []byte {
	order := make([]int, len(edits))
	for i := range order {
		order[i] = i
	}
	// Highest offset first, so earlier offsets stay valid; at the same
	// offset a replacement first (text inserted there then stands before
	// what it left), then the later insertion first, so the texts keep
	// their order.
	sort.SliceStable(order, func(x, y int) bool {
		a, b := edits[order[x]], edits[order[y]]
		if a.At != b.At {
			return a.At > b.At
		}
		if ra, rb := a.End > a.At, b.End > b.At; ra != rb {
			return ra
		}
		return order[x] > order[y]
	})
	crlf := d.CRLF()
	out := append([]byte(nil), d.Src...)
	for _, i := range order {
		e := edits[i]
		text := e.Text
		if crlf {
			text = strings.ReplaceAll(text, "\n", "\r\n")
		}
		end := max(e.End, e.At)
		out = append(out[:e.At], append([]byte(text), out[end:]...)...)
	}
	return out
}

// AppendToFlow returns the insertion that appends to a flow collection (or
// a JSON object or array) before its closing bracket; render writes the
// new entries for an indent when multiline.
func (d *Doc) AppendToFlow(n *yaml.Node, open, close byte, render func(indent string, multiline bool) string) (Edit, error) {
	start := d.Start(n)
	if start >= len(d.Src) || d.Src[start] != open {
		return Edit{}, fmt.Errorf("cannot find the opening %q", open)
	}
	end, err := MatchingClose(d.Src, start)
	if err != nil {
		return Edit{}, err
	}
	// Where the content ends, before white space and the bracket.
	last := end
	for last > start+1 && IsSpace(d.Src[last-1]) {
		last--
	}
	multiline := bytes.IndexByte(d.Src[start:end], '\n') >= 0
	if len(n.Content) == 0 {
		if !d.JSON || d.OneLine {
			return Edit{At: start + 1, End: start + 1, Text: render("", false)}, nil
		}
		// An empty JSON object or array: open it up on lines of its own.
		base := d.LineIndent(n.Line)
		inner := base + strings.Repeat(" ", d.Step)
		return Edit{At: start + 1, End: start + 1, Text: "\n" + inner + render(inner, true) + "\n" + base}, nil
	}
	if !multiline {
		return Edit{At: last, End: last, Text: ", " + render("", false)}, nil
	}
	indent := strings.Repeat(" ", n.Content[0].Column-1)
	if n.Content[0].Line == n.Line {
		indent = d.LineIndent(n.Line) + strings.Repeat(" ", d.Step)
	}
	return Edit{At: last, End: last, Text: ",\n" + indent + render(indent, true)}, nil
}

// IsSpace reports white space, line breaks included.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// MatchingClose returns the offset of the bracket closing the flow
// collection opened at start, skipping quoted strings and comments.
func MatchingClose(src []byte, start int) (int, error) {
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
			if i > 0 && IsSpace(src[i-1]) {
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
