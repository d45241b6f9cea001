package migrate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/paramkit/paramkit/schema"
)

// Option configures a call of this package: New, NewVersionSet and
// LoadVersionSet, and a VersionSet's conversions (Convert,
// ConvertDocument, ConvertObject, ConvertObjectDocument, RewriteObjects).
// Each of them says which options apply to it; an option given where it
// does not apply is an error, never silently ignored.
//
//	migrate.New(target, migrate.FromVersion(old), migrate.ThroughVersions(mid), migrate.AllowLossy())
//	migrate.LoadVersionSet(dir, migrate.CaseInsensitiveNames())
//	set.Convert(v, "v1", "v2", migrate.AllowLossy())
type Option func(*options)

// options holds every setting an Option can make, and the names of the
// options given, so that each call can refuse those that do not apply.
type options struct {
	given []string
	mig   migOptions
	set   setOptions
	conv  convOptions
}

func (o *options) note(name string) {
	if !slices.Contains(o.given, name) {
		o.given = append(o.given, name)
	}
}

// The options that apply to each call.
var (
	migrationOptions  = []string{"FromVersion", "ThroughVersions", "AllowLossy", "Lossless", "StepHooks"}
	setOptionNames    = []string{"CaseInsensitiveNames", "PairHooks"}
	conversionOptions = []string{"AllowLossy"}
)

// collect applies opts for the call fn, refusing an option that does not
// apply to it.
func collect(fn string, opts []Option, allowed []string) (options, error) {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	for _, name := range o.given {
		if !slices.Contains(allowed, name) {
			return o, schema.NewError(schema.KindUsage, "", "migrate: option %s does not apply to %s (these do: %s)", name, fn, strings.Join(allowed, ", "))
		}
	}
	return o, nil
}

// AllowLossy applies lossy type changes (number to integer by
// truncation) instead of refusing them. They are reported either way.
// For New and a VersionSet's conversions.
func AllowLossy() Option {
	return func(o *options) { o.note("AllowLossy"); o.mig.allowLossy = true; o.conv.allowLossy = true }
}

// FromVersion gives the schema of the version the values of Migrate
// belong to (the oldest of the chain). A migration works without it (the
// target's oldName keywords say where old values go), but Migration.Down
// and Lossless need it, and it lets a change of type between the two
// schemas be converted exactly. For New.
func FromVersion(previous *schema.Schema) Option {
	return func(o *options) { o.note("FromVersion"); o.mig.from = previous }
}

// ThroughVersions migrates through intermediate versions, oldest first:
// values of the version before mid[0] go to mid[0] by mid[0]'s oldName
// keywords, then to mid[1], and so on to the target. Versions that KEP-33
// calls "non-skippable" can so be skipped by the user. For New.
func ThroughVersions(mid ...*schema.Schema) Option {
	return func(o *options) { o.note("ThroughVersions"); o.mig.via = append(o.mig.via, mid...) }
}

// Lossless keeps what the target version cannot hold in a property bag
// (see BagKey) in both directions, and restores it when converting back,
// so that old → new → old and new → old → new give back exactly what
// went in. Lossy type changes are then allowed (the bag keeps the
// original). It needs FromVersion. For New.
func Lossless() Option { return func(o *options) { o.note("Lossless"); o.mig.lossless = true } }

// StepHooks registers hand-written steps for one step of a migration's
// chain: up runs after the generated conversion toward the newer version,
// down after the one toward the older version. Step 0 goes from the
// oldest version to the first ThroughVersions schema (or to the target
// when there is none); either hook may be nil. For New; a
// VersionSet names its steps by version instead (PairHooks).
func StepHooks(step int, up, down Hook) Option {
	return func(o *options) {
		o.note("StepHooks")
		if o.mig.hooks == nil {
			o.mig.hooks = map[int][2]Hook{}
		}
		if _, dup := o.mig.hooks[step]; dup {
			o.mig.hookErr = schema.NewError(schema.KindUsage, "", "migrate: hooks registered twice for step %d", step)
		}
		o.mig.hooks[step] = [2]Hook{up, down}
	}
}

// PairHooks registers hand-written conversion steps for the adjacent pair
// older → newer of a version set: up runs after the generated step toward
// newer, down after the generated step toward older, each seeing the
// source values and the generated result (see Hook). Either may be nil.
// For NewVersionSet and LoadVersionSet.
func PairHooks(older, newer string, up, down Hook) Option {
	return func(o *options) {
		o.note("PairHooks")
		if o.set.hooks == nil {
			o.set.hooks = map[string][2]Hook{}
		}
		k := older + "\x00" + newer
		if _, dup := o.set.hooks[k]; dup {
			o.set.errors = append(o.set.errors, fmt.Sprintf("hooks registered twice for %s → %s", older, newer))
		}
		o.set.hooks[k] = [2]Hook{up, down}
	}
}

// CaseInsensitiveNames lets a property of a newer version without an
// oldName take the value of a property of the next older version whose
// name differs only in case (clockSpeed from ClockSpeed), as the storage
// versioning document's generator matches names. An exact match always
// wins; each use is listed by VersionSet.Notes. For NewVersionSet and
// LoadVersionSet.
func CaseInsensitiveNames() Option {
	return func(o *options) { o.note("CaseInsensitiveNames"); o.set.fold = true }
}
