package params_test

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test -update")
	assert.Equal(t, string(want), string(got))
}

func mustSchema(t testing.TB, src string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(src))
	require.NoError(t, err)
	return s
}

func mustSchemaFile(t testing.TB, path string) *schema.Schema {
	t.Helper()
	s, err := parseSchemaFile(path)
	require.NoError(t, err)
	return s
}

func TestDecodeTrapsGolden(t *testing.T) {
	s := mustSchemaFile(t, "testdata/decode/schema.yaml")
	data, err := os.ReadFile("testdata/decode/traps.yaml")
	require.NoError(t, err)
	v, err := params.Decode(s, data)
	require.NoError(t, err)
	require.NoError(t, params.Validate(s, v), "every trap decodes to a valid value")
	golden(t, "testdata/decode/traps.golden.json", append(mustBytes(params.MarshalJSON(s, v, "  ")), '\n'))
}

func TestDecodeTypesComeFromTheSchema(t *testing.T) {
	s := mustSchemaFile(t, "testdata/decode/schema.yaml")
	tests := []struct {
		yaml string
		ptr  string
		want any
	}{
		{"version: 1.10", "version", "1.10"},
		{"answer: yes", "answer", "yes"},
		{"hex: 0x1F", "hex", "0x1F"},
		{"zip: 007", "zip", "007"},
		{"flag: true", "flag", "true"},
		{"flag: null", "flag", "null"},
		{"flag: ~", "flag", "~"},
		{"empty:", "empty", ""},
		{"nodeCount: 3", "nodeCount", json.Number("3")},
		{"nodeCount: 0x1F", "nodeCount", json.Number("31")},
		{"nodeCount: 007", "nodeCount", json.Number("7")},
		{"bigInt: 9007199254740993", "bigInt", json.Number("9007199254740993")},
		{"bigInt: 123456789012345678901234567890", "bigInt", json.Number("123456789012345678901234567890")},
		{"ratio: 1.10", "ratio", json.Number("1.10")},
		{"ratio: 1e3", "ratio", json.Number("1e3")},
		{"ratio: .5", "ratio", json.Number("0.5")},
		{"enabled: true", "enabled", true},
		{"enabled: False", "enabled", false},
		{"nullableName: null", "nullableName", nil},
		{"nullableName: yes", "nullableName", "yes"},
		{"either: 12", "either", json.Number("12")},
		{"either: twelve", "either", "twelve"},
		{"free: yes", "free", "yes"},
		{"free: on", "free", "on"},
		{"free: 12", "free", json.Number("12")},
		{"free: 1.10", "free", json.Number("1.10")},
		{"free: .inf", "free", ".inf"},
		{"free: True", "free", true},
		{"free: '12'", "free", "12"},
		{"free: !!str 12", "free", "12"},
		{"nodeCount: '3'", "nodeCount", "3"},
	}
	for _, tt := range tests {
		t.Run(tt.yaml, func(t *testing.T) {
			v, err := params.Decode(s, []byte(tt.yaml))
			require.NoError(t, err)
			got := v.(map[string]any)[tt.ptr]
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestDecodeInvalidTextIsAValidationError(t *testing.T) {
	s := mustSchemaFile(t, "testdata/decode/schema.yaml")
	data, err := os.ReadFile("testdata/decode/invalid.yaml")
	require.NoError(t, err)
	v, err := params.Decode(s, data)
	require.NoError(t, err, "text that cannot take its node's type is not a read error")
	err = params.Validate(s, v)
	var list schema.ErrorList
	require.True(t, problem.As(err, &list))
	ptrs := map[string]bool{}
	for _, e := range list {
		ptrs[e.Pointer] = true
	}
	assert.Equal(t, map[string]bool{"/nodeCount": true, "/enabled": true, "/ports/1": true}, ptrs, "all errors at once")
}

func TestJSONMeansWhatItSays(t *testing.T) {
	s := mustSchemaFile(t, "testdata/decode/schema.yaml")
	v, err := params.Decode(s, []byte(`{"version": 1.10, "nodeCount": "3"}`))
	require.NoError(t, err)
	m := v.(map[string]any)
	assert.Equal(t, json.Number("1.10"), m["version"], "a JSON number stays a number even on a string node")
	assert.Equal(t, "3", m["nodeCount"])
	err = params.Validate(s, v)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "/version")
	assert.Contains(t, err.Error(), "/nodeCount")
}

func TestDecodeReader(t *testing.T) {
	s := mustSchemaFile(t, "testdata/decode/schema.yaml")
	stream := "version: 1.10\n---\n{\"version\": \"2\"}\n--- # comment\nzip: 007\n---\n# only a comment\n---\n{\"nodeCount\": 9007199254740993}\n"
	docs, err := readAll(s, []byte(stream))
	require.NoError(t, err)
	require.Len(t, docs, 4)
	assert.Equal(t, "1.10", docs[0].Value.(map[string]any)["version"])
	assert.Equal(t, "2", docs[1].Value.(map[string]any)["version"])
	assert.Equal(t, "007", docs[2].Value.(map[string]any)["zip"])
	assert.Equal(t, json.Number("9007199254740993"), docs[3].Value.(map[string]any)["nodeCount"])
	for i, d := range docs {
		assert.Equal(t, i, d.Index)
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct{ name, in, contains string }{
		{"yaml syntax", "a: [1,\n", "line"},
		{"duplicate yaml key", "a: 1\na: 2\n", "duplicate key"},
		{"duplicate json key", `{"a":1,"a":2}`, "duplicate key"},
		{"huge exponent json", `{"a":1e999999999}`, "out of the supported range"},
		{"huge exponent yaml", "a: 1e999999999\n", "out of the supported range"},
		{"invalid utf8 json", "{\"a\":\"\xff\"}", "UTF-8"},
		{"deep json", strings.Repeat("[", 2000) + strings.Repeat("]", 2000), "nesting"},
		{"empty", "", "no document"},
		{"two docs", "a: 1\n---\nb: 2\n", "more than one"},
		{"unknown tag", "a: !!python/object x\n", "unsupported YAML tag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := params.Decode(nil, []byte(tt.in))
			require.Error(t, err)
			var de *schema.Error
			assert.True(t, errors.As(err, &de), "a *schema.Error: %T %v", err, err)
			assert.Contains(t, err.Error(), tt.contains)
		})
	}
}

func TestAliasBombIsBounded(t *testing.T) {
	bomb := `a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
`
	_, err := params.Decode(nil, []byte(bomb))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "alias")
}

func TestParseText(t *testing.T) {
	s := mustSchema(t, `
type: object
properties:
  NODE_COUNT: {type: integer}
  BACKUP_ENABLED: {type: boolean}
  ARRAY_PARAM: {type: array, items: {type: string}}
  MAP_PARAM: {type: object, additionalProperties: {type: string}}
  INTS: {type: array, items: {type: integer}}
  NAME: {type: string}
  LABEL:
    type: object
    properties:
      key: {type: string}
      value: {type: string}
  obj:
    type: object
    properties:
      a: {type: string}
      n: {type: integer}
`)
	tests := []struct {
		ptr, text string
		want      any
	}{
		{"/NODE_COUNT", "3", json.Number("3")},
		{"/BACKUP_ENABLED", "false", false},
		{"/ARRAY_PARAM", "[foo,bar,bazz]", []any{"foo", "bar", "bazz"}},
		{"/ARRAY_PARAM", "[1, yes, 1.10]", []any{"1", "yes", "1.10"}},
		{"/MAP_PARAM", `{foo:"bar"}`, map[string]any{"foo": "bar"}},
		{"/MAP_PARAM", `{foo: bar, n: 1}`, map[string]any{"foo": "bar", "n": "1"}},
		{"/INTS", "[1, 2, 9007199254740993]", []any{json.Number("1"), json.Number("2"), json.Number("9007199254740993")}},
		{"/NAME", "[not, a, list]", "[not, a, list]"},
		{"/NAME", "007", "007"},
		{"/NAME", " spaced ", " spaced "},
		{"/LABEL", `{ key: "Usage", value: "newValue" }`, map[string]any{"key": "Usage", "value": "newValue"}},
		{"/obj", `{"a":1}`, map[string]any{"a": "1"}},
		{"/obj", `{"a":1, "n": 2}`, map[string]any{"a": "1", "n": json.Number("2")}},
		{"/obj", "a: x\nn: 4\n", map[string]any{"a": "x", "n": json.Number("4")}},
		{"/ARRAY_PARAM", "- a\n- 2\n", []any{"a", "2"}},
	}
	for _, tt := range tests {
		t.Run(tt.ptr+"="+tt.text, func(t *testing.T) {
			got, err := params.ParseText(s.Lookup(tt.ptr), tt.text)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	// Without a schema: YAML 1.2 core, terse flows, exact numbers.
	got, err := params.ParseText(nil, `{foo:"bar", n: 12345678901234567890, b: yes}`)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"foo": "bar", "n": json.Number("12345678901234567890"), "b": "yes"}, got)

	// Text that cannot be a collection comes back as text with a reason.
	got, err = params.ParseText(s.Lookup("/INTS"), "[1, 2")
	assert.Error(t, err)
	assert.Equal(t, "[1, 2", got)
}

func TestMarshalKeepsNumbersAndQuotes(t *testing.T) {
	s := mustSchemaFile(t, "testdata/decode/schema.yaml")
	data, err := os.ReadFile("testdata/decode/traps.yaml")
	require.NoError(t, err)
	v, err := params.Decode(s, data)
	require.NoError(t, err)
	out, err := params.MarshalYAML(s, v)
	require.NoError(t, err)
	golden(t, "testdata/decode/traps.golden.yaml", out)
	// Reading the output back gives the same values, with or without the schema.
	back, err := params.Decode(s, out)
	require.NoError(t, err)
	assert.Equal(t, v, back)
	backNoSchema, err := params.Decode(nil, out)
	require.NoError(t, err)
	assert.Equal(t, v, backNoSchema, "strings are quoted where a schema-less reader would misread them")
	// Keys follow the schema's order.
	assert.Less(t, strings.Index(string(out), "version:"), strings.Index(string(out), "answer:"))
	assert.Less(t, strings.Index(string(out), "nodeCount:"), strings.Index(string(out), "bigInt:"))
}

func TestParseTextWithoutSchemaFallsBackToYAML(t *testing.T) {
	got, err := params.ParseText(nil, `[&a [1,1], *a]`)
	require.NoError(t, err)
	assert.Equal(t, []any{[]any{json.Number("1"), json.Number("1")}, []any{json.Number("1"), json.Number("1")}}, got)
	deep := strings.Repeat("[", 3000) + strings.Repeat("]", 3000)
	got, err = params.ParseText(nil, deep)
	assert.Error(t, err, "too deep for both readers: a clear error, not a silent string")
	assert.Equal(t, deep, got)
}
