package convert_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/schema"
)

func secretSchema(t *testing.T, text string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(text))
	require.NoError(t, err)
	return s
}

// TestUnwrapHidesSecrets: v1beta1 text that cannot take a secret node's
// type, and a value that cannot be written back as text, are reported
// without the value.
func TestUnwrapHidesSecrets(t *testing.T) {
	s := secretSchema(t, `
properties:
  pin: {type: integer, writeOnly: true}
  db: {type: object, properties: {pw: {type: integer, format: password}, port: {type: integer}}}
  hidden: {$ref: '#/$defs/h'}
  plain: {type: integer}
$defs:
  h: {type: object, writeOnly: true, properties: {n: {type: integer}}}
`)
	for in, want := range map[string]string{
		"pin":    "/pin: (value hidden) is not an integer",
		"db":     "/db/pw: (value hidden) is not an integer",
		"hidden": "/hidden/n: (value hidden) is not an integer",
	} {
		text := map[string]string{"pin": "S3cr3tXYZ", "db": `{pw: S3cr3tXYZ, port: 1}`, "hidden": `{n: S3cr3tXYZ}`}[in]
		_, err := convert.UnwrapValues(s, map[string]string{in: text})
		require.Error(t, err, in)
		assert.NotContains(t, err.Error(), "S3cr3tXYZ", in)
		assert.Contains(t, err.Error(), want, in)
	}
	_, err := convert.UnwrapValues(s, map[string]string{"db": `{pw: S3cr3tXYZ`})
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "S3cr3tXYZ")
	assert.Contains(t, err.Error(), "/db: (value hidden) is not an object")

	_, err = convert.WrapValues(s, map[string]any{"pin": []any{"S3cr3tXYZ"}})
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "S3cr3tXYZ")
	assert.Contains(t, err.Error(), "/pin: (value hidden) cannot be written")

	// The control: a plain value is quoted.
	_, err = convert.UnwrapValues(s, map[string]string{"plain": "visible"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"visible" is not an integer`)
}
