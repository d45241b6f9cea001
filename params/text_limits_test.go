package params

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// Text values that break a limit come back with an error even where the
// node takes strings; multi-line text that is no collection stays itself.
func TestParseTextLimits(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type":"object","properties":{
		"any": {}, "ints": {"type":"array","items":{"type":"integer"}}, "num": {"type":"number"},
		"str": {"type":"string"}, "strOrNum": {"type":["string","number"]}}}`))
	require.NoError(t, err)
	node := func(k string) *schema.Node { return s.Root().Child(k) }
	cases := []struct {
		name, key, text string
		want            any
		err             string
	}{
		{"number out of range in a flow on a non-string node", "ints", "[1e999999999]", "[1e999999999]", "number is out of the supported range"},
		{"number out of range on a number node", "num", "1e999999999", "1e999999999", "number is out of the supported range"},
		{"number out of range where strings go", "strOrNum", "1e999999999", "1e999999999", ""},
		{"number out of range on a string node", "str", "1e999999999", "1e999999999", ""},
		{"number out of range without a schema", "", "1e999999999", "1e999999999", "number is out of the supported range"},
		{"deep flow where anything goes", "any", strings.Repeat("[", 2000), strings.Repeat("[", 2000), "nesting deeper than 1000 levels"},
		{"duplicate key where anything goes", "any", "{a: 1, a: 2}", "{a: 1, a: 2}", `duplicate key "a"`},
		{"invalid UTF-8", "str", "\xff", "\xff", "not valid UTF-8"},
		{"a broken flow where anything goes is a string", "any", "[unclosed", "[unclosed", ""},
		{"multi-line text is not folded", "", "line one\nline two", "line one\nline two", ""},
		{"multi-line text on an open node is not folded", "any", "line one\nline two", "line one\nline two", ""},
		{"a block collection still reads", "any", "a: 1\nb: [x]", map[string]any{"a": json.Number("1"), "b": []any{"x"}}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var n *schema.Node
			if c.key != "" {
				n = node(c.key)
			}
			v, err := ParseText(n, c.text)
			assert.Equal(t, c.want, v)
			if c.err == "" {
				assert.NoError(t, err)
			} else if assert.Error(t, err) {
				assert.Contains(t, err.Error(), c.err)
			}
		})
	}
}

func TestDecodeOutOfRangeNumbers(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type":"object","properties":{"n":{"type":"number"},"s":{"type":"string"},"any":{}}}`))
	require.NoError(t, err)
	for _, doc := range []string{"n: 1e999999999\n", "any: 1e999999999\n", "any: [1e999999999]\n"} {
		_, err := Decode(s, []byte(doc))
		require.Error(t, err, doc)
		assert.Contains(t, err.Error(), "number is out of the supported range", doc)
	}
	v, err := Decode(s, []byte("s: 1e999999999\n"))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"s": "1e999999999"}, v)
}
