package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// TestAlternativesGiveOneError: a value that passes no alternative of a
// oneOf or anyOf gets one error at its own pointer naming the alternative
// that came closest and why it fails, never one contradicting error per
// alternative.
func TestAlternativesGiveOneError(t *testing.T) {
	const db = `{"type":"object","properties":{"db":{"oneOf":[
	  {"type":"object","properties":{"kind":{"const":"pg"},"port":{"type":"integer"}},"required":["kind","port"]},
	  {"type":"object","properties":{"kind":{"const":"mysql"},"socket":{"type":"string"}},"required":["kind","socket"]}]},
	  "n":{"anyOf":[{"type":"integer"},{"type":"string"}]},
	  "m":{"oneOf":[{"type":"integer","minimum":5},{"type":"number","maximum":10}]},
	  "p":{"oneOf":[{"type":"string"},{"type":"object","properties":{"password":{"type":"string","writeOnly":true,"enum":["s3cret-1","s3cret-2"]}}}]}}}`
	tests := []struct {
		name, value, pointer, keyword, schemaPointer, message string
	}{
		{"the discriminator picks the branch", `{"db":{"kind":"pg","port":"x"}}`, "/db", "oneOf", "/properties/db/oneOf/0/properties/port/type",
			`fails every alternative of oneOf; the closest, oneOf/0, fails: /db/port: expected integer, but got string "x"`},
		{"fewest failures among the branches the discriminator fits", `{"db":{"kind":"mysql"}}`, "/db", "oneOf", "/properties/db/oneOf/1/required",
			`fails every alternative of oneOf; the closest, oneOf/1, fails: missing required property: "socket"`},
		{"type alternatives: the first", `{"n":true}`, "/n", "anyOf", "/properties/n/anyOf/0/type",
			`fails every alternative of anyOf; the closest, anyOf/0, fails: expected integer, but got boolean true`},
		{"matching two", `{"m":7}`, "/m", "oneOf", "/properties/m/oneOf",
			`matches more than one alternative of oneOf: oneOf/0 and oneOf/1`},
		{"a secret stays hidden", `{"p":{"password":"short"}}`, "/p", "oneOf", "/properties/p/oneOf/1/properties/password/enum",
			`fails every alternative of oneOf; the closest, oneOf/1, fails: /p/password: value is not one of the allowed values ` + schema.Hidden},
	}
	s, err := schema.Parse([]byte(db))
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := schema.ErrorsOf(s.Validate(jsonValue(t, tt.value)))
			require.Len(t, l, 1, "%v", l.Err())
			e := l[0]
			assert.Equal(t, tt.pointer, e.Pointer)
			assert.Equal(t, schema.KindInvalid, e.Kind)
			assert.Equal(t, tt.keyword, e.Keyword)
			assert.Equal(t, tt.schemaPointer, e.Detail.SchemaPointer)
			if tt.name == "a secret stays hidden" {
				assert.Contains(t, e.Message, tt.message)
				assert.NotContains(t, e.Message, "short")
				assert.NotContains(t, e.Message, "s3cret")
				return
			}
			assert.Equal(t, tt.message, e.Message)
		})
	}
}
