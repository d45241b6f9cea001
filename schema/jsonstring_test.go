package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJSONStringIsEncodingJSONs: jsonString writes a string exactly as
// encoding/json does with HTML escaping off.
func TestJSONStringIsEncodingJSONs(t *testing.T) {
	want := func(s string) string {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s)
		return strings.TrimSuffix(buf.String(), "\n")
	}
	for _, s := range []string{
		"", "plain", "it's", `say "hi"`, `back\slash`, "ü€𝄞", "tab\there\nnew\rline",
		"\x00\x01\x1f\x7f", "\b\f", "<a&b>", "\xff\xfe bad", "line\u2028sep\u2029para", "^it's$", strings.Repeat("x", 100),
	} {
		assert.Equal(t, want(s), jsonString(s), "%q", s)
	}
}

func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"", "it's", "\xff", "\u2028", "a\"b\\c\x01", "\f\b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s)
		if got, want := jsonString(s), strings.TrimSuffix(buf.String(), "\n"); got != want {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	})
}

// TestEngineQuoteIsTheEngines: engineQuote writes a name as the engine
// writes it in its own messages (the engine's function is unexported, so
// its output is read from a message that quotes a property name).
func TestEngineQuoteIsTheEngines(t *testing.T) {
	s, err := Parse([]byte(`{"additionalProperties": false}`))
	require.NoError(t, err)
	for _, k := range []string{"a", "it's", `say "hi"`, `back\slash`, `trailing\`, "ü\x00\xff", "a, b", "'"} {
		err := s.compiled.Validate(map[string]any{k: true})
		var ve *jsonschema.ValidationError
		require.True(t, errors.As(err, &ve))
		leaf := leaves(ve)[0]
		assert.Equal(t, "additionalProperties "+engineQuote(k)+" not allowed", leaf.Message, "%q", k)
	}
}

// FuzzEngineQuote: a string the engine quotes in a message is read back
// exactly (all but one with a trailing backslash, which the engine's
// quoting loses), names it lists are found among the keys of the value,
// and requote never fails on any message.
func FuzzEngineQuote(f *testing.F) {
	for _, s := range []string{"", "^it's$", `a\"b`, `\\'`, "ü\x00\xff", `'`, `"`, `\`, "a, b"} {
		f.Add(s, "other")
	}
	f.Fuzz(func(t *testing.T, s, other string) {
		q := engineQuote(s)
		if !strings.HasSuffix(s, `\`) {
			got, n, ok := engineString(q + " rest")
			if !ok || n != len(q) || got != s {
				t.Fatalf("%q quoted as %s: read %q (ok %v, n %d)", s, q, got, ok, n)
			}
		}
		if s != other {
			obj := map[string]any{s: 1, other: 2, "declared": 3}
			names, ok := extraNames(engineQuote(other)+", "+q, obj)
			keys := []string{s, other}
			sort.Strings(keys) // sorted by key, as the value's keys are
			want := []string{jsonString(keys[0]), jsonString(keys[1])}
			if ok && !slices.Equal(names, want) {
				t.Fatalf("%q, %q: %v", s, other, names)
			}
			if !ok && !strings.Contains(s+other, ", ") {
				t.Fatalf("%q, %q: not found", s, other)
			}
		}
		_ = requote(s)
		_ = requote("does not match pattern " + q)
	})
}
