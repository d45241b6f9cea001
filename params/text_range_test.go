package params_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// TestSetNumberOutOfRange: -p with a number beyond the supported range on
// a number or integer node says the number is out of range, not "expected
// integer, but got string", and a secret's value stays hidden.
func TestSetNumberOutOfRange(t *testing.T) {
	s, err := schema.Parse([]byte(`type: object
properties:
  n: {type: integer}
  x: {type: number}
  db:
    type: object
    properties:
      pin: {type: integer, writeOnly: true}
`))
	require.NoError(t, err)
	tests := []struct{ set, ptr, input string }{
		{"n=1e99999999", "/n", "n=1e99999999"},
		{"x=-1e-99999999", "/x", "x=-1e-99999999"},
		{"db.pin=1e99999999", "/db/pin", "db.pin=(value hidden)"},
	}
	for _, tt := range tests {
		t.Run(tt.set, func(t *testing.T) {
			_, err := (&params.Update{Schema: s, Set: []string{tt.set}}).Run()
			var errs schema.ErrorList
			require.True(t, problem.As(err, &errs), "%v", err)
			require.Len(t, errs, 1, "%v", err)
			assert.Equal(t, tt.ptr, errs[0].Pointer)
			assert.Equal(t, schema.KindLimit, errs[0].Kind)
			assert.Contains(t, errs[0].Message, "number is out of the supported range")
			assert.NotContains(t, errs[0].Error(), "expected")
			require.NotNil(t, errs[0].Detail)
			assert.Equal(t, tt.input, errs[0].Detail.Input)
		})
	}
}
