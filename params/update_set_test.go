package params_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// TestUpdateSetTakesStrings: Update.Set takes the `-p` strings as typed.
// A malformed one is a usage error wrapping ErrMalformed, found before
// anything else (even a bad path earlier in the list); a KEY that is no
// path is an Error naming the input; in both cases nothing is applied.
func TestUpdateSetTakesStrings(t *testing.T) {
	s := mustSchema(t, "type: object\nproperties:\n  n: {type: integer}\n  a: {type: object, properties: {b: {type: string}}}\n")
	old := map[string]any{"n": 1}
	tests := []struct {
		name      string
		set       []string
		malformed bool
		wantErr   []string // Detail.Input of each entry
		msg       string
	}{
		{name: "typed by the node", set: []string{"n=7", "a.b=007"}},
		{name: "no =", set: []string{"n=2", "nodeCount"}, malformed: true, msg: `malformed assignment "nodeCount": want KEY=VALUE`},
		{name: "nothing before =", set: []string{"=1"}, malformed: true, msg: `nothing before "="`},
		{name: "malformed wins over a bad path", set: []string{"a/b~2=1", "x"}, malformed: true, msg: `malformed assignment "x"`},
		{name: "bad escape", set: []string{"n=2", "a/b~2=1", "a..b=1"}, wantErr: []string{"a/b~2=1", "a..b=1"}, msg: "~2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := (&params.Update{Schema: s, Old: old, Set: tt.set}).Run()
			switch {
			case tt.malformed:
				require.Error(t, err)
				assert.Zero(t, r)
				assert.True(t, errors.Is(err, params.ErrMalformed), "%v", err)
				assert.Contains(t, err.Error(), tt.msg)
			case tt.wantErr != nil:
				assert.Zero(t, r)
				var errs schema.ErrorList
				require.True(t, problem.As(err, &errs), "%v", err)
				assert.False(t, errors.Is(err, params.ErrMalformed))
				var inputs []string
				for _, e := range errs {
					inputs = append(inputs, e.Detail.Input)
				}
				assert.Equal(t, tt.wantErr, inputs)
				assert.Contains(t, err.Error(), tt.msg)
			default:
				require.NoError(t, err)
				assert.Equal(t, map[string]any{"n": json.Number("7"), "a": map[string]any{"b": "007"}}, r.Values)
				assert.Equal(t, []string{"/a", "/n"}, r.Changed)
			}
			assert.Equal(t, map[string]any{"n": 1}, old, "the old values are not changed")
		})
	}
}
