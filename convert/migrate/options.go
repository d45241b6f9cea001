package migrate

import (
	"fmt"

	"github.com/paramkit/paramkit/schema"
)

// The options of this package come in three families, one type each, so
// that an option given to a call it does not apply to fails to compile
// rather than at run time:
//
//   - Option configures New: FromVersion, ThroughVersions, Lossless,
//     StepHooks and AllowLossy.
//   - SetOption configures NewVersionSet and LoadVersionSet:
//     CaseInsensitiveNames and PairHooks.
//   - ConvertOption configures a VersionSet's conversions (Convert,
//     ConvertDocument, ConvertObject, ConvertObjectDocument,
//     RewriteObjects): AllowLossy and Total.
//
// AllowLossy is the one option of two families (a LossyOption).
//
//	migrate.New(target, migrate.FromVersion(old), migrate.ThroughVersions(mid), migrate.AllowLossy())
//	migrate.LoadVersionSet(dir, migrate.CaseInsensitiveNames())
//	set.Convert(v, "v1", "v2", migrate.AllowLossy())
type Option interface{ applyMigration(*migOptions) }

// SetOption configures NewVersionSet and LoadVersionSet (see Option).
type SetOption interface{ applySet(*setOptions) }

// ConvertOption configures a VersionSet's conversions (see Option).
type ConvertOption interface{ applyConversion(*convOptions) }

// LossyOption is what AllowLossy returns: an option of New and of a
// VersionSet's conversions alike.
type LossyOption interface {
	Option
	ConvertOption
}

// migOption is an Option of New only.
type migOption func(*migOptions)

func (f migOption) applyMigration(o *migOptions) { f(o) }

// setOption is a SetOption.
type setOption func(*setOptions)

func (f setOption) applySet(o *setOptions) { f(o) }

// allowLossy is AllowLossy's option.
type allowLossy struct{}

func (allowLossy) applyMigration(o *migOptions)   { o.allowLossy = true }
func (allowLossy) applyConversion(o *convOptions) { o.allowLossy = true }

// applied is what opts of one family set, applied in order by apply (the
// family's method); a nil option is skipped.
func applied[Opt, O any](opts []Opt, apply func(Opt, *O)) O {
	var o O
	for _, opt := range opts {
		if any(opt) != nil {
			apply(opt, &o)
		}
	}
	return o
}

// AllowLossy applies lossy type changes (number to integer by
// truncation) instead of refusing them. They are reported either way.
// For New and a VersionSet's conversions.
func AllowLossy() LossyOption { return allowLossy{} }

// total is Total's option.
type total struct{}

func (total) applyConversion(o *convOptions) { o.total = true }

// Total makes a VersionSet's conversion total, as a conversion webhook's
// must be: it never fails because a value is invalid, in one version or
// both (validation is admission's job). A value that does not fit its
// node in the target (1.5 where an integer is declared, "x" for a
// number, a number beyond int64) stays as it is at its new place rather
// than being truncated, dropped or refused; values that are not an
// object stay as they are; nothing is validated, and Result.Errors holds
// only what a hook returned. What the target cannot hold at all (a key it
// does not declare, a property an older version lacks) goes to the
// property bag (BagKey) when the reverse conversion is allowed, so that
// converting back gives exactly what went in; a malformed bag is ignored.
// A conversion webhook keeps the bag in an annotation (params/kube's
// Convert does). For a VersionSet's conversions.
func Total() ConvertOption { return total{} }

// FromVersion gives the schema of the version the values of Migrate
// belong to (the oldest of the chain). A migration works without it (the
// target's oldName keywords say where old values go), but Migration.Down
// and Lossless need it, and it lets a change of type between the two
// schemas be converted exactly. For New.
func FromVersion(previous *schema.Schema) Option {
	return migOption(func(o *migOptions) { o.from = previous })
}

// ThroughVersions migrates through intermediate versions, oldest first:
// values of the version before mid[0] go to mid[0] by mid[0]'s oldName
// keywords, then to mid[1], and so on to the target. Versions that KEP-33
// calls "non-skippable" can so be skipped by the user. For New.
func ThroughVersions(mid ...*schema.Schema) Option {
	return migOption(func(o *migOptions) { o.via = append(o.via, mid...) })
}

// Lossless keeps what the target version cannot hold in a property bag
// (see BagKey) in both directions, and restores it when converting back,
// so that old → new → old and new → old → new give back exactly what
// went in. Lossy type changes are then allowed (the bag keeps the
// original). It needs FromVersion. For New.
func Lossless() Option { return migOption(func(o *migOptions) { o.lossless = true }) }

// StepHooks registers hand-written steps for one step of a migration's
// chain: up runs after the generated conversion toward the newer version,
// down after the one toward the older version. Step 0 goes from the
// oldest version to the first ThroughVersions schema (or to the target
// when there is none); either hook may be nil. For New; a
// VersionSet names its steps by version instead (PairHooks).
func StepHooks(step int, up, down Hook) Option {
	return migOption(func(o *migOptions) {
		if o.hooks == nil {
			o.hooks = map[int][2]Hook{}
		}
		if _, dup := o.hooks[step]; dup {
			o.hookErr = schema.NewError(schema.KindUsage, "", "migrate: hooks registered twice for step %d", step)
		}
		o.hooks[step] = [2]Hook{up, down}
	})
}

// PairHooks registers hand-written conversion steps for the adjacent pair
// older → newer of a version set: up runs after the generated step toward
// newer, down after the generated step toward older, each seeing the
// source values and the generated result (see Hook). Either may be nil.
// For NewVersionSet and LoadVersionSet.
func PairHooks(older, newer string, up, down Hook) SetOption {
	return setOption(func(o *setOptions) {
		if o.hooks == nil {
			o.hooks = map[string][2]Hook{}
		}
		k := older + "\x00" + newer
		if _, dup := o.hooks[k]; dup {
			o.errors = append(o.errors, fmt.Sprintf("hooks registered twice for %s → %s", older, newer))
		}
		o.hooks[k] = [2]Hook{up, down}
	})
}

// CaseInsensitiveNames lets a property of a newer version without an
// oldName take the value of a property of the next older version whose
// name differs only in case (clockSpeed from ClockSpeed), as the storage
// versioning document's generator matches names. An exact match always
// wins; each use is listed by VersionSet.Notes. For NewVersionSet and
// LoadVersionSet.
func CaseInsensitiveNames() SetOption {
	return setOption(func(o *setOptions) { o.fold = true })
}
