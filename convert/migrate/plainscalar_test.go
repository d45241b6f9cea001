package migrate

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// decodeSchema has a node of each kind a plain scalar can land on.
const decodeSchema = `
type: object
properties:
  s: {type: string}
  ns: {type: string, nullable: true}
  i: {type: integer}
  n: {type: number}
  b: {type: boolean}
  sn: {type: [string, "null"]}
  si: {type: [string, integer]}
  l: {type: array, items: {type: integer}}
  free: {type: object}
  untyped: {description: no type}
  m: {type: object, additionalProperties: {type: string}}
  closed: {type: object, properties: {a: {type: integer}}, additionalProperties: false}
  nested:
    type: object
    properties:
      a: {type: integer}
      b: {}
`

// plainScalarTexts are plain scalars whose text YAML 1.2 core typing
// would change: a number written otherwise, a word that is a boolean in
// YAML 1.1, null, an integer beyond float64.
var plainScalarTexts = []string{"007", "1.10", "yes", "0x1F", "~", "9007199254740993", "0o17", "+5", "1E3", ".5", "-0", "Null", "TRUE", "on", "", "a b"}

func TestDecodeDocumentKeepsTextNoNodeTypes(t *testing.T) {
	s := mustSchema(t, decodeSchema)
	v, err := decode(s, []byte(`
s: 007
ns: ~
i: 007
n: 1.10
b: true
si: 007
l: [007, 0x1F]
free: {code: 007, list: [yes, ~, 1.10]}
untyped: 0x1F
m: {k: 007}
nested: {a: 0x1F, b: 9007199254740993, c: yes}
extra: 007
`))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{
		"s":       "007",
		"ns":      nil,
		"i":       json.Number("7"),
		"n":       json.Number("1.10"),
		"b":       true,
		"si":      json.Number("7"),
		"l":       []any{json.Number("7"), json.Number("31")},
		"free":    map[string]any{"code": plainScalar("007"), "list": []any{plainScalar("yes"), plainScalar("~"), plainScalar("1.10")}},
		"untyped": plainScalar("0x1F"),
		"m":       map[string]any{"k": "007"},
		"nested":  map[string]any{"a": json.Number("31"), "b": plainScalar("9007199254740993"), "c": plainScalar("yes")},
		"extra":   plainScalar("007"),
	}, v)

	// The common shape takes the fast reader; it types the same way.
	v, err = decode(s, []byte("s: 007\ni: 007\nextra: 007\nnested:\n  a: 0x1F\n  c: yes\n"))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"s": "007", "i": json.Number("7"), "extra": plainScalar("007"),
		"nested": map[string]any{"a": json.Number("31"), "c": plainScalar("yes")}}, v)

	// An alias is typed where it lands, not where its anchor is.
	v, err = decode(s, []byte("s: &x 007\ni: *x\nextra: *x\n"))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"s": "007", "i": json.Number("7"), "extra": plainScalar("007")}, v)

	// JSON means what it says; quoted YAML is a string.
	v, err = decode(s, []byte(`{"extra": 7, "s": 7}`))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"extra": json.Number("7"), "s": json.Number("7")}, v)
	v, err = decode(s, []byte("extra: '007'\n"))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"extra": "007"}, v)
}

func TestDecodeDocumentErrorsAreParamsErrors(t *testing.T) {
	s := mustSchema(t, decodeSchema)
	for _, doc := range []string{"", "a: [", "extra: 1e99999\n", "extra:\n  deep: 1e99999\n", "l: [1e99999]\n", "a: 1\na: 2\n", `{"a": 1e99999}`} {
		_, err := decode(s, []byte(doc))
		require.Error(t, err, "%q", doc)
		var de *schema.Error
		require.True(t, errors.As(err, &de), "%q: %T %v", doc, err, err)
		_, perr := params.Decode(s, []byte(doc))
		require.Error(t, perr, "%q: params.Decode reads it", doc)
		assert.Equal(t, perr.(*schema.Error).Pointer, de.Pointer, "%q", doc)
	}
	// A string node takes such number text as a string, as params.Decode does.
	v, err := decode(s, []byte("s: 1e99999\n"))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"s": "1e99999"}, v)
}

func TestPlainScalarMeansWhatYAMLCoreSays(t *testing.T) {
	for text, want := range map[string]any{"007": json.Number("7"), "0x1F": json.Number("31"), "1.10": json.Number("1.10"),
		"~": nil, "": nil, "yes": "yes", "TRUE": true, "9007199254740993": json.Number("9007199254740993"), ".inf": ".inf"} {
		assert.Equal(t, want, plainScalar(text).Value(), text)
	}
}

// decode is decodeDocument with the errors ConvertDocument gives.
func decode(s *schema.Schema, data []byte) (any, error) {
	return decodeDocument(s, data)
}

// decodeMatchesParams checks that decodeDocument reads data as
// params.Decode does but for the text of plain scalars no node types: same
// error or none, and the same values once each plainScalar is what it
// means.
func decodeMatchesParams(t *testing.T, s *schema.Schema, data []byte) {
	t.Helper()
	got, err := decode(s, data)
	want, perr := params.Decode(s, data)
	if (err == nil) != (perr == nil) {
		t.Fatalf("%q: decodeDocument error %v, params.Decode error %v", data, err, perr)
	}
	if err != nil {
		return
	}
	if !value.Identical(plainScalarsMeaning(got), want) {
		t.Fatalf("%q:\ndecodeDocument %#v\nparams.Decode %#v", data, got, want)
	}
}

func decodeSchemas(t testing.TB) []*schema.Schema {
	out := []*schema.Schema{mustSchema(t, decodeSchema)}
	for _, name := range []string{"kep", "nested", "maps", "types"} {
		s, err := parseSchemaFile(filepath.Join("testdata/migrate/pairs", name, "new.yaml"))
		require.NoError(t, err)
		out = append(out, s)
	}
	return out
}

func TestDecodeDocumentMatchesParamsDecode(t *testing.T) {
	schemas := decodeSchemas(t)
	docs := append([]string{}, fastYAMLSeeds...)
	for _, text := range plainScalarTexts {
		for _, key := range []string{"s", "ns", "i", "n", "b", "sn", "si", "extra"} {
			docs = append(docs, key+": "+text+"\n", "free:\n  "+key+": "+text+"\n", "l: ["+text+"]\n", "m: {k: "+text+"}\n")
		}
	}
	for _, s := range schemas {
		for _, d := range docs {
			decodeMatchesParams(t, s, []byte(d))
		}
	}
}

// FuzzDecodeDocument holds decodeDocument to params.Decode on any
// document: it refuses what params.Decode refuses and reads the same
// values, but for the text of plain scalars no node types.
func FuzzDecodeDocument(f *testing.F) {
	addInputSeeds(f)
	f.Add([]byte("ns: ~\nsn: null\ni: 0x1F\nextra: [yes, 007]\n"))
	schemas := decodeSchemas(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, s := range schemas {
			decodeMatchesParams(t, s, data)
		}
	})
}
