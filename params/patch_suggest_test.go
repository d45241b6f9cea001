package params

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/schema"
)

// TestPatchMissingPathSuggests: an operation on a name that does not
// exist offers the closest declared (or present) names, as an undeclared
// key does, in the library's error and so in paramctl's.
func TestPatchMissingPathSuggests(t *testing.T) {
	s, err := schema.Parse([]byte(`type: object
properties:
  clusterName: {type: string}
  storage:
    type: object
    properties:
      size: {type: string}
  labels:
    type: object
    additionalProperties: {type: string}
  pin: {type: object, writeOnly: true}
`))
	require.NoError(t, err)
	old := map[string]any{"clusterName": "a", "storage": map[string]any{"size": "1Gi"},
		"labels": map[string]any{"team": "web"}, "pin": map[string]any{"secretKey": "s"}}
	tests := []struct{ op, ptr, want string }{
		{"replace clusterNme=x", "/clusterNme", `/clusterNme does not exist; did you mean "clusterName"?`},
		{"remove storage/sze", "/storage/sze", `/storage/sze does not exist; did you mean "size"?`},
		{"replace storag/size=x", "/storag", `/storag does not exist; did you mean "storage"?`},
		{"remove labels/tem", "/labels/tem", `/labels/tem does not exist; did you mean "team"?`},
		{"remove pin/secretKy", "/pin/secretKy", `/pin/secretKy does not exist`},
		{"replace frobnicate=x", "/frobnicate", `/frobnicate does not exist`},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			_, err := (&Update{Schema: s, Old: old, Operations: []string{tt.op}}).Run()
			var errs schema.ErrorList
			require.True(t, problem.As(err, &errs), "%v", err)
			require.Len(t, errs, 1, "%v", err)
			assert.Equal(t, tt.ptr, errs[0].Pointer)
			assert.Equal(t, tt.want, errs[0].Message)
		})
	}
}
