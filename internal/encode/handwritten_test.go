package encode

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHandwrittenJSON(t *testing.T) {
	v := map[string]any{
		"type":  "string",
		"enum":  []any{"a", "b"},
		"items": []any{map[string]any{"x": json.Number("1.50")}},
		"empty": map[string]any{},
		"none":  []any{},
	}
	tests := []struct {
		name, prefix, unit, want string
	}{
		{"one line", "", "", `{"empty": {}, "enum": ["a", "b"], "items": [{"x": 1.50}], "none": [], "type": "string"}`},
		{"indented from a prefix", "  ", "  ", "{\n" +
			"    \"empty\": {},\n" +
			"    \"enum\": [\"a\", \"b\"],\n" +
			"    \"items\": [\n" +
			"      {\n" +
			"        \"x\": 1.50\n" +
			"      }\n" +
			"    ],\n" +
			"    \"none\": [],\n" +
			"    \"type\": \"string\"\n" +
			"  }"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := HandwrittenJSON(v, nil, tt.prefix, tt.unit)
			assert.Equal(t, tt.want, got)
			var back any
			dec := json.NewDecoder(strings.NewReader(got))
			dec.UseNumber()
			require.NoError(t, dec.Decode(&back), "the text is JSON")
			assert.Equal(t, v, back, "and reads back as the value, numbers exact")
		})
	}
}

// TestHandwrittenJSONOrder: an Orderer puts the keys of every object in
// its order, as JSON does.
func TestHandwrittenJSONOrder(t *testing.T) {
	v := map[string]any{"b": 1, "a": map[string]any{"d": true, "c": nil}}
	o := ByKeyOrder(map[string][]string{"": {"b", "a"}, "/a": {"d", "c"}})
	assert.Equal(t, `{"b": 1, "a": {"d": true, "c": null}}`, HandwrittenJSON(v, o, "", ""))
}
