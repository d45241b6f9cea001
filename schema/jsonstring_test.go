package schema

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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
