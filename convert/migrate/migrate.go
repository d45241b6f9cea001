package migrate

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
	// total: a conversion that never fails because of a value (see
	// Total): misfits stay at their place, nothing is validated.
	total bool
	// hideFrom is the schema of the input's version when it was given
	// only to hide its secrets (MigrateHiding); nil otherwise.
	hideFrom *schema.Schema
}

// Result is what a migration or conversion did to one document. Like
// every Result of the module it is a value, returned by value beside the
// error: Migrate, MigrateDocument, MigrateHiding, Down, a VersionSet's
// conversions and kudo's OperatorVersion.Upgrade all return (Result,
// error).
//
// The error holds every failure (schema.ErrorsOf gives them back as a
// non-empty list of *schema.Error). A Result with a non-nil error is
// meaningful exactly when the conversion ran, that is when the errors
// are about the values: values that do not fit their new node, refused
// lossy changes (kind schema.KindType, Detail holding the value before
// and after), hook failures, validation errors of the output, an object
// without kind or with malformed metadata (ConvertObject). Then Values
// are the output as far as it goes (a value that failed stays as it was
// at its new place), and Dropped and Lossy are complete: a caller may
// still write the values (paramctl migrate --continue) or read them (an
// old version's values checked for immutability). When nothing ran, the
// Result is the zero Result: a nil or unmade Migration or VersionSet, a
// Down without FromVersion, an apiVersion that is none (all
// schema.KindUsage), a document that cannot be read, an unknown version
// (schema.KindNotFound) or a refused direction (schema.KindRefused); and
// kudo's Upgrade returns the zero Result with every error.
type Result struct {
	// Values are the migrated values (no defaults applied), plain values:
	// maps, slices, strings, bools, nil and json.Number. In lossless mode
	// they may carry a property bag (see the package documentation).
	Values any
	// Dropped lists the values of the input that map nowhere in the
	// target version, by their pointer in the input.
	Dropped []Dropped
	// Lossy lists changes of type that lost information, by the pointer
	// of the value in the output, applied or refused.
	Lossy []Lossy
}

// Dropped is a value of the input that has no place in the target version.
type Dropped struct {
	// Pointer locates the value in the input document.
	Pointer string
	// Value is the value that was dropped, as it was in the input (a
	// YAML plain scalar no node typed means what YAML 1.2 core rules
	// say: 007 is 7). It is nil when Hidden.
	Value any
	// Hidden is true when the value is a secret (see
	// schema.Node.Secret): a schema on its way, the oldest (FromVersion), an
	// intermediate or the target, marks its node writeOnly or format:
	// password. Value is then left out; the input still holds it at
	// Pointer.
	Hidden bool
}

// Lossy is a change of type that lost information.
type Lossy struct {
	// Pointer locates the value in the output document.
	Pointer string
	// From is the value before the change, To the value after it; both
	// are nil when Hidden.
	From, To any
	// Hidden is true when the value is a secret, as for Dropped.
	Hidden bool
	// Refused is true when the change was not applied because lossy
	// changes were not allowed (the error then has an entry for it).
	Refused bool
}

// New prepares a migration to the target schema: the one entry
// point for moving values of an earlier version to a newer one.
//
//	m, err := migrate.New(target)                              // from the previous version, by oldName
//	m, err := migrate.New(target, migrate.FromVersion(old))    // knowing the previous schema
//	m, err := migrate.New(target, migrate.FromVersion(v1), migrate.ThroughVersions(v2, v3))
//	r := m.Migrate(values) // or m.MigrateDocument(data), or Reader for a stream
//
// The options that apply: FromVersion, ThroughVersions, AllowLossy,
// Lossless and StepHooks.
//
// Migration or VersionSet? A Migration goes one way, from the values of
// one version (the oldest of its chain) to its target, through the
// versions between them: an operator's upgrade, `paramctl migrate`, the
// webhook's upgrade in admission. Use a VersionSet when several named
// versions are served at once and values must convert between any two of
// them in both directions (a CRD's versions behind a conversion webhook,
// a storage migration): it is the same generated steps, chained through a
// hub, with names, downgrade refusals and a property bag.
//
// New checks every
// oldName claim up front and refuses a schema where two nodes claim the
// same old value, or where a claimed value would also be carried over to
// another place, or where an oldName has no single place in the values
// (under items or additionalProperties); the error is a schema.ErrorList
// with the schema pointer of each offending oldName.
func New(target *schema.Schema, opts ...Option) (*Migration, error) {
	if target == nil {
		return nil, schema.NewError(schema.KindUsage, "", "migrate: New needs a target schema")
	}
	o, err := collect(opts, forNew, "New")
	if err != nil {
		return nil, err
	}
	if o.lossless && o.from == nil {
		return nil, schema.NewError(schema.KindUsage, "", "migrate: Lossless needs the schema of the oldest version (FromVersion)")
	}
	if target.Root() == nil {
		return nil, schema.NewError(schema.KindUsage, "", "migrate: New needs a target schema made by schema.Parse or FromValue")
	}
	if o.from != nil && o.from.Root() == nil {
		return nil, schema.NewError(schema.KindUsage, "", "migrate: the FromVersion schema was not made by schema.Parse or FromValue")
	}
	chain := append(append([]*schema.Schema{}, o.via...), target)
	for i, s := range chain {
		if s.Root() == nil {
			return nil, schema.NewError(schema.KindUsage, "", "migrate: ThroughVersions schema %d is nil or was not made by schema.Parse or FromValue", i)
		}
	}
	for i := range o.stepHooks {
		if i < 0 || i >= len(chain) {
			return nil, schema.NewError(schema.KindUsage, "", "migrate: hooks for step %d, but the migration has %d step(s)", i, len(chain))
		}
	}
	m := &Migration{allowLossy: o.allowLossy || o.lossless, lossless: o.lossless, keepText: o.lossless}
	prev := o.from
	for i, to := range chain {
		st, err := newMigStep(prev, to)
		if err != nil {
			return nil, err
		}
		if h, ok := o.stepHooks[i]; ok {
			st.upHook, st.downHook = h[0], h[1]
		}
		m.steps = append(m.steps, st)
		prev = to
	}
	return m, nil
}

// Target returns the schema values are migrated to (nil for a Migration
// not made by New).
func (m *Migration) Target() *schema.Schema {
	if m.unmade() != nil {
		return nil
	}
	return m.steps[len(m.steps)-1].to
}

// unmade is the error of every method of a nil Migration, or of one not
// made by New (kind schema.KindUsage), or nil.
func (m *Migration) unmade() *schema.Error {
	if m == nil || len(m.steps) == 0 {
		return schema.NewError(schema.KindUsage, "", "migrate: the Migration is nil or was not made by migrate.New")
	}
	return nil
}

// Migrate migrates one document of values of the previous version (plain
// values: maps, slices, strings, bools, nil and json.Number) to the target
// version. It never modifies old. The error holds every failure, read
// with schema.ErrorsOf; the Result is meaningful with it as Result says
// (the values as migrated, when the errors are about them). A Migration
// not made by New fails with an error of kind schema.KindUsage and the
// zero Result.
func (m *Migration) Migrate(old any) (Result, error) {
	if e := m.unmade(); e != nil {
		return Result{}, e
	}
	return done(m.run(old, dirUp))
}

// done is the (Result, error) of a run: the error is the run's errors as
// one error, nil when there are none.
func done(res Result, errs schema.ErrorList) (Result, error) {
	return res, errs.Err()
}

// MigrateHiding is Migrate for values of a version whose schema is known
// but was not given to New (FromVersion changes how some values
// convert; this does not): a value that previous marks secret (writeOnly
// or format: password) is hidden in the Result (see Dropped.Hidden) as a
// value the migration's own schemas mark. A webhook that caches one
// Migration per target version uses it with the schema of the version an
// object is upgraded from. Its Result and error are Migrate's.
func (m *Migration) MigrateHiding(old any, previous *schema.Schema) (Result, error) {
	if e := m.unmade(); e != nil {
		return Result{}, e
	}
	mm := *m
	mm.hideFrom = previous
	return done(mm.run(old, dirUp))
}

// Down converts values of the target version back to the oldest version
// (FromVersion), through the ThroughVersions versions in reverse order. Values the older
// version cannot hold are reported as dropped, or kept in the property bag
// in lossless mode. It never modifies v. Its Result and error are
// Migrate's; a Migration made without FromVersion cannot convert down
// (kind schema.KindUsage, the zero Result).
func (m *Migration) Down(v any) (Result, error) {
	if e := m.unmade(); e != nil {
		return Result{}, e
	}
	for _, st := range m.steps {
		if st.down == nil {
			return Result{}, schema.NewError(schema.KindUsage, "", "migrate: converting down needs the schema of the oldest version (FromVersion)")
		}
	}
	return done(m.run(v, dirDown))
}

// migStep is one step of a chain: from the older schema (nil when
// unknown) to the newer one, with the plan for each direction.
type migStep struct {
	from, to         *schema.Schema
	up, down         *migPlan
	id               string // identifies the step in a property bag
	upHook, downHook hook
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

func (st *migStep) hook(d migDir) hook {
	if d == dirUp {
		return st.upHook
	}
	return st.downHook
}

// run converts through every step in a direction.
func (m *Migration) run(v any, d migDir) (Result, schema.ErrorList) {
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
// output. The errors come apart from the Result, sorted by pointer.
func (m *Migration) runPath(v any, path []pathStep) (Result, schema.ErrorList) {
	var res Result
	var errs schema.ErrorList
	traces := make([]*migTrace, 0, len(path))
	cur := v
	for i, ps := range path {
		out, tr := m.convertStep(ps.st, ps.d, cur, i == len(path)-1)
		traces = append(traces, tr)
		cur = out
	}
	for i, tr := range traces {
		for _, dr := range tr.dropped {
			dr.Hidden = dr.Hidden || m.secretOnPath(path, traces, i, dr.Pointer, "", false)
			dr.Pointer = traceBack(traces[:i], dr.Pointer)
			res.Dropped = append(res.Dropped, dr)
		}
		for _, qe := range tr.quoted {
			if m.secretOnPath(path, traces, i, qe.q, qe.p, true) {
				qe.e.Message = qe.alt
				if qe.e.Detail != nil { // a lossy change's values
					qe.e.Detail.From, qe.e.Detail.To = nil, nil
				}
			}
		}
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
		for j, l := range tr.lossy {
			if (len(traces) > 1 || m.hideFrom != nil) && j < len(tr.lossySrc) {
				l.Hidden = l.Hidden || m.secretOnPath(path, traces, i, tr.lossySrc[j], l.Pointer, true)
			}
			l.Pointer = traceForward(traces[i+1:], l.Pointer)
			if len(traces) == 1 || once("l", l.Pointer, "\x00", l.From, "\x00", l.To) {
				res.Lossy = append(res.Lossy, l)
			}
		}
		for _, e := range tr.errors {
			e.Pointer = traceForward(traces[i+1:], e.Pointer)
			if len(traces) == 1 || once("e", e.Pointer, "\x00", e.Message) {
				errs = append(errs, e)
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
	if !m.total {
		errs = append(errs, p.validate(res.Values, errs)...)
	}
	for i := range res.Dropped {
		if res.Dropped[i].Hidden {
			res.Dropped[i].Value = nil
		}
	}
	for i := range res.Lossy {
		if res.Lossy[i].Hidden {
			res.Lossy[i].From, res.Lossy[i].To = nil, nil
		}
	}
	sort.SliceStable(res.Dropped, func(i, j int) bool { return res.Dropped[i].Pointer < res.Dropped[j].Pointer })
	sort.SliceStable(res.Lossy, func(i, j int) bool { return res.Lossy[i].Pointer < res.Lossy[j].Pointer })
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Pointer < errs[j].Pointer })
	return res, errs
}

// secretOnPath reports whether a value that step i of a path met at q in
// its source (and, when placed, at p in its target) is a secret by any
// schema of the path: hideFrom, each earlier version at the pointer the value had
// there, and, when placed, each later one at the pointer it went to.
func (m *Migration) secretOnPath(path []pathStep, traces []*migTrace, i int, q, p string, placed bool) bool {
	if m.hideFrom.HoldsSecretAt(traceBack(traces[:i], q)) {
		return true
	}
	for j := 0; j <= i; j++ {
		_, source := path[j].st.plan(path[j].d)
		if source.HoldsSecretAt(traceBack(traces[j:i], q)) {
			return true
		}
	}
	if !placed {
		return false
	}
	for k := i; k < len(path); k++ {
		target, _ := path[k].st.plan(path[k].d)
		if target.target.HoldsSecretAt(traceForward(traces[i+1:k+1], p)) {
			return true
		}
	}
	return false
}
