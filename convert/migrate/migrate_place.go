package migrate

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/paramkit/paramkit/convert/migrate/internal/shape"
	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/secret"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// migTrace records what one step did to one document: where static
// places took their values from (to trace pointers through a chain), what
// was dropped, and the report entries in the step's own coordinates.
type migTrace struct {
	moves   []migMove
	drops   []string // source pointers of dropped values
	dropped []Dropped
	lossy   []Lossy
	errors  schema.ErrorList
	owner   *migRun // to give the run back to migRunPool once read
	// lossySrc is the source pointer of each lossy entry; quoted lists
	// the errors whose message quotes a value, with the message that
	// hides it, for a schema elsewhere in a chain that marks it secret.
	lossySrc []string
	quoted   []migQuoted
}

// migQuoted is an error that quotes a value at q in the source of its
// step and p in the target, and its message with the value hidden.
type migQuoted struct {
	e    *schema.Error
	q, p string
	alt  string
}

// release gives the run that made t back for reuse. Call it once the
// trace has been read; report entries copied out of it stay valid (they
// are copied by value, errors are pointers the run never touches again).
func (t *migTrace) release() {
	r := t.owner
	if r == nil {
		return
	}
	t.owner = nil
	clear(r.srcs)
	clear(r.tr.moves)
	clear(r.tr.drops)
	clear(r.tr.dropped)
	clear(r.tr.lossy)
	clear(r.tr.errors)
	clear(r.tr.lossySrc)
	clear(r.tr.quoted)
	clear(r.losers)
	clear(r.claimed.small[:])
	r.p, r.src, r.source = nil, nil, nil
	migRunPool.Put(r)
}

// migRunPool keeps runs and their slices between documents: a batch
// migrates thousands, and these are a third of its garbage.
var migRunPool = sync.Pool{New: func() any { return new(migRun) }}

type migMove struct{ from, to string }

// migRun migrates one document with one plan.
type migRun struct {
	p          *migPlan
	src        any
	source     *schema.Schema // the schema src belongs to; nil when unknown
	final      bool           // type every text value; nothing stays raw
	allowLossy bool
	lossless   bool        // leave out what does not fit: the property bag keeps it
	total      bool        // a total conversion: misfits stay at their place, no errors for values
	report     bool        // record report entries (off for the lossless check)
	srcs       []migSource // by entry index
	losers     []string
	claimed    migClaimed // sources taken by places, or lost to them
	tr         migTrace
}

// migSource is where a static place takes its value from in one document.
type migSource struct {
	ptr string
	val any
	has bool
}

func (p *migPlan) run(src any, source *schema.Schema, final, allowLossy, lossless, total, report bool) (any, *migTrace) {
	n := len(p.entries)
	r := migRunPool.Get().(*migRun)
	srcs := r.srcs[:0]
	if cap(srcs) < n {
		srcs = make([]migSource, 0, n)
	}
	tr := migTrace{moves: r.tr.moves[:0], drops: r.tr.drops[:0], dropped: r.tr.dropped[:0],
		lossy: r.tr.lossy[:0], errors: r.tr.errors[:0], owner: r,
		lossySrc: r.tr.lossySrc[:0], quoted: r.tr.quoted[:0]}
	*r = migRun{p: p, src: src, source: source, final: final, allowLossy: allowLossy, lossless: lossless, total: total, report: report,
		srcs: srcs[:n], losers: r.losers[:0], tr: tr}
	clear(r.srcs)
	if cap(r.tr.moves) < n {
		r.tr.moves = make([]migMove, 0, n)
	}
	r.claimed.list = r.claimed.small[:0]
	r.resolveSources()
	out, ok := r.build(p.entries[0])
	if !ok {
		out = nil
	}
	return out, &r.tr
}

// resolveSources decides, top-down, where each static place takes its
// value from: its old names in order, then its path under its parent's
// source. The first present wins; others present are dropped.
func (r *migRun) resolveSources() {
	for _, e := range r.p.entries {
		if e.parent == nil {
			r.srcs[0] = migSource{ptr: "", val: r.src, has: true}
			continue
		}
		for _, c := range e.claims {
			if v, ok := pointer.GetTokens(r.src, c.toks); ok {
				r.consider(e, c.src, v)
			}
		}
		if ps := &r.srcs[e.parent.index]; ps.has {
			if m, ok := ps.val.(map[string]any); ok {
				if v, ok := m[e.name]; ok {
					imp := e.ptr // the usual case: the parent is at its own path
					if ps.ptr != e.parent.ptr {
						imp = pointer.Append(ps.ptr, e.name)
					}
					if !r.p.explicit[imp] {
						r.consider(e, imp, v)
					}
				}
			}
		}
	}
	for _, c := range r.losers {
		v, _ := pointer.Get(r.src, c)
		r.drop(c, v)
	}
}

// consider offers a present candidate source to a place.
func (r *migRun) consider(e *migEntry, c string, v any) {
	if r.claimed.has(c) {
		return // taken by another place already
	}
	s := &r.srcs[e.index]
	if !s.has {
		*s = migSource{ptr: c, val: v, has: true}
		if r.p.explicit[c] {
			r.claim(c)
		}
		return
	}
	if pointer.HasPrefix(c, s.ptr) {
		return // part of the value that won
	}
	r.claim(c)
	r.losers = append(r.losers, c)
}

func (r *migRun) claim(c string) { r.claimed.add(c) }

// migClaimed is the set of claimed sources of one document: a short list
// (most documents have a few), indexed once it grows.
type migClaimed struct {
	small [8]string
	list  []string
	set   map[string]bool
	below map[string]bool
}

const migClaimedIndexAt = 16

func (c *migClaimed) add(p string) {
	c.list = append(c.list, p)
	if len(c.list) == migClaimedIndexAt {
		c.set, c.below = map[string]bool{}, map[string]bool{}
		for _, x := range c.list {
			c.index(x)
		}
	} else if c.set != nil {
		c.index(p)
	}
}

func (c *migClaimed) index(p string) {
	c.set[p] = true
	for q := parentPointer(p); ; q = parentPointer(q) {
		c.below[q] = true
		if q == "" {
			break
		}
	}
}

func (c *migClaimed) empty() bool { return len(c.list) == 0 }

func (c *migClaimed) has(p string) bool {
	if c.set != nil {
		return c.set[p]
	}
	for _, x := range c.list {
		if x == p {
			return true
		}
	}
	return false
}

// hasBelow reports whether something strictly below p is claimed.
func (c *migClaimed) hasBelow(p string) bool {
	if c.set != nil {
		return c.below[p]
	}
	for _, x := range c.list {
		if len(x) > len(p) && pointer.HasPrefix(x, p) {
			return true
		}
	}
	return false
}

// build assembles the value of a static place and of its static children.
func (r *migRun) build(e *migEntry) (any, bool) {
	var out any
	has := false
	if s := &r.srcs[e.index]; s.has {
		r.tr.moves = append(r.tr.moves, migMove{from: s.ptr, to: e.ptr})
		out, has = r.place(e.node, s.val, s.ptr, e.ptr, e.statics)
	}
	for _, c := range e.children {
		cv, ok := r.build(c)
		if !ok {
			continue
		}
		if !has {
			out, has = make(map[string]any, len(e.children)), true
		}
		m, isMap := out.(map[string]any)
		if !isMap {
			r.errorq(schema.KindUsage, r.srcs[e.index].ptr, e.ptr, c.ptr, func(hide bool) string {
				return fmt.Sprintf("cannot place this value: %s holds %s, not an object", showPointer(e.ptr), typeOfSecret(out, hide))
			})
			r.dropSubtree(c)
			continue
		}
		m[c.name] = cv
	}
	return out, has
}

// place puts a source value (at q) in the target (at p) under node n.
// statics names the properties that static places fill themselves. It
// returns false when the value is left out (in lossless mode, a value
// that does not fit: the property bag keeps it).
func (r *migRun) place(n *schema.Node, v any, q, p string, statics map[string]bool) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		if shape.Structured(n) {
			out := make(map[string]any, len(x))
			for k, xv := range x {
				if statics[k] {
					continue
				}
				at := migAt{q: q, p: p, key: k, keyed: true}
				if !r.claimed.empty() && r.claimed.has(at.src()) {
					continue
				}
				c := migDeclaredChild(n, k)
				if c == nil {
					r.drop(at.src(), xv)
					continue
				}
				var cv any
				var ok bool
				switch xv.(type) {
				case map[string]any, []any:
					cv, ok = r.place(c, xv, at.src(), at.dst(), nil)
				default:
					// Most values are scalars: their pointers are built
					// only for a report entry.
					cv, ok = r.scalar(c, xv, at)
				}
				if ok {
					out[k] = cv
				}
			}
			return out, true
		}
		if !migAllows(n, "object") {
			return r.misfit(n, x, migAt{q: q, p: p})
		}
		return r.whole(n, x), true
	case []any:
		if migAllows(n, "array") && shape.Arrayish(n) {
			out := make([]any, len(x))
			for i, e := range x {
				out[i], _ = r.place(n.Elem(i), e, pointer.AppendIndex(q, i), pointer.AppendIndex(p, i), nil)
			}
			return out, true
		}
		if !migAllows(n, "array") {
			return r.misfit(n, x, migAt{q: q, p: p})
		}
		return r.whole(n, x), true
	}
	return r.scalar(n, v, migAt{q: q, p: p})
}

// misfit handles a value that no change makes fit its node: an error,
// the value staying as it was (nothing disappears), or in lossless mode
// a drop, the property bag keeping it. A total conversion keeps it at its
// place without an error: admission judges it.
func (r *migRun) misfit(n *schema.Node, v any, at migAt) (any, bool) {
	if r.lossless && !r.total {
		r.drop(at.src(), v)
		return nil, false
	}
	r.errorq(schema.KindType, at.src(), at.dst(), at.dst(), func(hide bool) string {
		return fmt.Sprintf("%s does not fit here: %s", describeSecret(v, hide), migWants(n))
	})
	return r.whole(nil, v), true
}

// migAt is where a value is: its pointer in the source (q) and in the
// target (p), or, when keyed, those of its parent object and its key,
// joined only when a report needs them.
type migAt struct {
	q, p  string
	key   string
	keyed bool
}

func (a migAt) src() string {
	if a.keyed {
		return pointer.Append(a.q, a.key)
	}
	return a.q
}

func (a migAt) dst() string {
	if a.keyed {
		return pointer.Append(a.p, a.key)
	}
	return a.p
}

// whole copies a value placed as it is, typing text values by the nodes
// below n where the schema has any.
func (r *migRun) whole(n *schema.Node, v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = r.whole(n.Child(k), e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = r.whole(n.Elem(i), e)
		}
		return out
	case plainScalar:
		if n == nil || n.Types() == nil {
			if r.final {
				return document.Core(string(x))
			}
			return x
		}
		t, _ := params.ParseText(n, string(x))
		return t
	}
	return v
}

// dropSubtree reports the sources of a place and the places below it
// that could not be placed: each source once, as dropped.
func (r *migRun) dropSubtree(e *migEntry) {
	var walk func(e *migEntry, covering string, covered bool)
	walk = func(e *migEntry, covering string, covered bool) {
		if s := r.srcs[e.index]; s.has {
			// A claimed source is left out of its parent's drop: report it
			// on its own.
			if !covered || r.claimed.has(s.ptr) || !pointer.HasPrefix(s.ptr, covering) {
				r.drop(s.ptr, s.val)
				covering, covered = s.ptr, true
			}
		}
		for _, c := range e.children {
			walk(c, covering, covered)
		}
	}
	walk(e, "", false)
}

// drop reports a source value that lands nowhere, leaving out what is
// claimed below it.
func (r *migRun) drop(q string, v any) {
	if r.claimed.hasBelow(q) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range migSortedKeys(x) {
				kq := pointer.Append(q, k)
				if !r.claimed.has(kq) {
					r.drop(kq, x[k])
				}
			}
			return
		case []any:
			for i, e := range x {
				kq := pointer.AppendIndex(q, i)
				if !r.claimed.has(kq) {
					r.drop(kq, e)
				}
			}
			return
		}
	}
	r.tr.drops = append(r.tr.drops, q)
	if r.report {
		r.tr.dropped = append(r.tr.dropped, Dropped{Pointer: q, Value: migResolve(nil, v), Hidden: r.source.HoldsSecretAt(q)})
	}
}

// secret reports whether a value at q in this step's source and p in its
// target is a secret by either schema (see schema.Schema.SecretAt).
func (r *migRun) secret(q, p string) bool {
	return r.source.SecretAt(q) || r.p.target.SecretAt(p)
}

// errorq records an error at at whose message quotes the value at q in
// the source and p in the target: msg(true) hides the value. The value is
// hidden when this step's schemas mark it secret; otherwise the hidden
// message is kept for the chain to use (see Migration.runPath).
func (r *migRun) errorq(kind schema.Kind, q, p, at string, msg func(hide bool) string) *schema.Error {
	hide := r.secret(q, p)
	e := &schema.Error{Pointer: at, Kind: kind, Message: msg(hide)}
	if r.total {
		return e // a total conversion reports no error for a value
	}
	r.tr.errors = append(r.tr.errors, e)
	if !hide {
		r.tr.quoted = append(r.tr.quoted, migQuoted{e: e, q: q, p: p, alt: msg(true)})
	}
	return e
}

// scalar types text by its node and changes the type of a value that does
// not fit, where the change is exact or (refused unless allowed) lossy.
func (r *migRun) scalar(n *schema.Node, v any, at migAt) (any, bool) {
	if t, ok := v.(plainScalar); ok {
		if n == nil || n.Types() == nil {
			if r.final {
				return document.Core(string(t)), true
			}
			return t, true
		}
		v, _ = params.ParseText(n, string(t))
	}
	if n == nil || n.Types() == nil {
		return v, true
	}
	if _, isNum := v.(json.Number); isNum && r.total && n.Allows("integer") {
		return v, true // as written: 2593.0 and 1e400 keep their text, 1.5 stays 1.5
	}
	out, lossy, ok := migConvert(n, v, false)
	if !ok && r.typeChanged(at.src(), v) {
		out, lossy, ok = migConvert(n, v, true)
	}
	if !ok {
		return r.misfit(n, v, at)
	}
	if lossy {
		refused := !r.allowLossy
		if r.report {
			r.tr.lossy = append(r.tr.lossy, Lossy{Pointer: at.dst(), From: v, To: out, Refused: refused, Hidden: r.secret(at.src(), at.dst())})
			r.tr.lossySrc = append(r.tr.lossySrc, at.src())
		}
		if refused {
			e := r.errorq(schema.KindType, at.src(), at.dst(), at.dst(), func(hide bool) string {
				return fmt.Sprintf("changing %s to %s loses information; refused (allow lossy changes to apply it)", describeSecret(v, hide), describeSecret(out, hide))
			})
			if !r.secret(at.src(), at.dst()) { // a secret's values stay out of the error too
				e.Detail = &schema.ErrorDetail{From: v, To: out}
			}
			return v, true
		}
	}
	if num, isNum := out.(json.Number); isNum {
		if msg := migFormatRange(n, num); msg != "" {
			if r.lossless && !r.total {
				r.drop(at.src(), v)
				return nil, false
			}
			r.errorq(schema.KindInvalid, at.src(), at.dst(), at.dst(), func(hide bool) string {
				if hide {
					return secret.Hidden + strings.TrimPrefix(msg, string(num)) // msg opens with the number
				}
				return msg
			})
		}
	}
	return out, true
}

// typeChanged reports whether the schemas changed the type of the source
// value at q: the source schema is known and the value fits its node
// there. Only then does a value change its JSON type (integer 8080 to
// "8080" where a version made port a string); otherwise a value means
// what it says, and one that does not fit its new node is an error.
func (r *migRun) typeChanged(q string, v any) bool {
	if r.source == nil {
		return false
	}
	sn := r.source.Lookup(q)
	if sn == nil || sn.Types() == nil {
		return false
	}
	switch x := v.(type) {
	case bool:
		return sn.Allows("boolean")
	case string:
		return sn.Allows("string")
	case json.Number:
		if number.IsInteger(x) {
			return sn.Allows("integer")
		}
		return migAllowsExactly(sn, "number")
	}
	return false
}

// migConvert gives v the type of node n: unchanged when it fits, else by
// truncation toward zero from number to integer (lossy when something is
// lost), else, when cross is set (the schemas changed the value's type),
// by an exact change of JSON type. ok is false when no change applies.
func migConvert(n *schema.Node, v any, cross bool) (out any, lossy, ok bool) {
	intOnly := n.Allows("integer") && !migAllowsExactly(n, "number")
	switch x := v.(type) {
	case nil:
		return v, false, n.Allows("null")
	case bool:
		if n.Allows("boolean") {
			return v, false, true
		}
		if cross && n.Allows("string") {
			return strconv.FormatBool(x), false, true
		}
	case string:
		if n.Allows("string") {
			return v, false, true
		}
		if !cross {
			break
		}
		if n.Allows("integer") && number.IsJSON(x) && !strings.ContainsAny(x, ".eE") && number.Check(json.Number(x)) == nil {
			return json.Number(x), false, true
		}
		if migAllowsExactly(n, "number") && number.IsJSON(x) && number.Check(json.Number(x)) == nil {
			return json.Number(x), false, true
		}
		if n.Allows("boolean") && (x == "true" || x == "false") {
			return x == "true", false, true
		}
	case json.Number:
		if migAllowsExactly(n, "number") {
			return v, false, true
		}
		if intOnly {
			if !strings.ContainsAny(string(x), ".eE") {
				return v, false, true
			}
			t, lost, err := number.Truncate(x)
			if err == nil && !lost {
				return t, false, true // 2593.0 is 2593
			}
			if cross && n.Allows("string") {
				return string(x), false, true
			}
			if err == nil {
				return t, true, true
			}
			return v, false, false
		}
		if cross && n.Allows("string") {
			return string(x), false, true
		}
	case map[string]any:
		return v, false, n.Allows("object")
	case []any:
		return v, false, n.Allows("array")
	}
	return v, false, false
}

// migAllowsExactly is Allows without "number" covering "integer".
func migAllowsExactly(n *schema.Node, t string) bool {
	ts := n.Types()
	if ts == nil {
		return true
	}
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

// migFormatRange checks the OpenAPI integer formats.
func migFormatRange(n *schema.Node, v json.Number) string {
	var format string
	for _, sc := range n.Scope() {
		if sc.Format() != "" {
			format = sc.Format()
			break
		}
	}
	var lo, hi string
	switch format {
	case "int32":
		lo, hi = "-2147483648", "2147483647"
	case "int64":
		lo, hi = "-9223372036854775808", "9223372036854775807"
	default:
		return ""
	}
	r, ok := number.Rat(v)
	if !ok {
		return ""
	}
	l, _ := number.Rat(json.Number(lo))
	h, _ := number.Rat(json.Number(hi))
	if r.Cmp(l) < 0 || r.Cmp(h) > 0 {
		return fmt.Sprintf("%s is out of range for format %s", v, format)
	}
	return ""
}

// migDeclaredChild returns the node for key k of an object under n when n
// declares it (property, pattern, or an explicit additionalProperties
// that is not false), else nil.
func migDeclaredChild(n *schema.Node, k string) *schema.Node {
	if n == nil {
		return nil
	}
	c := n.Child(k)
	if c == nil || c.IsFalse() {
		return nil
	}
	return c
}

func migAllows(n *schema.Node, t string) bool { return n == nil || n.Allows(t) }

// migWants says what a node takes.
func migWants(n *schema.Node) string {
	ts := n.Types()
	if len(ts) == 1 {
		return "expected " + ts[0]
	}
	out := "expected one of"
	for i, t := range ts {
		if i > 0 {
			out += ","
		}
		out += " " + t
	}
	return out
}

// migResolve types the text values inside v by the nodes under n (YAML
// 1.2 core rules where there is no node), returning a copy.
func migResolve(n *schema.Node, v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = migResolve(n.Child(k), e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = migResolve(n.Elem(i), e)
		}
		return out
	case plainScalar:
		if n == nil {
			return document.Core(string(x))
		}
		t, _ := params.ParseText(n, string(x))
		return t
	}
	return v
}

func migSortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// describeValue names a value for a message: its type and, for scalars,
// its JSON text.
func describeValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean " + strconv.FormatBool(x)
	case string:
		return "string " + strconv.Quote(x)
	case json.Number:
		return "number " + string(x)
	case plainScalar:
		// No node typed it: it is what YAML 1.2 core rules say, as the
		// Result gives it.
		return describeValue(x.Value())
	}
	return typeOfValue(v)
}

// describeSecret is describeValue, naming only the type of a secret
// scalar: `string (value hidden)`.
func describeSecret(v any, hide bool) string {
	if !hide {
		return describeValue(v)
	}
	switch x := v.(type) {
	case bool:
		return "boolean " + secret.Hidden
	case string:
		return "string " + secret.Hidden
	case json.Number:
		return "number " + secret.Hidden
	case plainScalar:
		return describeSecret(x.Value(), hide)
	}
	return typeOfValue(v) // null, an object, an array: no value quoted
}

// typeOfSecret is typeOfValue, naming only the type of a secret scalar.
func typeOfSecret(v any, hide bool) string {
	switch x := v.(type) {
	case plainScalar:
		return typeOfSecret(x.Value(), hide)
	case bool, string, json.Number:
		if hide {
			return "a " + describeSecret(v, hide)
		}
	}
	return typeOfValue(v)
}

func typeOfValue(v any) string {
	switch x := v.(type) {
	case plainScalar:
		return typeOfValue(x.Value())
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case nil:
		return "null"
	case bool, string, json.Number:
		return "a " + describeValue(v)
	}
	return fmt.Sprintf("a Go %T (not a plain value)", v)
}
