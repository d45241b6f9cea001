// Package order orders object keys as a schema orders its properties:
// the order params.MarshalYAML writes and params/edit inserts new keys
// in. It lives below params so that both share it.
package order

import (
	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/schema"
)

// For orders the keys of values of s: the properties of each object in
// the schema's order (through $ref and allOf), others after them, as they
// come. s may be nil: no order then.
func For(s *schema.Schema) encode.Orderer {
	if s == nil {
		return nil
	}
	return At(s.Root())
}

// At orders the keys of values at the schema node n (nil for none).
func At(n *schema.Node) encode.Orderer { return nodeOrderer{n} }

type nodeOrderer struct{ n *schema.Node }

// Order puts the keys the schema declares first, in its order.
func (o nodeOrderer) Order(keys []string) []string {
	if o.n == nil {
		return keys
	}
	present := make(map[string]bool, len(keys))
	for _, k := range keys {
		present[k] = true
	}
	out := make([]string, 0, len(keys))
	for _, sc := range o.n.Scope() {
		for _, p := range sc.Properties() {
			if present[p.Name()] {
				out = append(out, p.Name())
				delete(present, p.Name())
			}
		}
	}
	for _, k := range keys {
		if present[k] {
			out = append(out, k)
		}
	}
	return out
}

// Key orders the value of a key.
func (o nodeOrderer) Key(k string) encode.Orderer {
	if o.n == nil {
		return nil
	}
	return nodeOrderer{o.n.Child(k)}
}

// Elem orders the value of an element.
func (o nodeOrderer) Elem(i int) encode.Orderer {
	if o.n == nil {
		return nil
	}
	return nodeOrderer{o.n.Elem(i)}
}

// Rank returns the position of each property name of the object at n in
// the schema's order (through $ref and allOf); names it does not declare
// are absent.
func Rank(n *schema.Node) map[string]int {
	rank := map[string]int{}
	if n == nil {
		return rank
	}
	for _, sc := range n.Scope() {
		for _, p := range sc.Properties() {
			if _, ok := rank[p.Name()]; !ok {
				rank[p.Name()] = len(rank)
			}
		}
	}
	return rank
}
