package schema

import (
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/document"
)

func TestFastValidRefusesWhatItDoesNotImplement(t *testing.T) {
	for _, doc := range []string{
		`{"$schema":"https://json-schema.org/draft/2020-12/schema","$dynamicAnchor":"a","properties":{"x":{"$dynamicRef":"#a"}}}`,
		`{"$schema":"https://json-schema.org/draft/2019-09/schema","$recursiveAnchor":true,"properties":{"x":{"$recursiveRef":"#"}}}`,
		`{"unevaluatedProperties":false}`,
		`{"unevaluatedItems":false}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","contentMediaType":"application/json"}`,
		`{"$ref":"https://json-schema.org/draft/2020-12/schema"}`,
	} {
		s, err := Parse([]byte(doc))
		require.NoError(t, err, doc)
		assert.Nil(t, s.fastCheck(), doc)
	}
}

// TestFastValidRefusesInPlaceLoops: the engine refuses the loops it finds
// when compiling; the fast check must still never recurse forever on one
// it did not find, so a loop of subschemas applied to the same value
// leaves the schema to the engine.
func TestFastValidRefusesInPlaceLoops(t *testing.T) {
	_, err := Parse([]byte(`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"allOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`))
	require.Error(t, err, "the engine finds this loop itself")

	a, b := &fastNode{}, &fastNode{}
	a.ref, b.allOf = b, []*fastNode{a}
	fc := &fastCompiler{nodes: map[*jsonschema.Schema]*fastNode{nil: a, {}: b}}
	assert.True(t, fc.inPlaceCycle(a))

	// A loop through properties consumes the value and ends.
	c := &fastNode{}
	c.props = map[string]*fastNode{"next": c}
	fc = &fastCompiler{nodes: map[*jsonschema.Schema]*fastNode{nil: c}}
	assert.False(t, fc.inPlaceCycle(c))
}

// TestFastValidGivesUpOnOtherGoTypes: values of Go types the engine
// judges itself (float64, int) are left to it, never guessed.
func TestFastValidGivesUpOnOtherGoTypes(t *testing.T) {
	s, err := Parse([]byte(`{"type":"object","properties":{"n":{"minimum":5}},"enum":[{"n":7}]}`))
	require.NoError(t, err)
	require.NotNil(t, s.fastCheck())
	for _, v := range []any{
		map[string]any{"n": float64(3)},
		map[string]any{"n": 3},
		map[string]any{"n": json.Number("0x10")},
	} {
		_, sure := fastValid(s.fastCheck(), v)
		assert.False(t, sure, "%#v", v)
	}
	assert.Error(t, s.Validate(map[string]any{"n": float64(3)}), "the engine still judges it")
}

func TestFastValidKeywords(t *testing.T) {
	tests := []struct {
		schema, value string
		valid         bool
	}{
		{`{"type":"integer"}`, `3`, true},
		{`{"type":"integer"}`, `3.0`, true},
		{`{"type":"integer"}`, `1e3`, true},
		{`{"type":"integer"}`, `3.5`, false},
		{`{"type":"integer"}`, `"3"`, false},
		{`{"type":["string","null"]}`, `null`, true},
		{`{"minimum":9007199254740993}`, `9007199254740992`, false},
		{`{"minimum":9007199254740993}`, `9007199254740993`, true},
		{`{"exclusiveMaximum":1.5}`, `1.5`, false},
		{`{"exclusiveMaximum":1.5}`, `1.49999999999999999999`, true},
		{`{"maximum":10}`, `1e1`, true},
		{`{"maximum":10}`, `10.0000000000000000001`, false},
		{`{"multipleOf":0.1}`, `0.3`, true},
		{`{"multipleOf":0.1}`, `0.35`, false},
		{`{"enum":[1,"a",[1,2],{"k":null}]}`, `1.0`, true},
		{`{"enum":[1,"a",[1,2],{"k":null}]}`, `[1,2.0]`, true},
		{`{"enum":[1,"a",[1,2],{"k":null}]}`, `{"k":null}`, true},
		{`{"enum":[1,"a",[1,2],{"k":null}]}`, `{"k":false}`, false},
		{`{"const":12345678901234567890}`, `12345678901234567890`, true},
		{`{"const":12345678901234567890}`, `12345678901234567891`, false},
		{`{"minLength":2,"maxLength":3}`, `"äö"`, true},
		{`{"minLength":2,"maxLength":3}`, `"äöüß"`, false},
		{`{"pattern":"^a+$"}`, `"aaa"`, true},
		{`{"pattern":"^a+$"}`, `"ab"`, false},
		{`{"required":["a"],"properties":{"a":{"type":"string"}}}`, `{"a":"x"}`, true},
		{`{"required":["a"],"properties":{"a":{"type":"string"}}}`, `{"b":"x"}`, false},
		{`{"properties":{"a":{}},"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false}`, `{"a":1,"x-b":"s"}`, true},
		{`{"properties":{"a":{}},"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false}`, `{"a":1,"x-b":2}`, false},
		{`{"properties":{"a":{}},"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false}`, `{"c":1}`, false},
		{`{"additionalProperties":{"type":"integer"}}`, `{"c":1}`, true},
		{`{"propertyNames":{"maxLength":2}}`, `{"abc":1}`, false},
		{`{"dependentRequired":{"a":["b"]}}`, `{"a":1}`, false},
		{`{"dependentSchemas":{"a":{"required":["b"]}}}`, `{"a":1,"b":2}`, true},
		{`{"items":{"type":"integer"},"minItems":1,"maxItems":2}`, `[1,2]`, true},
		{`{"items":{"type":"integer"},"minItems":1,"maxItems":2}`, `[1,"2"]`, false},
		{`{"items":{"type":"integer"},"minItems":1,"maxItems":2}`, `[]`, false},
		{`{"prefixItems":[{"type":"string"}],"items":false}`, `["a"]`, true},
		{`{"prefixItems":[{"type":"string"}],"items":false}`, `["a",1]`, false},
		{`{"uniqueItems":true}`, `[1,1.0]`, false},
		{`{"uniqueItems":true}`, `[{"a":1},{"a":2}]`, true},
		{`{"contains":{"const":2},"maxContains":1}`, `[2,2]`, false},
		{`{"contains":{"const":2}}`, `[1,3]`, false},
		{`{"not":{"type":"null"}}`, `null`, false},
		{`{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `true`, false},
		{`{"oneOf":[{"minimum":1},{"maximum":5}]}`, `3`, false},
		{`{"oneOf":[{"minimum":1},{"maximum":5}]}`, `7`, true},
		{`{"if":{"type":"string"},"then":{"minLength":2},"else":{"type":"integer"}}`, `"a"`, false},
		{`{"if":{"type":"string"},"then":{"minLength":2},"else":{"type":"integer"}}`, `2`, true},
		{`{"$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}}}},"$ref":"#/$defs/n"}`, `{"next":{"next":{}}}`, true},
		{`{"$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}}}},"$ref":"#/$defs/n"}`, `{"next":{"next":1}}`, false},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","format":"ipv4"}`, `"1.2.3.4"`, true},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","format":"ipv4"}`, `"1.2.3"`, false},
		// Since 2019-09 format is an annotation when the dialect's
		// meta-schema says so; without $schema the engine asserts it.
		{`{"$schema":"https://json-schema.org/draft/2020-12/schema","format":"ipv4"}`, `"1.2.3"`, true},
		{`{"format":"ipv4"}`, `"1.2.3"`, false},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}],"additionalItems":false}`, `["a",1]`, false},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/s","definitions":{"s":{"type":"string"}},"type":"integer"}`, `"a"`, true},
		{`false`, `1`, false},
		{`{"immutable":true,"trigger":"deploy","x-anything":{"type":"integer"}}`, `"a"`, true},
	}
	for _, tc := range tests {
		t.Run(tc.schema+" "+tc.value, func(t *testing.T) {
			s, err := Parse([]byte(tc.schema))
			require.NoError(t, err)
			require.NotNil(t, s.fastCheck(), "the fast check should handle this schema")
			v, err := document.DecodeJSON([]byte(tc.value))
			require.NoError(t, err)
			ok, sure := fastValid(s.fastCheck(), v)
			require.True(t, sure)
			assert.Equal(t, tc.valid, ok)
			assert.Equal(t, tc.valid, s.compiled.Validate(v) == nil, "the test's expectation disagrees with the engine")
		})
	}
}

func TestFastValidDoesNotAllocate(t *testing.T) {
	s, err := Parse([]byte(`{"type":"object","required":["name"],"properties":{
		"name":{"type":"string","minLength":1},
		"replicas":{"type":"integer","minimum":1,"maximum":100},
		"tags":{"type":"array","items":{"type":"string","enum":["a","b"]}},
		"backup":{"type":"object","properties":{"enabled":{"type":"boolean"}}}}}`))
	require.NoError(t, err)
	v, err := document.DecodeJSON([]byte(`{"name":"x","replicas":3,"tags":["a","b"],"backup":{"enabled":true}}`))
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(100, func() {
		if err := s.Validate(v); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs)
}
