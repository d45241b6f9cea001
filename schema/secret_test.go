package schema_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// secretSchema marks secrets every way the rule knows: writeOnly,
// format: password, an ancestor, $ref (both a marked target and a marked
// reference), allOf, anyOf, items and additionalProperties.
const secretSchema = `
type: object
properties:
  plain: {type: boolean}
  count: {type: integer, minimum: 10}
  email: {type: string, format: email}
  pin: {type: integer, writeOnly: true, minimum: 1000, maximum: 9999, multipleOf: 2}
  password: {type: string, format: password, maxLength: 4, pattern: "^[a-z]+$", enum: [abc, abd]}
  mail: {type: string, format: email, writeOnly: true}
  db:
    type: object
    writeOnly: true
    properties:
      port: {type: integer}
      user: {type: string}
  ref: {$ref: '#/$defs/secretInt'}
  wrapped: {$ref: '#/$defs/obj', writeOnly: true}
  viaAllOf: {allOf: [{format: password}], type: boolean}
  viaAnyOf: {anyOf: [{type: integer, writeOnly: true}, {type: boolean}]}
  tokens: {type: array, items: {type: integer, format: password}}
  keys: {type: object, additionalProperties: {type: integer, writeOnly: true}}
  open: {type: object, additionalProperties: {type: integer}}
$defs:
  secretInt: {type: integer, writeOnly: true, exclusiveMaximum: 5}
  obj: {type: object, properties: {n: {type: integer}}}
`

func TestSecretAt(t *testing.T) {
	s, err := schema.Parse([]byte(secretSchema))
	require.NoError(t, err)
	for ptr, want := range map[string]bool{
		"":                 false,
		"/plain":           false,
		"/count":           false,
		"/open/x":          false,
		"/nosuch":          false,
		"/pin":             true,
		"/password":        true,
		"/db":              true,
		"/db/port":         true, // an ancestor
		"/db/user/deeper":  true,
		"/ref":             true, // a marked $ref target
		"/wrapped/n":       true, // below a marked $ref
		"/viaAllOf":        true,
		"/viaAnyOf":        true,
		"/tokens/3":        true, // items
		"/keys/anything":   true, // additionalProperties
		"/keys":            false,
		"not a pointer ~2": false,
	} {
		assert.Equal(t, want, s.SecretAt(ptr), "SecretAt(%q)", ptr)
	}
	assert.True(t, s.NodeAt("/properties/db/properties/port").Secret(), "a node under a writeOnly object")
	assert.True(t, s.NodeAt("/properties/tokens/items").Secret())
	assert.True(t, s.NodeAt("/$defs/secretInt").Secret())
	assert.False(t, s.NodeAt("/$defs/obj/properties/n").Secret(), "a $defs node is secret only where it is used")
	assert.False(t, s.NodeAt("/properties/plain").Secret())
	assert.False(t, (*schema.Node)(nil).Secret())
	assert.False(t, (*schema.Schema)(nil).SecretAt("/a"))
}

// TestValidateHidesSecrets checks every engine message that quotes the
// instance value (type, format, minimum, maximum, exclusiveMaximum,
// multipleOf) on secret nodes, and that enum, pattern and length messages,
// which quote schema text only, do not carry the value either.
func TestValidateHidesSecrets(t *testing.T) {
	s, err := schema.Parse([]byte(secretSchema))
	require.NoError(t, err)
	for _, tc := range []struct {
		name, doc, secretText, want string
	}{
		{"type via writeOnly", `{"pin": "hunter2x"}`, "hunter2x", `/pin: expected integer, but got string (value hidden)`},
		{"type via format password", `{"password": true}`, "true", `/password: expected string, but got boolean (value hidden)`},
		{"minimum", `{"pin": 424}`, "424", `/pin: must be >= 1000 but found (value hidden)`},
		{"maximum", `{"pin": 424242}`, "424242", `/pin: must be <= 9999 but found (value hidden)`},
		{"multipleOf", `{"pin": 1235}`, "1235", `/pin: (value hidden) not multipleOf 2`},
		{"format", `{"mail": "hunter2x"}`, "hunter2x", `/mail: (value hidden) is not valid "email"`},
		{"enum pattern length", `{"password": "Hunter2x"}`, "Hunter2x", `/password: value is not one of the allowed values (value hidden)`},
		{"ancestor", `{"db": {"port": "hunter2x"}}`, "hunter2x", `/db/port: expected integer, but got string (value hidden)`},
		{"ref target", `{"ref": 77777}`, "77777", `/ref: must be < 5 but found (value hidden)`},
		{"ref with writeOnly beside it", `{"wrapped": {"n": "hunter2x"}}`, "hunter2x", `/wrapped/n: expected integer, but got string (value hidden)`},
		{"allOf", `{"viaAllOf": "hunter2x"}`, "hunter2x", `/viaAllOf: expected boolean, but got string (value hidden)`},
		{"items", `{"tokens": [1, "hunter2x"]}`, "hunter2x", `/tokens/1: expected integer, but got string (value hidden)`},
		{"additionalProperties", `{"keys": {"k": "hunter2x"}}`, "hunter2x", `/keys/k: expected integer, but got string (value hidden)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := s.Validate(decodeJSON(t, tc.doc))
			require.Error(t, err)
			assert.NotContains(t, err.Error(), tc.secretText)
			assert.Contains(t, err.Error(), tc.want)
			raw, jerr := json.Marshal(err)
			require.NoError(t, jerr)
			assert.NotContains(t, string(raw), tc.secretText)
		})
	}
}

// TestValidateQuotesPlainValues is the control: values that are no secret
// are still quoted.
func TestValidateQuotesPlainValues(t *testing.T) {
	s, err := schema.Parse([]byte(secretSchema))
	require.NoError(t, err)
	for doc, want := range map[string]string{
		`{"plain": "yes"}`:      `/plain: expected boolean, but got string "yes"`,
		`{"count": 3}`:          `/count: must be >= 10 but found 3`,
		`{"email": "nope"}`:     `/email: "nope" is not valid "email"`,
		`{"open": {"k": "xy"}}`: `/open/k: expected integer, but got string "xy"`,
	} {
		err := s.Validate(decodeJSON(t, doc))
		require.Error(t, err, doc)
		assert.Contains(t, err.Error(), want, doc)
		assert.NotContains(t, err.Error(), schema.Hidden, doc)
	}
}

func TestValidateAtHidesSecrets(t *testing.T) {
	s, err := schema.Parse([]byte(secretSchema))
	require.NoError(t, err)
	err = s.ValidateAt("/properties/pin", json.Number("424242"))
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "424242")
	assert.Contains(t, err.Error(), schema.Hidden)
	err = s.ValidateAt("/properties/db", map[string]any{"port": "hunter2x"})
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "hunter2x")
	err = s.ValidateAt("/properties/count", json.Number("3"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "found 3")
}

func decodeJSON(t *testing.T, doc string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(doc))
	d.UseNumber()
	var v any
	require.NoError(t, d.Decode(&v))
	return v
}

// TestValidateHidesASecretsAllowedValues: the members of a secret's enum
// and its const are values of the secret (issue 26): a message about them
// names neither, a plain node's enum is still quoted.
func TestValidateHidesASecretsAllowedValues(t *testing.T) {
	s, err := schema.Parse([]byte(`{"properties": {
		"pw": {"type": "string", "writeOnly": true, "enum": ["SECRETenum1", "SECRETenum2"]},
		"pin": {"type": "string", "format": "password", "const": "SECRETconst"},
		"zone": {"enum": ["eu", "us"]}}}`))
	require.NoError(t, err)
	err = s.Validate(decodeJSON(t, `{"pw": "x", "pin": "y", "zone": "mars"}`))
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "SECRET")
	assert.Contains(t, err.Error(), "/pw: value is not one of the allowed values (value hidden)")
	assert.Contains(t, err.Error(), "/pin: value is not the allowed value (value hidden)")
	assert.Contains(t, err.Error(), `/zone: value must be one of "eu", "us"`)
}
