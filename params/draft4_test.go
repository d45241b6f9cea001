package params_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// Defaults reach through what draft-04 spells its own way: a $ref to an
// "id" anchor, definitions, and items as a list with additionalItems.
func TestDefaultsDraft4(t *testing.T) {
	s, err := schema.Parse([]byte(`{
  "$schema": "http://json-schema.org/draft-04/schema#",
  "type": "object",
  "properties": {
    "backup": {"$ref": "#backup"},
    "pair": {"type": "array", "items": [{"type": "object", "properties": {"a": {"default": 1}}}], "additionalItems": {"type": "object", "properties": {"b": {"default": 2}}}},
    "ratio": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "default": 0.5}
  },
  "definitions": {
    "backup": {"id": "#backup", "type": "object", "properties": {"enabled": {"type": "boolean", "default": false}}}
  }
}`))
	require.NoError(t, err)
	v, err := params.Decode(s, []byte("pair: [{}, {}, {}]\n"))
	require.NoError(t, err)
	got := defaulted(t, s, v)
	want := map[string]any{
		"backup": map[string]any{"enabled": false},
		"pair":   []any{map[string]any{"a": json.Number("1")}, map[string]any{"b": json.Number("2")}, map[string]any{"b": json.Number("2")}},
		"ratio":  json.Number("0.5"),
	}
	assert.Equal(t, want, got)
	require.NoError(t, params.Validate(s, got))
	assert.Error(t, params.Validate(s, map[string]any{"ratio": json.Number("0")}), "draft-04 boolean exclusiveMinimum")
}
