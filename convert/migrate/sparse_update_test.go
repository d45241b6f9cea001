package migrate_test

import (
	"encoding/json"

	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// TestSparseUpdateAgreesWithMigrate: a migration's values hold no
// defaults, and an update with Update.Sparse adds none either, so an
// upgrade followed by an update writes only what the user wrote plus the
// change (issue 37, item 2).
func TestSparseUpdateAgreesWithMigrate(t *testing.T) {
	v2, err := schema.Parse([]byte(`
type: object
properties:
  nodeCount: {type: integer, oldName: nodes, default: 3}
  image: {type: string, default: "nginx:1"}
  backup:
    type: object
    properties:
      enabled: {type: boolean, default: false}
`))
	require.NoError(t, err)
	m, err := migrate.New(v2)
	require.NoError(t, err)
	tests := []struct {
		name, old string
		set       []string
		want      map[string]any
	}{
		{name: "no edit", old: "nodes: 5\n", want: map[string]any{"nodeCount": json.Number("5")}},
		{name: "an edit", old: "nodes: 5\n", set: []string{"image=nginx:2"},
			want: map[string]any{"nodeCount": json.Number("5"), "image": "nginx:2"}},
		{name: "an empty document", old: "{}\n", want: map[string]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := m.MigrateDocument([]byte(tt.old))
			require.NoError(t, err)
			u, err := (&params.Update{Schema: v2, Old: r.Values, Set: tt.set, Sparse: true}).Run()
			require.NoError(t, err)
			assert.Equal(t, tt.want, u.Values)
			if len(tt.set) == 0 {
				assert.Equal(t, r.Values, u.Values, "migrate and a sparse update that changes nothing agree")
			}
		})
	}
}
