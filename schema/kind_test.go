package schema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/schema"
)

func jsonValue(t *testing.T, s string) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader([]byte(s)))
	d.UseNumber()
	var v any
	require.NoError(t, d.Decode(&v))
	return v
}

// TestValidationKindFollowsKeyword: every Kind that validation gives is
// derived from the failing keyword's location in the engine's output,
// whatever the message says.
func TestValidationKindFollowsKeyword(t *testing.T) {
	tests := []struct {
		name, schema, value string
		kind                schema.Kind
		pointer             string
		keyword             string // the failing keyword's pointer in the schema
	}{
		{"required", `{"required":["a"]}`, `{}`, schema.KindRequired, "/a", "/required"},
		{"type", `{"properties":{"a":{"type":"integer"}}}`, `{"a":"x"}`, schema.KindType, "/a", "/properties/a/type"},
		{"enum", `{"enum":["a","b"]}`, `"c"`, schema.KindEnum, "", "/enum"},
		{"const", `{"const":1}`, `2`, schema.KindEnum, "", "/const"},
		{"minimum", `{"minimum":3}`, `2`, schema.KindInvalid, "", "/minimum"},
		{"exclusiveMaximum", `{"exclusiveMaximum":3}`, `3`, schema.KindInvalid, "", "/exclusiveMaximum"},
		{"multipleOf", `{"multipleOf":2}`, `3`, schema.KindInvalid, "", "/multipleOf"},
		{"maxLength", `{"maxLength":2}`, `"abc"`, schema.KindInvalid, "", "/maxLength"},
		{"minItems", `{"minItems":1}`, `[]`, schema.KindInvalid, "", "/minItems"},
		{"maxProperties", `{"maxProperties":0}`, `{"a":1}`, schema.KindInvalid, "", "/maxProperties"},
		{"pattern", `{"pattern":"^a"}`, `"b"`, schema.KindInvalid, "", "/pattern"},
		{"propertyNames", `{"propertyNames":{"pattern":"^a"}}`, `{"b":1}`, schema.KindInvalid, "/b", "/propertyNames/pattern"},
		{"format", `{"format":"ipv4"}`, `"x"`, schema.KindInvalid, "", "/format"},
		{"additionalProperties false", `{"properties":{"a":{}},"additionalProperties":false}`, `{"b":1}`, schema.KindAdditional, "/b", "/additionalProperties"},
		{"unevaluatedProperties false", `{"properties":{"a":{}},"unevaluatedProperties":false}`, `{"b":1}`, schema.KindAdditional, "/b", "/unevaluatedProperties"},
		{"items false", `{"prefixItems":[{}],"items":false}`, `[1,2]`, schema.KindAdditional, "/1", "/items"},
		{"uniqueItems", `{"uniqueItems":true}`, `[1,1]`, schema.KindInvalid, "", "/uniqueItems"},
		{"dependentRequired", `{"dependentRequired":{"a":["b"]}}`, `{"a":1}`, schema.KindRequired, "/b", "/dependentRequired/a/0"},
		{"dependencies (draft-07)", `{"$schema":"http://json-schema.org/draft-07/schema#","dependencies":{"a":["b"]}}`, `{"a":1}`, schema.KindRequired, "/b", "/dependencies/a/0"},
		{"dependencies schema form", `{"$schema":"http://json-schema.org/draft-07/schema#","dependencies":{"a":{"required":["b"]}}}`, `{"a":1}`, schema.KindRequired, "/b", "/dependencies/a/required"},
		{"oneOf, two match", `{"oneOf":[{"type":"integer"},{"minimum":0}]}`, `1`, schema.KindInvalid, "", "/oneOf"},
		{"oneOf, none match", `{"oneOf":[{"type":"string"},{"type":"boolean"}]}`, `1`, schema.KindInvalid, "", "/oneOf/0/type"},
		{"anyOf, none match", `{"anyOf":[{"type":"string"},{"type":"boolean"}]}`, `1`, schema.KindInvalid, "", "/anyOf/0/type"},
		{"allOf branch", `{"allOf":[{"type":"string"}]}`, `1`, schema.KindType, "", "/allOf/0/type"},
		{"not", `{"not":{"type":"integer"}}`, `1`, schema.KindInvalid, "", "/not"},
		{"if/then", `{"if":{"required":["a"]},"then":{"required":["b"]}}`, `{"a":1}`, schema.KindRequired, "/b", "/then/required"},
		{"false schema", `{"properties":{"a":false}}`, `{"a":1}`, schema.KindInvalid, "/a", "/properties/a"},
		{"through $ref", `{"$defs":{"n":{"type":"integer"}},"properties":{"a":{"$ref":"#/$defs/n"}}}`, `{"a":"x"}`, schema.KindType, "/a", "/$defs/n/type"},
		{"a property named like a keyword", `{"properties":{"oneOf":{"properties":{"not":{"maximum":1}}}}}`, `{"oneOf":{"not":2}}`, schema.KindInvalid, "/oneOf/not", "/properties/oneOf/properties/not/maximum"},
		{"additionalProperties schema", `{"additionalProperties":{"type":"string"}}`, `{"x":1}`, schema.KindType, "/x", "/additionalProperties/type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Parse([]byte(tt.schema))
			require.NoError(t, err)
			err = s.Validate(jsonValue(t, tt.value))
			require.Error(t, err)
			var list schema.ErrorList
			require.True(t, problem.As(err, &list), "%T", err)
			require.NotEmpty(t, list)
			var e *schema.Error
			for _, x := range list {
				if x.Detail != nil && x.Detail.SchemaPointer == tt.keyword {
					e = x
				}
			}
			require.NotNil(t, e, "no error for keyword %s in %v", tt.keyword, list)
			assert.Equal(t, tt.kind, e.Kind, "%v", e)
			assert.Equal(t, tt.pointer, e.Pointer)
			assert.Equal(t, keywordName(tt.keyword), e.Keyword, "the keyword that failed, by name")
			var one *schema.Error
			require.True(t, errors.As(err, &one), "errors.As finds an entry")
		})
	}
}

// keywordName is the keyword an error names for a failure of the keyword
// at schema pointer p: its last token but an index ("" for a false
// schema), or anyOf/oneOf for a failure inside one of their alternatives.
func keywordName(p string) string {
	toks := strings.Split(p, "/")[1:]
	kw, alt := "", ""
	for i := 0; i < len(toks); i++ {
		switch t := toks[i]; t {
		case "properties", "$defs":
			i++ // a name, then a subschema
			kw = ""
		case "dependentRequired", "dependencies":
			kw = t
			if _, err := strconv.Atoi(toks[len(toks)-1]); err == nil && i+2 == len(toks)-1 {
				i = len(toks) // the array form: NAME/INDEX
			} else {
				i++ // the schema form: a name, then a subschema
				kw = ""
			}
		case "anyOf", "oneOf", "allOf":
			kw = t
			if i+1 < len(toks) {
				if t != "allOf" && i+2 < len(toks) && alt == "" {
					alt = t
				}
				i++
				kw = ""
			}
		default:
			if _, err := strconv.Atoi(t); err != nil {
				kw = t
			}
		}
	}
	if alt != "" {
		return alt
	}
	return kw
}

// TestValidationMessagesKeepTheirWording: the messages rewritten by
// keyword read as before.
func TestValidationMessagesKeepTheirWording(t *testing.T) {
	s, err := schema.Parse([]byte(`{"required":["a","b"],"properties":{"c":{"type":"boolean"}},"additionalProperties":false}`))
	require.NoError(t, err)
	err = s.Validate(jsonValue(t, `{"c":"yes","d":1}`))
	var list schema.ErrorList
	require.True(t, problem.As(err, &list))
	var msgs []string
	for _, e := range list {
		msgs = append(msgs, e.Error())
	}
	assert.Equal(t, []string{
		`/a: missing required property: "a"`,
		`/b: missing required property: "b"`,
		`/c: expected boolean, but got string "yes"`,
		`/d: not allowed here: "d" (the schema does not declare it)`,
	}, msgs, "each at the property's own pointer, in pointer order")
}

// An enum or const is shown as JSON: numbers bare, strings quoted, so
// that an enum of integers does not read as one of strings.
func TestEnumMessageShowsJSONValues(t *testing.T) {
	tests := []struct {
		name, schema, value, want string
	}{
		{"integers", `{"enum": [3, 5, 6]}`, `4`, `"": value must be one of 3, 5, 6`},
		{"strings", `{"enum": ["a", "b<c"]}`, `"c"`, `"": value must be one of "a", "b<c"`},
		{"mixed", `{"enum": ["3", 3, null, true]}`, `4`, `"": value must be one of "3", 3, null, true`},
		{"one", `{"properties": {"n": {"enum": [1.50]}}}`, `{"n": 2}`, `/n: value must be 1.50`},
		{"const", `{"const": 7}`, `"7"`, `"": value must be 7`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Parse([]byte(tt.schema))
			require.NoError(t, err)
			v := jsonValue(t, tt.value)
			err = s.Validate(v)
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}
