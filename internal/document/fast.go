package document

import (
	"bytes"
	"strings"
)

// fastYAML reads the common shape of a values document without the
// general YAML parser: a block mapping of single-line scalars (plain,
// single- or double-quoted without escapes) and nested block mappings,
// indented with spaces, with comments; ASCII only. Plain scalars become
// Text, quoted ones strings, exactly as ToValue with
// keepTyper gives them. Anything else (sequences, flow
// collections, anchors, tags, block or multi-line scalars, escapes,
// duplicate keys, tabs, non-ASCII text) makes it return ok false, and
// the caller uses the YAML parser, which also reports the errors. Batch
// migration spends most of its time reading documents; this path reads
// the usual ones several times faster (a differential fuzz test holds it
// to the parser's results).
func fastYAML(data []byte) (v map[string]any, ok bool) { return fastYAMLInto(data, nil) }

// fastYAMLInto is fastYAML filling into, an empty map, as the top
// level (a new map when into is nil). When it returns ok false, into may
// hold part of the document.
func fastYAMLInto(data []byte, into map[string]any) (v map[string]any, ok bool) {
	for _, c := range data {
		if c >= 0x7f || (c < 0x20 && c != '\n') {
			return nil, false
		}
	}
	if hasSequenceEntry(data) {
		// Left to the parser before any map is built for it.
		return nil, false
	}
	type frame struct {
		indent int
		m      map[string]any
	}
	var small [8]frame // nesting deeper than 8 levels is rare in value documents
	stack := small[:0]
	var root map[string]any
	var pendKey string
	var pendMap map[string]any
	pendIndent := -1
	text := string(data) // one copy; keys and values are slices of it
	for len(text) > 0 {
		var line string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			line, text = text, ""
		}
		indent := 0
		for indent < len(line) && line[indent] == ' ' {
			indent++
		}
		content := line[indent:]
		if content == "" || content[0] == '#' {
			continue
		}
		if indent == 0 && strings.HasPrefix(content, "...") {
			return nil, false // a document end marker
		}
		if pendMap != nil {
			if indent > pendIndent {
				if len(stack) >= 64 {
					return nil, false
				}
				m := make(map[string]any, 8) // one small group: no growth for up to 8 keys
				pendMap[pendKey] = m
				stack = append(stack, frame{indent, m})
			} else {
				pendMap[pendKey] = Text("")
			}
			pendMap = nil
		}
		if root == nil {
			if indent != 0 {
				return nil, false
			}
			root = into
			if root == nil {
				root = make(map[string]any, 8)
			}
			stack = append(stack, frame{0, root})
		}
		for len(stack) > 0 && stack[len(stack)-1].indent > indent {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 || stack[len(stack)-1].indent != indent {
			return nil, false
		}
		top := stack[len(stack)-1].m
		key, rest, ok := fastKey(content)
		if !ok {
			return nil, false
		}
		if _, dup := top[key]; dup {
			return nil, false
		}
		rest = strings.TrimLeft(rest, " ")
		if rest == "" || rest[0] == '#' {
			top[key] = nil // placeholder: a nested mapping or an empty value
			pendKey, pendMap, pendIndent = key, top, indent
			continue
		}
		val, ok := fastScalar(rest)
		if !ok {
			return nil, false
		}
		top[key] = val
	}
	if pendMap != nil {
		pendMap[pendKey] = Text("")
	}
	if root == nil {
		return nil, false
	}
	return root, true
}

// fastKey splits "key: rest" (or "key:" at the end). YAML limits an
// implicit key to 1024 characters; longer ones are left to the parser
// (the key ends at the colon that ends it, not at the first one).
func fastKey(s string) (key, rest string, ok bool) {
	if i := strings.IndexByte(s, ':'); i < 0 || i > 1000 {
		return "", "", false
	}
	switch s[0] {
	case '"', '\'':
		k, tail, ok := fastQuoted(s)
		if !ok || tail == "" || tail[0] != ':' || (len(tail) > 1 && tail[1] != ' ') || len(s)-len(tail) > 1000 {
			return "", "", false
		}
		return k, tail[1:], true
	}
	if fastIndicator(s[0]) {
		return "", "", false
	}
	i := strings.Index(s, ": ")
	if i < 0 {
		if !strings.HasSuffix(s, ":") {
			return "", "", false
		}
		i = len(s) - 1
	}
	if i > 1000 {
		return "", "", false
	}
	key = strings.TrimRight(s[:i], " ")
	if key == "" || key == "<<" || strings.Contains(key, " #") {
		return "", "", false
	}
	return key, s[i+1:], true
}

// fastScalar reads a value: a quoted string, or plain text up to a comment.
func fastScalar(s string) (any, bool) {
	switch s[0] {
	case '"', '\'':
		v, tail, ok := fastQuoted(s)
		if !ok {
			return nil, false
		}
		tail = strings.TrimLeft(tail, " ")
		if tail != "" && (tail[0] != '#' || !strings.HasSuffix(s[:len(s)-len(tail)], " ")) {
			return nil, false
		}
		return v, true
	case '-':
		if len(s) == 1 || s[1] == ' ' {
			return nil, false
		}
	default:
		if fastIndicator(s[0]) {
			return nil, false
		}
	}
	if i := strings.Index(s, " #"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimRight(s, " ")
	if strings.Contains(s, ": ") || strings.HasSuffix(s, ":") {
		return nil, false
	}
	switch s {
	case "true":
		return plainTrue, true
	case "false":
		return plainFalse, true
	}
	return Text(s), true
}

// The usual booleans as ready-made interface values: converting text to
// an interface allocates, and most documents have some.
var plainTrue, plainFalse any = Text("true"), Text("false")

// fastQuoted reads a quoted scalar that ends on this line: double quotes
// without escapes, or single quotes (a quote doubled inside is one quote).
func fastQuoted(s string) (val, tail string, ok bool) {
	q := s[0]
	if q == '"' {
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				return "", "", false
			case '"':
				return s[1:i], s[i+1:], true
			}
		}
		return "", "", false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != '\'' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '\'' {
			b.WriteByte('\'')
			i++
			continue
		}
		return b.String(), s[i+1:], true
	}
	return "", "", false
}

// fastIndicator: characters that cannot start a plain scalar here.
func fastIndicator(c byte) bool {
	return strings.IndexByte("-?:,[]{}#&*!|>'\"%@`", c) >= 0
}

// hasSequenceEntry reports whether a line of data starts (after spaces)
// with a sequence entry ("- " or a lone "-"), which the fast path does not
// take. It looks only at the dashes, which value documents have few of.
func hasSequenceEntry(data []byte) bool {
	for i := 0; i < len(data); i++ {
		j := bytes.IndexByte(data[i:], '-')
		if j < 0 {
			return false
		}
		i += j
		if i+1 < len(data) && data[i+1] != ' ' && data[i+1] != '\n' {
			continue
		}
		k := i
		for k > 0 && data[k-1] == ' ' {
			k--
		}
		if k == 0 || data[k-1] == '\n' {
			return true
		}
	}
	return false
}
