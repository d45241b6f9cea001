package kube

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// TestCRDSchemaKeepsSecrets: a CRD, which anyone who may list CRDs reads,
// holds no default or example of a secret, an object's default leaves
// its secrets out, and a message about the schema never quotes one
// (issue 35 item 5).
func TestCRDSchemaKeepsSecrets(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		want         map[string]any // exact CRD schema, when no error
		err          string         // a message, when the CRD is refused
	}{
		{name: "a writeOnly default the pattern refuses is dropped, not quoted",
			schema: `{"type":"object","properties":{"pw":{"type":"string","writeOnly":true,"pattern":"^[a-z]+$","default":"Hunter2-Secret","examples":["Example-Secret"]}}}`,
			want:   map[string]any{"type": "object", "properties": map[string]any{"pw": map[string]any{"type": "string", "pattern": "^[a-z]+$"}}}},
		{name: "format password",
			schema: `{"type":"object","properties":{"tok":{"type":"string","format":"password","default":"tok-secret"}}}`,
			want:   map[string]any{"type": "object", "properties": map[string]any{"tok": map[string]any{"type": "string", "format": "password"}}}},
		{name: "below a writeOnly object",
			schema: `{"type":"object","properties":{"creds":{"type":"object","writeOnly":true,"default":{"k":"v-secret"},"properties":{"k":{"type":"string","default":"k-secret"}}}}}`,
			want: map[string]any{"type": "object", "properties": map[string]any{"creds": map[string]any{"type": "object",
				"properties": map[string]any{"k": map[string]any{"type": "string"}}}}}},
		{name: "an object's default leaves its secret out",
			schema: `{"type":"object","properties":{"admin":{"type":"object","default":{"user":"admin","password":"pw-secret"},"properties":{"user":{"type":"string"},"password":{"type":"string","writeOnly":true}}}}}`,
			// The root defaults to {} as the parent of a default that
			// stays (parentDefault); the secret's part of it goes.
			want: map[string]any{"type": "object", "default": map[string]any{}, "properties": map[string]any{"admin": map[string]any{"type": "object",
				"default":    map[string]any{"user": "admin"},
				"properties": map[string]any{"user": map[string]any{"type": "string"}, "password": map[string]any{"type": "string"}}}}}},
		{name: "a list of secrets: the whole default goes",
			schema: `{"type":"object","properties":{"keys":{"type":"array","default":["key-secret"],"items":{"type":"string","writeOnly":true}}}}`,
			want: map[string]any{"type": "object", "properties": map[string]any{"keys": map[string]any{"type": "array",
				"items": map[string]any{"type": "string"}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := schema.Parse([]byte(tc.schema))
			require.NoError(t, err)
			out, err := CRDSchema(s)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				assert.NotContains(t, err.Error(), "enum-secret")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, out)
		})
	}
}

// TestCheckStructuralHides: a message of the structural check quoting a
// text it is told is a secret's shows (value hidden) instead.
func TestCheckStructuralHides(t *testing.T) {
	obj := map[string]any{"type": "object", "properties": map[string]any{
		"pin": map[string]any{"type": "string", "pattern": "^[0-9]+$", "default": "Not-Digits"}}}
	err := checkStructural(obj, "")
	require.Error(t, err)
	require.Contains(t, err.Error(), "Not-Digits", "the message quotes the default")
	err = checkStructural(obj, "", `"Not-Digits"`, "Not-Digits")
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "Not-Digits")
	assert.Contains(t, err.Error(), schema.Hidden)
}
