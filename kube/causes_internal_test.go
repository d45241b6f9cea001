package kube

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// TestCausesAtThePropertysPointer: a forbidden property reported at its
// own pointer (with the key in the pointer, not in the message) is a
// cause at its own field path, naming the closest declared names; a
// required one is FieldValueRequired at its own path.
func TestCausesAtThePropertysPointer(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type": "object", "additionalProperties": false,
		"properties": {"maxMemoryMB": {"type": "integer"}, "tiers": {"type": "array", "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}}}`))
	require.NoError(t, err)
	errs := schema.ErrorList{
		{Kind: schema.KindAdditional, Pointer: "/maxMemoryMb", Message: "not allowed here (the schema does not declare it)"},
		{Kind: schema.KindRequired, Pointer: "/tiers/0/name", Message: "missing required property"},
	}
	cs, total := causes("/spec/parameters", errs.Err(), s)
	assert.Equal(t, 2, total)
	assert.Equal(t, []StatusCause{
		{Type: "FieldValueForbidden", Field: "spec.parameters.maxMemoryMb", Message: `not allowed here (the schema does not declare it); did you mean "maxMemoryMB"?`},
		{Type: "FieldValueRequired", Field: "spec.parameters.tiers[0].name", Message: "missing required property"},
	}, cs)
}

// TestJSONSize: without escapes, jsonSize is the length of the compact
// JSON params.MarshalJSON writes.
func TestJSONSize(t *testing.T) {
	for _, src := range []string{`null`, `true`, `false`, `"abc"`, `9007199254740993`, `-1.5e3`, `{}`, `[]`,
		`{"a":1,"bb":[true,null,"x"],"c":{"d":{}}}`, `[{"op":"replace","path":"/spec/parameters","value":{"n":1}}]`} {
		v, err := params.Decode(nil, []byte(src))
		require.NoError(t, err)
		out, err := params.MarshalJSON(nil, v, "")
		require.NoError(t, err)
		assert.Equal(t, len(out), jsonSize(v), src)
	}
}
