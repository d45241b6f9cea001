package migrate

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// TestConvertTotal: with Total a conversion never fails because of a
// value: values invalid in both versions keep their text at their new
// place (no error, no truncation), what the target cannot hold goes to
// the bag, a malformed bag is ignored; without it the same values are
// errors, as before.
func TestConvertTotal(t *testing.T) {
	s, err := LoadVersionSet(os.DirFS("../../kube/testdata/cache"))
	require.NoError(t, err)
	num := func(s string) json.Number { return json.Number(s) }
	tests := []struct {
		name     string
		from, to string
		in       any
		want     any
		bag      bool
	}{
		{"below the minimum", "v1", "v2", map[string]any{"maxMemoryMB": num("8")}, map[string]any{"memoryLimitMB": num("8")}, false},
		{"a fraction", "v1", "v2", map[string]any{"maxEntries": num("1.5")}, map[string]any{"maxEntries": num("1.5")}, false},
		{"integer text kept", "v1", "v2", map[string]any{"maxEntries": num("2593.0")}, map[string]any{"maxEntries": num("2593.0")}, false},
		{"a wrong type", "v1", "v2", map[string]any{"maxMemoryMB": "x"}, map[string]any{"memoryLimitMB": "x"}, false},
		{"a typo", "v1", "v2", map[string]any{"maxMemoryMb": num("32")}, map[string]any{}, true},
		{"not an object", "v2", "v1", "redis", "redis", false},
		{"same version", "v2", "v2", map[string]any{"ttlSeconds": num("-1")}, map[string]any{"ttlSeconds": num("-1")}, false},
		{"malformed bag", "v1", "v2", map[string]any{bagKey: "nonsense", "maxMemoryMB": num("20")}, map[string]any{"memoryLimitMB": num("20")}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := conv(s.Convert(tt.in, tt.from, tt.to, Total()))
			require.NoError(t, err)
			assert.Empty(t, r.Errors)
			got := r.Values
			if m, ok := got.(map[string]any); ok {
				_, has := m[bagKey]
				assert.Equal(t, tt.bag, has)
				got = stripBag(m)
			}
			assert.Equal(t, tt.want, got)
		})
	}
	r, err := conv(s.Convert(map[string]any{"maxMemoryMB": num("8")}, "v1", "v2"))
	require.NoError(t, err)
	require.Len(t, r.Errors, 1, "without Total the result is validated")
	assert.Equal(t, "/memoryLimitMB", r.Errors[0].Pointer)
	assert.Equal(t, schema.KindInvalid, r.Errors[0].Kind)
}
