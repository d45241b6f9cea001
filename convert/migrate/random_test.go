package migrate

import (
	"math/rand/v2"

	"github.com/paramkit/paramkit/convert/migrate/internal/valuegen"
	"github.com/paramkit/paramkit/schema"
)

// randomValue is migratetest.RandomValue for the package's own tests
// (which cannot import migratetest: it would import them back).
func randomValue(s *schema.Schema, rnd *rand.Rand) (any, error) { return valuegen.Random(s, rnd) }
