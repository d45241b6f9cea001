package paramkit_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// TestSchemaIsReadOnly: a compiled Schema cannot be changed through
// anything it hands out. The probe of issue 28 set Default to 99,
// Immutable to false and Type to string through s.Lookup("/n"); here
// everything a Schema and its nodes return (nodes, slices, defaults, enum
// values, keyword values, the document) is changed as far as Go lets a
// caller, and Validate, Default and CheckImmutable answer as before.
func TestSchemaIsReadOnly(t *testing.T) {
	s, err := schema.Parse([]byte(`type: object
properties:
  n: {type: integer, default: 3, immutable: true, enum: [1, 3]}
  o:
    type: object
    default: {a: 1}
    properties:
      a: {type: integer}
required: [n]
`))
	require.NoError(t, err)
	probe := func() (def any, valid, invalid, immutable error) {
		def, _ = params.Default(s, map[string]any{})
		valid = s.Validate(map[string]any{"n": json.Number("3")})
		invalid = s.Validate(map[string]any{"n": "x"})
		immutable = params.CheckImmutable(s, map[string]any{"n": json.Number("1")}, map[string]any{"n": json.Number("3")})
		return
	}
	def0, valid0, invalid0, imm0 := probe()
	require.NoError(t, valid0)
	require.Error(t, invalid0)
	require.Error(t, imm0)

	mutateValue := func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k := range x {
				x[k] = json.Number("99")
			}
			x["added"] = true
		case []any:
			for i := range x {
				x[i] = json.Number("99")
			}
		}
	}
	for _, ptr := range []string{"", "/n", "/o", "/o/a"} {
		n := s.Lookup(ptr)
		require.NotNil(t, n, ptr)
		for _, node := range []*schema.Node{n, s.Root(), s.NodeAt("/properties/n")} {
			mutateValue(node.Default())
			mutateValue(node.Enum())
			if ty := node.Type(); len(ty) > 0 {
				ty[0] = "string"
			}
			if ty := node.Types(); len(ty) > 0 {
				ty[0] = "string"
			}
			// Properties and Scope are iterators: they give no slice to change.
			for _, l := range [][]*schema.Node{node.Subschemas(), node.AnyOf(), node.PatternProperties()} {
				for i := range l {
					l[i] = nil
				}
			}
			if rn := node.RequiredNames(); len(rn) > 0 {
				rn[0] = "zzz"
			}
			if kw := node.Keywords(); len(kw) > 0 {
				kw[0] = "zzz"
			}
			for _, k := range node.Keywords() {
				v, _ := node.Keyword(k)
				mutateValue(v)
			}
			if b := node.Bool(); b != nil {
				*b = !*b
			}
		}
	}
	mutateValue(s.Document())
	if m, ok := s.Document().(map[string]any); ok {
		mutateValue(m["properties"])
	}

	def1, valid1, invalid1, imm1 := probe()
	assert.Equal(t, def0, def1, "Default")
	assert.Equal(t, valid0, valid1, "Validate of a valid value")
	assert.Equal(t, invalid0, invalid1, "Validate of an invalid value")
	assert.Equal(t, imm0, imm1, "CheckImmutable")
	assert.Equal(t, json.Number("3"), s.Lookup("/n").Default())
	assert.Equal(t, []string{"integer"}, s.Lookup("/n").Type())
	assert.True(t, s.Lookup("/n").Immutable())
}
