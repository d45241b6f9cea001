package params_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

const sparseSchema = `
type: object
required: [name, replicas]
properties:
  name: {type: string, default: app}
  replicas: {type: integer, minimum: 1, default: 3}
  image:
    type: object
    properties:
      tag: {type: string, default: latest}
      pullPolicy: {type: string, default: IfNotPresent}
  storage:
    type: object
    immutable: true
    properties:
      class: {type: string, default: standard}
  backup:
    type: object
    trigger: backup
    properties:
      enabled: {type: boolean, default: false}
`

// TestUpdateSparse: with Update.Sparse the result holds the values as the
// user wrote them plus the change; defaults still decide validation,
// immutability and the plan.
func TestUpdateSparse(t *testing.T) {
	s, err := schema.Parse([]byte(sparseSchema))
	require.NoError(t, err)
	tests := []struct {
		name    string
		old     string // YAML; "" for an install
		set     []string
		ops     []string
		desired string
		want    string // the sparse values (YAML)
		plan    string
		changed []string
		err     string
	}{
		{name: "a change adds only itself (required keys defaulted for validation)", old: "name: web\n", set: []string{"replicas=5"},
			want: "name: web\nreplicas: 5\n", plan: "deploy", changed: []string{"/replicas"}},
		{name: "a nested change creates only its own parent", old: "name: web\n", set: []string{"image.tag=1.2"},
			want: "name: web\nimage: {tag: '1.2'}\n", plan: "deploy", changed: []string{"/image/tag"}},
		{name: "setting a default's value changes nothing", old: "name: web\n", set: []string{"replicas=3"},
			want: "name: web\nreplicas: 3\n", changed: []string{}},
		{name: "an install keeps only what was set", set: []string{"backup.enabled=true"},
			want: "backup: {enabled: true}\n", plan: "deploy", changed: []string{""}},
		{name: "the plan is of the change", old: "replicas: 2\n", set: []string{"backup.enabled=true"},
			want: "replicas: 2\nbackup: {enabled: true}\n", plan: "backup", changed: []string{"/backup/enabled"}},
		{name: "a removal leaves the default unwritten", old: "replicas: 2\nname: web\n", ops: []string{"remove replicas"},
			want: "name: web\n", plan: "deploy", changed: []string{"/replicas"}},
		{name: "a desired state stays as given", old: "replicas: 2\n", desired: "replicas: 4\n",
			want: "replicas: 4\n", plan: "deploy", changed: []string{"/replicas"}},
		{name: "immutability compares defaulted values: the default written is no change", old: "name: web\n", set: []string{"storage.class=standard"},
			want: "name: web\nstorage: {class: standard}\n", changed: []string{}},
		{name: "immutability compares defaulted values: another value is refused", old: "name: web\n", set: []string{"storage.class=fast"},
			err: "immutable"},
		{name: "an invalid value is still refused", old: "name: web\n", set: []string{"replicas=0"},
			err: "must be >= 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := params.Update{Schema: s, Set: tt.set, Operations: tt.ops, Sparse: true}
			if tt.old != "" {
				u.Old = yamlValue(t, s, tt.old)
			}
			if tt.desired != "" {
				u.Desired = yamlValue(t, s, tt.desired)
			}
			r, err := u.Run()
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.True(t, params.Equal(yamlValue(t, s, tt.want), r.Values), "got %v", r.Values)
			assert.Equal(t, tt.plan, r.Plan)
			assert.Equal(t, tt.changed, r.Changed)
			// The same update without Sparse gives the same plan and
			// changes, and its values are the sparse ones defaulted.
			u.Sparse = false
			full, err := u.Run()
			require.NoError(t, err)
			assert.Equal(t, r.Plan, full.Plan)
			assert.Equal(t, r.Changed, full.Changed)
			defaulted, err := params.Default(s, r.Values)
			require.NoError(t, err)
			assert.True(t, params.Equal(full.Values, defaulted))
		})
	}
}

// TestUpdateSparseKeepsOld: the sparse result never shares Old's parts
// and Old is not changed.
func TestUpdateSparseKeepsOld(t *testing.T) {
	s, err := schema.Parse([]byte(sparseSchema))
	require.NoError(t, err)
	old := map[string]any{"image": map[string]any{"tag": "1"}}
	r, err := (&params.Update{Schema: s, Old: old, Set: []string{"image.tag=2"}, Sparse: true}).Run()
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"image": map[string]any{"tag": "1"}}, old)
	assert.Equal(t, map[string]any{"image": map[string]any{"tag": "2"}}, r.Values)
}
