package params_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// TestNilSchema: every exported function that takes a *schema.Schema
// accepts nil and does what its doc says, without a panic.
func TestNilSchema(t *testing.T) {
	values := func() any {
		return map[string]any{"num": json.Number("12345678901234567890"), "s": "yes", "l": []any{nil, true}}
	}
	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"Decode uses YAML core rules", func(t *testing.T) {
			v, err := params.Decode(nil, []byte("n: 3\ns: yes\n"))
			require.NoError(t, err)
			assert.Equal(t, map[string]any{"n": json.Number("3"), "s": "yes"}, v)
		}},
		{"DecodeReader uses YAML core rules", func(t *testing.T) {
			docs, err := readAll(nil, []byte("a: 1\n---\nb: true\n"))
			require.NoError(t, err)
			require.Len(t, docs, 2)
			assert.Equal(t, map[string]any{"b": true}, docs[1].Value)
		}},
		{"DecodePatch keeps null", func(t *testing.T) {
			v, err := params.DecodePatch(nil, []byte("a: null\n"))
			require.NoError(t, err)
			assert.Equal(t, map[string]any{"a": nil}, v)
		}},
		{"Validate allows every plain value", func(t *testing.T) {
			assert.NoError(t, params.Validate(nil, values()))
			assert.NoError(t, params.Validate(nil, nil))
		}},
		{"Validate still checks numbers", func(t *testing.T) {
			err := params.Validate(nil, map[string]any{"n": json.Number("1e99999")})
			var list schema.ErrorList
			require.True(t, problem.As(err, &list))
			assert.Equal(t, "/n", list[0].Pointer)
			assert.Contains(t, list[0].Message, "number is out of the supported range")
		}},
		{"Validate still checks UTF-8", func(t *testing.T) {
			err := params.Validate(nil, map[string]any{"s": "\xff"})
			var list schema.ErrorList
			require.True(t, problem.As(err, &list))
			assert.Equal(t, "/s", list[0].Pointer)
		}},
		{"ValidateStructural allows every plain value", func(t *testing.T) {
			assert.NoError(t, params.Validate(nil, values(), params.Structural()))
		}},
		{"ValidateStructural still checks UTF-8", func(t *testing.T) {
			err := params.Validate(nil, []any{"\xff"}, params.Structural())
			var list schema.ErrorList
			require.True(t, problem.As(err, &list))
			assert.Equal(t, "/0", list[0].Pointer)
		}},
		{"Default returns the values unchanged", func(t *testing.T) {
			assert.Equal(t, values(), defaulted(t, nil, values()))
			assert.Equal(t, values(), defaulted(t, nil, values(), params.Structural()))
			assert.Nil(t, defaulted(t, nil, nil))
		}},
		{"CheckImmutable: nothing is immutable", func(t *testing.T) {
			assert.NoError(t, params.CheckImmutable(nil, values(), map[string]any{}))
		}},
		{"MarshalYAML sorts keys", func(t *testing.T) {
			out, err := params.MarshalYAML(nil, values())
			require.NoError(t, err)
			assert.Equal(t, "l:\n  - null\n  - true\nnum: 12345678901234567890\ns: \"yes\"\n", string(out))
		}},
		{"MarshalJSON sorts keys", func(t *testing.T) {
			assert.Equal(t, `{"l":[null,true],"num":12345678901234567890,"s":"yes"}`, string(mustBytes(params.MarshalJSON(nil, values(), ""))))
		}},
		{"Update needs a schema", func(t *testing.T) {
			r, err := (&params.Update{Old: values()}).Run()
			assert.Zero(t, r)
			assert.EqualError(t, err, "params: Update needs a schema")
		}},
		{"a nil Update", func(t *testing.T) {
			var u *params.Update
			r, err := u.Run()
			assert.Zero(t, r)
			assert.Error(t, err)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NotPanics(t, func() { tt.run(t) })
		})
	}
}

// mustBytes is the bytes of an encoder that cannot fail on the plain
// values a test gives it.
func mustBytes(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
