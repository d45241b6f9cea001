package params

import (
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
	"iter"
)

// Option changes how Default, Validate and CheckImmutable read the
// schema; Structural is the one there is.
type Option func(*options)

// options are what the Options set.
type options struct {
	structural bool
}

// Structural reads the schema as a kube-apiserver reads a CRD's
// structural schema. Default then defaults as the apiserver defaults a
// CRD object: no missing parent object is created, and a null given for a
// property that is not nullable is dropped (then defaulted if it has a
// default); without it, a missing parent object is created when something
// below it gets a default and every required property in it is then
// present, so templates can read .Params.backup.enabled. Validate then
// accepts null wherever the governing node says `nullable: true`
// (OpenAPI's keyword, which JSON Schema ignores). CheckImmutable compares
// the values defaulted that way.
func Structural() Option { return func(o *options) { o.structural = true } }

// optionsOf applies opts (nil entries skipped).
func optionsOf(opts []Option) options {
	var o options
	for _, f := range opts {
		if f != nil {
			f(&o)
		}
	}
	return o
}

type defaulter struct {
	structural bool
	building   map[*schema.Node]bool // guards materialising recursive schemas
}

// Default fills missing properties from their schema's `default`, through
// nested objects, array items and additionalProperties / patternProperties
// values. A given value is never overwritten and a given null stays
// (except in the Structural mode). Defaults are themselves defaulted below.
//
// Default does not change v: it returns the defaulted value, which is v
// itself when nothing was missing, and otherwise shares with v the maps
// and slices that needed no default (copy on write): copy the result
// before editing it in place. Go data other than plain
// values is converted first, as Plain does; a v that cannot be converted
// is an error naming its pointer, as from Plain. A nil schema has no
// defaults: Default then returns v, converted as Plain does. A Schema not
// made by schema.Parse, ParseFile or FromValue (a zero &schema.Schema{})
// gives an error of kind schema.KindUsage; the error comes with a nil
// value.
func Default(s *schema.Schema, v any, opts ...Option) (any, error) {
	if err := zeroSchema(s); err != nil {
		return nil, err
	}
	v, err := value.Plain(v)
	if err != nil {
		return nil, notPlain(err, "")
	}
	return defaults(s, v, opts, false), nil
}

// defaults is Default for a plain v. inPlace says that v is the caller's
// own copy, which may be written in place instead of copied on write.
func defaults(s *schema.Schema, v any, opts []Option, inPlace bool) any {
	if s == nil {
		return v
	}
	d := &defaulter{structural: optionsOf(opts).structural, building: map[*schema.Node]bool{}}
	root := s.Root()
	if v == nil {
		if def, ok := defaultOf(root); ok {
			v, inPlace = value.DeepCopy(def), true
		}
	}
	out, _ := d.apply(root, v, inPlace)
	return out
}

// apply defaults v under n. own says that v's maps and slices may be
// written in place; otherwise a map or slice that gets a default is
// copied first. It returns the result and whether it differs from v.
func (d *defaulter) apply(n *schema.Node, v any, own bool) (any, bool) {
	if n == nil {
		return v, false
	}
	switch t := v.(type) {
	case map[string]any:
		return d.object(n, t, own)
	case []any:
		out, changed := t, false
		for i, x := range t {
			y, ch := d.apply(n.Elem(i), x, own)
			if !ch {
				continue
			}
			if !own && !changed {
				out = append([]any(nil), t...)
			}
			out[i], changed = y, true
		}
		return out, changed
	}
	return v, false
}

// object defaults the members of m under n, copying m on its first write
// unless own.
func (d *defaulter) object(n *schema.Node, m map[string]any, own bool) (map[string]any, bool) {
	out, changed := m, false
	write := func() {
		if !own && !changed {
			out = make(map[string]any, len(m)+1)
			for k, x := range m {
				out[k] = x
			}
		}
		changed = true
	}
	scope := n.Scope()
	for i, sc := range scope {
		for _, p := range sc.Properties() {
			if declaredIn(scope, i, p.Name()) {
				continue // the nearest declaration wins
			}
			cur, present := out[p.Name()]
			if present && cur == nil && d.structural && !nullable(p) {
				write()
				delete(out, p.Name())
				present = false
			}
			if present {
				if x, ch := d.apply(p, cur, own); ch {
					write()
					out[p.Name()] = x
				}
				continue
			}
			if def, ok := defaultOf(p); ok {
				x, _ := d.apply(p, value.DeepCopy(def), true)
				write()
				out[p.Name()] = x
				continue
			}
			if !d.structural {
				if obj := d.materialize(p); obj != nil {
					write()
					out[p.Name()] = obj
				}
			}
		}
	}
	if !governsOtherKeys(scope) {
		return out, changed
	}
	// Values under patternProperties and additionalProperties.
	for k, x := range m {
		if declaredIn(scope, -1, k) {
			continue
		}
		if c := n.Child(k); c != nil {
			if x == nil && d.structural && !nullable(c) {
				write()
				if def, ok := defaultOf(c); ok {
					out[k], _ = d.apply(c, value.DeepCopy(def), true)
				} else {
					delete(out, k)
				}
				continue
			}
			if y, ch := d.apply(c, x, own); ch {
				write()
				out[k] = y
			}
		}
	}
	return out, changed
}

// declaredIn reports whether a node of the scope declares the property:
// one of the first n nodes, or any for n < 0.
func declaredIn(scope iter.Seq2[int, *schema.Node], n int, name string) bool {
	for i, sc := range scope {
		if n >= 0 && i >= n {
			return false
		}
		if sc.Property(name) != nil {
			return true
		}
	}
	return false
}

// governsOtherKeys reports whether keys that no property declares can
// have a schema (patternProperties, additionalProperties, or the
// anyOf/oneOf branches Child falls back to).
func governsOtherKeys(scope iter.Seq2[int, *schema.Node]) bool {
	for _, sc := range scope {
		if len(sc.PatternProperties()) > 0 || sc.AdditionalProperties() != nil || len(sc.AnyOf()) > 0 || len(sc.OneOf()) > 0 {
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
	m, _ := d.object(p, map[string]any{}, true)
	if len(m) == 0 {
		return nil
	}
	for _, sc := range p.Scope() {
		for _, r := range sc.RequiredNames() {
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
		for range sc.Properties() {
			return true
		}
	}
	return false
}

// defaultOf finds the default of a node, looking through $ref and allOf.
func defaultOf(n *schema.Node) (any, bool) {
	for _, sc := range n.Scope() {
		if sc.HasDefault() {
			return sc.Default(), true
		}
	}
	return nil, false
}

func nullable(n *schema.Node) bool {
	for _, sc := range n.Scope() {
		if sc.Nullable() {
			return true
		}
	}
	return false
}
