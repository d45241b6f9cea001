// Package migratetest holds test support for code that migrates parameter
// values between schema versions: a generator of random valid values for
// property tests of round trips. It is meant for tests (of this module or
// of yours); nothing in the library's own paths depends on it.
//
//	rnd := rand.New(rand.NewPCG(1, 2))
//	for range 100 {
//		v, err := migratetest.RandomValue(oldSchema, rnd)
//		require.NoError(t, err)
//		r, err := set.Convert(v, "v1", "v2")
//		// ... and back: the values must come back unchanged.
//	}
package migratetest

import (
	"math/rand/v2"

	"github.com/paramkit/paramkit/convert/migrate/internal/valuegen"
	"github.com/paramkit/paramkit/schema"
)

// RandomValue returns a random value that s accepts, for property tests of
// conversions: round trips between two versions must give back every
// value RandomValue can make. It favours the values that break
// conversions: strings that look like numbers or booleans ("007", "yes",
// "1.10"), keys that need escaping in a JSON pointer ("a/b", "x~y"), big
// and fractional numbers kept exact, optional properties present or not,
// empty and nested collections. It knows the structural keywords (type,
// properties, required, additionalProperties, items, prefixItems, enum,
// const, $ref, allOf, anyOf, oneOf) and the common bounds (minimum,
// maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, format
// int32/int64, minLength, maxLength, minItems, maxItems); it draws until
// the value validates, and reports an error when a schema's constraints
// (a pattern, say) defeat it. The values are plain: maps, slices,
// strings, bools, nil and json.Number.
func RandomValue(s *schema.Schema, rnd *rand.Rand) (any, error) {
	return valuegen.Random(s, rnd)
}
