package params

import (
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// DefaultOption changes how Default works.
type DefaultOption func(*defaulter)

// Structural makes Default behave as a kube-apiserver defaults a CRD
// object: no missing parent object is created, and a null given for a
// property that is not nullable is dropped (then defaulted if it has a
// default). Without it, a missing parent object is created when something
// below it gets a default and every required property in it is then
// present, so templates can read .Params.backup.enabled.
func Structural() DefaultOption { return func(d *defaulter) { d.structural = true } }

type defaulter struct {
	structural bool
	building   map[*schema.Node]bool // guards materialising recursive schemas
}

// Default fills missing properties from their schema's `default`, through
// nested objects, array items and additionalProperties / patternProperties
// values. A given value is never overwritten and a given null stays
// (except in the Structural mode). Defaults are themselves defaulted below.
//
// Default changes maps and slices of v in place and returns the result
// (which differs from v only when v is nil and the root has a default).
// Go data other than plain values is converted first, as Plain does: the
// result is then a defaulted copy, and v is left alone; a v that cannot be
// converted is defaulted as given. A nil schema has no defaults: Default
// then returns v, converted as Plain does.
func Default(s *schema.Schema, v any, opts ...DefaultOption) any {
	return defaults(s, plainOr(v), opts)
}

// defaults is Default for a plain v.
func defaults(s *schema.Schema, v any, opts []DefaultOption) any {
	if s == nil {
		return v
	}
	d := &defaulter{building: map[*schema.Node]bool{}}
	for _, o := range opts {
		o(d)
	}
	root := s.Root()
	if v == nil {
		if def, ok := defaultOf(root); ok {
			v = value.DeepCopy(def)
		}
	}
	return d.apply(root, v)
}

func (d *defaulter) apply(n *schema.Node, v any) any {
	if n == nil {
		return v
	}
	switch t := v.(type) {
	case map[string]any:
		d.object(n, t)
	case []any:
		for i := range t {
			t[i] = d.apply(n.Elem(i), t[i])
		}
	}
	return v
}

func (d *defaulter) object(n *schema.Node, m map[string]any) {
	scope := n.Scope()
	for i, sc := range scope {
		for _, p := range sc.Properties {
			if declaredIn(scope[:i], p.Name) {
				continue // the nearest declaration wins
			}
			cur, present := m[p.Name]
			if present && cur == nil && d.structural && !nullable(p) {
				delete(m, p.Name)
				present = false
			}
			if present {
				d.apply(p, cur) // changes maps and slices in place
				continue
			}
			if def, ok := defaultOf(p); ok {
				m[p.Name] = d.apply(p, value.DeepCopy(def))
				continue
			}
			if !d.structural {
				if obj := d.materialize(p); obj != nil {
					m[p.Name] = obj
				}
			}
		}
	}
	if !governsOtherKeys(scope) {
		return
	}
	// Values under patternProperties and additionalProperties.
	for k, x := range m {
		if declaredIn(scope, k) {
			continue
		}
		if c := n.Child(k); c != nil {
			if x == nil && d.structural && !nullable(c) {
				if def, ok := defaultOf(c); ok {
					m[k] = d.apply(c, value.DeepCopy(def))
				} else {
					delete(m, k)
				}
				continue
			}
			d.apply(c, x)
		}
	}
}

// declaredIn reports whether a node of the scope declares the property.
func declaredIn(scope []*schema.Node, name string) bool {
	for _, sc := range scope {
		if sc.Property(name) != nil {
			return true
		}
	}
	return false
}

// governsOtherKeys reports whether keys that no property declares can
// have a schema (patternProperties, additionalProperties, or the
// anyOf/oneOf branches Child falls back to).
func governsOtherKeys(scope []*schema.Node) bool {
	for _, sc := range scope {
		if len(sc.PatternProperties) > 0 || sc.AdditionalProperties != nil || len(sc.AnyOf) > 0 || len(sc.OneOf) > 0 {
			return true
		}
	}
	return false
}

// materialize builds a missing object when something below it has a
// default and every required property in it then exists; nil otherwise.
func (d *defaulter) materialize(p *schema.Node) map[string]any {
	if d.building[p] || !isObjectNode(p) {
		return nil
	}
	d.building[p] = true
	defer delete(d.building, p)
	m := map[string]any{}
	d.object(p, m)
	if len(m) == 0 {
		return nil
	}
	for _, sc := range p.Scope() {
		for _, r := range sc.RequiredNames {
			if _, ok := m[r]; !ok {
				return nil
			}
		}
	}
	return m
}

func isObjectNode(n *schema.Node) bool {
	ts := n.Types()
	if ts != nil {
		for _, t := range ts {
			if t == "object" {
				return true
			}
		}
		return false
	}
	for _, sc := range n.Scope() {
		if len(sc.Properties) > 0 {
			return true
		}
	}
	return false
}

// defaultOf finds the default of a node, looking through $ref and allOf.
func defaultOf(n *schema.Node) (any, bool) {
	for _, sc := range n.Scope() {
		if sc.HasDefault {
			return sc.Default, true
		}
	}
	return nil, false
}

func nullable(n *schema.Node) bool {
	for _, sc := range n.Scope() {
		if sc.Nullable {
			return true
		}
	}
	return false
}
