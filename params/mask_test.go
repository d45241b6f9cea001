package params_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// TestMask: secret values (writeOnly, format: password, and everything
// below such a node, through $ref, items and additionalProperties) are
// replaced whole by schema.Hidden; the rest is copied as it is.
func TestMask(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type":"object","$defs":{"pw":{"type":"string","format":"password"}},"properties":{
	  "user":{"type":"string"},
	  "password":{"$ref":"#/$defs/pw"},
	  "token":{"type":"string","writeOnly":true},
	  "tls":{"type":"object","writeOnly":true,"properties":{"key":{"type":"string"}}},
	  "users":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"pass":{"$ref":"#/$defs/pw"}}}},
	  "env":{"type":"object","additionalProperties":{"type":"string","writeOnly":true}},
	  "n":{"type":"integer"}}}`))
	require.NoError(t, err)
	h := schema.Hidden
	tests := []struct {
		name     string
		in, want string
	}{
		{"scalars", `{"user":"bob","password":"s3cret","token":"t0k","n":3}`,
			`{"user":"bob","password":"` + h + `","token":"` + h + `","n":3}`},
		{"a secret object is masked whole", `{"tls":{"key":"PEM"}}`, `{"tls":"` + h + `"}`},
		{"items", `{"users":[{"name":"a","pass":"p1"},{"name":"b"}]}`,
			`{"users":[{"name":"a","pass":"` + h + `"},{"name":"b"}]}`},
		{"additionalProperties", `{"env":{"A":"1","B":"2"}}`, `{"env":{"A":"` + h + `","B":"` + h + `"}}`},
		{"null and empty secrets", `{"password":null,"token":""}`, `{"password":"` + h + `","token":"` + h + `"}`},
		{"nothing secret", `{"user":"x","other":{"a":[1,2]}}`, `{"user":"x","other":{"a":[1,2]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := params.Decode(s, []byte(tt.in))
			require.NoError(t, err)
			before, err := params.MarshalJSON(s, v, "")
			require.NoError(t, err)
			got, err := params.Mask(s, v)
			require.NoError(t, err)
			out, err := json.Marshal(got)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(out))
			after, err := params.MarshalJSON(s, v, "")
			require.NoError(t, err)
			assert.Equal(t, string(before), string(after), "v is not changed")
		})
	}
	got, err := params.Mask(nil, map[string]any{"password": "x"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"password": "x"}, got, "a nil schema knows no secrets")
	_, err = params.Mask(&schema.Schema{}, map[string]any{})
	assert.Equal(t, schema.KindUsage, schema.ErrorsOf(err)[0].Kind)
	_, err = params.Mask(s, map[string]any{"c": make(chan int)})
	assert.Error(t, err)
}
