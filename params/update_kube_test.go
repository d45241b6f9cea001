package params_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// transitionSchema has a CEL transition rule (self == oldSelf), a rule
// that only fails after defaulting, and a list-type set.
const transitionSchema = `
type: object
properties:
  storageClass:
    type: string
    x-kubernetes-validations:
    - rule: self == oldSelf
      message: storageClass is immutable
  tls:
    type: object
    properties:
      mode: {type: string, default: Terminate}
      certificateRefs: {type: array, items: {type: string}}
    x-kubernetes-validations:
    - rule: "self.mode != 'Terminate' || has(self.certificateRefs)"
      message: certificateRefs are required when mode is Terminate
  zones:
    type: array
    x-kubernetes-list-type: set
    items: {type: string}
`

func TestUpdateRunsKubernetesRules(t *testing.T) {
	s, err := schema.Parse([]byte(transitionSchema))
	require.NoError(t, err)
	tests := []struct {
		name string
		old  any
		set  []string
		want []string // pointer: message
	}{
		{name: "install sets what the transition rule guards", set: []string{"storageClass=fast"}},
		{name: "unchanged", old: map[string]any{"storageClass": "fast"}, set: []string{"zones=[a,b]"}},
		{name: "transition rule refuses a change", old: map[string]any{"storageClass": "fast"}, set: []string{"storageClass=slow"},
			want: []string{"/storageClass: storageClass is immutable"}},
		{name: "first value of a guarded field", old: map[string]any{}, set: []string{"storageClass=slow"}},
		{name: "rule that fails after defaulting", old: map[string]any{}, set: []string{"tls={}"},
			want: []string{"/tls: certificateRefs are required when mode is Terminate"}},
		{name: "set duplicates", old: map[string]any{}, set: []string{"zones=[a,b,a]"},
			want: []string{`/zones/2: Duplicate value: "a"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Defaults as the apiserver defaults (no parent object created).
			_, err := (&params.Update{Schema: s, Old: tt.old, Set: tt.set, Defaults: []params.Option{params.Structural()}}).Run()
			var got []string
			for _, e := range schema.ErrorsOf(err) {
				got = append(got, e.Pointer+": "+e.Message)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestValidateUpdate(t *testing.T) {
	s, err := schema.Parse([]byte(transitionSchema))
	require.NoError(t, err)
	old := map[string]any{"storageClass": "fast"}
	assert.NoError(t, params.Validate(s, map[string]any{"storageClass": "slow"}))
	assert.NoError(t, params.ValidateUpdate(s, map[string]any{"storageClass": "slow"}, nil))
	err = params.ValidateUpdate(s, map[string]any{"storageClass": "slow"}, old)
	require.Error(t, err)
	list := schema.ErrorsOf(err)
	require.Len(t, list, 1)
	assert.Equal(t, "/storageClass", list[0].Pointer)
	assert.Equal(t, schema.KindInvalid, list[0].Kind)
	assert.Equal(t, "x-kubernetes-validations", list[0].Keyword)
	assert.Error(t, params.ValidateUpdate(s, map[string]any{"storageClass": "slow"}, old, params.Structural()))
}
