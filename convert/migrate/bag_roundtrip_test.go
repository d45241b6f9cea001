package migrate

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/schema"
)

// roundTrips is how many generated values each direction of each pair
// gets; fewer under the race detector, which is ten times slower.
func roundTrips() int {
	if raceEnabled {
		return 300
	}
	return 2000
}

func loadPair(t testing.TB, dir string) (old, new *schema.Schema) {
	t.Helper()
	old, err := parseSchemaFile(filepath.Join(dir, "old.yaml"))
	require.NoError(t, err)
	new, err = parseSchemaFile(filepath.Join(dir, "new.yaml"))
	require.NoError(t, err)
	return old, new
}

func pairDirs(t testing.TB) []string {
	entries, err := os.ReadDir("testdata/migrate/pairs")
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, filepath.Join("testdata/migrate/pairs", e.Name()))
		}
	}
	require.NotEmpty(t, out)
	return out
}

func show(v any) string { return string(encode.JSON(v, nil, "")) }

// identical compares values exactly: numbers by their text, plainScalar
// by its text. It is the property bag's own comparison: no difference to
// keep.
func identical(a, b any) bool { return len(bagDiff(a, b)) == 0 }

// TestRoundTripIdentity: for every schema pair in testdata, new → old →
// new and old → new → old give back exactly what went in means (numbers
// by their text, plain scalars no node types by YAML 1.2 core rules),
// over thousands of generated values.
func TestRoundTripIdentity(t *testing.T) {
	for pi, dir := range pairDirs(t) {
		old, new := loadPair(t, dir)
		m, err := New(new, FromVersion(old), Lossless())
		require.NoError(t, err)
		for di, direction := range []string{"new-old-new", "old-new-old"} {
			t.Run(filepath.Base(dir)+"/"+direction, func(t *testing.T) {
				rnd := rand.New(rand.NewPCG(uint64(pi), uint64(di)))
				start, there, back := new, m.Down, m.Migrate
				if direction == "old-new-old" {
					start, there, back = old, m.Migrate, m.Down
				}
				for i := 0; i < roundTrips(); i++ {
					x, err := randomValue(start, rnd)
					require.NoError(t, err)
					x = withPlainScalars(start.Root(), x, rnd)
					mid := got(there(x))
					got := got(back(mid.Values))
					if !identical(got.Values, plainScalarsMeaning(x)) {
						require.Failf(t, "round trip changed the values", "in:  %s\nmid: %s\nout: %s\ndiff: %v",
							show(x), show(mid.Values), show(got.Values), bagDiff(x, got.Values))
					}
				}
			})
		}
	}
}

var _ = fmt.Sprint

func newTestRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }
