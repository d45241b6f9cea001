package schema_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// draft4Doc uses what draft-04 spells differently: "id" (a base URI and a
// plain-name anchor), "definitions", boolean exclusive bounds and
// "dependencies" with both a list and a schema.
const draft4Doc = `{
  "$schema": "http://json-schema.org/draft-04/schema#",
  "id": "http://example.com/root.json",
  "type": "object",
  "properties": {
    "port": {"$ref": "#/definitions/port"},
    "replicas": {"$ref": "#count"},
    "tls": {"$ref": "tls.json"},
    "ratio": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 1, "exclusiveMaximum": true}
  },
  "dependencies": {
    "tls": ["port"],
    "ratio": {"required": ["replicas"]}
  },
  "definitions": {
    "port": {"type": "integer", "minimum": 1, "maximum": 65535},
    "count": {"id": "#count", "type": "integer", "minimum": 0, "exclusiveMinimum": true},
    "tls": {"id": "tls.json", "type": "object", "properties": {"enabled": {"type": "boolean", "default": false}}}
  }
}`

func TestDraft4Tree(t *testing.T) {
	s, err := schema.Parse([]byte(draft4Doc))
	require.NoError(t, err)
	assert.Equal(t, "http://json-schema.org/draft-04/schema#", s.Dialect())

	// $ref through a JSON pointer, an "id" anchor and an "id" base URI.
	assert.Equal(t, "/definitions/port", s.Lookup("/port").RefTarget().Pointer())
	assert.Equal(t, "/definitions/count", s.Lookup("/replicas").RefTarget().Pointer())
	assert.Equal(t, "/definitions/tls", s.Lookup("/tls").RefTarget().Pointer())
	enabled := s.Lookup("/tls/enabled")
	require.NotNil(t, enabled)
	assert.Equal(t, "/definitions/tls/properties/enabled", enabled.Pointer())
	assert.Equal(t, []string{"integer"}, s.Lookup("/replicas").Types())
	require.Len(t, s.Root().Defs(), 3)
	// The schema form of dependencies is a subschema; the list form is not.
	assert.NotNil(t, s.NodeAt("/dependencies/ratio"))
	assert.Nil(t, s.NodeAt("/dependencies/tls"))
}

func TestDraft4Validation(t *testing.T) {
	s, err := schema.Parse([]byte(draft4Doc))
	require.NoError(t, err)
	tests := []struct {
		name  string
		value map[string]any
		msg   string // "" for valid
	}{
		{"valid", map[string]any{"port": num("80"), "replicas": num("1"), "ratio": num("0.5")}, ""},
		{"boolean exclusiveMinimum through id anchor", map[string]any{"replicas": num("0")}, "/replicas"},
		{"boolean exclusiveMaximum", map[string]any{"replicas": num("1"), "ratio": num("1")}, "/ratio"},
		{"boolean exclusiveMinimum", map[string]any{"replicas": num("1"), "ratio": num("0")}, "/ratio"},
		{"dependencies list", map[string]any{"tls": map[string]any{}}, "port"},
		{"dependencies schema", map[string]any{"ratio": num("0.5")}, "replicas"},
		{"id base uri", map[string]any{"port": num("1"), "tls": map[string]any{"enabled": "yes"}}, "/tls/enabled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Validate(tt.value)
			if tt.msg == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
}

// Draft-04 has no boolean schemas: where draft-06 accepts "true" as a
// property schema, draft-04 refuses the document, as the engine does.
func TestDraft4RefusesBooleanSchemas(t *testing.T) {
	_, err := schema.Parse([]byte(`{"$schema":"http://json-schema.org/draft-04/schema#","properties":{"a":true}}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "/properties/a")
	s, err := schema.Parse([]byte(`{"$schema":"http://json-schema.org/draft-06/schema#","properties":{"a":false}}`))
	require.NoError(t, err)
	assert.True(t, s.NodeAt("/properties/a").IsFalse())
	assert.Error(t, s.Validate(map[string]any{"a": "x"}))
	// additionalProperties: false is the boolean form draft-04 does allow.
	s, err = schema.Parse([]byte(`{"$schema":"http://json-schema.org/draft-04/schema#","properties":{"a":{}},"additionalProperties":false}`))
	require.NoError(t, err)
	assert.Error(t, s.Validate(map[string]any{"b": "x"}))
}

// Draft-06 spells the identifier "$id"; a draft-04 "id" is no identifier
// there.
func TestDraft6Identifiers(t *testing.T) {
	s, err := schema.Parse([]byte(`{"$schema":"http://json-schema.org/draft-06/schema#",
		"properties":{"a":{"$ref":"#thing"}},
		"definitions":{"thing":{"$id":"#thing","type":"string","exclusiveMinimum":3}}}`))
	require.NoError(t, err)
	assert.Equal(t, "/definitions/thing", s.Lookup("/a").RefTarget().Pointer())
	_, err = schema.Parse([]byte(`{"$schema":"http://json-schema.org/draft-06/schema#",
		"properties":{"a":{"$ref":"#thing"}},
		"definitions":{"thing":{"id":"#thing"}}}`))
	assert.Error(t, err, "draft-06 has no \"id\" keyword: #thing does not resolve")
}

func num(s string) json.Number { return json.Number(s) }

// A draft-04 schema, as many in the wild are: "id", definitions and a
// boolean exclusiveMinimum.
func ExampleParse_draft4() {
	s, err := schema.Parse([]byte(`{
  "$schema": "http://json-schema.org/draft-04/schema#",
  "id": "https://example.com/app",
  "type": "object",
  "properties": {"replicas": {"$ref": "#/definitions/count"}},
  "definitions": {"count": {"type": "integer", "minimum": 0, "exclusiveMinimum": true}}
}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Dialect() == "http://json-schema.org/draft-04/schema#")
	fmt.Println(s.Validate(map[string]any{"replicas": json.Number("0")}))
	// Output:
	// true
	// /replicas: must be > 0 but found 0
}
