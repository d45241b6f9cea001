package schema

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/jsonx"
)

// suiteCase is one test of the official JSON-Schema-Test-Suite.
type suiteCase struct {
	name    string
	dialect Dialect
	schema  []byte
	data    []byte
	valid   bool
}

func suiteCases(t testing.TB) []suiteCase {
	dialects := map[string]Dialect{"draft7": Draft7, "draft2019-09": Draft2019, "draft2020-12": Draft2020}
	var out []suiteCase
	for dir, dialect := range dialects {
		files, err := filepath.Glob(filepath.Join("testdata", "JSON-Schema-Test-Suite", "tests", dir, "*.json"))
		require.NoError(t, err)
		require.NotEmpty(t, files)
		for _, file := range files {
			raw, err := os.ReadFile(file)
			require.NoError(t, err)
			var groups []struct {
				Description string          `json:"description"`
				Schema      json.RawMessage `json:"schema"`
				Tests       []struct {
					Description string          `json:"description"`
					Data        json.RawMessage `json:"data"`
					Valid       bool            `json:"valid"`
				} `json:"tests"`
			}
			require.NoError(t, json.Unmarshal(raw, &groups), file)
			for gi, g := range groups {
				for _, tc := range g.Tests {
					out = append(out, suiteCase{
						name:    fmt.Sprintf("%s/%s/%d %s: %s", dir, filepath.Base(file), gi, g.Description, tc.Description),
						dialect: dialect, schema: g.Schema, data: tc.Data, valid: tc.Valid,
					})
				}
			}
		}
	}
	return out
}

// TestFastValidMatchesSuite checks the allocation-free fast check on its
// own, without the engine behind it: on every suite case whose schema it
// accepts it must give the suite's verdict, and it must accept most of
// the suite, so that this test covers it broadly.
func TestFastValidMatchesSuite(t *testing.T) {
	covered, total := 0, 0
	for _, c := range suiteCases(t) {
		total++
		s, err := Parse(c.schema, DefaultDialect(c.dialect))
		if err != nil || s.fast == nil {
			continue
		}
		v, err := jsonx.Decode(c.data)
		require.NoError(t, err, c.name)
		ok, sure := fastValid(s.fast, v)
		require.True(t, sure, "%s: plain JSON values are always decided", c.name)
		assert.Equal(t, c.valid, ok, c.name)
		assert.Equal(t, s.compiled.Validate(v) == nil, ok, "%s: the engine disagrees", c.name)
		covered++
	}
	t.Logf("fast check decided %d of %d suite cases", covered, total)
	assert.Greater(t, covered, total*6/10)
}

func TestFastValidRefusesWhatItDoesNotImplement(t *testing.T) {
	for _, doc := range []string{
		`{"$schema":"https://json-schema.org/draft/2020-12/schema","$dynamicAnchor":"a","properties":{"x":{"$dynamicRef":"#a"}}}`,
		`{"$schema":"https://json-schema.org/draft/2019-09/schema","$recursiveAnchor":true,"properties":{"x":{"$recursiveRef":"#"}}}`,
		`{"unevaluatedProperties":false}`,
		`{"unevaluatedItems":false}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","contentMediaType":"application/json"}`,
		`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"allOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`,
		`{"$ref":"https://json-schema.org/draft/2020-12/schema"}`,
	} {
		s, err := Parse([]byte(doc))
		if err != nil {
			continue // refused before any value: nothing to decide
		}
		assert.Nil(t, s.fast, doc)
	}
}

// TestFastValidGivesUpOnOtherGoTypes: values of Go types the engine
// judges itself (float64, int) are left to it, never guessed.
func TestFastValidGivesUpOnOtherGoTypes(t *testing.T) {
	s, err := Parse([]byte(`{"type":"object","properties":{"n":{"minimum":5}},"enum":[{"n":7}]}`))
	require.NoError(t, err)
	require.NotNil(t, s.fast)
	for _, v := range []any{
		map[string]any{"n": float64(3)},
		map[string]any{"n": 3},
		map[string]any{"n": json.Number("0x10")},
	} {
		_, sure := fastValid(s.fast, v)
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
			require.NotNil(t, s.fast, "the fast check should handle this schema")
			v, err := jsonx.Decode([]byte(tc.value))
			require.NoError(t, err)
			ok, sure := fastValid(s.fast, v)
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
	v, err := jsonx.Decode([]byte(`{"name":"x","replicas":3,"tags":["a","b"],"backup":{"enabled":true}}`))
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(100, func() {
		if err := s.Validate(v); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs)
}

// FuzzFastValid compares the fast check with the engine on arbitrary
// schemas and values: where the fast check decides, it must agree.
func FuzzFastValid(f *testing.F) {
	for i, c := range suiteCases(f) {
		if i%7 == 0 { // a spread of the suite keeps the seed corpus small
			f.Add(c.schema, c.data)
		}
	}
	f.Fuzz(func(t *testing.T, schemaDoc, data []byte) {
		s, err := Parse(schemaDoc)
		if err != nil || s.fast == nil {
			return
		}
		v, err := jsonx.Decode(data)
		if err != nil {
			return
		}
		ok, sure := fastValid(s.fast, v)
		if !sure {
			return
		}
		var engineOK bool
		func() {
			defer func() {
				if recover() != nil {
					engineOK = ok // the engine gave up; nothing to compare
				}
			}()
			engineOK = s.compiled.Validate(v) == nil
		}()
		if ok != engineOK {
			t.Fatalf("fast check says %v, engine says %v\nschema: %s\nvalue: %s", ok, engineOK, schemaDoc, data)
		}
	})
}
