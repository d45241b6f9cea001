package schema

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
)

func TestValidateAt(t *testing.T) {
	s, err := Parse([]byte(`
type: object
properties:
  size:
    $ref: "#/$defs/size"
  "odd key/with ~ and %20":
    type: string
    maxLength: 3
  pool:
    type: object
    required: [name]
    properties:
      name: {type: string}
$defs:
  size:
    type: integer
    minimum: 1
  unused:
    type: boolean
`))
	require.NoError(t, err)
	for _, tc := range []struct {
		ptr   string
		v     any
		valid bool
	}{
		{"/properties/size", json.Number("3"), true},
		{"/properties/size", json.Number("0"), false},
		{"/properties/odd key~1with ~0 and %20", "abc", true},
		{"/properties/odd key~1with ~0 and %20", "abcd", false},
		{"/properties/pool", map[string]any{}, false},
		{"/properties/pool", map[string]any{"name": "a"}, true},
		{"/$defs/unused", true, true},
		{"/$defs/unused", "x", false},
		{"", map[string]any{"size": json.Number("2")}, true},
	} {
		err := s.ValidateAt(tc.ptr, tc.v)
		if tc.valid {
			assert.NoError(t, err, tc.ptr)
			continue
		}
		var ve ErrorList
		require.True(t, problem.As(err, &ve), tc.ptr)
		assert.NotEmpty(t, ve[0].Message)
	}
	err = s.ValidateAt("/properties/missing", "x")
	require.Error(t, err)
	var missing ErrorList
	require.True(t, problem.As(err, &missing), "one shape: a list, also for no subschema")
	require.Len(t, missing, 1)
	assert.Equal(t, KindNotFound, missing[0].Kind)
}

func TestValidateAtConcurrent(t *testing.T) {
	s, err := Parse([]byte(`{"properties": {"a": {"type": "integer"}, "b": {"type": "string"}}}`))
	require.NoError(t, err)
	done := make(chan bool)
	for i := 0; i < 8; i++ {
		go func() {
			assert.NoError(t, s.ValidateAt("/properties/a", json.Number("1")))
			assert.Error(t, s.ValidateAt("/properties/b", json.Number("1")))
			done <- true
		}()
	}
	for i := 0; i < 8; i++ {
		<-done
	}
}
