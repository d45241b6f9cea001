package convert

import (
	"math/rand/v2"

	"github.com/paramkit/paramkit/internal/valuegen"
	"github.com/paramkit/paramkit/schema"
)

// randomValue is converttest.RandomValue for the package's own tests
// (which cannot import converttest: it would import them back).
func randomValue(s *schema.Schema, rnd *rand.Rand) (any, error) { return valuegen.Random(s, rnd) }
