package encode

import (
	"bytes"

	yaml "go.yaml.in/yaml/v3"
)

// fastYAML writes the document n in the bytes yamlWhole gives for it,
// without the YAML encoder, for the common shape of values: block
// mappings and lists (empty ones in flow style, {} and []) of the nodes a
// quoter builds, whose strings are ASCII words written plain or printable
// ASCII written in double quotes, and short keys. ok is false for
// anything else (a line break, a backslash or a quote, a character
// beyond ASCII, a long key, a comment...), which yamlWhole then writes.
//
// The encoder allocates about 2.7 KB an entry (its event queue keeps
// every event of a document until its end and is copied as it grows):
// writing a 4 MB values file cost 600 MB of garbage, and the collector
// then held the heap at twice the values for the whole writing.
// FuzzFastYAML compares the two on any value.
func fastYAML(n *yaml.Node) (out []byte, ok bool) {
	w := fastWriter{}
	switch {
	case n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode:
		if text, leaf, ok := w.leaf(n); !ok {
			return nil, false
		} else if leaf {
			w.b.WriteString(text)
			w.b.WriteByte('\n')
		} else if !w.block(n, 0, false) {
			return nil, false
		}
	default:
		text, _, ok := w.leaf(n)
		if !ok {
			return nil, false
		}
		w.b.WriteString(text)
		w.b.WriteByte('\n')
	}
	return w.b.Bytes(), true
}

type fastWriter struct {
	b bytes.Buffer
}

func (w *fastWriter) indent(n int) {
	for range n {
		w.b.WriteByte(' ')
	}
}

// block writes a non-empty block mapping or list whose lines start at
// column ind; inline says that its first line goes on the current line
// (after a list's "- ").
func (w *fastWriter) block(n *yaml.Node, ind int, inline bool) bool {
	if !plainNode(n) {
		return false
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if !inline || i > 0 {
				w.indent(ind)
			}
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.Tag != "!!str" || len(k.Value) > 64 {
				return false
			}
			text, _, ok := w.leaf(k)
			if !ok {
				return false
			}
			w.b.WriteString(text)
			w.b.WriteByte(':')
			text, leaf, ok := w.leaf(v)
			switch {
			case !ok:
				return false
			case leaf:
				w.b.WriteByte(' ')
				w.b.WriteString(text)
				w.b.WriteByte('\n')
			default:
				w.b.WriteByte('\n')
				if !w.block(v, ind+2, false) {
					return false
				}
			}
		}
	case yaml.SequenceNode:
		for i, e := range n.Content {
			if !inline || i > 0 {
				w.indent(ind)
			}
			w.b.WriteString("- ")
			text, leaf, ok := w.leaf(e)
			switch {
			case !ok:
				return false
			case leaf:
				w.b.WriteString(text)
				w.b.WriteByte('\n')
			default:
				if !w.block(e, ind+2, true) {
					return false
				}
			}
		}
	default:
		return false
	}
	return true
}

// plainNode reports whether n carries nothing but its kind, tag, style,
// value and content: no anchor, alias or comment.
func plainNode(n *yaml.Node) bool {
	return n.Anchor == "" && n.Alias == nil && n.HeadComment == "" && n.LineComment == "" && n.FootComment == ""
}

// leaf is the text of a node written on one line: a scalar, or an empty
// mapping or list in flow style. leaf is false for a non-empty block
// mapping or list; ok is false for a node fastYAML does not write.
func (w *fastWriter) leaf(n *yaml.Node) (text string, leaf, ok bool) {
	if !plainNode(n) {
		return "", false, false
	}
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		want := "!!map"
		text = "{}"
		if n.Kind == yaml.SequenceNode {
			want, text = "!!seq", "[]"
		}
		switch {
		case n.Tag != want:
			return "", false, false
		case len(n.Content) == 0 && n.Style == yaml.FlowStyle:
			return text, true, true
		case len(n.Content) > 0 && n.Style == 0:
			return "", false, true
		}
		return "", false, false
	case yaml.ScalarNode:
		v := n.Value
		switch {
		case n.Tag == "!!null" && n.Style == 0 && v == "null",
			n.Tag == "!!bool" && n.Style == 0 && (v == "true" || v == "false"),
			n.Tag == "" && n.Style == 0 && numberText(v),
			n.Tag == "!!str" && n.Style == 0 && plainText(v):
			return v, true, true
		case n.Tag == "!!str" && n.Style == yaml.DoubleQuotedStyle && quotedText(v):
			return `"` + v + `"`, true, true
		}
	}
	return "", false, false
}

// numberText reports whether s is the text of a JSON number: the
// encoder writes it plain (json.Number's node has no tag).
func numberText(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		for digits = 0; i < len(s) && s[i] >= '0' && s[i] <= '9'; digits++ {
			i++
		}
		if digits == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		for digits = 0; i < len(s) && s[i] >= '0' && s[i] <= '9'; digits++ {
			i++
		}
		if digits == 0 {
			return false
		}
	}
	return i == len(s)
}

// plainText reports whether the encoder writes s, a string the quoter
// leaves plain (no YAML reader takes it for anything else), as it is: it
// starts with a letter, digit or _, and holds only letters, digits and
// . _ / - : @ = + ~, with single spaces between words (no ": " or " #",
// no indicator at its start, nothing the encoder escapes or folds).
func plainText(s string) bool {
	if s == "" || !(isLetter(s[0]) || s[0] >= '0' && s[0] <= '9' || s[0] == '_') || s[len(s)-1] == ' ' || s[len(s)-1] == ':' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case isLetter(c), c >= '0' && c <= '9':
		case c == '.', c == '_', c == '/', c == '-', c == '@', c == '=', c == '+', c == '~':
		case c == ':':
			if s[i+1] == ' ' {
				return false
			}
		case c == ' ':
			if s[i-1] == ' ' || s[i-1] == ':' {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// quotedText reports whether the encoder writes s in double quotes as it
// is: printable ASCII but for " and \ (which it escapes).
func quotedText(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
