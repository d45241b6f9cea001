package trigger

import (
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// anyToken is the pointer token that Parameters writes for "any array
// index" or "any key" (items, additionalProperties, patternProperties).
const anyToken = "*"

// maxParameters bounds Parameters on schemas whose definitions nest into
// each other many times over (the value tree of a DAG of $refs can be
// exponentially larger than the schema).
const maxParameters = 100_000

// Parameter is one place of the parameter tree and the plan a change there
// triggers.
type Parameter struct {
	// Pointer locates the parameter in the values; a token "*" stands
	// for every array index or every key of a free-form map.
	Pointer string `json:"pointer"`
	// SchemaPointer is the node that describes the parameter.
	SchemaPointer string `json:"schemaPointer"`
	// Plan is the effective plan: the nearest trigger at or above, else
	// the default plan.
	Plan string `json:"plan"`
	// Trigger is the plan the parameter names itself (through $ref and
	// allOf), "" when it inherits.
	Trigger string `json:"ownTrigger"`
}

// Parameters lists every parameter of the schema below the root, parents
// before children, properties in source order, each with its effective and
// own trigger. Definitions used through $ref appear where they are used;
// a recursive definition is listed once along each path. It works on any
// schema: where New finds conflicts, the nearest trigger wins.
func Parameters(s *schema.Schema, opts ...Option) []Parameter {
	l := &lister{def: defaultPlanOf(opts), onPath: map[*schema.Node]bool{}, out: []Parameter{}}
	if s == nil || s.Root() == nil {
		return l.out
	}
	l.node(s.Root(), "", ownTrigger(s.Root()))
	return l.out
}

type lister struct {
	def    string
	onPath map[*schema.Node]bool
	out    []Parameter
}

// node lists the values inside the value governed by n; plan is the
// nearest trigger at or above n ("" for none).
func (l *lister) node(n *schema.Node, ptr, plan string) {
	same := sameValue(n)
	for _, m := range same {
		if l.onPath[m] {
			return // a recursive definition, already being listed above
		}
	}
	for _, m := range same {
		l.onPath[m] = true
	}
	defer func() {
		for _, m := range same {
			delete(l.onPath, m)
		}
	}()
	seen := map[string]bool{}
	for _, m := range same {
		for _, p := range m.Properties() {
			if !seen[p.Name()] {
				seen[p.Name()] = true
				l.child(p, pointer.Append(ptr, p.Name()), plan)
			}
		}
		for _, p := range m.PatternProperties() {
			l.child(p, pointer.Append(ptr, anyToken), plan)
		}
		for i, p := range m.PrefixItems() {
			l.child(p, pointer.AppendIndex(ptr, i), plan)
		}
		for _, p := range []*schema.Node{m.AdditionalProperties(), m.Items(), m.AdditionalItems()} {
			if p != nil {
				l.child(p, pointer.Append(ptr, anyToken), plan)
			}
		}
	}
}

func (l *lister) child(n *schema.Node, ptr, plan string) {
	if n.IsFalse() || len(l.out) >= maxParameters {
		return
	}
	own := ownTrigger(n)
	if own != "" {
		plan = own
	}
	eff := plan
	if eff == "" {
		eff = l.def
	}
	l.out = append(l.out, Parameter{Pointer: ptr, SchemaPointer: n.Pointer(), Plan: eff, Trigger: own})
	l.node(n, ptr, plan)
}

// sameValue lists the nodes whose keywords describe the value n governs:
// its scope ($ref, allOf) and the anyOf/oneOf branches of each.
func sameValue(n *schema.Node) []*schema.Node {
	var out []*schema.Node
	for _, m := range n.Scope() {
		out = append(out, m)
	}
	for _, m := range n.Scope() {
		for _, b := range append(append([]*schema.Node(nil), m.AnyOf()...), m.OneOf()...) {
			for _, x := range b.Scope() {
				out = append(out, x)
			}
		}
	}
	return out
}
