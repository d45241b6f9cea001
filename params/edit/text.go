package edit

// Where the text of a node, an entry or a list item starts and ends.

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/internal/splice"
	yaml "go.yaml.in/yaml/v3"
)

// emptyValue reports a mapping value written as nothing (key: and no
// value), which reads as null.
func emptyValue(n, key *yaml.Node) bool {
	return key != nil && n.Kind == yaml.ScalarNode && n.Value == "" && n.Style == 0 && n.Tag == "!!null"
}

// span returns where the text of the node n starts and ends; an empty
// value (key: with nothing after it) spans nothing just after the colon.
func (e *editor) span(n, key *yaml.Node, flow bool) (int, int, error) {
	if emptyValue(n, key) {
		kend, err := e.end(key, flow)
		if err != nil {
			return 0, 0, err
		}
		colon := bytes.IndexByte(e.d.Src[kend:], ':')
		if colon < 0 {
			return 0, 0, fmt.Errorf("cannot find the colon after the key")
		}
		at := kend + colon + 1
		// An empty value really is nothing: the rest of the line is space
		// or a comment.
		rest := e.d.Src[at:]
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			rest = rest[:i]
		}
		if t := strings.TrimSpace(string(rest)); t != "" && !strings.HasPrefix(t, "#") {
			if flow {
				return 0, 0, fmt.Errorf("an empty value in a flow collection")
			}
		}
		return at, at, nil
	}
	end, err := e.end(n, flow)
	if err != nil {
		return 0, 0, err
	}
	return e.d.Start(n), end, nil
}

// end returns the offset just after the text of node n.
func (e *editor) end(n *yaml.Node, flow bool) (int, error) {
	src := e.d.Src
	start := e.d.Start(n)
	if n.Kind == yaml.AliasNode {
		if start < len(src) && src[start] == '*' {
			return start + 1 + len(n.Value), nil
		}
		return 0, fmt.Errorf("cannot find an alias")
	}
	p := e.skipProperties(start)
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		if n.Style&yaml.FlowStyle != 0 || flow || e.d.JSON {
			c, err := splice.MatchingClose(src, p)
			if err != nil {
				return 0, err
			}
			return c + 1, nil
		}
		if len(n.Content) == 0 {
			return 0, fmt.Errorf("an empty block collection")
		}
		return e.end(n.Content[len(n.Content)-1], false)
	case yaml.ScalarNode:
		switch n.Style {
		case yaml.DoubleQuotedStyle:
			if p >= len(src) || src[p] != '"' {
				return 0, fmt.Errorf("cannot find a quoted scalar")
			}
			for i := p + 1; i < len(src); i++ {
				switch src[i] {
				case '\\':
					i++
				case '"':
					return i + 1, nil
				}
			}
		case yaml.SingleQuotedStyle:
			if p >= len(src) || src[p] != '\'' {
				return 0, fmt.Errorf("cannot find a quoted scalar")
			}
			for i := p + 1; i < len(src); i++ {
				if src[i] == '\'' {
					if i+1 < len(src) && src[i+1] == '\'' {
						i++
						continue
					}
					return i + 1, nil
				}
			}
		case yaml.LiteralStyle, yaml.FoldedStyle:
			return e.indentedEnd(n.Line, func(string) bool { return true }), nil
		default:
			end := plainEnd(src, p, flow || e.d.JSON)
			if string(src[p:end]) == n.Value || n.Tag != "!!str" && strings.TrimSpace(string(src[p:end])) != "" {
				return end, nil
			}
			// A plain scalar over several lines.
			return e.indentedEnd(n.Line, func(line string) bool {
				return !strings.HasPrefix(strings.TrimSpace(line), "#")
			}), nil
		}
		return 0, fmt.Errorf("an unclosed quoted scalar")
	}
	return 0, fmt.Errorf("a node of an unknown kind")
}

// skipProperties skips an anchor and a tag before a node's content.
func (e *editor) skipProperties(p int) int {
	src := e.d.Src
	for p < len(src) && (src[p] == '&' || src[p] == '!') {
		for p < len(src) && !splice.IsSpace(src[p]) {
			p++
		}
		for p < len(src) && splice.IsSpace(src[p]) {
			p++
		}
	}
	return p
}

// plainEnd finds the end of a plain scalar on its line: before a comment,
// trailing space, and in flow context before , ] }.
func plainEnd(src []byte, p int, flow bool) int {
	i := p
	for ; i < len(src) && src[i] != '\n' && src[i] != '\r'; i++ {
		if src[i] == '#' && i > p && (src[i-1] == ' ' || src[i-1] == '\t') {
			break
		}
		if flow && (src[i] == ',' || src[i] == ']' || src[i] == '}') {
			break
		}
		if src[i] == ':' && (i+1 == len(src) || splice.IsSpace(src[i+1]) || flow && src[i+1] == ',') {
			break
		}
	}
	for i > p && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	return i
}

// indentedEnd is the end of the text that continues the line l on the
// following lines indented deeper than l (blank lines within), those
// that cont accepts.
func (e *editor) indentedEnd(l int, cont func(line string) bool) int {
	base := len(e.d.LineIndent(l))
	last := l
	for x := l + 1; x <= e.d.Lines(); x++ {
		line := e.d.Line(x)
		if strings.TrimSpace(line) == "" {
			continue
		}
		if len(line)-len(strings.TrimLeft(line, " ")) <= base || !cont(line) {
			break
		}
		last = x
	}
	return e.d.LineStart(last) + len(e.d.Line(last))
}

// headStart is where the lines of a block mapping's key start: the
// comment lines just above it at its indentation belong to it.
func (e *editor) headStart(k *yaml.Node) (int, error) {
	if strings.TrimSpace(e.d.Line(k.Line)[:e.d.Start(k)-e.d.LineStart(k.Line)]) != "" {
		return 0, fmt.Errorf("the key does not start its line")
	}
	indent := k.Column - 1
	l := k.Line
	for l > 1 {
		line := e.d.Line(l - 1)
		t := strings.TrimLeft(line, " ")
		if !strings.HasPrefix(t, "#") || len(line)-len(t) != indent {
			break
		}
		l--
	}
	return e.d.LineStart(l), nil
}

// extentEnd is where the lines of a block mapping's entry end: after the
// line its value ends on, and the comment lines indented deeper than the
// key just below it (commented-out keys of its value).
func (e *editor) extentEnd(en entry) (int, error) {
	_, end, err := e.span(en.v, en.k, false)
	if err != nil {
		return 0, err
	}
	l := e.d.LineOf(end)
	if end == e.d.LineStart(l) && l > 1 {
		l-- // the value ends at a line break
	}
	indent := en.k.Column - 1
	for l+1 <= e.d.Lines() {
		line := e.d.Line(l + 1)
		t := strings.TrimLeft(line, " ")
		if !strings.HasPrefix(t, "#") || len(line)-len(t) <= indent {
			break
		}
		l++
	}
	return e.d.LineStart(l + 1), nil
}

// dash finds the dash of a block sequence's item, which must start its
// line: it returns where the item's lines start (its comment lines above
// at the dash's indentation included) and the dash's indentation.
func (e *editor) dash(item *yaml.Node) (from, indent int, err error) {
	lineStart := e.d.LineStart(item.Line)
	at := e.d.Start(item)
	before := string(e.d.Src[lineStart:at])
	d := strings.LastIndexByte(before, '-')
	if d < 0 || strings.TrimSpace(before[:d]) != "" || strings.TrimSpace(before[d+1:]) != "" {
		return 0, 0, fmt.Errorf("a list item that does not start its line")
	}
	l := item.Line
	for l > 1 {
		line := e.d.Line(l - 1)
		t := strings.TrimLeft(line, " ")
		if !strings.HasPrefix(t, "#") || len(line)-len(t) != d {
			break
		}
		l--
	}
	return e.d.LineStart(l), d, nil
}

// itemEnd is where an item's lines end: after the line it ends on and
// the comment lines indented deeper than its dash below it.
func (e *editor) itemEnd(item *yaml.Node, dash int) (int, error) {
	end, err := e.end(item, false)
	if err != nil {
		return 0, err
	}
	l := e.d.LineOf(end)
	for l+1 <= e.d.Lines() {
		line := e.d.Line(l + 1)
		t := strings.TrimLeft(line, " ")
		if !strings.HasPrefix(t, "#") || len(line)-len(t) <= dash {
			break
		}
		l++
	}
	return e.d.LineStart(l + 1), nil
}

// hasComment reports a comment in text: a # at a line's start or after
// white space (maybe inside a quoted string: then the answer is
// cautious).
func hasComment(text []byte) bool {
	for i, c := range text {
		if c == '#' && (i == 0 || splice.IsSpace(text[i-1])) {
			return true
		}
	}
	return false
}
