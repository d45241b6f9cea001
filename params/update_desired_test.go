package params_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/trigger"
)

// desiredSchema is an operator's parameters: a replica count that deploys,
// a backup section that runs its own plan, an immutable storage class.
const desiredSchema = `
type: object
properties:
  replicas: {type: integer, default: 3}
  image: {type: string}
  backup:
    type: object
    trigger: backup
    properties:
      enabled: {type: boolean}
      schedule: {type: string}
  storageClass: {type: string, immutable: true}
  annotations:
    type: object
    additionalProperties: {type: string}
`

func TestUpdateDesired(t *testing.T) {
	s := mustSchema(t, desiredSchema)
	r, err := trigger.New(s, trigger.DefaultPlan("update"))
	require.NoError(t, err)
	old := map[string]any{
		"replicas":     json.Number("5"),
		"image":        "nginx:1",
		"backup":       map[string]any{"enabled": true, "schedule": "@daily"},
		"storageClass": "fast",
	}
	for _, tc := range []struct {
		name     string
		old      any
		desired  any
		values   any // expected values, when the update passes
		plan     string
		changed  []string
		warnings []string // pointers
		kinds    []schema.Kind
	}{{
		name:    "a removed parameter counts for the plan",
		old:     old,
		desired: map[string]any{"replicas": json.Number("5"), "image": "nginx:1", "backup": map[string]any{"enabled": true}, "storageClass": "fast"},
		values:  map[string]any{"replicas": json.Number("5"), "image": "nginx:1", "backup": map[string]any{"enabled": true}, "storageClass": "fast"},
		plan:    "backup",
		changed: []string{"/backup/schedule"},
	}, {
		name:    "a removed parameter with a default goes back to it",
		old:     old,
		desired: map[string]any{"image": "nginx:1", "backup": map[string]any{"enabled": true, "schedule": "@daily"}, "storageClass": "fast"},
		values:  map[string]any{"replicas": json.Number("3"), "image": "nginx:1", "backup": map[string]any{"enabled": true, "schedule": "@daily"}, "storageClass": "fast"},
		plan:    "update",
		changed: []string{"/replicas"},
	}, {
		name:    "a removed top-level parameter",
		old:     old,
		desired: map[string]any{"replicas": json.Number("5"), "backup": map[string]any{"enabled": true, "schedule": "@daily"}, "storageClass": "fast"},
		values:  map[string]any{"replicas": json.Number("5"), "backup": map[string]any{"enabled": true, "schedule": "@daily"}, "storageClass": "fast"},
		plan:    "update",
		changed: []string{"/image"},
	}, {
		name:    "the same state changes nothing",
		old:     old,
		desired: value.DeepCopy(old),
		values:  old,
		plan:    "",
		changed: []string{},
	}, {
		name:    "an install",
		desired: map[string]any{"image": "nginx:2"},
		values:  map[string]any{"replicas": json.Number("3"), "image": "nginx:2"},
		plan:    trigger.Deploy,
		changed: []string{""},
	}, {
		name:    "removing an immutable parameter is refused",
		old:     old,
		desired: map[string]any{"replicas": json.Number("5"), "image": "nginx:1", "backup": map[string]any{"enabled": true, "schedule": "@daily"}},
		kinds:   []schema.Kind{schema.KindImmutable},
	}, {
		name:    "a removal and a change of two plans are refused",
		old:     old,
		desired: map[string]any{"replicas": json.Number("7"), "image": "nginx:1", "storageClass": "fast"},
		kinds:   []schema.Kind{schema.KindConflict, schema.KindConflict},
	}, {
		name:    "a null is a value, not a deletion",
		old:     old,
		desired: map[string]any{"replicas": json.Number("5"), "image": nil, "backup": map[string]any{"enabled": true, "schedule": "@daily"}, "storageClass": "fast"},
		kinds:   []schema.Kind{schema.KindType},
	}, {
		name:     "only keys the old values lack are warned about",
		old:      map[string]any{"replicas": json.Number("5"), "replicsa": json.Number("1"), "storageClass": "fast"},
		desired:  map[string]any{"replicas": json.Number("5"), "replicsa": json.Number("1"), "imag": "x", "storageClass": "fast", "annotations": map[string]any{"free": "form"}},
		values:   map[string]any{"replicas": json.Number("5"), "replicsa": json.Number("1"), "imag": "x", "storageClass": "fast", "annotations": map[string]any{"free": "form"}},
		plan:     "update",
		changed:  []string{"/annotations", "/imag"},
		warnings: []string{"/imag"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			oldBefore, desiredBefore := value.DeepCopy(tc.old), value.DeepCopy(tc.desired)
			res, err := (&params.Update{Schema: s, Triggers: r, Old: tc.old, Desired: tc.desired}).Run()
			assert.Equal(t, oldBefore, tc.old, "Old was changed")
			assert.Equal(t, desiredBefore, tc.desired, "Desired was changed")
			if tc.kinds != nil {
				require.Error(t, err)
				var kinds []schema.Kind
				for _, e := range schema.ErrorsOf(err) {
					kinds = append(kinds, e.Kind)
				}
				assert.Equal(t, tc.kinds, kinds, "%v", err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.values, res.Values)
			assert.Equal(t, tc.plan, res.Plan)
			assert.Equal(t, tc.changed, res.Changed)
			var warned []string
			for _, w := range res.Warnings {
				warned = append(warned, w.Pointer)
			}
			assert.Equal(t, tc.warnings, warned)
		})
	}
}

// TestUpdateDesiredIsTheWholeState: the difference from a merge patch of
// the same document, which keeps what it does not name.
func TestUpdateDesiredIsTheWholeState(t *testing.T) {
	s := mustSchema(t, desiredSchema)
	old := map[string]any{"image": "nginx:1", "backup": map[string]any{"enabled": true}}
	desired := map[string]any{"image": "nginx:1"}
	whole, err := (&params.Update{Schema: s, Old: old, Desired: desired}).Run()
	require.NoError(t, err)
	assert.Equal(t, "backup", whole.Plan)
	assert.NotContains(t, whole.Values, "backup")
	patched, err := (&params.Update{Schema: s, Old: old, Patches: []any{desired}}).Run()
	require.NoError(t, err)
	assert.Equal(t, "", patched.Plan, "a patch naming nothing of backup leaves it")
	assert.Contains(t, patched.Values, "backup")
}

func TestUpdateDesiredRefusesEdits(t *testing.T) {
	s := mustSchema(t, desiredSchema)
	for name, u := range map[string]params.Update{
		"patches":    {Patches: []any{map[string]any{}}},
		"set":        {Set: []string{"replicas=3"}},
		"operations": {Operations: []string{"remove image"}},
	} {
		t.Run(name, func(t *testing.T) {
			u.Schema, u.Desired = s, map[string]any{}
			res, err := u.Run()
			assert.Zero(t, res)
			errs := schema.ErrorsOf(err)
			require.Len(t, errs, 1, "%v", err)
			assert.Equal(t, schema.KindUsage, errs[0].Kind)
			assert.Contains(t, errs[0].Message, "Desired")
		})
	}
	t.Run("not a value", func(t *testing.T) {
		_, err := (&params.Update{Schema: s, Desired: map[string]any{"image": make(chan int)}}).Run()
		errs := schema.ErrorsOf(err)
		require.Len(t, errs, 1)
		assert.Equal(t, schema.KindUsage, errs[0].Kind)
		assert.Equal(t, "/image", errs[0].Pointer)
	})
}
