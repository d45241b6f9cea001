package kube

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// TestRoundedIntegers: an integer the apiserver already turned into a
// float beyond int64 is refused at its pointer; integers as written, and
// numbers where the schema allows fractions, are not.
func TestRoundedIntegers(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type":"object","properties":{
		"n":{"type":"integer"},"f":{"type":"number"},"any":{},"list":{"type":"array","items":{"type":"integer"}},
		"m":{"type":"object","additionalProperties":{"type":"integer"}},
		"pin":{"type":"integer","writeOnly":true}}}`))
	require.NoError(t, err)
	tests := []struct {
		name  string
		value string
		ptrs  []string
	}{
		{"rounded by the apiserver", `{"n":1.8446744073709552e+19}`, []string{"/n"}},
		{"negative", `{"n":-1.8446744073709552e+19}`, []string{"/n"}},
		{"in a list and a map", `{"list":[1,1e19],"m":{"a":2.5e30}}`, []string{"/list/1", "/m/a"}},
		{"as written beyond int64", `{"n":18446744073709551617}`, nil},
		{"within int64 as a float", `{"n":1e18}`, nil},
		{"a number node", `{"f":1.8446744073709552e+19}`, nil},
		{"no type", `{"any":1.8446744073709552e+19}`, nil},
		{"just above int64", `{"n":9.223372036854775808e18}`, []string{"/n"}},
		{"a secret is not quoted", `{"pin":1.8446744073709552e+19}`, []string{"/pin"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v any
			d := json.NewDecoder(strings.NewReader(tt.value))
			d.UseNumber()
			require.NoError(t, d.Decode(&v))
			errs := roundedIntegers(s, v)
			var ptrs []string
			for _, e := range errs {
				ptrs = append(ptrs, e.Pointer)
				assert.Equal(t, schema.KindInvalid, e.Kind)
				assert.Contains(t, e.Message, "rounded")
				if e.Pointer == "/pin" {
					assert.NotContains(t, e.Message, "1.8446744073709552e+19")
					assert.Contains(t, e.Message, "(value hidden)")
				} else {
					assert.NotContains(t, e.Message, "(value hidden)")
				}
			}
			assert.Equal(t, tt.ptrs, ptrs)
		})
	}
	assert.Nil(t, roundedIntegers(nil, 1))
}
