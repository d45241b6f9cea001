package params

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/secret"
	"github.com/paramkit/paramkit/internal/suggest"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// keyCheck finds the keys an update writes that the schema does not
// declare (DESIGN.md, "Undeclared keys"): a key is undeclared when its
// parent node lists properties or patternProperties, the key matches
// none, and the parent gives no additionalProperties schema of its own.
// Keys of free-form objects are never undeclared. Where the schema
// forbids the key (additionalProperties: false) it is no warning: the
// edit or the validation fails, and the message gets the same
// suggestion.
type keyCheck struct {
	warnings []*schema.Error
	seen     map[string]bool
	// forbidden holds, by the pointer of the object, the suggestion for
	// each forbidden key a merge patch writes there, for the validation
	// error that follows.
	forbidden map[string]map[string]string
	// inputs holds the edit that wrote each undeclared key, by pointer.
	inputs map[string]string

	// lazy (Undeclared) records each undeclared key in pending,
	// without a message or a suggestion, and skips the suggestions for
	// forbidden keys: a caller that keeps a few warnings builds only
	// those. ctx, when set, is checked every ctxEvery keys; err is its
	// error once it is done, and the walk stops.
	lazy    bool
	pending []pendingKey
	// keep, when above zero, bounds pending to the keep undeclared keys
	// first in pointer order, as a heap whose root is the last of them:
	// a hostile object of 150,000 undeclared keys then holds 64 of them,
	// not all (a wide review peaked paramctl's heap at 80 MB). had holds
	// the keys not to count (the old values'); found counts the rest.
	keep  int
	had   map[string]bool
	found int
	ctx   context.Context
	keys  int
	err   error

	// declNode and decl cache declares for the last one-node place
	// asked about: walkAll asks for every key of an object.
	declNode *schema.Node
	decl     bool
}

// declares is p.declares, cached for a place of one node.
func (k *keyCheck) declares(p place) bool {
	if len(p.nodes) != 1 {
		return p.declares()
	}
	if k.declNode != p.nodes[0] {
		k.declNode, k.decl = p.nodes[0], p.declares()
	}
	return k.decl
}

// pendingKey is an undeclared key found by a lazy walk: its pointer, and
// what its message needs.
type pendingKey struct {
	ptr string
	p   place
	key string
}

// ctxEvery is how many keys a walk looks at between two checks of its
// context.
const ctxEvery = 1024

// key looks at key under the object at parent, at place p, records a
// warning when it is undeclared, and returns the key's place; allowed is
// false where every node of p forbids the key (see place.child). input is
// the edit as the user typed it ("" for a merge patch).
func (k *keyCheck) key(p place, parent, key, input string) (c place, allowed bool) {
	c, allowed = p.child(key)
	switch {
	case !allowed:
		if k.lazy {
			break // nobody reads the suggestion
		}
		if s := didYouMean(p, key); s != "" && !p.declaresName(key) {
			if k.forbidden == nil {
				k.forbidden = map[string]map[string]string{}
			}
			if k.forbidden[parent] == nil {
				k.forbidden[parent] = map[string]string{}
			}
			k.forbidden[parent][key] = s
		}
	case c.free() && k.declares(p):
		ptr := pointer.Append(parent, key)
		if k.lazy {
			k.record(pendingKey{ptr: ptr, p: p, key: key})
			return c, allowed
		}
		if k.seen[ptr] {
			return c, allowed
		}
		if k.seen == nil {
			k.seen, k.inputs = map[string]bool{}, map[string]string{}
		}
		k.seen[ptr] = true
		k.inputs[ptr] = secret.Assignment(mayBeSecret(p, key), input)
		k.warnings = append(k.warnings, undeclaredWarning(p, ptr, key))
	}
	return c, allowed
}

// undeclaredWarning is the warning for the undeclared key at ptr, under
// the object at p.
func undeclaredWarning(p place, ptr, key string) *schema.Error {
	msg := fmt.Sprintf("%q is not declared by the schema", key)
	if s := didYouMean(p, key); s != "" {
		msg += "; " + s
	}
	return &schema.Error{Pointer: ptr, Kind: schema.KindUndeclared, Message: msg}
}

// walk checks every key of a value written at ptr, at place p. Null
// members are deletions in a merge patch and name nothing new.
func (k *keyCheck) walk(p place, v any, ptr, input string) {
	if p.free() {
		return
	}
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for key := range t {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		for _, key := range keys {
			if t[key] == nil {
				continue
			}
			c, _ := k.key(p, ptr, key, input)
			k.walk(c, t[key], pointer.Append(ptr, key), input)
		}
	case []any:
		for i, x := range t {
			c, _ := p.elem(i)
			k.walk(c, x, pointer.AppendIndex(ptr, i), input)
		}
	}
}

// walkNew checks the keys of a whole desired state v at ptr, at place p,
// that the old state (old, where had) does not hold: a key kept from the
// old values was reported when it was written. Unlike a merge patch's, a
// null member is a value, so its key counts.
func (k *keyCheck) walkNew(p place, v, old any, had bool, ptr string) {
	if p.free() {
		return
	}
	switch t := v.(type) {
	case map[string]any:
		om, _ := old.(map[string]any)
		keys := make([]string, 0, len(t))
		for key := range t {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		for _, key := range keys {
			ov, kept := om[key]
			kept = kept && had
			var c place
			if kept {
				c, _ = p.child(key)
			} else {
				c, _ = k.key(p, ptr, key, "")
			}
			k.walkNew(c, t[key], ov, kept, pointer.Append(ptr, key))
		}
	case []any:
		oa, _ := old.([]any)
		for i, x := range t {
			var ov any
			kept := had && i < len(oa)
			if kept {
				ov = oa[i]
			}
			c, _ := p.elem(i)
			k.walkNew(c, x, ov, kept, pointer.AppendIndex(ptr, i))
		}
	}
}

// forbiddenKey reports a key's node that refuses every value because the
// parent's additionalProperties is false.
func forbiddenKey(c *schema.Node) bool {
	return c.IsFalse() && c.Via() == "additionalProperties"
}

// declares reports whether the object node n lists its keys: properties
// or patternProperties on n, through $ref and allOf, or in a branch of
// anyOf, oneOf or if/then/else.
func declares(n *schema.Node, depth int) bool {
	if n == nil || depth > 8 {
		return false
	}
	for _, m := range n.Scope() {
		if _, ok := m.Keyword("properties"); ok {
			return true
		}
		if _, ok := m.Keyword("patternProperties"); ok {
			return true
		}
		for _, b := range branchesOf(m) {
			if declares(b, depth+1) {
				return true
			}
		}
	}
	return false
}

// branchesOf lists the branches of n itself: anyOf, oneOf, then and else
// beside an if, and the if.
func branchesOf(n *schema.Node) []*schema.Node {
	out := append(append([]*schema.Node(nil), n.AnyOf()...), n.OneOf()...)
	if n.If() != nil {
		for _, b := range []*schema.Node{n.Then(), n.Else(), n.If()} {
			if b != nil {
				out = append(out, b)
			}
		}
	}
	return out
}

// declaredNames lists the property names n declares, as declares finds
// them, each once.
func declaredNames(n *schema.Node, depth int, out []string) []string {
	if n == nil || depth > 8 {
		return out
	}
	for _, m := range n.Scope() {
		for _, p := range m.Properties() {
			if !slices.Contains(out, p.Name()) {
				out = append(out, p.Name())
			}
		}
		for _, b := range branchesOf(m) {
			out = declaredNames(b, depth+1, out)
		}
	}
	return out
}

// declares reports whether some node of p lists its keys (see declares).
func (p place) declares() bool {
	for _, n := range p.nodes {
		if declares(n, 0) {
			return true
		}
	}
	return false
}

// declaredNames lists the property names the nodes of p declare.
func (p place) declaredNames() []string {
	var out []string
	for _, n := range p.nodes {
		out = declaredNames(n, 0, out)
	}
	return out
}

// declaresName reports whether some node of p declares the property key
// (which may then be declared false).
func (p place) declaresName(key string) bool {
	return slices.Contains(p.declaredNames(), key)
}

// didYouMean names the declared properties of p closest to key, or "".
// mayBeSecret reports whether the value of an undeclared key at p may be
// a secret: its object is one (writeOnly, format: password, or below
// such a node), or a name it is close to is one (passwrd for password).
// The assignment that wrote it is then echoed without its value.
func mayBeSecret(p place, key string) bool {
	for _, n := range p.nodes {
		if n.Secret() {
			return true
		}
	}
	for _, name := range suggest.Closest(key, p.declaredNames()) {
		c, _ := p.child(name)
		for _, n := range c.nodes {
			if n.HoldsSecret() {
				return true
			}
		}
	}
	return false
}

func didYouMean(p place, key string) string {
	near := suggest.Closest(key, p.declaredNames())
	if len(near) == 0 {
		return ""
	}
	q := make([]string, len(near))
	for i, s := range near {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "did you mean " + strings.Join(q, " or ") + "?"
}

// forbidSuggestion is the "; did you mean" tail for a key that every node
// of p forbids, or "" (also for a key declared false on purpose).
func forbidSuggestion(p place, key string) string {
	if p.declaresName(key) {
		return ""
	}
	if s := didYouMean(p, key); s != "" {
		return "; " + s
	}
	return ""
}

// strictErrors turns the warnings into the errors of a strict update.
func (k *keyCheck) strictErrors() schema.ErrorList {
	out := make(schema.ErrorList, len(k.warnings))
	for i, w := range k.warnings {
		out[i] = k.withInput(w, w.Message+" (strict: undeclared keys are refused)")
	}
	return out
}

// withInput is warning w as an error with message msg, naming the input
// that wrote the key.
func (k *keyCheck) withInput(w *schema.Error, msg string) *schema.Error {
	e := &schema.Error{Pointer: w.Pointer, Kind: w.Kind, Message: msg}
	if in := k.inputs[w.Pointer]; in != "" {
		e.Detail = &schema.ErrorDetail{Input: in}
	}
	return e
}

// explain adds the suggestion for each forbidden key a merge patch wrote
// to the validation error that refuses it.
func (k *keyCheck) explain(e *schema.Error) {
	if e.Kind != schema.KindAdditional {
		return
	}
	// The error is at the forbidden key's own pointer.
	parent, key, ok := pointer.Parent(e.Pointer)
	if !ok {
		return
	}
	if hint, found := k.forbidden[parent][key]; found {
		e.Message += fmt.Sprintf("; %q: %s", key, hint)
	}
}

// Undeclared returns a warning (Kind schema.KindUndeclared, with the
// closest declared names) for each key of the values v that the schema
// does not declare, by the rule of Result.Warnings, sorted by pointer.
// Below an undeclared key nothing is looked at. It is for callers that
// receive whole values rather than edits (an admission webhook); Update
// reports only the keys its edits write.
//
// Keys that old (nil for none) also holds undeclared, at the same
// pointer, are left out: on an update, a key already there was reported
// when it was written. A limit > 0 keeps only the first limit warnings
// (by pointer), for a caller such as an admission webhook whose answer
// the apiserver cuts to 4 KiB; more counts the undeclared keys left out
// beyond it. Its work is one walk of v and old and at most limit
// suggestions, whatever the number of undeclared keys. When ctx is done
// during the walk it stops and returns ctx's error, with no warnings. A
// nil ctx, or a Schema not made by schema.Parse or FromValue,
// gives an error of kind schema.KindUsage; a nil schema declares
// everything (no warnings).
func Undeclared(ctx context.Context, s *schema.Schema, v, old any, limit int) (warnings []*schema.Error, more int, err error) {
	if ctx == nil {
		return nil, 0, schema.NewError(schema.KindUsage, "", "params.Undeclared needs a context (context.Background() for none)")
	}
	if err := zeroSchema(s); err != nil {
		return nil, 0, err
	}
	k := keyCheck{lazy: true, ctx: ctx}
	warnings, more = k.first(s, v, old, limit)
	return warnings, more, k.err
}

// first is Undeclared on k, a lazy keyCheck.
func (k *keyCheck) first(s *schema.Schema, v, old any, limit int) ([]*schema.Error, int) {
	if s == nil {
		return nil, 0
	}
	if k.ctx != nil {
		if k.err = k.ctx.Err(); k.err != nil {
			return nil, 0
		}
	}
	if old != nil {
		k.walkAll(s.Root(), old, make([]string, 0, 16))
		k.had = make(map[string]bool, len(k.pending))
		for _, p := range k.pending {
			k.had[p.ptr] = true
		}
		k.pending, k.found = nil, 0
	}
	k.keep = max(limit, 0)
	k.walkAll(s.Root(), v, make([]string, 0, 16))
	if k.err != nil {
		return nil, 0
	}
	slices.SortFunc(k.pending, func(a, b pendingKey) int { return strings.Compare(a.ptr, b.ptr) }) // one walk: every pointer once
	for _, p := range k.pending {
		k.warnings = append(k.warnings, undeclaredWarning(p.p, p.ptr, p.key))
	}
	return k.warnings, k.found - len(k.pending)
}

// record notes an undeclared key a lazy walk found: all of them, or
// with keep set only the keep first in pointer order (a max-heap on the
// pointer, so that the last of those kept is at the root).
func (k *keyCheck) record(pk pendingKey) {
	if k.had[pk.ptr] {
		return
	}
	k.found++
	switch {
	case k.keep <= 0 || len(k.pending) < k.keep:
		k.pending = append(k.pending, pk)
		if k.keep > 0 {
			k.up(len(k.pending) - 1)
		}
	case pk.ptr < k.pending[0].ptr:
		k.pending[0] = pk
		k.down(0)
	}
}

func (k *keyCheck) up(i int) {
	h := k.pending
	for i > 0 {
		parent := (i - 1) / 2
		if h[parent].ptr >= h[i].ptr {
			return
		}
		h[parent], h[i] = h[i], h[parent]
		i = parent
	}
}

func (k *keyCheck) down(i int) {
	h := k.pending
	for {
		largest, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && h[l].ptr > h[largest].ptr {
			largest = l
		}
		if r < len(h) && h[r].ptr > h[largest].ptr {
			largest = r
		}
		if largest == i {
			return
		}
		h[i], h[largest] = h[largest], h[i]
		i = largest
	}
}

// walkAll is walk without the merge patch's reading of null.
func (k *keyCheck) walkAll(n *schema.Node, v any, toks []string) {
	if n == nil || k.err != nil {
		return
	}
	switch t := v.(type) {
	case map[string]any:
		for key, x := range t {
			if k.ctx != nil {
				if k.keys++; k.keys%ctxEvery == 0 {
					if k.err = k.ctx.Err(); k.err != nil {
						return
					}
				}
			}
			c := n.Child(key)
			if (c == nil && k.declares(place{nodes: []*schema.Node{n}})) || forbiddenKey(c) {
				// The pointer is built only here: a webhook walks every
				// key of every object, and nearly all are declared.
				k.key(place{nodes: []*schema.Node{n}}, pointer.Join(toks...), key, "")
			}
			k.walkAll(c, x, append(toks, key))
		}
	case []any:
		for i, x := range t {
			k.walkAll(n.Elem(i), x, append(toks, strconv.Itoa(i)))
		}
	case nil, bool, string, json.Number:
	default:
		// Go data (a struct, a []string): looked at as Plain converts it,
		// only where it stands, so that plain values take one walk.
		if pv, err := value.Plain(t); err == nil {
			k.walkAll(n, pv, toks)
		}
	}
}

// also appends the undeclared keys to the errors of a failed validation
// or plan: "replicas is required" is explained by the "replicsa" written
// instead.
func (k *keyCheck) also(err error) error {
	if err == nil || len(k.warnings) == 0 {
		return err
	}
	errs := schema.ErrorsOf(err)
	for _, w := range k.warnings {
		errs = append(errs, k.withInput(w, w.Message))
	}
	return errs.Err()
}
