package convert

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/yamlx"
)

// slowYAML reads a document the general way.
func slowYAML(data []byte) (any, error) {
	node, err := yamlx.ParseNode(data)
	if err != nil {
		return nil, err
	}
	return yamlx.ToValue(node, plainScalarTyper{})
}

var fastYAMLSeeds = []string{
	"CLUSTER_NAME: \"my-cluster\"\nBACKUP_ENABLED: false\nBACKUP_CREDENTIALS_USERNAME: \"some value\"\n",
	"a:\n  b: 1\n  c:\n    d: 'it''s'\ne: x # comment\n",
	"# head\nkey:   # nothing\nother: 007\n",
	"a: 1\n  b: 2\n",
	"a:\n- 1\n",
	"a: [1, 2]\n",
	"a: x: y\n",
	"a: 'unclosed\n",
	"a: \"esc\\n\"\n",
	"a: 1\na: 2\n",
	"<<: {a: 1}\n",
	"\"quoted key\": v\n'single': w\n",
	"a: -5\nb: -\n",
	"a: http://example.com:8080/x\n",
	"a:b: c\n",
	"a: b#c\n",
	"a: \"x\"#c\n",
	"a: \"x\" # c\n",
	"key : v\n",
	"a:\n\n  # c\n  b: 1\n",
	"a:\n    b: 1\n  c: 2\n",
	" a: 1\n",
	"a: ~\nb: null\nc: \"\"\nd:\n",
	"a:\tb\n",
	"a: 1\r\nb: 2\r\n",
	"a: ...\nb: ---x\n",
	"1: one\ntrue: yes\n",
	"a: |\n  text\n",
	"a: &x 1\nb: *x\n",
	"a: !!str 1\n",
	"plain\n",
	"a: b c  d\n",
	"a: 'x'y\n",
	"? a\n: b\n",
	"a: :x\n",
	"a: ?x\n",
	"a: %x\n",
}

func TestFastYAMLMatchesTheParser(t *testing.T) {
	taken := 0
	for _, s := range fastYAMLSeeds {
		fast, ok := migFastYAML([]byte(s))
		if !ok {
			continue
		}
		taken++
		slow, err := slowYAML([]byte(s))
		require.NoError(t, err, "%q: the fast path accepted what the parser refuses", s)
		require.True(t, identical(fast, slow), "%q: fast %#v, parser %#v", s, fast, slow)
	}
	require.Greater(t, taken, 10, "the fast path should take the common shapes")
	// And it takes the KEP instance, the shape batch migration measures.
	_, ok := migFastYAML([]byte(fastYAMLSeeds[0]))
	require.True(t, ok)
}

// FuzzMigrateFastYAML holds the fast path to the YAML parser: whatever it
// accepts, the parser reads the same.
func FuzzMigrateFastYAML(f *testing.F) {
	for _, s := range fastYAMLSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok := migFastYAML(data)
		if !ok {
			return
		}
		slow, err := slowYAML(data)
		if err != nil {
			t.Fatalf("%q: fast path accepted, parser refused: %v", data, err)
		}
		if !identical(fast, slow) {
			t.Fatalf("%q: fast %#v, parser %#v", data, fast, slow)
		}
	})
}
