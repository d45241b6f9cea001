package kubectlyaml

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRead: kubectl's reading of scalars, which differs from paramkit's
// schema-typed one: YAML 1.1 booleans, numbers through float64 unless
// they are int64s, null as null.
func TestRead(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want any
	}{
		{"v: yes", true},
		{"v: on", true},
		{"v: 'yes'", "yes"},
		{"v: 2160", json.Number("2160")},
		{"v: 1.10", json.Number("1.1")},
		{"v: 007", json.Number("7")},
		{"v: 99999999999999999999999", json.Number("1e+23")},
		{"v: 9007199254740993", json.Number("9007199254740993")},
		{"v: null", nil},
		{"v: ~", nil},
		{"v: 0x1F", json.Number("31")},
		{`{"v": 1.50}`, json.Number("1.5")},
		{"v: a\nv: b", "b"},
	} {
		got, err := Read([]byte(tc.in))
		require.NoError(t, err, tc.in)
		assert.Equal(t, map[string]any{"v": tc.want}, got, tc.in)
	}
	for _, in := range []string{"", "  \n", "# just a comment\n", "null"} {
		got, err := Read([]byte(in))
		require.NoError(t, err, in)
		assert.Nil(t, got, in)
	}
	_, err := Read([]byte("a: [1,\n"))
	assert.Error(t, err)
}

// FuzzRead: no input panics, and what reads is plain data with
// json.Number numbers.
func FuzzRead(f *testing.F) {
	for _, s := range []string{"a: 1", "- [x, {y: 1.5}]", "a: &x [*x, *x]", `{"a": 1e400}`, "a: !!binary aGk="} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Read(data)
		if err != nil {
			return
		}
		var walk func(any)
		walk = func(x any) {
			switch x := x.(type) {
			case map[string]any:
				for _, e := range x {
					walk(e)
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			case nil, bool, string, json.Number:
			default:
				t.Fatalf("%T in %q", x, data)
			}
		}
		walk(v)
	})
}
