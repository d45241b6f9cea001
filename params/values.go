package params

import (
	"github.com/paramkit/paramkit/internal/value"
)

// cloneValue returns a deep copy of v: maps and slices are copied all the way
// down, so that the copy can be edited without touching v; scalars
// (strings, json.Number, booleans, nil) are immutable and shared. Go data
// other than plain values is copied as Plain converts it (a value that
// cannot be converted is copied as given).
func cloneValue(v any) any {
	if c, ok := value.CopyPlain(v); ok { // plain already: one walk, not two
		return c
	}
	return value.DeepCopy(plainOr(v))
}

// Equal reports whether a and b are the same value. Numbers compare by
// value, whatever their text: 1.0 equals 1, 1E3 equals 1000, and integers
// of any size compare exactly. Go data other than plain values is compared
// as Plain converts it, as Diff does: Equal(a, b) is len(Diff(a, b)) == 0.
// Use Identical where the text of a number matters.
func Equal(a, b any) bool { return value.Equal(plainOr(a), plainOr(b)) }

// Identical reports whether a and b are the same value written the same
// way: numbers compare by their text, so 1E3 and 1000 (or 2.0 and 2)
// differ. A round trip that must keep what the user wrote (a conversion
// webhook, a migration) checks its result with Identical. Go data other
// than plain values is compared as Plain converts it.
func Identical(a, b any) bool { return value.Identical(plainOr(a), plainOr(b)) }
