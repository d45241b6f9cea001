package encode

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJSONExactAndOrdered(t *testing.T) {
	v := map[string]any{"b": json.Number("9007199254740993"), "a": []any{"<x>", nil, true}, "c": map[string]any{}}
	assert.Equal(t, `{"a":["<x>",null,true],"b":9007199254740993,"c":{}}`, string(JSON(v, nil, "")))
	assert.Equal(t, "{\n  \"a\": [\n    \"<x>\",\n    null,\n    true\n  ],\n  \"b\": 9007199254740993,\n  \"c\": {}\n}", string(JSON(v, nil, "  ")))
}

func TestYAMLQuotesWhatWouldBeMisread(t *testing.T) {
	for _, s := range []string{"yes", "no", "on", "off", "y", "007", "1.10", "0x1F", "true", "null", "", "1_000", "12:30", "~", "- a", "a: b", "#c"} {
		out, err := YAML(map[string]any{"k": s}, nil)
		require.NoError(t, err)
		assert.NotEqual(t, "k: "+s+"\n", string(out), "%q must be quoted", s)
	}
	out, err := YAML(map[string]any{"n": "x"}, nil)
	require.NoError(t, err)
	assert.Equal(t, "\"n\": x\n", string(out), "keys too: n is false in YAML 1.1")
	out, err = YAML(map[string]any{"k": "plain words"}, nil)
	require.NoError(t, err)
	assert.Equal(t, "k: plain words\n", string(out))
	out, err = YAML(map[string]any{"big": json.Number("123456789012345678901234567890"), "f": json.Number("1.50")}, nil)
	require.NoError(t, err)
	assert.Equal(t, "big: 123456789012345678901234567890\nf: 1.50\n", string(out))
}

// writeString writes what encoding/json writes without HTML escaping:
// plain ASCII directly, everything else through the encoder.
func TestWriteStringAsEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "<&>", "a\"b", `a\b`, "tab\there", "\x00\x1f", "\x7f", "é", "\u2028", "\xff", "~ {}[]:,"} {
		assert.Equal(t, stdString(t, s), stringJSON(s), "%q", s)
	}
}

func FuzzWriteString(f *testing.F) {
	for _, s := range []string{"", "plain", "a\"b", "\x7f", "\xffé\u2029"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		require.Equal(t, stdString(t, s), stringJSON(s))
	})
}

func stringJSON(s string) string {
	var b bytes.Buffer
	writeString(&b, s)
	return b.String()
}

func stdString(t *testing.T, s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(s))
	return strings.TrimSuffix(b.String(), "\n")
}
