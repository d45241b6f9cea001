package document

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// slowYAML reads a document the general way.
func slowYAML(data []byte) (any, error) {
	node, err := ParseNode(data)
	if err != nil {
		return nil, err
	}
	return ToValue(node, keepTyper{})
}

// fastYAMLSeeds are the documents that hold the fast path to the parser,
// shared with convert's migration fuzz targets (testdata/fast-seeds.json).
var fastYAMLSeeds = loadSeeds("testdata/fast-seeds.json")

func TestFastYAMLMatchesTheParser(t *testing.T) {
	taken := 0
	for _, s := range fastYAMLSeeds {
		fast, ok := fastYAML([]byte(s))
		if !ok {
			continue
		}
		taken++
		slow, err := slowYAML([]byte(s))
		require.NoError(t, err, "%q: the fast path accepted what the parser refuses", s)
		require.Equal(t, slow, fast, "%q: fast %#v, parser %#v", s, fast, slow)
	}
	require.Greater(t, taken, 10, "the fast path should take the common shapes")
	// And it takes the KEP instance, the shape batch migration measures.
	_, ok := fastYAML([]byte(fastYAMLSeeds[0]))
	require.True(t, ok)
}

// FuzzFastYAML holds the fast path to the YAML parser: whatever it
// accepts, the parser reads the same.
func FuzzFastYAML(f *testing.F) {
	for _, s := range fastYAMLSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok := fastYAML(data)
		if !ok {
			return
		}
		slow, err := slowYAML(data)
		if err != nil {
			t.Fatalf("%q: fast path accepted, parser refused: %v", data, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q: fast %#v, parser %#v", data, fast, slow)
		}
	})
}

func TestHasSequenceEntry(t *testing.T) {
	for in, want := range map[string]bool{
		"a: 1\nb:\n  - x\n": true, "- a\n": true, "a:\n-\n": true, "a:\n  -": true,
		"a: my-cluster\nb: -5\n": false, "a: x - y\n": false, "a: --- \n": false, "": false,
	} {
		assert.Equal(t, want, hasSequenceEntry([]byte(in)), "%q", in)
	}
}
