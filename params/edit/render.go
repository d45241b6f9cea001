package edit

// New text, written as the file writes it (block or flow YAML, JSON)
// and as it must be to read back as intended.

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/params/internal/order"
	"github.com/paramkit/paramkit/schema"
	yaml "go.yaml.in/yaml/v3"
)

// blockEntries renders "key: value" lines at column col.
func (e *editor) blockEntries(keys []string, nm map[string]any, sn *schema.Node, col int) (string, error) {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, k := range keys {
		kn := encode.YAMLNode(k, nil)
		m.Content = append(m.Content, kn, e.yamlNode(nm[k], child(sn, k)))
	}
	text, err := e.encode(m)
	if err != nil {
		return "", err
	}
	return indentLines(text, strings.Repeat(" ", col-1), true), nil
}

// yamlNode builds the node new text is written from: keys in schema order,
// strings with line breaks double-quoted (a block scalar's indentation
// would not follow the file's).
func (e *editor) yamlNode(v any, sn *schema.Node) *yaml.Node {
	n := encode.YAMLNode(v, order.At(sn))
	var fix func(n *yaml.Node)
	fix = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && strings.ContainsAny(n.Value, "\n\r") {
			n.Style = yaml.DoubleQuotedStyle
		}
		for _, c := range n.Content {
			fix(c)
		}
	}
	fix(n)
	return n
}

func (e *editor) encode(n *yaml.Node) (string, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(len(e.unit))
	if err := enc.Encode(n); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return b.String(), nil
}

// indentLines puts prefix before every line of text (but the first, unless
// first is set); the result ends in a line break when text did.
func indentLines(text, prefix string, first bool) string {
	var b strings.Builder
	for i, line := range strings.SplitAfter(text, "\n") {
		if line == "" {
			continue
		}
		if i > 0 || first {
			b.WriteString(prefix)
		}
		b.WriteString(line)
	}
	return b.String()
}

// flowEntry renders "key: value" for a flow mapping or a JSON object.
func (e *editor) flowEntry(k string, v any, sn *schema.Node, indent string, multiline bool) string {
	if e.d.JSON {
		unit := ""
		if multiline {
			unit = e.unit
		}
		return string(encode.JSON(k, nil, "")) + ": " + encode.HandwrittenJSON(v, order.At(sn), indent, unit)
	}
	return flowScalar(k) + ": " + e.flowText(v, sn)
}

// flowText renders a value in YAML flow style on one line.
func (e *editor) flowText(v any, sn *schema.Node) string {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		keys = order.At(sn).Order(sortedStrings(keys))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = flowScalar(k) + ": " + e.flowText(t[k], child(sn, k))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = e.flowText(x, elem(sn, i))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case string:
		return flowScalar(t)
	}
	return scalarText(v)
}

func sortedStrings(s []string) []string {
	sort.Strings(s)
	return s
}

// scalarText writes a non-string scalar.
func scalarText(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(t)
	case json.Number:
		return string(t)
	case map[string]any:
		return "{}"
	case []any:
		return "[]"
	}
	return string(encode.JSON(v, nil, ""))
}

// plainString reports that s written plain reads back as the string s.
func plainString(s string) bool {
	n := encode.YAMLNode(s, nil)
	return n.Style == 0 && !strings.ContainsAny(s, "\n\r\t") && plainReads(s)
}

// plainReads reports that s is a plain scalar a YAML parser reads as the
// text s (whatever type the schema then gives it).
func plainReads(s string) bool {
	if s == "" || strings.TrimSpace(s) != s {
		return false
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("k: "+s+"\n"), &n); err != nil || len(n.Content) != 1 {
		return false
	}
	m := n.Content[0]
	if m.Kind != yaml.MappingNode || len(m.Content) != 2 {
		return false
	}
	c := m.Content[1]
	return c.Kind == yaml.ScalarNode && c.Style == 0 && c.Value == s
}

// flowScalar writes a string for a flow collection: plain when that is
// safe there, else double-quoted.
func flowScalar(s string) string {
	if plainString(s) && !strings.ContainsAny(s, ",[]{}#:") {
		return s
	}
	return string(encode.JSON(s, nil, ""))
}

// stringText writes a string in place of the scalar n, in n's quoting
// where that reads back the same.
func (e *editor) stringText(n *yaml.Node, sn *schema.Node, s string, flow bool) string {
	if n != nil && n.Kind == yaml.ScalarNode {
		switch n.Style {
		case yaml.DoubleQuotedStyle:
			return string(encode.JSON(s, nil, ""))
		case yaml.SingleQuotedStyle:
			if !strings.ContainsAny(s, "\n\r") {
				return "'" + strings.ReplaceAll(s, "'", "''") + "'"
			}
		case 0:
			// A plain scalar stays plain where no YAML reader takes the
			// text for anything but a string: 1.10 is quoted even on a
			// string node, which paramkit would read as "1.10", since Helm
			// reads the same file by YAML's rules alone.
			if flow {
				return flowScalar(s)
			}
			if plainString(s) {
				return s
			}
		}
	}
	if flow {
		return flowScalar(s)
	}
	out, err := e.encode(e.yamlNode(s, sn))
	if err != nil || strings.Count(strings.TrimSuffix(out, "\n"), "\n") > 0 {
		return string(encode.JSON(s, nil, ""))
	}
	return strings.TrimSuffix(out, "\n")
}

// itemText renders "- value" lines with the dash at column dash+1.
func (e *editor) itemText(v any, sn *schema.Node, dash int) (string, error) {
	text, err := e.encode(&yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{e.yamlNode(v, sn)}})
	if err != nil {
		return "", err
	}
	return indentLines(text, strings.Repeat(" ", dash), true), nil
}

// literalBlock writes s as a literal block scalar (`|` or `|-`) whose
// lines are indented by indent; false where s cannot be one plainly
// (leading space or a line break of its own at the start, more than one
// line break at the end, carriage returns, tabs leading a line).
func literalBlock(s, indent string) (string, bool) {
	if !strings.Contains(s, "\n") || strings.ContainsRune(s, '\r') || strings.HasPrefix(s, " ") ||
		strings.HasPrefix(s, "\n") || strings.HasSuffix(s, "\n\n") {
		return "", false
	}
	header := "|-"
	body := s
	if strings.HasSuffix(s, "\n") {
		header, body = "|", strings.TrimSuffix(s, "\n")
	}
	var b strings.Builder
	b.WriteString(header)
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "\t") {
			return "", false
		}
		b.WriteString("\n")
		if line != "" {
			b.WriteString(indent + line)
		}
	}
	return b.String(), true
}
