package pointer

// What github.com/go-openapi/jsonpointer does with paramkit's pointers
// and values, and what it costs, beside this package. These tests and
// benchmarks are the measured reason, given in the README's
// "Dependencies" section, why paramkit keeps its own RFC 6901 code (the
// examples use the library, as users' code would).

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/go-openapi/jsonpointer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Both read ~0 and ~1 alike, escape alike, and hand json.Number values
// back as they are.
func TestJSONPointerLibraryAgrees(t *testing.T) {
	doc := map[string]any{
		"a/b": map[string]any{"c~d": json.Number("1.10")},
		"l":   []any{json.Number("9007199254740993"), "x"},
	}
	for _, p := range []string{"/a~1b/c~0d", "/l/0", "/l/1", "", "/a~1b"} {
		lp, err := jsonpointer.New(p)
		require.NoError(t, err, p)
		toks, err := Split(p)
		require.NoError(t, err, p)
		if toks == nil {
			toks = []string{}
		}
		assert.Equal(t, toks, lp.DecodedTokens(), p)

		got, _, err := lp.Get(doc)
		require.NoError(t, err, p)
		want, ok := Get(doc, p)
		require.True(t, ok, p)
		assert.Equal(t, want, got, p)
	}
	lp, err := jsonpointer.New("/l/0")
	require.NoError(t, err)
	got, _, err := lp.Get(doc)
	require.NoError(t, err)
	assert.IsType(t, json.Number(""), got)
	assert.Equal(t, json.Number("9007199254740993"), got)
	for tok, want := range map[string]string{"a/b": "a~1b", "c~d": "c~0d", "~1": "~01", "/~": "~1~0", "plain": "plain", "": ""} {
		assert.Equal(t, want, jsonpointer.Escape(tok), tok)
		back, err := Unescape(want)
		require.NoError(t, err)
		assert.Equal(t, tok, back)
	}
	_, err = jsonpointer.New("a")
	assert.Error(t, err, "a pointer must start with /")
}

// Where they differ, RFC 6901 is on paramkit's side: an array index has
// no leading zero or sign, and "~" is followed by 0 or 1. The library
// takes /l/01 and /l/+1 for /l/1 and ~2 as text, so a mistyped path
// would edit another element or create a key instead of being refused.
func TestJSONPointerLibraryIsLaxer(t *testing.T) {
	doc := map[string]any{"l": []any{"zero", "one"}, "a~2b": "x"}
	for _, p := range []string{"/l/01", "/l/+1", "/a~2b"} {
		lp, err := jsonpointer.New(p)
		require.NoError(t, err, p)
		got, _, err := lp.Get(doc)
		assert.NoError(t, err, "the library follows %s", p)
		assert.NotNil(t, got, p)

		_, ok := Get(doc, p)
		assert.False(t, ok, "paramkit refuses %s", p)
	}
	_, err := Split("/a~2b")
	assert.Error(t, err)
}

func largeDoc(b *testing.B) any {
	data, err := os.ReadFile("../../params/testdata/large/values.json")
	require.NoError(b, err)
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber() // paramkit's value model (jsonx would be an import cycle)
	var v any
	require.NoError(b, d.Decode(&v))
	return v
}

// BenchmarkGet follows a pointer three levels into the 554-key document.
func BenchmarkGet(b *testing.B) {
	doc := largeDoc(b)
	const p = "/storage/beta3/1/eta1"
	_, ok := Get(doc, p)
	require.True(b, ok)
	b.Run("paramkit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := Get(doc, p); !ok {
				b.Fatal(p)
			}
		}
	})
	b.Run("jsonpointer", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			lp, err := jsonpointer.New(p)
			if err != nil {
				b.Fatal(err)
			}
			if _, _, err := lp.Get(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSplit parses a pointer with escapes into its tokens.
func BenchmarkSplit(b *testing.B) {
	const p = "/spec/parameters/a~1b/items/0/c~0d"
	b.Run("paramkit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Split(p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("jsonpointer", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			lp, err := jsonpointer.New(p)
			if err != nil {
				b.Fatal(err)
			}
			_ = lp.DecodedTokens()
		}
	})
}

// sink keeps the compiler from dropping what a benchmark builds.
var sink string

// BenchmarkAppend builds the pointer of a key, as every error and diff
// does, for a plain key and one that needs escapes.
func BenchmarkAppend(b *testing.B) {
	for _, key := range []string{"replicas", "a/b~c"} {
		b.Run(key+"/paramkit", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink = Append("/spec/parameters", key)
			}
		})
		b.Run(key+"/jsonpointer", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink = "/spec/parameters" + "/" + jsonpointer.Escape(key)
			}
		})
	}
}
