package migrate

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/paramkit/paramkit/convert/migrate/internal/valuegen"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// Version is one version of a version set: its name, its schema, and how
// it takes part in conversions.
type Version struct {
	Name   string
	Schema *schema.Schema
	// Preview marks a version that cannot be the hub (the storage
	// version), even when it is the newest.
	Preview bool
	// NoDowngrade refuses conversion from this version to any older one
	// (versions.yaml: downgrade: false), as an upgrade-only API change
	// does.
	NoDowngrade bool
	// Up and Down are hand-written conversion steps for the pair of the
	// previous version (the next older one) and this one: Up runs after
	// the generated step toward this version, Down after the generated
	// step toward the previous one, each seeing the source values and the
	// generated result as StepHooks' hooks do. Either may be nil; the
	// oldest version has none.
	Up, Down func(from, to any) (any, error)
}

// VersionSet is an ordered set of versions of one schema with a hub: the
// newest version not marked preview, as in the Azure Service Operator's
// storage versioning. Every conversion goes from a version to the hub and
// from the hub to the target, one adjacent pair at a time, each step
// generated from the schemas (oldName, type changes) as Migration does:
// up (toward newer versions) by the newer schema's oldName, down by
// inverting it. A conversion whose reverse is allowed keeps what the
// target cannot hold in the property bag (x-paramkit-bag), so that it comes back
// on the way back; losses are reported all the same.
//
// A VersionSet is immutable and safe for concurrent use.
type VersionSet struct {
	versions []Version
	index    map[string]int
	hub      int
	steps    []*migStep // steps[i] converts versions[i] to versions[i+1]
	notes    []string
}

// NewVersionSet builds a version set from versions ordered oldest first.
// The option that applies: CaseInsensitiveNames; hand-written steps are
// the versions' Up and Down. A set read from a folder comes from
// LoadVersionSet.
//
//	set, err := migrate.NewVersionSet([]migrate.Version{{Name: "v1", Schema: v1}, {Name: "v2", Schema: v2}})
//	r, err := set.Convert(values, "v1", "v2")
//
// Each step of a set is generated as a Migration's step is (oldName, type
// changes); see New for when to use which.
func NewVersionSet(versions []Version, opts ...Option) (*VersionSet, error) {
	o, err := collect(opts, forSet, "NewVersionSet")
	if err != nil {
		return nil, err
	}
	return newVersionSet(versions, o)
}

// newVersionSet is NewVersionSet with its options collected.
func newVersionSet(versions []Version, o options) (*VersionSet, error) {
	if len(versions) == 0 {
		return nil, schema.NewError(schema.KindUsage, "", "migrate: a version set needs at least one version")
	}
	s := &VersionSet{versions: append([]Version(nil), versions...), index: map[string]int{}, hub: -1}
	for i, v := range s.versions {
		if v.Name == "" {
			return nil, schema.NewError(schema.KindUsage, "", "migrate: version %d has no name", i)
		}
		if v.Schema == nil {
			return nil, schema.NewError(schema.KindUsage, "", "migrate: version %s has no schema", v.Name)
		}
		if _, dup := s.index[v.Name]; dup {
			return nil, schema.NewError(schema.KindUsage, "", "migrate: version %s is listed twice", v.Name)
		}
		s.index[v.Name] = i
		if !v.Preview {
			s.hub = i
		}
	}
	if s.hub < 0 {
		return nil, schema.NewError(schema.KindUsage, "", "migrate: every version is a preview: the set has no hub")
	}
	if v := s.versions[0]; v.Up != nil || v.Down != nil {
		return nil, schema.NewError(schema.KindUsage, "", "migrate: version %s is the oldest: it has no previous version for Up and Down hooks", v.Name)
	}
	for i := 0; i+1 < len(s.versions); i++ {
		from, to := s.versions[i].Schema, s.versions[i+1].Schema
		if o.fold {
			folded, notes, err := foldNames(from, to)
			if err != nil {
				return nil, schema.NewError(schema.KindSchema, "", "migrate: version %s: %v", s.versions[i+1].Name, err)
			}
			to = folded
			for _, n := range notes {
				s.notes = append(s.notes, s.versions[i+1].Name+": "+n)
			}
		}
		st, err := newMigStep(from, to)
		if err != nil {
			return nil, schema.WrapError("migrate: version "+s.versions[i+1].Name, err)
		}
		st.to = s.versions[i+1].Schema
		st.upHook, st.downHook = s.versions[i+1].Up, s.versions[i+1].Down
		s.steps = append(s.steps, st)
	}
	return s, nil
}

// Order returns the version names, oldest first.
func (s *VersionSet) Order() []string {
	if s.unmade() != nil {
		return nil
	}
	out := make([]string, len(s.versions))
	for i, v := range s.versions {
		out[i] = v.Name
	}
	return out
}

// Hub returns the name of the hub version ("" for a VersionSet not made
// by NewVersionSet or LoadVersionSet).
func (s *VersionSet) Hub() string {
	if s.unmade() != nil {
		return ""
	}
	return s.versions[s.hub].Name
}

// unmade is the error of a nil VersionSet, or of one not made by
// NewVersionSet or LoadVersionSet (kind schema.KindUsage), or nil.
func (s *VersionSet) unmade() error {
	if s == nil || len(s.versions) == 0 {
		return schema.NewError(schema.KindUsage, "", "migrate: the VersionSet is nil or was not made by NewVersionSet or LoadVersionSet")
	}
	return nil
}

// Version returns the version of that name.
func (s *VersionSet) Version(name string) (Version, bool) {
	if s.unmade() != nil {
		return Version{}, false
	}
	i, ok := s.index[name]
	if !ok {
		return Version{}, false
	}
	return s.versions[i], true
}

// Notes lists the case-insensitive name matches CaseInsensitiveNames made,
// as "VERSION: /new/pointer takes /Old/pointer".
func (s *VersionSet) Notes() []string {
	if s == nil {
		return nil
	}
	return append([]string(nil), s.notes...)
}

// refusedError is the error of a conversion the set refuses, to an older
// version past one marked NoDowngrade (by): a *schema.Error of kind
// schema.KindRefused.
func refusedError(from, to, by string) error {
	msg := fmt.Sprintf("conversion from %s to %s is refused: it passes %s, which is upgrade-only (downgrade: false)", from, to, by)
	if by == from {
		msg = fmt.Sprintf("conversion from %s to %s is refused: %s is upgrade-only (downgrade: false), it cannot be converted to an older version", from, to, by)
	}
	return &schema.Error{Kind: schema.KindRefused, Message: msg}
}

// refusal returns the error for from → to, or nil: a conversion to an
// older version is refused when any version after the target, up to and
// including the source, is NoDowngrade.
func (s *VersionSet) refusal(from, to int) error {
	if to >= from {
		return nil
	}
	for i := from; i > to; i-- {
		if s.versions[i].NoDowngrade {
			return refusedError(s.versions[from].Name, s.versions[to].Name, s.versions[i].Name)
		}
	}
	return nil
}

// Refused returns the refusal (kind schema.KindRefused) of a conversion from → to, or nil when
// the set allows it. Unknown names are an error too.
func (s *VersionSet) Refused(from, to string) error {
	i, j, err := s.pair(from, to)
	if err != nil {
		return err
	}
	return s.refusal(i, j)
}

func (s *VersionSet) pair(from, to string) (int, int, error) {
	if err := s.unmade(); err != nil {
		return 0, 0, err
	}
	i, ok := s.index[from]
	if !ok {
		return 0, 0, schema.NewError(schema.KindNotFound, "", "migrate: no version %q in the set (versions: %s)", from, strings.Join(s.Order(), ", "))
	}
	j, ok := s.index[to]
	if !ok {
		return 0, 0, schema.NewError(schema.KindNotFound, "", "migrate: no version %q in the set (versions: %s)", to, strings.Join(s.Order(), ", "))
	}
	return i, j, nil
}

// path returns the steps from version i to the hub and on to version j.
func (s *VersionSet) path(i, j int) []pathStep {
	var out []pathStep
	if i == j {
		return nil
	}
	walk := func(a, b int) {
		for a < b {
			out = append(out, pathStep{s.steps[a], dirUp})
			a++
		}
		for a > b {
			out = append(out, pathStep{s.steps[a-1], dirDown})
			a--
		}
	}
	walk(i, s.hub)
	walk(s.hub, j)
	return out
}

// Convert converts values of version from to version to, through the hub.
// The property bag is kept when the reverse conversion is allowed (it
// carries what to cannot hold back to from); when the reverse is refused
// nothing would ever read it, so the result carries none. The error holds
// every failure: what prevents any conversion (an unknown version, kind
// schema.KindNotFound; a refused direction, schema.KindRefused; the zero
// Result with them) and what goes wrong with the values (the Result then
// holds the values as converted, as Result says).
//
// The only option that applies is AllowLossy (to every conversion of the
// set: Convert, ConvertDocument, ConvertObject, ConvertObjectDocument and
// RewriteObjects).
//
// The values mean what they say (plain values, as params.Decode gives
// them). To have the nodes of the versions on the way type the YAML plain
// scalars of a document, give its bytes to ConvertDocument.
func (s *VersionSet) Convert(v any, from, to string, opts ...Option) (Result, error) {
	i, j, o, err := s.start(from, to, opts)
	if err != nil {
		return Result{}, err
	}
	return done(s.run(v, i, j, o, s.refusal(j, i) == nil))
}

// ConvertDocument reads one YAML or JSON document of values of version
// from and converts it to version to, as Convert does. It reads as
// params.Decode does with from's schema: a JSON document means exactly
// what it says, and a YAML plain scalar is typed by the node of from's
// schema it lands on. A plain scalar that no node of from types (under a
// key from does not declare, or inside a free-form object) keeps its text
// until a node of a version on the way types it: legacyCode: 007 becomes
// "007" where the target declares legacyCode a string, 7 where it declares
// an integer. Where no node on the way types it, it means what YAML 1.2
// core rules say (007 is 7, 0x1F is 31, 1.10 the exact number 1.10, yes
// the string "yes", ~ null), in the values, the property bag and the
// report alike. A round trip to and from another version so gives back
// the values the document means.
//
// The error is Convert's, or a *schema.Error for a document that cannot
// be read (with the zero Result).
func (s *VersionSet) ConvertDocument(data []byte, from, to string, opts ...Option) (Result, error) {
	i, j, o, err := s.start(from, to, opts)
	if err != nil {
		return Result{}, err
	}
	v, err := decodeDocument(s.versions[i].Schema, data)
	if err != nil {
		return Result{}, readError(err)
	}
	return done(s.run(v, i, j, o, s.refusal(j, i) == nil))
}

// start checks a conversion from → to and gathers its options.
func (s *VersionSet) start(from, to string, opts []Option) (i, j int, o options, err error) {
	if o, err = collect(opts, forConversion, "a VersionSet's conversions"); err != nil {
		return 0, 0, o, err
	}
	i, j, err = s.pair(from, to)
	if err != nil {
		return 0, 0, o, err
	}
	if err := s.refusal(i, j); err != nil {
		return 0, 0, o, err
	}
	return i, j, o, nil
}

// run converts along the path i → hub → j, as Migration.run does along a
// chain: dropped values are reported at their pointer in the source,
// lossy changes and errors at their pointer in the target. Text no node
// on the way typed is settled in the Result (settleResult). The errors
// come apart from the Result.
func (s *VersionSet) run(v any, i, j int, o options, keepBag bool) (Result, schema.ErrorList) {
	path := s.path(i, j)
	if o.total {
		if _, isObject := v.(map[string]any); !isObject || len(path) == 0 {
			// Nothing a conversion could move: the values stay as they
			// are, whatever they are.
			res := Result{Values: v}
			settleResult(&res)
			return res, nil
		}
		m := &Migration{lossless: keepBag, keepText: true, total: true}
		return m.runPath(v, path)
	}
	if len(path) == 0 {
		// Same version: nothing to convert; the values are validated.
		res := Result{Values: v}
		settleResult(&res)
		target := s.versions[j].Schema
		meant := res.Values
		var errs schema.ErrorList
		if i > 0 {
			errs = s.steps[i-1].up.validate(meant, nil)
		} else if len(s.steps) > 0 {
			errs = s.steps[0].down.validate(meant, nil)
		} else if err := target.Validate(stripBag(meant)); err != nil {
			errs = validationErrors(err)
		}
		return res, errs
	}
	// Values come from decodeDocument (or mean what they say): text is
	// carried as written wherever no node types it, then settled.
	m := &Migration{allowLossy: o.allowLossy, lossless: keepBag, keepText: true}
	return m.runPath(v, path)
}

func stripBag(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	if _, has := m[bagKey]; !has {
		return v
	}
	rest := make(map[string]any, len(m))
	for k, x := range m {
		if k != bagKey {
			rest[k] = x
		}
	}
	return rest
}

func validationErrors(err error) schema.ErrorList {
	return schema.ErrorsOf(err)
}

// Losses reports where a conversion from → to loses values: the old
// pointers of dropped values and the new pointers of lossy type changes,
// with array indices as "*", sorted; empty when it loses nothing. Losses
// are found by converting values generated from the source schema (as
// migratetest.RandomValue does, samples of them, a fixed seed so that the
// answer is stable) without the property bag; a pair found lossless by
// sampling may still lose a value no sample reached. The error is for an
// unknown version, or the set's refusal of the direction (Refused).
func (s *VersionSet) Losses(from, to string, samples int) ([]string, error) {
	i, j, err := s.pair(from, to)
	if err != nil {
		return nil, err
	}
	if err := s.refusal(i, j); err != nil {
		return nil, err
	}
	out := []string{}
	if i == j {
		return out, nil
	}
	rnd := rand.New(rand.NewPCG(uint64(i)<<32|uint64(j), 0x5eed))
	found := map[string]bool{}
	for n := 0; n < samples; n++ {
		x, err := valuegen.Random(s.versions[i].Schema, rnd)
		if err != nil {
			break
		}
		r, _ := s.run(x, i, j, options{allowLossy: true}, false)
		for _, d := range r.Dropped {
			found[wildIndices(x, d.Pointer)] = true
		}
		for _, l := range r.Lossy {
			found[wildIndices(r.Values, l.Pointer)] = true
		}
	}
	for p := range found {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

// wildIndices replaces the array indices of a value pointer by "*", so
// that losses at /hosts/0/x and /hosts/1/x are one place.
func wildIndices(v any, p string) string {
	toks, err := pointer.Split(p)
	if err != nil {
		return p
	}
	out := ""
	cur := v
	for _, t := range toks {
		switch c := cur.(type) {
		case []any:
			out = pointer.Append(out, "*")
			if i, err := pointer.Index(t, len(c)); err == nil {
				cur = c[i]
			} else {
				cur = nil
			}
		case map[string]any:
			out = pointer.Append(out, t)
			cur = c[t]
		default:
			out = pointer.Append(out, t)
			cur = nil
		}
	}
	return out
}
