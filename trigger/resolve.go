package trigger

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// Option configures a Resolver.
type Option func(*config)

type config struct {
	defaultPlan string
}

// DefaultPlan sets the plan of changes that no trigger covers (Deploy
// unless set). KUDO's own rule picks "update" when the operator has such
// a plan, else Deploy (package convert/kudo applies it).
func DefaultPlan(name string) Option {
	return func(c *config) { c.defaultPlan = name }
}

func defaultPlanOf(opts []Option) string {
	cfg := config{defaultPlan: Deploy}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	return cfg.defaultPlan
}

// Resolver maps changed values to the plan they trigger. It is built once
// per schema (New) and is safe for concurrent use; resolving a change
// costs one map look-up per level of its pointer, never a walk of the
// schema.
type Resolver struct {
	root        *place
	defaultPlan string
	places      map[*schema.Node]*place
}

// place is what resolution needs to know about a schema node, computed
// once.
type place struct {
	n *schema.Node
	// plan is the trigger of the value the node governs: the first among
	// the node and what its $ref and allOf bring in.
	plan string
	// below is true when some trigger lies at or below the node in the
	// value tree; descent stops where it is false.
	below    bool
	arrayish bool
	// props are the declared properties through the scope, nearest
	// declaration first (as Child finds them); only where below is true.
	props map[string]*place
}

// New precomputes plan resolution for a schema, and checks its triggers.
// It refuses a schema with trigger conflicts: a node whose trigger
// differs from the nearest trigger above it, where "above" is the schema
// document's nesting (properties, items, additionalProperties, allOf,
// $defs, ...) and also every place a $ref is used (a definition used
// under a trigger must not name another plan). The error then lists every
// conflict, sorted by pointer (schema.ErrorsOf), each a *schema.Error of
// kind schema.KindConflict whose Pointer is the node that names
// the other plan, Detail.Plans that plan then the ancestor's, and
// Detail.Other the ancestor's pointer (both pointers into the schema
// document): `_, err := trigger.New(s)` is the check of a schema's
// triggers. A nil schema, or one not made by schema.Parse or
// FromValue, gives an error of kind schema.KindUsage.
func New(s *schema.Schema, opts ...Option) (*Resolver, error) {
	if s == nil || s.Root() == nil {
		return nil, schema.NewError(schema.KindUsage, "", "trigger: New needs a schema made by schema.Parse or FromValue")
	}
	if err := check(s).Err(); err != nil {
		return nil, err
	}
	r := &Resolver{defaultPlan: defaultPlanOf(opts), places: map[*schema.Node]*place{}}
	// parents[c] lists the nodes c is a value child of, so that "a trigger
	// at or below" spreads upwards from each trigger in one pass.
	parents := map[*schema.Node][]*schema.Node{}
	var marked []*schema.Node
	s.Walk(func(n *schema.Node) bool {
		pl := &place{n: n, plan: ownTrigger(n), arrayish: isArrayish(n)}
		r.places[n] = pl
		if pl.plan != "" {
			marked = append(marked, n)
		}
		for _, c := range valueChildren(n) {
			parents[c] = append(parents[c], n)
		}
		return true
	})
	for len(marked) > 0 {
		n := marked[len(marked)-1]
		marked = marked[:len(marked)-1]
		if pl := r.places[n]; pl != nil && !pl.below {
			pl.below = true
			marked = append(marked, parents[n]...)
		}
	}
	for _, pl := range r.places {
		if !pl.below {
			continue
		}
		for _, m := range pl.n.Scope() {
			for _, p := range m.Properties() {
				if pl.props == nil {
					pl.props = map[string]*place{}
				}
				if _, dup := pl.props[p.Name()]; !dup {
					pl.props[p.Name()] = r.places[p]
				}
			}
		}
	}
	r.root = r.places[s.Root()]
	return r, nil
}

// ownTrigger is the trigger a node declares for its value, looking through
// $ref and allOf.
func ownTrigger(n *schema.Node) string {
	for _, m := range n.Scope() {
		if m.Trigger() != "" {
			return m.Trigger()
		}
	}
	return ""
}

// valueChildren lists the nodes that govern values directly inside a value
// governed by n, through $ref and allOf, and the anyOf/oneOf branches that
// Child and Elem fall back to.
func valueChildren(n *schema.Node) []*schema.Node {
	var out []*schema.Node
	for _, m := range n.Scope() {
		for _, p := range m.Properties() {
			out = append(out, p)
		}
		out = append(out, m.PatternProperties()...)
		out = append(out, m.PrefixItems()...)
		for _, c := range []*schema.Node{m.AdditionalProperties(), m.Items(), m.AdditionalItems()} {
			if c != nil {
				out = append(out, c)
			}
		}
		if m != n {
			out = append(out, m) // n's value is m's value: m's triggers count for n
		}
		out = append(out, m.AnyOf()...)
		out = append(out, m.OneOf()...)
	}
	return out
}

// DefaultPlan returns the plan of changes that no trigger covers.
func (r *Resolver) DefaultPlan() string {
	if r == nil {
		return ""
	}
	return r.defaultPlan
}

// Effective returns the plan a change at valuePointer (a pointer into the
// parameter values, such as /topology/0/labels) triggers: the nearest
// trigger at or above it, else the default plan. Values the schema says
// nothing about (inside free-form maps and arrays) resolve through their
// parents.
func (r *Resolver) Effective(valuePointer string) string {
	if r == nil {
		return ""
	}
	if p := r.lookup(valuePointer); p != "" {
		return p
	}
	return r.defaultPlan
}

// lookup finds the nearest trigger at or above a value pointer; "" for none.
func (r *Resolver) lookup(ptr string) string {
	pl := r.root
	if pl == nil {
		return ""
	}
	if pl.plan != "" {
		return pl.plan
	}
	for ptr != "" {
		if !pl.below {
			return ""
		}
		// Next token, without allocating unless it holds an escape.
		ptr = ptr[1:]
		tok := ptr
		if i := strings.IndexByte(ptr, '/'); i >= 0 {
			tok, ptr = ptr[:i], ptr[i:]
		} else {
			ptr = ""
		}
		if strings.IndexByte(tok, '~') >= 0 {
			u, err := pointer.Unescape(tok)
			if err != nil {
				return ""
			}
			tok = u
		}
		pl = r.step(pl, tok)
		if pl == nil {
			return ""
		}
		if pl.plan != "" {
			// The schema is free of conflicts, so nothing deeper can
			// name another plan.
			return pl.plan
		}
	}
	return ""
}

// step moves to the place governing one token below pl.
func (r *Resolver) step(pl *place, tok string) *place {
	var c *schema.Node
	if i, ok := index(tok); ok && pl.arrayish {
		c = pl.n.Elem(i)
	} else if next := pl.props[tok]; next != nil {
		return next
	} else {
		c = pl.n.Child(tok) // patternProperties, additionalProperties, anyOf/oneOf
	}
	if c == nil {
		return nil
	}
	return r.places[c]
}

func index(tok string) (int, bool) {
	if tok == "" || len(tok) > 1 && tok[0] == '0' {
		return 0, false
	}
	for i := 0; i < len(tok); i++ {
		if tok[i] < '0' || tok[i] > '9' {
			return 0, false
		}
	}
	i, err := strconv.Atoi(tok)
	if err != nil {
		return int(^uint(0) >> 1), true // beyond any prefixItems
	}
	return i, true
}

func isArrayish(n *schema.Node) bool {
	for _, t := range n.Types() {
		if t == "array" {
			return true
		}
	}
	for _, m := range n.Scope() {
		if m.Items() != nil || len(m.PrefixItems()) > 0 {
			return true
		}
	}
	return false
}

// change is a changed value and the plan it triggers.
type change struct {
	// Pointer locates the changed value in the parameter values.
	Pointer string `json:"pointer"`
	// Plan is the plan the change triggers.
	Plan string `json:"plan"`
}

// planConflicts refuses changes that trigger more than one plan: one
// *schema.Error of kind schema.KindConflict per change, in the order
// given, Detail.Plans holding the change's plan and then every plan of the
// changes, sorted.
func planConflicts(changes []change) schema.ErrorList {
	var plans []string
	for _, c := range changes {
		if !contains(plans, c.Plan) {
			plans = append(plans, c.Plan)
		}
	}
	sort.Strings(plans)
	all := strings.Join(plans, ", ")
	out := make(schema.ErrorList, len(changes))
	for i, c := range changes {
		out[i] = &schema.Error{
			Pointer: c.Pointer,
			Kind:    schema.KindConflict,
			Message: fmt.Sprintf("triggers %s, but an update may trigger only one plan (the changes trigger %s)", c.Plan, all),
			Detail:  &schema.ErrorDetail{Plans: append([]string{c.Plan}, plans...)},
		}
	}
	return out
}

// Resolve returns the one plan that the changed values (pointers into the
// parameter values) trigger. No change gives "" and no error. Changes that
// trigger more than one plan give a schema.ErrorList with an entry of kind
// schema.KindConflict for every change, naming its plan. A Resolver
// not made by New fails with an error of kind schema.KindUsage.
func (r *Resolver) Resolve(changed []string) (string, error) {
	if r == nil || r.places == nil {
		return "", schema.NewError(schema.KindUsage, "", "trigger: the Resolver is nil or was not made by trigger.New")
	}
	if len(changed) == 0 {
		return "", nil
	}
	first := r.Effective(changed[0])
	for _, p := range changed[1:] {
		if r.Effective(p) != first {
			changes := make([]change, len(changed))
			for i, q := range changed {
				changes[i] = change{Pointer: q, Plan: r.Effective(q)}
			}
			return "", planConflicts(changes).Err()
		}
	}
	return first, nil
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
