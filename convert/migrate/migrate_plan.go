package migrate

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/paramkit/paramkit/convert/migrate/internal/shape"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// migPlan is what a migration into one schema needs, worked out once: the
// static places of the target (nodes reached from the root through
// properties, which alone can name old values), each with the old
// pointers it claims.
type migPlan struct {
	target  *schema.Schema
	entries []*migEntry // pre-order; entries[0] is the root
	// explicit holds every claimed source pointer, above their strict
	// prefixes: both tell the walk over the source which values are taken
	// elsewhere.
	explicit map[string]bool
	above    map[string]bool
	// defaults marks the target's nodes that have a default at or below
	// them (see mayDefault).
	defaults map[*schema.Node]bool
}

// migEntry is one static place of the target.
type migEntry struct {
	index    int
	ptr      string // value pointer in the target
	name     string // property name; "" for the root
	node     *schema.Node
	parent   *migEntry
	claims   []migClaim // explicit sources, in the order they are tried
	children []*migEntry
	statics  map[string]bool // names of children
}

// migClaim is one old name of a place.
type migClaim struct {
	src     string   // pointer into the source values
	toks    []string // src split
	keyword string   // schema pointer of the oldName that says so; "" when derived
}

// maxMigSources bounds the possible sources the up-front check considers
// (lists of old names at many levels multiply).
const maxMigSources = 100_000

type migPlanBuilder struct {
	plan       *migPlan
	readClaims bool
	reached    map[*schema.Node]bool
	errs       schema.ErrorList
}

// newUpPlan plans migrations into to by its oldName keywords and checks
// the claims.
func newUpPlan(to *schema.Schema) (*migPlan, error) {
	b := &migPlanBuilder{plan: &migPlan{target: to}, readClaims: true, reached: map[*schema.Node]bool{}}
	b.build(to.Root(), "", "", nil, map[*schema.Node]bool{})
	b.unreached(to)
	if len(b.errs) == 0 {
		b.conflicts()
	}
	if len(b.errs) > 0 {
		sort.SliceStable(b.errs, func(i, j int) bool { return b.errs[i].Pointer < b.errs[j].Pointer })
		return nil, dedupeSchemaErrors(b.errs).Err()
	}
	b.plan.index()
	return b.plan, nil
}

// newDownPlan plans the way back into from: each target place whose
// first old name is a static place of from is claimed by that place;
// everything else carries over by path as in the up direction.
func newDownPlan(from *schema.Schema, up *migPlan) *migPlan {
	b := &migPlanBuilder{plan: &migPlan{target: from}, reached: map[*schema.Node]bool{}}
	b.build(from.Root(), "", "", nil, map[*schema.Node]bool{})
	at := make(map[string]*migEntry, len(b.plan.entries))
	for _, e := range b.plan.entries {
		at[e.ptr] = e
	}
	for _, e := range up.entries {
		if len(e.claims) == 0 {
			continue
		}
		if de := at[e.claims[0].src]; de != nil {
			toks, _ := pointer.Split(e.ptr)
			de.claims = append(de.claims, migClaim{src: e.ptr, toks: toks})
		}
	}
	b.plan.index()
	return b.plan
}

func (p *migPlan) index() {
	p.defaults = findDefaults(p.target)
	p.explicit = map[string]bool{}
	p.above = map[string]bool{}
	for _, e := range p.entries {
		for _, c := range e.claims {
			p.explicit[c.src] = true
			for q := parentPointer(c.src); ; q = parentPointer(q) {
				p.above[q] = true
				if q == "" {
					break
				}
			}
		}
	}
}

// parentPointer returns the pointer of the containing value ("" for a
// top-level pointer and for the root itself).
func parentPointer(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return ""
}

func (b *migPlanBuilder) build(n *schema.Node, ptr, name string, parent *migEntry, stack map[*schema.Node]bool) *migEntry {
	e := &migEntry{index: len(b.plan.entries), ptr: ptr, name: name, node: n, parent: parent}
	b.plan.entries = append(b.plan.entries, e)
	if n == nil || stack[n] {
		return e // no schema, or a recursive schema: below here is dynamic
	}
	stack[n] = true
	defer delete(stack, n)
	if parent == nil {
		b.reached[n] = true
		if b.readClaims && len(n.OldNames()) > 0 {
			b.errs = append(b.errs, &schema.Error{Kind: schema.KindSchema, Pointer: pointer.Append(n.Pointer(), "oldName"),
				Message: "the root cannot have an old name: its values are the previous values"})
		}
	}
	for _, pd := range shape.Props(n) {
		child := n.Child(pd.Name)
		ce := b.build(child, pointer.Append(ptr, pd.Name), pd.Name, e, stack)
		for _, def := range pd.Defs {
			b.reached[def] = true
			if b.readClaims {
				ce.claims = append(ce.claims, b.claimsOf(def)...)
			}
		}
		if e.statics == nil {
			e.statics = map[string]bool{}
		}
		e.statics[pd.Name] = true
		e.children = append(e.children, ce)
	}
	return e
}

// claimsOf reads the oldName keyword of a node.
func (b *migPlanBuilder) claimsOf(def *schema.Node) []migClaim {
	raw, ok := def.Keyword("oldName")
	if !ok {
		return nil
	}
	var names []string
	var kws []string
	kw := pointer.Append(def.Pointer(), "oldName")
	switch t := raw.(type) {
	case string:
		names, kws = []string{t}, []string{kw}
	case []any:
		for i, x := range t {
			if s, ok := x.(string); ok {
				names = append(names, s)
				kws = append(kws, pointer.AppendIndex(kw, i))
			}
		}
	}
	var out []migClaim
	for i, name := range names {
		src, err := oldNamePointer(name)
		if err != nil {
			b.errs = append(b.errs, &schema.Error{Kind: schema.KindSchema, Pointer: kws[i], Message: err.Error()})
			continue
		}
		toks, _ := pointer.Split(src)
		out = append(out, migClaim{src: src, toks: toks, keyword: kws[i]})
	}
	return out
}

// oldNamePointer turns an oldName into a pointer into the old values: a
// top-level key, or a JSON pointer when it starts with "/".
func oldNamePointer(name string) (string, error) {
	if name == "" {
		return "", fmt.Errorf("an oldName must not be empty")
	}
	if !strings.HasPrefix(name, "/") {
		return pointer.Append("", name), nil
	}
	if _, err := pointer.Split(name); err != nil {
		return "", fmt.Errorf("oldName %q is not a valid JSON pointer: %v", name, err)
	}
	return name, nil
}

// unreached reports old names on nodes that have no single place in the
// values: under items, additionalProperties, patternProperties, not,
// if/then/else, or in a definition used from such a place. Definitions
// nobody uses are left alone.
func (b *migPlanBuilder) unreached(s *schema.Schema) {
	refTargets := map[*schema.Node]bool{}
	var named []*schema.Node
	s.Walk(func(n *schema.Node) bool {
		if n.RefTarget() != nil {
			refTargets[n.RefTarget()] = true
		}
		if _, ok := n.Keyword("oldName"); ok && len(n.OldNames()) > 0 {
			named = append(named, n)
		}
		return true
	})
	for _, n := range named {
		if b.reached[n] {
			continue
		}
		used := false
		for c := n; c != nil; c = c.Parent() {
			if refTargets[c] {
				used = true
				break
			}
			if c.Via() == "$defs" || c.Via() == "definitions" {
				break
			}
			if c.Parent() == nil {
				used = true
			}
		}
		if used {
			b.errs = append(b.errs, &schema.Error{Kind: schema.KindSchema, Pointer: pointer.Append(n.Pointer(), "oldName"),
				Message: "this oldName has no single place in the values: only properties reached from the root through properties (and $ref, allOf, anyOf, oneOf) can name an old value, not values under items, additionalProperties, patternProperties or conditionals"})
		}
	}
}

type migOwner struct {
	entry   *migEntry
	keyword string // "" when the source is the carried-over path
}

// conflicts finds, before any value is touched, old values that two
// places would take: two old names alike, an old name that is also
// carried over by path to another place, or an old name inside a value
// that another place takes whole.
func (b *migPlanBuilder) conflicts() {
	owners := map[string][]migOwner{}
	srcs := make([][]string, len(b.plan.entries))
	total := 0
	for _, e := range b.plan.entries {
		var list []string
		seen := map[string]bool{}
		add := func(src, kw string) {
			if seen[src] {
				return
			}
			seen[src] = true
			list = append(list, src)
			owners[src] = append(owners[src], migOwner{entry: e, keyword: kw})
		}
		if e.parent == nil {
			add("", "")
		} else {
			for _, c := range e.claims {
				add(c.src, c.keyword)
			}
			for _, ps := range srcs[e.parent.index] {
				add(pointer.Append(ps, e.name), "")
			}
		}
		srcs[e.index] = list
		total += len(list)
		if total > maxMigSources {
			b.errs = append(b.errs, &schema.Error{Kind: schema.KindSchema, Pointer: e.node.Pointer(),
				Message: fmt.Sprintf("the old names combine into more than %d possible old places; use fewer alternatives", maxMigSources)})
			return
		}
	}
	keys := make([]string, 0, len(owners))
	for k := range owners {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, src := range keys {
		os := owners[src]
		for i := 1; i < len(os); i++ {
			a, c := os[0], os[i]
			if a.entry == c.entry {
				continue
			}
			switch {
			case a.keyword != "" && c.keyword != "":
				b.errs = append(b.errs, &schema.Error{Kind: schema.KindSchema, Pointer: c.keyword,
					Message: fmt.Sprintf("old value %s is claimed by both %s and %s", showPointer(src), showPointer(a.entry.ptr), showPointer(c.entry.ptr))})
			case a.keyword != "" || c.keyword != "":
				ex, im := a, c
				if ex.keyword == "" {
					ex, im = c, a
				}
				b.errs = append(b.errs, &schema.Error{Kind: schema.KindSchema, Pointer: ex.keyword,
					Message: fmt.Sprintf("old value %s is claimed by %s but would also be carried over to %s, where its path exists unchanged", showPointer(src), showPointer(ex.entry.ptr), showPointer(im.entry.ptr))})
			default:
				b.errs = append(b.errs, &schema.Error{Kind: schema.KindSchema, Pointer: c.entry.node.Pointer(),
					Message: fmt.Sprintf("old value %s would be carried over to both %s and %s", showPointer(src), showPointer(a.entry.ptr), showPointer(c.entry.ptr))})
			}
		}
	}
	// An old name inside a value that another place takes whole.
	for _, e := range b.plan.entries {
		for _, c := range e.claims {
			toks, _ := pointer.Split(c.src)
			for i := 0; i < len(toks); i++ {
				prefix := pointer.Join(toks[:i]...)
				for _, o := range owners[prefix] {
					if o.entry == e {
						continue
					}
					if migCarries(o.entry.node, toks[i:], true) {
						b.errs = append(b.errs, &schema.Error{Kind: schema.KindSchema, Pointer: c.keyword,
							Message: fmt.Sprintf("old value %s is claimed by %s but lies inside %s, which is carried over to %s", showPointer(c.src), showPointer(e.ptr), showPointer(prefix), showPointer(o.entry.ptr))})
					}
				}
			}
		}
	}
}

// migCarries reports whether the value at the path rest below a value
// placed at node n would be carried along with it. static is true when n
// is a static place, whose properties are places of their own.
func migCarries(n *schema.Node, rest []string, static bool) bool {
	if len(rest) == 0 || n == nil {
		return true
	}
	t := rest[0]
	structured, array := shape.Structured(n), shape.Arrayish(n)
	if !structured && !array {
		return true // taken whole
	}
	if structured {
		if shape.HasProperty(n, t) {
			if !static && migCarries(n.Child(t), rest[1:], false) {
				return true
			}
		} else if c := migDeclaredChild(n, t); c != nil && migCarries(c, rest[1:], false) {
			return true
		}
	}
	if array {
		if i, err := strconv.Atoi(t); err == nil && i >= 0 && strconv.Itoa(i) == t {
			if migCarries(n.Elem(i), rest[1:], false) {
				return true
			}
		}
	}
	return false
}

func showPointer(p string) string {
	if p == "" {
		return `""`
	}
	return p
}

func dedupeSchemaErrors(l schema.ErrorList) schema.ErrorList {
	seen := map[string]bool{}
	var out schema.ErrorList
	for _, e := range l {
		k := e.Pointer + "\x00" + e.Message
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}
