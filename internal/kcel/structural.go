package kcel

// List types (x-kubernetes-list-type set and map) and formats, checked on
// a value as kube-apiserver v1.37 checks a custom resource
// (apiextensions-apiserver's listtype validation, adapted: Apache
// License 2.0, the Kubernetes Authors).

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/secret"
)

// CheckOptions says what CheckValue checks.
type CheckOptions struct {
	// Formats checks the formats the apiserver checks (FormatChecked).
	Formats bool
	// Quote writes a value for a message; nil writes it as JSON.
	Quote func(v any) string
	// Hidden reports whether the value at a pointer is or may hold a
	// secret, never to be quoted (besides what the nodes say).
	Hidden func(ptr string) bool
}

// CheckValue checks the list types of every array below root in v (and
// the formats, with Formats), returning the failures in document order.
// A value under a secret node (writeOnly, format password) is never
// quoted.
func CheckValue(root *Node, v any, o CheckOptions) []Problem {
	c := &valueChecker{o: o}
	c.walk(root, "", v, false, 0)
	return c.out
}

type valueChecker struct {
	o   CheckOptions
	out []Problem
}

func (c *valueChecker) quote(ptr string, v any, hidden bool) string {
	if hidden || (c.o.Hidden != nil && c.o.Hidden(ptr)) {
		return secret.Hidden
	}
	if c.o.Quote != nil {
		return c.o.Quote(v)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return "?"
	}
	return string(bytes.TrimSpace(buf.Bytes()))
}

func (c *valueChecker) walk(n *Node, ptr string, v any, secret bool, depth int) {
	if n == nil || depth > maxDepth {
		return
	}
	secret = secret || n.secret
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := pointer.Append(ptr, k)
			if a := n.AdditionalNode(); a != nil {
				c.walk(a, p, x[k], secret, depth+1)
			}
			if s := n.props[k]; s != nil {
				c.walk(s, p, x[k], secret, depth+1)
			}
		}
	case []any:
		switch n.listType {
		case "set":
			for _, i := range nonUnique(x) {
				c.out = append(c.out, Problem{Pointer: pointer.AppendIndex(ptr, i), Kind: KindDuplicate, Keyword: "x-kubernetes-list-type",
					SchemaPointer: pointer.Append(n.Ptr, "x-kubernetes-list-type"), Message: "Duplicate value: " + c.quote(pointer.AppendIndex(ptr, i), x[i], secret || n.items.holdsSecret(0))})
			}
		case "map":
			c.listMap(n, ptr, x, secret)
		}
		for i, e := range x {
			c.walk(n.items, pointer.AppendIndex(ptr, i), e, secret, depth+1)
		}
	default:
		if c.o.Formats && v != nil {
			if msg := CheckFormat(n.typ, n.format, v); msg != "" {
				c.out = append(c.out, Problem{Pointer: ptr, Kind: KindInvalid, Keyword: "format",
					SchemaPointer: pointer.Append(n.Ptr, "format"), Message: msg + ": " + c.quote(ptr, v, secret)})
			}
		}
	}
}

func (c *valueChecker) listMap(n *Node, ptr string, x []any, secret bool) {
	for i, e := range x {
		if _, ok := e.(map[string]any); e != nil && !ok {
			c.out = append(c.out, Problem{Pointer: pointer.AppendIndex(ptr, i), Kind: KindInvalid, Keyword: "x-kubernetes-list-type",
				SchemaPointer: pointer.Append(n.Ptr, "x-kubernetes-list-type"), Message: "must be an object for an array of list-type map"})
			return
		}
	}
	if len(x) <= 1 {
		return
	}
	keys := make([]any, len(x))
	for i, e := range x {
		key := map[string]any{}
		if m, ok := e.(map[string]any); ok {
			for _, f := range n.listMapKeys {
				if k, ok := m[f]; ok {
					key[f] = k
				}
			}
		}
		keys[i] = key
	}
	for _, i := range nonUnique(keys) {
		c.out = append(c.out, Problem{Pointer: pointer.AppendIndex(ptr, i), Kind: KindDuplicate, Keyword: "x-kubernetes-list-map-keys",
			SchemaPointer: pointer.Append(n.Ptr, "x-kubernetes-list-map-keys"), Message: "Duplicate value: " + c.quote(pointer.AppendIndex(ptr, i), keys[i], secret || n.items.holdsSecret(0))})
	}
}

// nonUnique gives the index of the second occurrence of every value that
// occurs more than once, as the apiserver reports duplicates.
func nonUnique(list []any) []int {
	if len(list) <= 1 {
		return nil
	}
	seen := make(map[string]int, len(list))
	var out []int
	for i, x := range list {
		var k string
		switch t := x.(type) {
		case string:
			k = "s" + t
		case json.Number:
			k = "n" + string(t)
		case bool:
			k = "b"
			if t {
				k = "B"
			}
		case nil:
			k = "z"
		default:
			bs, err := json.Marshal(x)
			if err != nil {
				continue
			}
			k = "c" + string(bs)
		}
		seen[k]++
		if seen[k] == 2 {
			out = append(out, i)
		}
	}
	return out
}

// holdsSecret reports whether the node or any below it is secret.
func (n *Node) holdsSecret(depth int) bool {
	if n == nil || depth > maxDepth {
		return false
	}
	if n.secret || n.items.holdsSecret(depth+1) || n.AdditionalNode().holdsSecret(depth+1) {
		return true
	}
	for _, p := range n.props {
		if p.holdsSecret(depth + 1) {
			return true
		}
	}
	for _, a := range n.allOf {
		if a.holdsSecret(depth + 1) {
			return true
		}
	}
	return false
}
