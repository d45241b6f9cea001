// Package shape answers what shape of value a schema node takes, the
// way migration reads it: whether an object is taken key by key, whether
// an array is taken element by element, which properties an object
// declares (through $ref and allOf, and into anyOf/oneOf branches). The
// migration in convert/migrate and the value generator in valuegen share
// it (both below convert/migrate, as shape reads schema nodes), so
// that generated values take the shapes migration takes.
package shape

import "github.com/paramkit/paramkit/schema"

// Structured reports whether an object under n is taken key by key:
// n declares properties, patternProperties or additionalProperties
// (through $ref and allOf, or in anyOf/oneOf branches).
func Structured(n *schema.Node) bool {
	if n == nil {
		return false
	}
	branches := false
	for _, sc := range n.Scope() {
		if HasProperties(sc) || len(sc.PatternProperties()) > 0 || sc.AdditionalProperties() != nil {
			return true
		}
		branches = branches || len(sc.AnyOf()) > 0 || len(sc.OneOf()) > 0
	}
	return branches && structuredIn(n, 0, map[*schema.Node]bool{})
}

func structuredIn(n *schema.Node, depth int, seen map[*schema.Node]bool) bool {
	if n == nil || depth > 8 || seen[n] {
		return false
	}
	seen[n] = true
	for _, sc := range n.Scope() {
		if HasProperties(sc) || len(sc.PatternProperties()) > 0 || sc.AdditionalProperties() != nil {
			return true
		}
	}
	for _, sc := range n.Scope() {
		for _, b := range sc.AnyOf() {
			if structuredIn(b, depth+1, seen) {
				return true
			}
		}
		for _, b := range sc.OneOf() {
			if structuredIn(b, depth+1, seen) {
				return true
			}
		}
	}
	return false
}

// Arrayish reports whether an array under n is taken element by
// element: n has items or prefixItems.
func Arrayish(n *schema.Node) bool {
	if n == nil {
		return false
	}
	return n.Elem(0) != nil
}

// HasProperty reports whether n declares the property t.
func HasProperty(n *schema.Node, t string) bool {
	for _, pd := range Props(n) {
		if pd.Name == t {
			return true
		}
	}
	return false
}

// Prop is one property an object node declares.
type Prop struct {
	// Name is the property name.
	Name string
	// Defs are every node that declares the property there.
	Defs []*schema.Node
}

// Props lists the properties an object node declares, through $ref
// and allOf and into anyOf/oneOf branches, in source order.
func Props(n *schema.Node) []Prop {
	var out []Prop
	idx := map[string]int{}
	seen := map[*schema.Node]bool{}
	var walk func(n *schema.Node, depth int)
	walk = func(n *schema.Node, depth int) {
		if n == nil || depth > 8 || seen[n] {
			return
		}
		scope := n.Scope() // n first, then what $ref and allOf bring
		for _, sc := range scope {
			if !seen[sc] {
				seen[sc] = true
				addProps(sc, &out, idx)
			}
		}
		for _, sc := range scope {
			for _, br := range sc.AnyOf() {
				walk(br, depth+1)
			}
			for _, br := range sc.OneOf() {
				walk(br, depth+1)
			}
		}
	}
	walk(n, 0)
	return out
}

func addProps(n *schema.Node, out *[]Prop, idx map[string]int) {
	for _, p := range n.Properties() {
		i, ok := idx[p.Name()]
		if !ok {
			i = len(*out)
			idx[p.Name()] = i
			*out = append(*out, Prop{Name: p.Name()})
		}
		(*out)[i].Defs = append((*out)[i].Defs, p)
	}
}

// HasProperties reports whether n declares any property.
func HasProperties(n *schema.Node) bool {
	for range n.Properties() {
		return true
	}
	return false
}
