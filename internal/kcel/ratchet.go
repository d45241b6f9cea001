package kcel

// Validation ratcheting as kube-apiserver v1.37 does it on an update
// (CRDValidationRatcheting, on by default since v1.30; apiserver's
// pkg/cel/common/equality.go CorrelatedObject and apiextensions-apiserver's
// validation/ratcheting.go, adapted: Apache License 2.0, the Kubernetes
// Authors): an error raised by a node of the new object is dropped when
// the node, or its nearest ancestor that can be correlated with the old
// object, equals its old value.

import (
	"reflect"
	"strconv"

	"github.com/paramkit/paramkit/internal/pointer"
)

// Ratchet correlates a new object with the old one under a structural
// schema, as the apiserver's ratcheting does: object properties (and
// additionalProperties entries) by key when the schema declares them,
// items of a list-type map list by their keys; no other list items.
type Ratchet struct {
	root *correlated
}

type correlated struct {
	node     *Node
	new, old any
	eq       *bool
	mapList  MapList
	children map[any]*correlated
}

// NewRatchet correlates newV with oldV under the schema root (the
// object's root: apiVersion and kind are never ratcheted).
func NewRatchet(root *Node, newV, oldV any) *Ratchet {
	return &Ratchet{root: &correlated{node: root, new: newV, old: oldV}}
}

// Drops reports whether an error raised by the node at ptr (a JSON
// pointer into the new object; for a missing required property, the
// object that requires it) is ratcheted: the node, or its nearest
// correlatable ancestor, equals its old value.
func (r *Ratchet) Drops(ptr string) bool {
	if r == nil {
		return false
	}
	toks, err := pointer.Split(ptr)
	if err != nil {
		return false
	}
	cur := r.root
	for i, t := range toks {
		if i == 0 && (t == "apiVersion" || t == "kind") {
			return false
		}
		next := cur.step(t)
		if next == nil {
			break
		}
		cur = next
	}
	return cur.equal()
}

// step is the correlated child at token t (a key or a list index), or
// nil where the child cannot be correlated.
func (c *correlated) step(t string) *correlated {
	if c == nil || c.node == nil {
		return nil
	}
	if ch, ok := c.children[t]; ok {
		return ch
	}
	var ch *correlated
	switch nv := c.new.(type) {
	case map[string]any:
		ov, ok := c.old.(map[string]any)
		if !ok {
			return nil
		}
		n, okN := nv[t]
		o, okO := ov[t]
		if !okN || !okO {
			return nil
		}
		var s *Node
		if p, ok := c.node.props[t]; ok {
			s = p
		} else if a := c.node.AdditionalNode(); a != nil {
			s = a
		} else {
			return nil
		}
		ch = &correlated{node: s, new: n, old: o}
	case []any:
		i, ok := listIndex(t, len(nv))
		if !ok {
			return nil
		}
		ol, ok := c.old.([]any)
		if !ok || c.node.listType != "map" || c.node.items == nil {
			return nil
		}
		if c.mapList == nil {
			c.mapList = MakeMapList(c.node, ol)
		}
		o := c.mapList.Get(nv[i])
		if o == nil {
			return nil
		}
		ch = &correlated{node: c.node.items, new: nv[i], old: o}
	default:
		return nil
	}
	if c.children == nil {
		c.children = map[any]*correlated{}
	}
	c.children[t] = ch
	return ch
}

func listIndex(t string, n int) (int, bool) {
	i := 0
	if t == "" || len(t) > 9 {
		return 0, false
	}
	for _, r := range t {
		if r < '0' || r > '9' {
			return 0, false
		}
		i = i*10 + int(r-'0')
	}
	return i, i < n
}

// equal is the apiserver's CachedDeepEqual: a map equals its old value
// when every key correlates and equals; a list when it has the old
// length and every item correlates and equals (a list whose items do not
// correlate, compared whole).
func (c *correlated) equal() bool {
	if c == nil {
		return false
	}
	if c.eq != nil {
		return *c.eq
	}
	res := c.compare()
	c.eq = &res
	return res
}

func (c *correlated) compare() bool {
	if c.new == nil && c.old == nil {
		return true
	}
	if c.new == nil || c.old == nil {
		return false
	}
	switch nv := c.new.(type) {
	case map[string]any:
		ov, ok := c.old.(map[string]any)
		if !ok || len(ov) != len(nv) {
			return false
		}
		for k := range nv {
			if !c.step(k).equal() {
				return false
			}
		}
		return true
	case []any:
		ov, ok := c.old.([]any)
		if !ok || len(ov) != len(nv) {
			return false
		}
		for i := range nv {
			ch := c.step(strconv.Itoa(i))
			if ch == nil {
				if c.node == nil || c.node.listType != "map" {
					return reflect.DeepEqual(ov, nv)
				}
				return false
			}
			if !ch.equal() {
				return false
			}
		}
		return true
	}
	if _, ok := c.old.(map[string]any); ok {
		return false
	}
	if _, ok := c.old.([]any); ok {
		return false
	}
	return reflect.DeepEqual(c.new, c.old)
}
