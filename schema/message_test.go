package schema_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// TestMessagesQuoteSchemaTextExactly: the schema text a validation message
// shows (a pattern, a format, enum values, a const, a bound, property
// names) is written as JSON writes it, whatever it holds; the engine's
// own quoting ('^it\'s$', "1" for the number 1, floats for bounds) never
// shows.
func TestMessagesQuoteSchemaTextExactly(t *testing.T) {
	tests := []struct {
		name, schema, value string
		pointer, want       string
	}{
		{"pattern with an apostrophe", `{"pattern":"^it's$"}`, `"x"`, "", `does not match pattern "^it's$"`},
		{"pattern with quotes and backslashes", `{"pattern":"^a\\\\b\"c\\d$"}`, `"x"`, "", `does not match pattern "^a\\\\b\"c\\d$"`},
		{"pattern with unicode", `{"pattern":"^ü+€$"}`, `"x"`, "", `does not match pattern "^ü+€$"`},
		{"pattern with a control character", `{"pattern":"^\u0001$"}`, `"x"`, "", `does not match pattern "^\u0001$"`},
		{"integer enum", `{"enum":[1,2]}`, `3`, "", `value must be one of 1, 2`},
		{"string enum", `{"enum":["a"]}`, `"b"`, "", `value must be "a"`},
		{"enum of odd strings", `{"enum":["it's","say \"hi\"","back\\slash","ü"]}`, `"x"`, "", `value must be one of "it's", "say \"hi\"", "back\\slash", "ü"`},
		{"enum of numbers kept exact", `{"enum":[9007199254740993, 1.10, 1e2]}`, `0`, "", `value must be one of 9007199254740993, 1.10, 1e2`},
		{"enum of null and booleans", `{"enum":[null, true, false]}`, `0`, "", `value must be one of null, true, false`},
		{"enum of objects and arrays", `{"enum":[{"b":1,"a":"x"},[1,"y"]]}`, `0`, "", `value must be one of {"a":"x","b":1}, [1,"y"]`},
		{"enum under patternProperties", `{"patternProperties":{"^n":{"enum":[1,2]}}}`, `{"n":3}`, "/n", `value must be one of 1, 2`},
		{"enum under a key that is escaped", `{"properties":{"ü/x":{"enum":[1,2]}}}`, `{"ü/x":3}`, "/ü~1x", `value must be one of 1, 2`},
		{"const string", `{"const":"it's"}`, `"x"`, "", `value must be "it's"`},
		{"const number", `{"const":10.50}`, `1`, "", `value must be 10.50`},
		{"const object", `{"const":{"a":[null]}}`, `1`, "", `value must be {"a":[null]}`},
		{"format", `{"format":"ipv4"}`, `"it's"`, "", `"it's" is not valid "ipv4"`},
		{"format of a quoted value", `{"format":"ipv4"}`, `"say \"hi\""`, "", `"say \"hi\"" is not valid "ipv4"`},
		{"required names", `{"required":["it's","b\"c"]}`, `{}`, `/b"c | /it's`, `missing required property: "b\"c" | missing required property: "it's"`},
		{"one required name", `{"required":["a"]}`, `{}`, "/a", `missing required property: "a"`},
		{"extra names, sorted", `{"properties":{"a":{}},"additionalProperties":false}`, `{"it's":1,"c":2,"b":3,"ü":4}`, "/b | /c | /it's | /ü", `not allowed here: "b" (the schema does not declare it) | not allowed here: "c" (the schema does not declare it) | not allowed here: "it's" (the schema does not declare it) | not allowed here: "ü" (the schema does not declare it)`},
		{"dependentRequired", `{"dependentRequired":{"a":["it's"]}}`, `{"a":1}`, "/it's", `property "it's" is required, if "a" property exists`},
		{"dependencies, draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#","dependencies":{"a\\":["b\\"]}}`, `{"a\\":1}`, `/b\`, `property "b\\" is required, if "a\\" property exists`},
		{"required name ending in a backslash", `{"required":["a\\","b"]}`, `{}`, `/a\ | /b`, `missing required property: "a\\" | missing required property: "b"`},
		{"extra names the engine's quoting blurs", `{"additionalProperties":false}`, `{"a\\":1,"b, c":2}`, `/a\ | /b, c`, `not allowed here: "a\\" (the schema does not declare it) | not allowed here: "b, c" (the schema does not declare it)`},
		{"maximum past float64", `{"maximum":9007199254740993}`, `9007199254740994`, "", `must be <= 9007199254740993 but found 9007199254740994`},
		{"exclusiveMinimum", `{"exclusiveMinimum":0.1}`, `0.1`, "", `must be > 0.1 but found 0.1`},
		{"multipleOf", `{"multipleOf":0.01}`, `0.001`, "", `0.001 not multipleOf 0.01`},
		{"type shows a string as JSON", `{"type":"integer"}`, `"a\u0001\"b"`, "", `expected integer, but got string "a\u0001\"b"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Parse([]byte(tt.schema))
			require.NoError(t, err)
			err = s.Validate(jsonValue(t, tt.value))
			// A failure about several properties is one error a property,
			// at its pointer (shown joined by " | ").
			var pointers, msgs []string
			for _, e := range schema.ErrorsOf(err) {
				pointers = append(pointers, e.Pointer)
				msgs = append(msgs, e.Message)
			}
			require.NotEmpty(t, msgs, "%v", err)
			assert.Equal(t, tt.pointer, strings.Join(pointers, " | "))
			assert.Equal(t, tt.want, strings.Join(msgs, " | "))
		})
	}
}

// TestSchemaErrorsQuoteExactly: a keyword of the wrong value is reported
// with the meta-schema's text written as JSON writes it.
func TestSchemaErrorsQuoteExactly(t *testing.T) {
	_, err := schema.Parse([]byte(`{"properties":{"ü":{"type":"int"}}}`))
	list := schema.ErrorsOf(err)
	require.NotEmpty(t, list)
	assert.Equal(t, "/properties/ü/type", list[0].Pointer, "the pointer is a JSON pointer, not URL-encoded")
	assert.NotContains(t, list[0].Message, "'")
}

// TestValidationErrorsInOneOrder: the errors of one validation come out
// in one order on every run, though the engine visits an object's keys
// (and patternProperties) in map order: by pointer (array indices by
// number), then by the failing keyword, then by message; of two failures
// with one message at one place, the same one is kept.
func TestValidationErrorsInOneOrder(t *testing.T) {
	s, err := schema.Parse([]byte(`{
		"patternProperties": {
			"^a": {"pattern": "^y"},
			"^a.": {"pattern": "^y", "minLength": 2},
			"^b": {"enum": [1, 2]}
		},
		"properties": {"list": {"items": {"type": "integer"}}},
		"required": ["z", "y"]
	}`))
	require.NoError(t, err)
	var b strings.Builder
	b.WriteString(`{"list": ["a","b","c","d","e","f","g","h","i","j","k","l"]`)
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, `, "ab%02d": "x", "b%02d": 3`, i, i)
	}
	b.WriteString("}")
	v := jsonValue(t, b.String())

	show := func() []string {
		var out []string
		for _, e := range schema.ErrorsOf(s.Validate(v)) {
			out = append(out, fmt.Sprintf("%s|%s|%s|%s|%s", e.Pointer, e.Kind, e.Keyword, e.Detail.SchemaPointer, e.Message))
		}
		return out
	}
	first := show()
	require.NotEmpty(t, first)
	for i := 0; i < 100; i++ {
		require.Equal(t, first, show(), "run %d", i)
	}
	assert.Equal(t, []string{
		`/ab00|invalid|minLength|/patternProperties/^a./minLength|length must be >= 2, but got 1`,
		`/ab00|invalid|pattern|/patternProperties/^a./pattern|does not match pattern "^y"`,
		`/ab01|invalid|minLength|/patternProperties/^a./minLength|length must be >= 2, but got 1`,
		`/ab01|invalid|pattern|/patternProperties/^a./pattern|does not match pattern "^y"`,
	}, first[:4], "^a and ^a. refuse /ab00 with one message: the first by keyword is kept")
	assert.Equal(t, `/b29|enum|enum|/patternProperties/^b/enum|value must be one of 1, 2`, first[len(first)-15])
	assert.Equal(t, `/list/9|type|type|/properties/list/items/type|expected integer, but got string "j"`, first[len(first)-5])
	assert.Equal(t, `/list/10|type|type|/properties/list/items/type|expected integer, but got string "k"`, first[len(first)-4], "index 10 after 9")
	assert.Equal(t, []string{
		`/y|required|required|/required|missing required property: "y"`,
		`/z|required|required|/required|missing required property: "z"`,
	}, first[len(first)-2:], "each missing property at its own pointer")
}

// TestLongSchemaTextIsCutOnACharacter: a long enum value or offending
// string is shortened, never inside a UTF-8 sequence.
func TestLongSchemaTextIsCutOnACharacter(t *testing.T) {
	long := strings.Repeat("ü", 40)
	s, err := schema.Parse([]byte(`{"properties": {"e": {"enum": ["` + long + `"]}, "t": {"type": "integer"}}}`))
	require.NoError(t, err)
	for _, e := range schema.ErrorsOf(s.Validate(map[string]any{"e": "x", "t": long})) {
		assert.True(t, utf8.ValidString(e.Message), "%q", e.Message)
		assert.True(t, strings.HasSuffix(e.Message, `..."`) || strings.HasSuffix(e.Message, "..."), e.Message)
	}
}
