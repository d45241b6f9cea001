package document

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCoreIsYAML12(t *testing.T) {
	tests := map[string]any{
		"yes": "yes", "no": "no", "on": "on", "off": "off", "y": "y",
		"true": true, "True": true, "FALSE": false,
		"null": nil, "~": nil, "": nil,
		"12": json.Number("12"), "0x1F": json.Number("31"), "1.10": json.Number("1.10"),
		"9007199254740993": json.Number("9007199254740993"),
		".inf":             ".inf", "1_000": "1_000", "2001-12-14": "2001-12-14",
	}
	for in, want := range tests {
		assert.Equal(t, want, Core(in), in)
	}
}

func TestToValueHonoursQuotesTagsMerges(t *testing.T) {
	src := `
quoted: "12"
single: '12'
block: |
  12
tagged: !!str 12
taggedInt: !!int "12"
base: &base {a: 1, b: 2}
merged:
  <<: *base
  b: 3
`
	n, err := ParseNode([]byte(src))
	require.NoError(t, err)
	v, err := ToValue(n, nil)
	require.NoError(t, err)
	m := v.(map[string]any)
	assert.Equal(t, "12", m["quoted"])
	assert.Equal(t, "12", m["single"])
	assert.Equal(t, "12\n", m["block"])
	assert.Equal(t, "12", m["tagged"])
	assert.Equal(t, json.Number("12"), m["taggedInt"])
	assert.Equal(t, map[string]any{"a": json.Number("1"), "b": json.Number("3")}, m["merged"])
}

func TestLimits(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+5) + strings.Repeat("]", MaxDepth+5)
	n, err := ParseNode([]byte(deep))
	if err == nil {
		_, err = ToValue(n, nil)
	}
	require.Error(t, err)
	_, err = ParseNode([]byte("a: 1\n---\nb: 2\n"))
	assert.Error(t, err)
	n, err = ParseNode([]byte("a: 1\na: 2\n"))
	require.NoError(t, err)
	_, err = ToValue(n, nil)
	assert.ErrorContains(t, err, "duplicate key")
}

func TestParseFlowTerse(t *testing.T) {
	tests := map[string]any{
		`[foo,bar,bazz]`:     []any{"foo", "bar", "bazz"},
		`{foo:"bar"}`:        map[string]any{"foo": "bar"},
		`{foo: bar, "n": 1}`: map[string]any{"foo": "bar", "n": json.Number("1")},
		`[ { key: "DCLabel", value: "dc1" }, { key: "Usage", value: "x" } ]`: []any{map[string]any{"key": "DCLabel", "value": "dc1"}, map[string]any{"key": "Usage", "value": "x"}},
		`[http://a:1/b, 'it''s']`: []any{"http://a:1/b", "it's"},
		`[]`:                      []any{},
		`{}`:                      map[string]any{},
		`[[1,2],[3]]`:             []any{[]any{json.Number("1"), json.Number("2")}, []any{json.Number("3")}},
		`{a: [1, {b: "\u00e9"}]}`: map[string]any{"a": []any{json.Number("1"), map[string]any{"b": "é"}}},
	}
	for in, want := range tests {
		n, err := ParseFlow(in)
		require.NoError(t, err, in)
		v, err := ToValue(n, nil)
		require.NoError(t, err, in)
		assert.Equal(t, want, v, in)
	}
	for _, bad := range []string{`[a, b`, `{a: 1`, `[a] x`, `{a: 1, a: 2}`, `{[a]: 1}`, `"unterminated`} {
		_, err := ParseFlow(bad)
		assert.Error(t, err, bad)
	}
}

func FuzzParseFlow(f *testing.F) {
	for _, s := range []string{`[foo,bar,bazz]`, `{foo:"bar"}`, `{a: [1, {b: c}]}`, `['x''y', "\t"]`, `{a}`, `[`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseFlow(s)
		if err != nil {
			return
		}
		if _, err := ToValue(n, nil); err != nil {
			return
		}
	})
}

func FuzzToValue(f *testing.F) {
	for _, s := range []string{"a: 1", "a: &x [1]\nb: *x", "- a\n- {b: c}", "<<: {a: 1}", "a: !!int x", "? [a]\n: b"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := ParseNode(data)
		if err != nil || n == nil {
			return
		}
		v, err := ToValue(n, nil)
		if err != nil {
			return
		}
		if _, err := json.Marshal(v); err != nil {
			t.Fatalf("value is not JSON-encodable: %v", err)
		}
	})
}

func TestParseNodeRefusesTextAfterTheDocument(t *testing.T) {
	for _, in := range []string{"{\"name\": \"a\"}\n]]]\n", "{\"name\": 1}\n{\"name\": 2}\n", "{\"a\":1} trailing\n", "a: 1\n]]]\n"} {
		_, err := ParseNode([]byte(in))
		assert.Error(t, err, "%q", in)
	}
	n, err := ParseNode([]byte("a: 1\n"))
	require.NoError(t, err)
	assert.NotNil(t, n)
	n, err = ParseNode([]byte("# only a comment\n"))
	require.NoError(t, err)
	assert.Nil(t, n)
}
