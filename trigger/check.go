package trigger

import (
	"fmt"
	"sort"

	"github.com/paramkit/paramkit/schema"
)

// Deploy is the plan a change runs when no trigger applies, unless the
// resolver is told otherwise. It is also the plan of an install.
const Deploy = "deploy"

// A trigger conflict is a schema node whose trigger differs from the
// trigger of an ancestor. New reports each as a *schema.Error of
// kind schema.KindConflict: Pointer is the node that names the
// other plan, Detail.Plans holds that plan then the ancestor's, and
// Detail.Other the ancestor's pointer (both pointers into the schema
// document).
func conflict(n, ancestor *schema.Node) *schema.Error {
	return &schema.Error{
		Pointer: n.Pointer(),
		Kind:    schema.KindConflict,
		Message: fmt.Sprintf("trigger %q differs from trigger %q of its ancestor %s (a level below a trigger must name the same plan or none)",
			n.Trigger(), ancestor.Trigger(), quote(ancestor.Pointer())),
		Detail: &schema.ErrorDetail{Plans: []string{n.Trigger(), ancestor.Trigger()}, Other: ancestor.Pointer()},
	}
}

func quote(p string) string {
	if p == "" {
		return `""`
	}
	return p
}

// check reports every node whose trigger differs from the nearest trigger
// above it, sorted by pointer (New refuses a schema with any). "Above" is
// the schema document's nesting (properties, items,
// additionalProperties, allOf, $defs, ...) and also every place a $ref is
// used: a definition used under a trigger must not name another plan.
// Each conflict is a *schema.Error of kind schema.KindConflict (see
// conflict). The list is empty for a valid or nil schema.
func check(s *schema.Schema) schema.ErrorList {
	if s == nil {
		return nil
	}
	if s.Root() == nil {
		return schema.ErrorList{schema.NewError(schema.KindUsage, "", "trigger: the schema was not made by schema.Parse or FromValue")}
	}
	c := &checker{seen: map[checkKey]bool{}, found: map[[2]string]bool{}}
	c.walk(s.Root(), nil)
	sort.Slice(c.out, func(i, j int) bool {
		if c.out[i].Pointer != c.out[j].Pointer {
			return c.out[i].Pointer < c.out[j].Pointer
		}
		return c.out[i].Detail.Other < c.out[j].Detail.Other
	})
	return c.out
}

type checkKey struct {
	n        *schema.Node
	ancestor *schema.Node
}

type checker struct {
	seen  map[checkKey]bool  // each node is checked once per ancestor trigger
	found map[[2]string]bool // conflicts already reported
	out   schema.ErrorList
}

// walk visits n under the nearest triggered ancestor (nil: none).
func (c *checker) walk(n, ancestor *schema.Node) {
	if n == nil {
		return
	}
	k := checkKey{n, ancestor}
	if c.seen[k] {
		return
	}
	c.seen[k] = true
	// self is the trigger above the value n governs, for what applies to
	// that same value (allOf members, the $ref target); below is the one
	// for what lies inside the value.
	self := ancestor
	if n.Trigger() != "" {
		if ancestor != nil && ancestor.Trigger() != n.Trigger() {
			c.report(n, ancestor)
			// Below a conflicting node, compare with the node itself: one
			// finding per wrong node, not one for each of its children.
		}
		self = n
	}
	below := self
	if n.Trigger() == "" {
		if m := scopeTrigger(n); m != nil {
			// A trigger that $ref or allOf brings in is the trigger of
			// this value: what lies inside compares with it (m itself is
			// checked where the walk reaches it, against self).
			below = m
			// Two members of the scope naming different plans for the
			// same value conflict as well.
			for i, o := range n.Scope() {
				if i > 0 && o.Trigger() != "" && o.Trigger() != m.Trigger() {
					c.report(o, m)
				}
			}
		}
	}
	for _, ch := range n.Subschemas() {
		if ch.Via() == "allOf" {
			c.walk(ch, self)
		} else {
			c.walk(ch, below)
		}
	}
	if n.RefTarget() != nil && self != nil {
		// The definition applies here too, under this trigger.
		c.walk(n.RefTarget(), self)
	}
}

func (c *checker) report(n, ancestor *schema.Node) {
	key := [2]string{n.Pointer(), ancestor.Pointer()}
	if !c.found[key] {
		c.found[key] = true
		c.out = append(c.out, conflict(n, ancestor))
	}
}

// scopeTrigger returns the first node that $ref or allOf bring into n's
// scope and that names a trigger, or nil.
func scopeTrigger(n *schema.Node) *schema.Node {
	for i, m := range n.Scope() {
		if i > 0 && m.Trigger() != "" {
			return m
		}
	}
	return nil
}
