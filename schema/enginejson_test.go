package schema

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/document"
)

// engineReads decodes JSON the way the engine reads a resource.
func engineReads(t testing.TB, raw []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	require.NoError(t, d.Decode(&v), "%s", raw)
	return v
}

// sameAsMarshal checks that the engine reads from engineJSON(doc) exactly
// what it reads from json.Marshal(doc), and that both fail alike.
func sameAsMarshal(t testing.TB, doc any) {
	t.Helper()
	want, werr := json.Marshal(doc)
	r, gerr := engineJSON(doc)
	if werr != nil {
		require.Error(t, gerr)
		assert.Equal(t, werr.Error(), gerr.Error())
		return
	}
	require.NoError(t, gerr)
	got, err := io.ReadAll(r)
	require.NoError(t, err)
	assert.Equal(t, engineReads(t, want), engineReads(t, got))
}

func TestEngineJSONReadsLikeMarshal(t *testing.T) {
	deep := any("leaf")
	for i := 0; i < maxEngineDepth+5; i++ {
		deep = []any{deep}
	}
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	for name, doc := range map[string]any{
		"plain": map[string]any{"type": "object", "properties": map[string]any{
			"a": map[string]any{"type": "integer", "minimum": json.Number("-1.50e+3"), "default": nil, "enum": []any{true, false, json.Number("0")}},
		}},
		"escapes":        map[string]any{"q\"uo\\te": "tab\there\nnew\rline\x00\x1f\x7f </script> & \u2028\u2029"},
		"unicode":        []any{"héllo wörld ✓ 𝄞", "日本語"},
		"invalid utf-8":  map[string]any{"k\xff": "a\xffb\xc3(c\xe2\x82", "\xed\xa0\x80": "surrogate"},
		"empty":          map[string]any{"": []any{}, "o": map[string]any{}},
		"empty number":   []any{json.Number("")},
		"invalid number": []any{json.Number("1e")},
		"float64":        map[string]any{"f": 1.5, "i": 3},
		"nan":            []any{math.NaN()},
		"typed map":      map[string]any{"m": map[string]string{"b": "x", "a": "y"}},
		"deep":           deep,
		"cycle":          cyclic,
		"scalar":         "just a string",
		"bool":           true,
	} {
		t.Run(name, func(t *testing.T) { sameAsMarshal(t, doc) })
	}
}

func TestEngineJSONLargeSchema(t *testing.T) {
	data := readLarge(t)
	doc, err := document.DecodeJSON(data)
	require.NoError(t, err)
	sameAsMarshal(t, doc)
}

func readLarge(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile("../lint/testdata/large-values.schema.json")
	require.NoError(t, err)
	return data
}

// FuzzEngineJSON: for any document and any string, the engine reads the
// same from engineJSON as from json.Marshal.
func FuzzEngineJSON(f *testing.F) {
	f.Add([]byte(`{"a":[1,2.5e10,"x",null,true,{"b":{}}]}`), "plain")
	f.Add([]byte(`"\u0000\u001f\"\\"`), "a\xffb")
	f.Add([]byte(`[-0.0e-0]`), "\u2028<>&")
	f.Fuzz(func(t *testing.T, data []byte, s string) {
		if v, err := document.DecodeJSON(data); err == nil {
			sameAsMarshal(t, v)
		}
		sameAsMarshal(t, map[string]any{s: []any{s, strings.ToUpper(s)}})
	})
}
