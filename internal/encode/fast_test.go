package encode

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	yaml "go.yaml.in/yaml/v3"
)

// valueWords are strings values hold: plain words, versions, quantities,
// URLs, image references, and strings the quoter quotes (YAML 1.1
// booleans, numbers as text, leading spaces, ": " and " #"), next to
// those fastYAML leaves to the encoder (line breaks, quotes, backslashes,
// tabs, characters beyond ASCII, long text).
var valueWords = []string{
	"a", "info", "IfNotPresent", "team-3", "500m", "512Mi", "v1.2.3", "1.2.3-rc1", "registry.example.com/team/service-1:1.0",
	"http://example.com:8080/path", "user@example.com", "a=b", "x+y", "~home", "_private", "two words", "key.with/dots",
	"yes", "on", "No", "null", "~", "", " lead", "trail ", "a: b", "a:", "a #b", "# c", "- d", "007", "1.10", "0x1F", "1e3", "1_000", "12:30",
	"2001-12-14", "true", "=", "<<", "[x]", "{y}", "&anchor", "*ref", "!tag", "%p", "@at", "`tick`", "'single'", `"double"`,
	"back\\slash", "x\ny", "tab\tin", "ünï", "a  b", "a : b", "a:b", "-x", ".x", "/x", "a,b", "a?b", "a|b",
	"long " + strings.Repeat("word ", 30) + "end", strings.Repeat("k", 70),
}

// valueOf builds a random value of the shapes values files hold.
func valueOf(r *rand.Rand, depth int) any {
	switch k := r.IntN(10); {
	case depth > 4 || k < 4:
		switch r.IntN(6) {
		case 0:
			return json.Number([]string{"0", "-5", "42", "1.5", "1e+21", "-0.25", "9007199254740993"}[r.IntN(7)])
		case 1:
			return r.IntN(2) == 0
		case 2:
			return nil
		}
		return valueWords[r.IntN(len(valueWords))]
	case k < 6:
		l := make([]any, r.IntN(4))
		for i := range l {
			l[i] = valueOf(r, depth+1)
		}
		return l
	default:
		m := map[string]any{}
		for range r.IntN(6) {
			key := valueWords[r.IntN(len(valueWords))]
			if r.IntN(2) == 0 {
				key = fmt.Sprintf("k%d", r.IntN(100))
			}
			m[key] = valueOf(r, depth+1)
		}
		return m
	}
}

// sameAsEncoder fails t unless fastYAML declines n or writes the bytes
// the encoder writes; it reports whether fastYAML wrote it.
func sameAsEncoder(t *testing.T, n *yaml.Node) bool {
	t.Helper()
	got, ok := fastYAML(n)
	if !ok {
		return false
	}
	want, err := yamlWhole(n)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
	return true
}

// TestFastYAMLSameBytes: on random values of the shapes values files
// hold, fastYAML writes what the encoder writes, or declines; and it
// writes most of them (the test would pass vacuously otherwise).
func TestFastYAMLSameBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 44))
	wrote := 0
	const n = 3000
	for range n {
		if sameAsEncoder(t, newQuoter().node(valueOf(r, 0), nil)) {
			wrote++
		}
	}
	t.Logf("fastYAML wrote %d of %d", wrote, n)
	assert.Greater(t, wrote, n/4, "values written by fastYAML")
	// Every word on its own: as a value, a key, a list item.
	for _, w := range valueWords {
		for _, v := range []any{w, map[string]any{w: w}, []any{w, map[string]any{"k": []any{w}}}, map[string]any{"a": map[string]any{w: []any{}}}} {
			sameAsEncoder(t, newQuoter().node(v, nil))
		}
	}
}

// TestFastYAMLWritesValuesFiles: the shapes of a values file (nested
// maps, lists of maps, lists of lists, empty maps and lists, quoted
// versions) go by fastYAML, in the encoder's bytes; a line break, a
// quote or a long key does not.
func TestFastYAMLWritesValuesFiles(t *testing.T) {
	v := map[string]any{
		"image":       map[string]any{"repository": "registry.example.com/team/app", "tag": "1.2.3", "pullPolicy": "IfNotPresent"},
		"resources":   map[string]any{"limits": map[string]any{"cpu": "500m", "memory": "512Mi"}, "requests": map[string]any{}},
		"env":         []any{map[string]any{"name": "LOG_LEVEL", "value": "info"}, map[string]any{"name": "RATIO", "value": "0.5"}},
		"matrix":      []any{[]any{json.Number("1"), json.Number("2")}, []any{}, []any{map[string]any{"a": nil}}},
		"enabled":     true,
		"replicas":    json.Number("3"),
		"url":         "https://example.com:8443/x",
		"on":          "yes",
		"tolerations": []any{},
	}
	assert.True(t, sameAsEncoder(t, newQuoter().node(v, nil)))
	for _, declined := range []any{
		map[string]any{"a": "line\nbreak"},
		map[string]any{"a": `say "hi"`},
		map[string]any{strings.Repeat("k", 65): "v"},
		map[string]any{"a": "ünï"},
	} {
		_, ok := fastYAML(newQuoter().node(declined, nil))
		assert.False(t, ok, "%v", declined)
	}
	// Nodes the quoter never builds are left to the encoder too.
	for _, n := range []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "a", HeadComment: "# c"},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "a", Style: yaml.SingleQuotedStyle},
		{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: "a"}, {Kind: yaml.ScalarNode, Tag: "!!str", Value: "b"}}},
		{Kind: yaml.SequenceNode, Tag: "!!seq"},
		{Kind: yaml.ScalarNode, Tag: "!!int", Value: "1"},
		{Kind: yaml.AliasNode, Value: "x"},
	} {
		_, ok := fastYAML(n)
		assert.False(t, ok)
	}
}

// FuzzFastYAML: any JSON value, and any string as a value and as a key,
// is written by fastYAML in the encoder's bytes, or left to it.
func FuzzFastYAML(f *testing.F) {
	f.Add(`{"a":{"b":[1,{"c":"500m"}],"d":[]},"e":"1.10","f":{}}`, "v1.2.3")
	f.Add(`[[1,2],[],[{"a":null}]]`, "a: b")
	f.Add(`"x"`, "")
	f.Fuzz(func(t *testing.T, doc, word string) {
		for _, v := range []any{word, map[string]any{word: word}, []any{word, map[string]any{"k": []any{word}}}} {
			sameAsEncoder(t, newQuoter().node(v, nil))
		}
		d := json.NewDecoder(strings.NewReader(doc))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil {
			return
		}
		sameAsEncoder(t, newQuoter().node(v, nil))
	})
}
