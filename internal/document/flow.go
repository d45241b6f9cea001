package document

import (
	"encoding/json"
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// ParseFlow parses a flow collection written the way KUDO users wrote
// v1beta1 values: YAML flow syntax, but tolerant of a missing space after
// ':' ('{foo:"bar"}' is {"foo": "bar"}, not a key named `foo:"bar"`).
// Scalars come back as plain or quoted nodes so that a Typer decides the
// type of plain ones.
func ParseFlow(text string) (*yaml.Node, error) {
	if len(text) > MaxDocumentBytes {
		return nil, nodeSizeError(len(text))
	}
	p := &flowParser{s: text}
	p.ws()
	n, err := p.value(0, "")
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(p.s) {
		return nil, p.err("unexpected text after the value")
	}
	return n, nil
}

type flowParser struct {
	s string
	i int
}

func (p *flowParser) err(msg string) error {
	return &nodeError{Msg: fmt.Sprintf("column %d: %s", p.i+1, msg)}
}

func (p *flowParser) limit(msg string) error {
	return &nodeError{Limit: true, Msg: fmt.Sprintf("column %d: %s", p.i+1, msg)}
}

func (p *flowParser) ws() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

// value parses a value; stops are the bytes that end a plain scalar here.
func (p *flowParser) value(depth int, stops string) (*yaml.Node, error) {
	if depth > MaxDepth {
		return nil, p.limit(fmt.Sprintf("nesting deeper than %d levels", MaxDepth))
	}
	p.ws()
	if p.i >= len(p.s) {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: ""}, nil
	}
	switch p.s[p.i] {
	case '[':
		return p.seq(depth + 1)
	case '{':
		return p.mapping(depth + 1)
	case '"', '\'':
		return p.quoted()
	}
	return p.plain(stops), nil
}

func (p *flowParser) plain(stops string) *yaml.Node {
	start := p.i
	for p.i < len(p.s) && strings.IndexByte(stops, p.s[p.i]) < 0 {
		// " #" starts a comment in YAML
		if p.s[p.i] == '#' && p.i > start && (p.s[p.i-1] == ' ' || p.s[p.i-1] == '\t') {
			break
		}
		p.i++
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Value: strings.TrimSpace(p.s[start:p.i])}
}

func (p *flowParser) quoted() (*yaml.Node, error) {
	q := p.s[p.i]
	start := p.i
	p.i++
	if q == '\'' {
		var b strings.Builder
		for p.i < len(p.s) {
			c := p.s[p.i]
			if c == '\'' {
				if p.i+1 < len(p.s) && p.s[p.i+1] == '\'' {
					b.WriteByte('\'')
					p.i += 2
					continue
				}
				p.i++
				return &yaml.Node{Kind: yaml.ScalarNode, Style: yaml.SingleQuotedStyle, Value: b.String()}, nil
			}
			b.WriteByte(c)
			p.i++
		}
		return nil, p.err("unterminated single-quoted string")
	}
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '\\' {
			p.i += 2
			continue
		}
		if c == '"' {
			p.i++
			raw := p.s[start:p.i]
			var v string
			if err := json.Unmarshal([]byte(raw), &v); err != nil {
				// fall back to YAML's own double-quoted rules (\x41, \e, ...)
				var n yaml.Node
				if yerr := yaml.Unmarshal([]byte(raw), &n); yerr != nil || len(n.Content) == 0 {
					return nil, p.err("invalid double-quoted string " + raw)
				}
				v = n.Content[0].Value
			}
			return &yaml.Node{Kind: yaml.ScalarNode, Style: yaml.DoubleQuotedStyle, Value: v}, nil
		}
		p.i++
	}
	return nil, p.err("unterminated double-quoted string")
}

func (p *flowParser) seq(depth int) (*yaml.Node, error) {
	p.i++ // [
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for {
		p.ws()
		if p.i >= len(p.s) {
			return nil, p.err("missing ']'")
		}
		if p.s[p.i] == ']' {
			p.i++
			return n, nil
		}
		e, err := p.value(depth, ",]")
		if err != nil {
			return nil, err
		}
		n.Content = append(n.Content, e)
		p.ws()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == ']' {
			continue
		}
		return nil, p.err("expected ',' or ']'")
	}
}

func (p *flowParser) mapping(depth int) (*yaml.Node, error) {
	p.i++ // {
	n := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	seen := map[string]bool{}
	for {
		p.ws()
		if p.i >= len(p.s) {
			return nil, p.err("missing '}'")
		}
		if p.s[p.i] == '}' {
			p.i++
			return n, nil
		}
		var k *yaml.Node
		var err error
		if p.s[p.i] == '"' || p.s[p.i] == '\'' {
			k, err = p.quoted()
			if err != nil {
				return nil, err
			}
		} else if p.s[p.i] == '[' || p.s[p.i] == '{' {
			return nil, p.err("mapping keys must be strings")
		} else {
			k = p.plain(":,}")
		}
		k.Style = yaml.DoubleQuotedStyle // keys are always strings
		if seen[k.Value] {
			e := p.limit(fmt.Sprintf("duplicate key %q", k.Value)).(*nodeError)
			e.Duplicate = true
			return nil, e
		}
		seen[k.Value] = true
		p.ws()
		var v *yaml.Node
		if p.i < len(p.s) && p.s[p.i] == ':' {
			p.i++
			v, err = p.value(depth, ",}")
			if err != nil {
				return nil, err
			}
		} else {
			v = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
		}
		n.Content = append(n.Content, k, v)
		p.ws()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			continue
		}
		return nil, p.err("expected ',' or '}'")
	}
}
