package document

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/problem"
)

// Typer types plain scalars by where they land. A nil Typer means the YAML
// 1.2 core schema everywhere.
type Typer interface {
	// Scalar returns the value for plain scalar text.
	Scalar(text string) any
	// Key returns the Typer for the value under an object key.
	Key(k string) Typer
	// Elem returns the Typer for the array element at index i.
	Elem(i int) Typer
}

// nodeError is an error of the YAML reader with a location.
type nodeError struct {
	Line, Column int
	Pointer      string
	Msg          string
	// Limit is set when the document broke one of the limits (size,
	// depth, alias expansion, number range) or holds a duplicate key:
	// a refusal, as opposed to text that is simply not YAML.
	Limit bool
	// Duplicate is set, with Limit, for a duplicate key: located and
	// refused as a limit is, but a fault of the text (problem.Syntax).
	Duplicate bool
}

// IsLimit reports whether err, from any reader of this package, is a
// refusal by one of the limits (size, depth, alias expansion, number
// range, a duplicate key) rather than text that is not YAML or JSON. Read
// gives a duplicate key as a *problem.Error of kind problem.Syntax, which
// is no limit.
func IsLimit(err error) bool {
	var ne *nodeError
	var je *JSONLimitError
	var pe *problem.Error
	switch {
	case errors.As(err, &ne):
		return ne.Limit
	case errors.As(err, &je):
		return true
	case errors.As(err, &pe):
		return pe.Kind == problem.Limit
	}
	return false
}

// nodeSizeError refuses a document larger than MaxDocumentBytes.
func nodeSizeError(n int) *nodeError {
	return &nodeError{Limit: true, Msg: fmt.Sprintf("the document is %d bytes, larger than the %d MiB limit", n, MaxDocumentBytes>>20)}
}

func (e *nodeError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// ParseNode parses one YAML document into a node. An empty document gives
// a nil node.
func ParseNode(data []byte) (*yaml.Node, error) {
	if len(data) > MaxDocumentBytes {
		return nil, nodeSizeError(len(data))
	}
	var n yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&n); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		if strings.Contains(msg, "exceeded max depth") {
			// The parser's own bound (10,000) is beyond ours.
			return nil, &nodeError{Limit: true, Msg: fmt.Sprintf("nesting deeper than %d levels", MaxDepth)}
		}
		return nil, &nodeError{Msg: msg}
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		return nil, &nodeError{Line: extra.Line, Msg: "more than one YAML document where one was expected"}
	case !errors.Is(err, io.EOF):
		// Text after the document that is not a document either
		// ({"a": 1} ]]]) must not be ignored.
		return nil, &nodeError{Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return nil, nil
		}
		return n.Content[0], nil
	}
	return &n, nil
}

// Core types plain scalar text by the YAML 1.2 core schema, keeping
// numbers exact. Text JSON cannot hold as a number (.inf, .nan, out of
// range) stays a string.
func Core(s string) any {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return nil
	case "true", "True", "TRUE":
		return true
	case "false", "False", "FALSE":
		return false
	}
	if n, ok, err := number.ParseCore(s); ok && err == nil {
		return n
	}
	return s
}

// ToValue converts a node to a plain value, typing plain scalars with t.
func ToValue(n *yaml.Node, t Typer) (any, error) {
	if n == nil {
		return nil, nil
	}
	c := &converter{}
	return c.conv(n, t, 0)
}

// converter keeps the path as a stack of tokens and builds a pointer only
// for an error: most documents have none.
type converter struct {
	count int
	path  []string
}

func (c *converter) errAt(n *yaml.Node, msg string) error {
	return &nodeError{Line: n.Line, Column: n.Column, Pointer: pointer.Abbrev(pointer.Join(c.path...)), Msg: msg}
}

// limitAt is errAt for a broken limit.
func (c *converter) limitAt(n *yaml.Node, msg string) error {
	e := c.errAt(n, msg).(*nodeError)
	e.Limit = true
	return e
}

func (c *converter) push(tok string) { c.path = append(c.path, tok) }
func (c *converter) pop()            { c.path = c.path[:len(c.path)-1] }

func (c *converter) conv(n *yaml.Node, t Typer, depth int) (any, error) {
	c.count++
	if c.count > MaxNodes {
		return nil, c.limitAt(n, fmt.Sprintf("document expands to more than %d values (alias bomb?)", MaxNodes))
	}
	if depth > MaxDepth {
		return nil, c.limitAt(n, fmt.Sprintf("nesting deeper than %d levels", MaxDepth))
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.conv(n.Content[0], t, depth)
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, c.errAt(n, "unknown alias")
		}
		return c.conv(n.Alias, t, depth+1)
	case yaml.ScalarNode:
		return c.scalar(n, t)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for i, e := range n.Content {
			var et Typer
			if t != nil {
				et = t.Elem(i)
			}
			c.push(strconv.Itoa(i))
			v, err := c.conv(e, et, depth+1)
			if err != nil {
				return nil, err
			}
			c.pop()
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		if err := c.mapping(n, t, depth, out, nil); err != nil {
			return nil, err
		}
		return out, nil
	}
	return nil, c.errAt(n, "unsupported YAML node")
}

// mapping fills out from n; merged marks keys that came from a merge key
// (<<) and may be overridden by explicit keys.
func (c *converter) mapping(n *yaml.Node, t Typer, depth int, out map[string]any, merged map[string]bool) error {
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if kn.Kind == yaml.ScalarNode && kn.Tag == "!!merge" {
			if merged == nil {
				merged = map[string]bool{}
			}
			if err := c.merge(vn, t, depth, out, merged); err != nil {
				return err
			}
			continue
		}
		if kn.Kind != yaml.ScalarNode {
			return c.errAt(kn, "mapping keys must be strings")
		}
		k := kn.Value
		c.push(k)
		if _, dup := out[k]; dup && !merged[k] {
			e := c.limitAt(kn, fmt.Sprintf("duplicate key %q", k)).(*nodeError)
			e.Duplicate = true
			return e
		}
		delete(merged, k)
		var kt Typer
		if t != nil {
			kt = t.Key(k)
		}
		v, err := c.conv(vn, kt, depth+1)
		if err != nil {
			return err
		}
		c.pop()
		out[k] = v
	}
	return nil
}

func (c *converter) merge(vn *yaml.Node, t Typer, depth int, out map[string]any, merged map[string]bool) error {
	for vn.Kind == yaml.AliasNode && vn.Alias != nil {
		vn = vn.Alias
	}
	switch vn.Kind {
	case yaml.MappingNode:
		tmp := map[string]any{}
		if err := c.mapping(vn, t, depth, tmp, nil); err != nil {
			return err
		}
		for k, v := range tmp {
			if _, ok := out[k]; !ok {
				out[k] = v
				merged[k] = true
			}
		}
		return nil
	case yaml.SequenceNode:
		for _, e := range vn.Content {
			if err := c.merge(e, t, depth, out, merged); err != nil {
				return err
			}
		}
		return nil
	}
	return c.errAt(vn, "a merge key (<<) needs a mapping or a list of mappings")
}

func (c *converter) scalar(n *yaml.Node, t Typer) (any, error) {
	if explicitTag(n) {
		switch n.Tag {
		case "!!str":
			return n.Value, nil
		case "!!null":
			return nil, nil
		case "!!bool":
			if b, ok := Core(n.Value).(bool); ok {
				return b, nil
			}
			return nil, c.errAt(n, fmt.Sprintf("%q is not a boolean", n.Value))
		case "!!int", "!!float":
			num, ok, err := number.ParseCore(n.Value)
			if errors.Is(err, number.ErrTooLarge) {
				return nil, c.limitAt(n, err.Error())
			}
			if err != nil {
				return nil, c.errAt(n, err.Error())
			}
			if !ok {
				return nil, c.errAt(n, fmt.Sprintf("%q is not a number", n.Value))
			}
			return num, nil
		}
		return nil, c.errAt(n, fmt.Sprintf("unsupported YAML tag %s", n.Tag))
	}
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return n.Value, nil // quoted or block scalar: always a string
	}
	if t != nil {
		v := t.Scalar(n.Value)
		if num, ok := v.(json.Number); ok {
			if err := number.Check(num); err != nil {
				return nil, c.limitAt(n, err.Error())
			}
		}
		return v, nil
	}
	if _, ok, err := number.ParseCore(n.Value); ok && errors.Is(err, number.ErrTooLarge) {
		return nil, c.limitAt(n, err.Error())
	}
	return Core(n.Value), nil
}

// explicitTag reports whether the author wrote the tag (!!str x).
func explicitTag(n *yaml.Node) bool { return n.Style&yaml.TaggedStyle != 0 }

// NodeKeyOrder records the source order of every mapping's keys, keyed by the
// JSON pointer of the mapping. Aliased mappings are recorded where they
// are used, within the same budget as ToValue.
func NodeKeyOrder(n *yaml.Node) map[string][]string {
	out := map[string][]string{}
	count := 0
	var walk func(n *yaml.Node, ptr string, depth int)
	walk = func(n *yaml.Node, ptr string, depth int) {
		count++
		if n == nil || count > MaxNodes || depth > MaxDepth {
			return
		}
		switch n.Kind {
		case yaml.DocumentNode:
			if len(n.Content) > 0 {
				walk(n.Content[0], ptr, depth)
			}
		case yaml.AliasNode:
			walk(n.Alias, ptr, depth+1)
		case yaml.SequenceNode:
			for i, e := range n.Content {
				walk(e, pointer.AppendIndex(ptr, i), depth+1)
			}
		case yaml.MappingNode:
			keys := make([]string, 0, len(n.Content)/2)
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
					continue
				}
				keys = append(keys, k.Value)
				walk(n.Content[i+1], pointer.Append(ptr, k.Value), depth+1)
			}
			out[ptr] = keys
		}
	}
	walk(n, "", 0)
	return out
}
