package params_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// TestForbiddenPropertyHasOneWording: a property the schema forbids is
// worded one way whether validation finds it or an assignment, a merge
// patch or an operation tries to set it.
func TestForbiddenPropertyHasOneWording(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":false}`))
	require.NoError(t, err)
	const want = `not allowed here: "zz" (the schema does not declare it)`
	old := map[string]any{"a": "1"}
	tests := []struct {
		name string
		run  func() error
	}{
		{"validation", func() error { return s.Validate(map[string]any{"zz": true}) }},
		{"assignment", func() error {
			_, err := (&params.Update{Schema: s, Old: old, Set: []string{"zz=1"}}).Run()
			return err
		}},
		{"merge patch", func() error {
			_, err := (&params.Update{Schema: s, Old: old, Patches: []any{map[string]any{"zz": true}}}).Run()
			return err
		}},
		{"operation", func() error {
			_, err := (&params.Update{Schema: s, Old: old, Operations: []string{"add zz=1"}}).Run()
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := schema.ErrorsOf(tt.run())
			require.NotEmpty(t, l)
			var found bool
			for _, e := range l {
				if e.Pointer == "/zz" {
					found = true
					assert.Equal(t, schema.KindAdditional, e.Kind)
					assert.Contains(t, e.Message, want)
				}
			}
			assert.True(t, found, "%v", l.Err())
		})
	}
}
