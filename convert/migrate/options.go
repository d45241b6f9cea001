package migrate

import (
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/schema"
)

// Option configures New, NewVersionSet and LoadVersionSet, and a
// VersionSet's conversions (Convert, ConvertDocument, ConvertObject,
// ConvertObjectDocument, RewriteObjects). Each option says what it is for:
// FromVersion, ThroughVersions, Lossless and StepHooks are for New;
// CaseInsensitiveNames for NewVersionSet and LoadVersionSet; Total for a
// VersionSet's conversions; AllowLossy for New and a VersionSet's
// conversions. A call given an option that is not for it fails with a
// *schema.Error of kind schema.KindUsage naming the option, rather than
// ignoring it.
//
//	migrate.New(target, migrate.FromVersion(old), migrate.ThroughVersions(mid), migrate.AllowLossy())
//	migrate.LoadVersionSet(os.DirFS(dir), migrate.CaseInsensitiveNames())
//	set.Convert(v, "v1", "v2", migrate.AllowLossy())
type Option func(*options)

// hook is a hand-written conversion step that runs after the generated
// one (see StepHooks).
type hook = func(from, to any) (any, error)

// The calls an option is for.
type optionUse uint8

const (
	forNew optionUse = 1 << iota
	forSet
	forConversion
)

func (u optionUse) String() string {
	var s []string
	if u&forNew != 0 {
		s = append(s, "New")
	}
	if u&forSet != 0 {
		s = append(s, "NewVersionSet and LoadVersionSet")
	}
	if u&forConversion != 0 {
		s = append(s, "a VersionSet's conversions")
	}
	return strings.Join(s, " and ")
}

// options is what the Options of a call set.
type options struct {
	// New
	from      *schema.Schema
	via       []*schema.Schema
	lossless  bool
	stepHooks map[int][2]hook
	// NewVersionSet, LoadVersionSet
	fold bool
	// a VersionSet's conversions
	total bool
	// New and a VersionSet's conversions
	allowLossy bool

	errors []string // hooks given twice
	misfit []string // options not for the call, with what they are for
	call   optionUse
}

// use records that the option name, for the calls u, was given.
func (o *options) use(name string, u optionUse) {
	if o.call != 0 && o.call&u == 0 {
		o.misfit = append(o.misfit, fmt.Sprintf("%s is for %s", name, u))
	}
}

// collect applies opts (nil ones skipped) for the call and returns what
// they set, or the KindUsage error of an option that is not for it or
// was given twice.
func collect(opts []Option, call optionUse, name string) (options, error) {
	o := options{call: call}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	if len(o.misfit) > 0 {
		return o, schema.NewError(schema.KindUsage, "", "migrate: an option does not apply to %s: %s", name, strings.Join(o.misfit, "; "))
	}
	if len(o.errors) > 0 {
		return o, schema.NewError(schema.KindUsage, "", "migrate: %s", strings.Join(o.errors, "; "))
	}
	return o, nil
}

// AllowLossy applies lossy type changes (number to integer by
// truncation) instead of refusing them. They are reported either way.
// For New and a VersionSet's conversions.
func AllowLossy() Option {
	return func(o *options) {
		o.use("AllowLossy", forNew|forConversion)
		o.allowLossy = true
	}
}

// Total makes a VersionSet's conversion total, as a conversion webhook's
// must be: it never fails because a value is invalid, in one version or
// both (validation is admission's job). A value that does not fit its
// node in the target (1.5 where an integer is declared, "x" for a
// number, a number beyond int64) stays as it is at its new place rather
// than being truncated, dropped or refused; values that are not an
// object stay as they are; nothing is validated, and the error holds
// only what a hook returned. What the target cannot hold at all (a key it
// does not declare, a property an older version lacks) goes to the
// property bag (the key x-paramkit-bag of the values) when the reverse
// conversion is allowed, so that converting back gives exactly what went
// in; a malformed bag is ignored. A conversion webhook keeps the bag in
// an annotation (kube's Convert does). For a VersionSet's
// conversions.
func Total() Option {
	return func(o *options) {
		o.use("Total", forConversion)
		o.total = true
	}
}

// FromVersion gives the schema of the version the values of Migrate
// belong to (the oldest of the chain). A migration works without it (the
// target's oldName keywords say where old values go), but Migration.Down
// and Lossless need it, and it lets a change of type between the two
// schemas be converted exactly. For New.
func FromVersion(previous *schema.Schema) Option {
	return func(o *options) {
		o.use("FromVersion", forNew)
		o.from = previous
	}
}

// ThroughVersions migrates through intermediate versions, oldest first:
// values of the version before mid[0] go to mid[0] by mid[0]'s oldName
// keywords, then to mid[1], and so on to the target. Versions that KEP-33
// calls "non-skippable" can so be skipped by the user. For New.
func ThroughVersions(mid ...*schema.Schema) Option {
	return func(o *options) {
		o.use("ThroughVersions", forNew)
		o.via = append(o.via, mid...)
	}
}

// Lossless keeps what the target version cannot hold in a property bag
// (the key x-paramkit-bag of the values) in both directions, and
// restores it when converting back, so that old → new → old and
// new → old → new give back exactly what went in. Lossy type changes are
// then allowed (the bag keeps the original). It needs FromVersion. For
// New.
func Lossless() Option {
	return func(o *options) {
		o.use("Lossless", forNew)
		o.lossless = true
	}
}

// StepHooks registers hand-written steps for one step of a migration's
// chain (the AssignableTo / AssignableFrom extension points of the
// storage-versioning design): up runs after the generated conversion
// toward the newer version, down after the one toward the older version.
// Step 0 goes from the oldest version to the first ThroughVersions schema
// (or to the target when there is none); either hook may be nil.
//
// A hook gets from, the values before the step (do not modify them), and
// to, the generated values after it, and returns the values to continue
// with. A hook never sees the property bag. Its error is reported at the
// root pointer, or at its own pointer when it is a *schema.Error (its
// Kind is kept; an error of another type gets schema.KindInvalid).
// For New; a VersionSet's hooks are its versions' Up and Down.
func StepHooks(step int, up, down func(from, to any) (any, error)) Option {
	return func(o *options) {
		o.use("StepHooks", forNew)
		if o.stepHooks == nil {
			o.stepHooks = map[int][2]hook{}
		}
		if _, dup := o.stepHooks[step]; dup {
			o.errors = append(o.errors, fmt.Sprintf("hooks registered twice for step %d", step))
		}
		o.stepHooks[step] = [2]hook{up, down}
	}
}

// CaseInsensitiveNames lets a property of a newer version without an
// oldName take the value of a property of the next older version whose
// name differs only in case (clockSpeed from ClockSpeed), as the storage
// versioning document's generator matches names. An exact match always
// wins; each use is listed by VersionSet.Notes. For NewVersionSet and
// LoadVersionSet.
func CaseInsensitiveNames() Option {
	return func(o *options) {
		o.use("CaseInsensitiveNames", forSet)
		o.fold = true
	}
}
