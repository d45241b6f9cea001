package convert

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"

	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/schema"
)

// Migration moves parameter values from the previous version of an
// operator's schema to a new one, as the new schema's oldName keywords
// say (KEP-33), optionally through intermediate versions, and back down
// again when it knows the previous schema.
//
// The rules, in short:
//   - oldName is a string or a list. A name without a leading "/" is a
//     top-level key of the previous values; one starting with "/" is a JSON
//     pointer into them, so nested values can move to nested places. A
//     list is tried in order, then the node's own path (under the old
//     place of its parent): the first present wins and any other present
//     is reported as dropped. Only nodes reached from the root through
//     properties (and $ref, allOf, anyOf, oneOf) can have old names.
//   - A value whose path exists unchanged in the new schema carries over.
//     A path exists only where the new schema declares it (properties, or
//     an explicit additionalProperties or patternProperties schema), not
//     because an object is open. A node that declares none of these (a
//     free-form object, a scalar, an array without items) takes its value
//     whole.
//   - Inside a moved object the same holds relative to its new place.
//   - Values that land nowhere are reported as dropped, with their old
//     pointer; nothing disappears without appearing in the Result.
//   - A value that does not fit its new node is converted by truncation
//     toward zero from number to integer, or, where the schemas changed
//     its type (the source schema is known and the value fits its node
//     there), where the change is exact (integer or number to string,
//     boolean to string, integer text to integer, number text to number,
//     "true"/"false" to boolean). Without such a change of schema a value
//     means what it says: JSON true or 1.50, or a quoted YAML "7", that
//     does not fit its new node is an error, never silently retyped. The
//     truncation from number to integer is
//     lossy when the fraction is not zero (2593.75 to 2593, but
//     not 2593.0 to 2593). Lossy changes are always reported with their
//     old and new values and refused (an error) unless AllowLossy is
//     given. Range limits (format int32/int64, minimum, maximum) are
//     checked after the change. A value no change makes fit is an error
//     and stays as it was at its new place.
//   - Text read by MigrateDocument from YAML plain scalars takes its type
//     from the node it lands on (007 is "007" on a string node, 7 on an
//     integer node), in whichever version of the chain first has a node
//     for it; where none has, it means what YAML 1.2 core rules say (007
//     is 7, yes is "yes"), in the values, the property bag and the report
//     alike. JSON documents and values given to Migrate mean what they
//     say.
//   - The result is validated against the target schema with defaults
//     applied (the values themselves are returned without defaults).
//
// A Migration is immutable and safe for concurrent use.
type Migration struct {
	steps      []*migStep
	allowLossy bool
	lossless   bool
	// keepText: every plainScalar of the input is at a place no schema
	// typed (the input was read by decodeDocument, or carries none), so
	// that one no node types is carried as written through every step,
	// and the Result settles it (settleResult); without it the last step
	// types every text (YAML 1.2 core rules where no node does), as
	// MigrateDocument reads all plain scalars as text.
	keepText bool
}

// Result is what a migration did to one document.
type Result struct {
	// Values are the migrated values (no defaults applied), plain values:
	// maps, slices, strings, bools, nil and json.Number. In lossless mode
	// they may carry a property bag under BagKey.
	Values any
	// Dropped lists the values of the input that map nowhere in the
	// target version, by their pointer in the input.
	Dropped []Dropped
	// Lossy lists changes of type that lost information, by the pointer
	// of the value in the output, applied or refused.
	Lossy []Lossy
	// Errors lists every reason the document could not be migrated
	// cleanly: values that do not fit, refused lossy changes (kind
	// schema.KindLossy, Detail holding the value before and after), hook
	// failures and validation errors of the result. Empty when the
	// migration succeeded; Err gives it as one error.
	Errors schema.ErrorList
}

// Err returns the errors of the migration as one error (a
// schema.ErrorList), or nil when it succeeded.
func (r *Result) Err() error { return r.Errors.Err() }

// OK reports whether the document migrated without errors.
func (r *Result) OK() bool { return len(r.Errors) == 0 }

// Dropped is a value of the input that has no place in the target version.
type Dropped struct {
	// Pointer locates the value in the input document.
	Pointer string
	// Value is the value that was dropped, as it was in the input (a
	// YAML plain scalar no node typed means what YAML 1.2 core rules
	// say: 007 is 7).
	Value any
}

// Lossy is a change of type that lost information.
type Lossy struct {
	// Pointer locates the value in the output document.
	Pointer string
	// From is the value before the change, To the value after it.
	From, To any
	// Refused is true when the change was not applied because lossy
	// changes were not allowed (the Result then has an error for it).
	Refused bool
}

// Hook is a hand-written conversion step that runs after the generated
// one (the AssignableTo / AssignableFrom extension points of the
// storage-versioning design). from holds the values before the step (do
// not modify them), to the generated values after it; the hook returns
// the values to continue with. A hook never sees the property bag. An
// error is reported at the root pointer, or at its own pointer when it
// is a *schema.Error (its Kind is kept; an error of another
// type gets schema.KindInvalid).
type Hook func(from, to any) (any, error)

// Option configures a Migration.
type Option func(*migOptions)

type migOptions struct {
	allowLossy bool
	lossless   bool
	from       *schema.Schema
	via        []*schema.Schema
	hooks      map[int][2]Hook
	hookErr    error
}

// AllowLossy applies lossy type changes instead of refusing them. They
// are reported either way.
func AllowLossy() Option { return func(o *migOptions) { o.allowLossy = true } }

// Via migrates through intermediate versions, oldest first: values of the
// version before via[0] go to via[0] by via[0]'s oldName keywords, then
// to via[1], and so on to the target. Versions that KEP-33 calls
// "non-skippable" can so be skipped by the user.
func Via(intermediate ...*schema.Schema) Option {
	return func(o *migOptions) { o.via = append(o.via, intermediate...) }
}

// From gives the schema of the oldest version (the one the input of
// Migrate belongs to). Down and Lossless need it.
func From(previous *schema.Schema) Option { return func(o *migOptions) { o.from = previous } }

// Lossless keeps what the target version cannot hold in a property bag
// (see BagKey) in both directions, and restores it when converting back,
// so that old → new → old and new → old → new give back exactly what
// went in. Lossy type changes are then allowed (the bag keeps the
// original). It needs From.
func Lossless() Option { return func(o *migOptions) { o.lossless = true } }

// Hooks registers hand-written steps for one step of the chain: up runs
// after the generated conversion toward the newer version, down after the
// one toward the older version. Step 0 goes from the oldest version to
// the first Via schema (or to the target when there is none); either hook
// may be nil.
func Hooks(step int, up, down Hook) Option {
	return func(o *migOptions) {
		if o.hooks == nil {
			o.hooks = map[int][2]Hook{}
		}
		if _, dup := o.hooks[step]; dup {
			o.hookErr = fmt.Errorf("hooks registered twice for step %d", step)
		}
		o.hooks[step] = [2]Hook{up, down}
	}
}

// NewMigration prepares a migration to the target schema. It checks every
// oldName claim up front and refuses a schema where two nodes claim the
// same old value, or where a claimed value would also be carried over to
// another place, or where an oldName has no single place in the values
// (under items or additionalProperties); the error is a schema.ErrorList
// with the schema pointer of each offending oldName.
func NewMigration(target *schema.Schema, opts ...Option) (*Migration, error) {
	if target == nil {
		return nil, fmt.Errorf("convert: NewMigration needs a target schema")
	}
	var o migOptions
	for _, opt := range opts {
		opt(&o)
	}
	if o.hookErr != nil {
		return nil, o.hookErr
	}
	if o.lossless && o.from == nil {
		return nil, fmt.Errorf("convert: Lossless needs the schema of the oldest version (From)")
	}
	chain := append(append([]*schema.Schema{}, o.via...), target)
	for i, s := range chain {
		if s == nil {
			return nil, fmt.Errorf("convert: Via schema %d is nil", i)
		}
	}
	for i := range o.hooks {
		if i < 0 || i >= len(chain) {
			return nil, fmt.Errorf("convert: hooks for step %d, but the migration has %d step(s)", i, len(chain))
		}
	}
	m := &Migration{allowLossy: o.allowLossy || o.lossless, lossless: o.lossless, keepText: o.lossless}
	prev := o.from
	for i, to := range chain {
		st, err := newMigStep(prev, to)
		if err != nil {
			return nil, err
		}
		if h, ok := o.hooks[i]; ok {
			st.upHook, st.downHook = h[0], h[1]
		}
		m.steps = append(m.steps, st)
		prev = to
	}
	return m, nil
}

// Target returns the schema values are migrated to.
func (m *Migration) Target() *schema.Schema { return m.steps[len(m.steps)-1].to }

// Migrate migrates one document of values of the previous version (plain
// values: maps, slices, strings, bools, nil and json.Number) to the target
// version. It never modifies old.
func (m *Migration) Migrate(old any) Result {
	return m.run(old, dirUp)
}

// Down converts values of the target version back to the oldest version
// (From), through the Via versions in reverse order. Values the older
// version cannot hold are reported as dropped, or kept in the property bag
// in lossless mode. It never modifies v.
func (m *Migration) Down(v any) Result {
	for _, st := range m.steps {
		if st.down == nil {
			return Result{Values: v, Errors: schema.ErrorList{{Kind: schema.KindSchema, Message: "converting down needs the schema of the oldest version (From)"}}}
		}
	}
	return m.run(v, dirDown)
}

// migStep is one step of a chain: from the older schema (nil when
// unknown) to the newer one, with the plan for each direction.
type migStep struct {
	from, to         *schema.Schema
	up, down         *migPlan
	id               string // identifies the step in a property bag
	upHook, downHook Hook
}

func newMigStep(from, to *schema.Schema) (*migStep, error) {
	up, err := newUpPlan(to)
	if err != nil {
		return nil, err
	}
	st := &migStep{from: from, to: to, up: up}
	if from != nil {
		st.down = newDownPlan(from, up)
		h := sha256.New()
		h.Write(encode.JSON(from.Document(), nil, ""))
		h.Write([]byte{0})
		h.Write(encode.JSON(to.Document(), nil, ""))
		st.id = hex.EncodeToString(h.Sum(nil)[:8])
	}
	return st, nil
}

type migDir int

const (
	dirUp migDir = iota
	dirDown
)

func (d migDir) String() string {
	if d == dirUp {
		return "up"
	}
	return "down"
}

func (d migDir) opposite() migDir { return 1 - d }

// plan returns the plan of this step in a direction, and its schemas.
func (st *migStep) plan(d migDir) (p *migPlan, source *schema.Schema) {
	if d == dirUp {
		return st.up, st.from
	}
	return st.down, st.to
}

func (st *migStep) hook(d migDir) Hook {
	if d == dirUp {
		return st.upHook
	}
	return st.downHook
}

// run converts through every step in a direction.
func (m *Migration) run(v any, d migDir) Result {
	path := make([]pathStep, len(m.steps))
	for i, st := range m.steps {
		if d == dirDown {
			i = len(m.steps) - 1 - i
		}
		path[i] = pathStep{st, d}
	}
	return m.runPath(v, path)
}

// pathStep is one adjacent step of a conversion and its direction.
type pathStep struct {
	st *migStep
	d  migDir
}

// runPath converts through the steps of a path (at least one) and
// assembles the Result: dropped pointers traced back to the input, lossy
// changes and errors traced forward to the output, then validation of the
// output.
func (m *Migration) runPath(v any, path []pathStep) Result {
	var res Result
	traces := make([]*migTrace, 0, len(path))
	cur := v
	for i, ps := range path {
		out, tr := m.convertStep(ps.st, ps.d, cur, i == len(path)-1)
		traces = append(traces, tr)
		for _, dr := range tr.dropped {
			dr.Pointer = traceBack(traces[:i], dr.Pointer)
			res.Dropped = append(res.Dropped, dr)
		}
		cur = out
	}
	// A change refused by one step is met again by the next: report once.
	seen := map[string]bool{}
	once := func(parts ...any) bool {
		k := fmt.Sprint(parts...)
		if seen[k] {
			return false
		}
		seen[k] = true
		return true
	}
	for i, tr := range traces {
		for _, l := range tr.lossy {
			l.Pointer = traceForward(traces[i+1:], l.Pointer)
			if len(traces) == 1 || once("l", l.Pointer, "\x00", l.From, "\x00", l.To) {
				res.Lossy = append(res.Lossy, l)
			}
		}
		for _, e := range tr.errors {
			e.Pointer = traceForward(traces[i+1:], e.Pointer)
			if len(traces) == 1 || once("e", e.Pointer, "\x00", e.Message) {
				res.Errors = append(res.Errors, e)
			}
		}
	}
	for _, tr := range traces {
		tr.release() // everything needed is copied into res
	}
	res.Values = cur
	last := path[len(path)-1]
	p, _ := last.st.plan(last.d)
	if m.keepText {
		// Text no node typed on the way is what YAML 1.2 core rules say,
		// for validation and for the caller alike.
		settleResult(&res)
	}
	res.Errors = append(res.Errors, p.validate(res.Values, res.Errors)...)
	sort.SliceStable(res.Dropped, func(i, j int) bool { return res.Dropped[i].Pointer < res.Dropped[j].Pointer })
	sort.SliceStable(res.Lossy, func(i, j int) bool { return res.Lossy[i].Pointer < res.Lossy[j].Pointer })
	sort.SliceStable(res.Errors, func(i, j int) bool { return res.Errors[i].Pointer < res.Errors[j].Pointer })
	return res
}
