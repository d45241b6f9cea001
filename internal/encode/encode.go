// Package encode writes plain values as JSON or YAML, keeping numbers
// exact and putting object keys in the order an Orderer gives.
package encode

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Orderer orders object keys; it mirrors the value's shape.
type Orderer interface {
	// Order returns keys (given sorted) in the order to write them.
	Order(keys []string) []string
	// Key returns the Orderer for the value under key k.
	Key(k string) Orderer
	// Elem returns the Orderer for array element i.
	Elem(i int) Orderer
}

func sortedKeys(m map[string]any, o Orderer) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	if o != nil {
		ks = o.Order(ks)
	}
	return ks
}

// JSON writes v as JSON; indent "" gives the compact form.
func JSON(v any, o Orderer, indent string) []byte {
	var b bytes.Buffer
	writeJSON(&b, v, o, indent, 0)
	return b.Bytes()
}

func writeJSON(b *bytes.Buffer, v any, o Orderer, indent string, depth int) {
	nl := func(d int) {
		if indent == "" {
			return
		}
		b.WriteByte('\n')
		for i := 0; i < d; i++ {
			b.WriteString(indent)
		}
	}
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case json.Number:
		b.WriteString(string(t))
	case string:
		writeString(b, t)
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(depth + 1)
			var eo Orderer
			if o != nil {
				eo = o.Elem(i)
			}
			writeJSON(b, e, eo, indent, depth+1)
		}
		nl(depth)
		b.WriteByte(']')
	case map[string]any:
		if len(t) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, k := range sortedKeys(t, o) {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(depth + 1)
			writeString(b, k)
			b.WriteByte(':')
			if indent != "" {
				b.WriteByte(' ')
			}
			var ko Orderer
			if o != nil {
				ko = o.Key(k)
			}
			writeJSON(b, t[k], ko, indent, depth+1)
		}
		nl(depth)
		b.WriteByte('}')
	default:
		raw, err := json.Marshal(t)
		if err != nil {
			b.WriteString("null")
			return
		}
		b.Write(raw)
	}
}

func writeString(b *bytes.Buffer, s string) {
	if plainASCII(s) {
		// Most keys and values: written as they are, without an encoder
		// of their own (which made writing a patch cost more than
		// computing it).
		b.Grow(len(s) + 2)
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Truncate(b.Len() - 1) // Encode's newline
}

// plainASCII reports whether s is printable ASCII that JSON writes
// between quotes as it is: no quote, backslash or control character
// (encoding/json without HTML escaping writes such a string unchanged).
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// YAMLNode builds a YAML node for v.
func YAMLNode(v any, o Orderer) *yaml.Node { return (*quoter)(nil).node(v, o) }

// quoter builds YAML nodes, remembering which strings needed quotes: the
// question costs a YAML parse for strings that start with a digit (500m,
// 1.2.3-rc1), which values repeat. A nil quoter remembers nothing.
type quoter struct {
	memo map[string]bool
}

// maxQuoteMemo bounds the strings a quoter remembers.
const maxQuoteMemo = 4096

func newQuoter() *quoter { return &quoter{memo: map[string]bool{}} }

// needsQuotes is needsQuotes(s), remembered.
func (q *quoter) needsQuotes(s string) bool {
	if q == nil || simpleWord(s) || digitLike(s) {
		return needsQuotes(s)
	}
	if r, ok := q.memo[s]; ok {
		return r
	}
	r := needsQuotes(s)
	if len(q.memo) < maxQuoteMemo {
		q.memo[s] = r
	}
	return r
}

func (q *quoter) node(v any, o Orderer) *yaml.Node {
	switch t := v.(type) {
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(t)}
	case json.Number:
		// No tag: the encoder writes the text plain; an explicit tag would
		// show as !!int on integers beyond int64.
		return &yaml.Node{Kind: yaml.ScalarNode, Value: string(t)}
	case string:
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: t}
		if q.needsQuotes(t) {
			n.Style = yaml.DoubleQuotedStyle
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i, e := range t {
			var eo Orderer
			if o != nil {
				eo = o.Elem(i)
			}
			n.Content = append(n.Content, q.node(e, eo))
		}
		if len(t) == 0 {
			n.Style = yaml.FlowStyle
		}
		return n
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, k := range sortedKeys(t, o) {
			var ko Orderer
			if o != nil {
				ko = o.Key(k)
			}
			n.Content = append(n.Content, q.keyNode(k), q.node(t[k], ko))
		}
		if len(t) == 0 {
			n.Style = yaml.FlowStyle
		}
		return n
	}
	raw, _ := json.Marshal(v)
	return &yaml.Node{Kind: yaml.ScalarNode, Value: string(raw)}
}

// keyNode is the node of a mapping's key k.
func (q *quoter) keyNode(k string) *yaml.Node {
	kn := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}
	if q.needsQuotes(k) {
		kn.Style = yaml.DoubleQuotedStyle
	}
	return kn
}

// needsQuotes is true for strings a YAML 1.1 or 1.2 reader would take for
// something else (yes, on, 007, 1.10, 0x1F, null, ...).
func needsQuotes(s string) bool {
	if simpleWord(s) {
		return false
	}
	if digitLike(s) {
		// anything digit-like (1_000, 0b101, 1:20) reads as a number in
		// YAML 1.1; no need to parse it
		return true
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(s), &n); err != nil || len(n.Content) != 1 {
		return true
	}
	c := n.Content[0]
	if c.Kind != yaml.ScalarNode || c.Tag != "!!str" || c.Value != s || c.Style != 0 {
		return true
	}
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF", "=", "<<":
		return true
	}
	return false
}

// digitLike reports whether s holds only digits and what YAML 1.1 numbers
// are written with besides (_ : . - + b o x e E); "" is digit-like.
func digitLike(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == '_', c == ':', c == '.', c == '-', c == '+', c == 'b', c == 'o', c == 'x', c == 'e', c == 'E':
		default:
			return false
		}
	}
	return true
}

// chunkNodes is how many nodes of a large mapping YAML gives the encoder
// at a time (see yamlChunked).
const chunkNodes = 4096

// YAML writes v as a YAML document. A large mapping is written a part at
// a time, in the same bytes: the YAML encoder keeps every event of a
// document until its end (go.yaml.in/yaml/v3's emitter never drops its
// queue's head, about 270 bytes an event), which made a 4 MB values file
// cost 270 MB to print.
func YAML(v any, o Orderer) ([]byte, error) {
	var b bytes.Buffer
	if err := YAMLTo(&b, v, o); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// YAMLTo writes to w the bytes YAML gives, a part at a time: a large
// document is never held whole. An error of w ends it.
func YAMLTo(w io.Writer, v any, o Orderer) error {
	if m, ok := v.(map[string]any); ok && countNodes(v, chunkNodes) > chunkNodes {
		return yamlChunked(w, m, o, chunkNodes)
	}
	b, err := yamlDoc(newQuoter().node(v, o))
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// yamlDoc writes the document n: by fastYAML where it can, else by the
// encoder (yamlWhole), in the same bytes.
func yamlDoc(n *yaml.Node) ([]byte, error) {
	if b, ok := fastYAML(n); ok {
		return b, nil
	}
	return yamlWhole(n)
}

// yamlWhole writes the document n.
func yamlWhole(n *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// simpleWord is a fast path for the common case: words of letters, digits
// and _ . / - separated by single spaces, starting with a letter, that no
// YAML reader takes for anything but a string.
func simpleWord(s string) bool {
	if s == "" || !isLetter(s[0]) || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isLetter(c) || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '/' || c == '-' {
			continue
		}
		if c == ' ' && s[i-1] != ' ' {
			continue
		}
		return false
	}
	switch strings.ToLower(s) {
	case "y", "yes", "n", "no", "on", "off", "true", "false", "null":
		return false
	}
	return true
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
