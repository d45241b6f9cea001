package lint

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// TestDefaultOfASecretIsNotQuoted: a default is schema text, but the
// checks that validate it (through schema.ValidateAt) hide a secret
// node's value like every validation message; a plain one is quoted.
func TestDefaultOfASecretIsNotQuoted(t *testing.T) {
	s, err := schema.Parse([]byte(`{"properties": {
		"pin": {"type": "integer", "writeOnly": true, "maximum": 10, "default": 8675309},
		"n": {"type": "integer", "maximum": 10, "default": 4242}}}`))
	require.NoError(t, err)
	fs := Run(s, nil, Kudo)
	msgs := map[string]string{}
	for _, f := range fs {
		msgs[f.Pointer] = f.Message
	}
	require.Contains(t, msgs, "/properties/pin/default")
	assert.NotContains(t, msgs["/properties/pin/default"], "8675309")
	assert.Contains(t, msgs["/properties/pin/default"], schema.Hidden)
	assert.Contains(t, msgs["/properties/n/default"], "4242")
}

func TestExampleOfASecretIsNotQuoted(t *testing.T) {
	s, err := schema.Parse([]byte(`{"properties": {
		"pin": {"type": "integer", "format": "password", "examples": ["S3cr3tXYZ"]},
		"n": {"type": "integer", "examples": ["visible"]}}}`))
	require.NoError(t, err)
	fs := Run(s, nil, ClusterApp)
	msgs := map[string]string{}
	for _, f := range fs {
		msgs[f.Pointer] = f.Message
	}
	require.Contains(t, msgs, "/properties/pin/examples/0")
	assert.NotContains(t, msgs["/properties/pin/examples/0"], "S3cr3tXYZ")
	assert.Contains(t, msgs["/properties/pin/examples/0"], schema.Hidden)
	assert.Contains(t, msgs["/properties/n/examples/0"], `"visible"`)
}
