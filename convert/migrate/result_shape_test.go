package migrate

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// TestOneResultShape: every function of the family returns (Result,
// error) with every failure in the error (schema.ErrorsOf gives a
// non-empty list of *schema.Error), and the Result is what Result
// documents: the values as converted when the errors are about them, the
// zero Result when nothing ran.
func TestOneResultShape(t *testing.T) {
	old := mustSchema(t, `{type: object, properties: {N: {type: number}, gone: {type: string}}}`)
	target := mustSchema(t, `{type: object, properties: {n: {type: integer, oldName: N}}}`)
	m, err := New(target, FromVersion(old))
	require.NoError(t, err)
	set, err := NewVersionSet([]Version{{Name: "v1", Schema: old}, {Name: "v2", Schema: target}})
	require.NoError(t, err)
	lossy := map[string]any{"N": "x", "gone": "g"} // N does not fit n; gone is dropped
	tests := []struct {
		name string
		call func() (Result, error)
		kind schema.Kind
		ran  bool // the Result holds the values as converted
	}{
		{"Migrate, a value that does not fit", func() (Result, error) { return m.Migrate(lossy) }, schema.KindType, true},
		{"MigrateDocument, a value that does not fit", func() (Result, error) { return m.MigrateDocument([]byte("N: x\ngone: g\n")) }, schema.KindType, true},
		{"MigrateHiding, a value that does not fit", func() (Result, error) { return m.MigrateHiding(lossy, old) }, schema.KindType, true},
		{"Down, a value that does not fit", func() (Result, error) { return m.Down(map[string]any{"n": "x"}) }, schema.KindType, true},
		{"Convert, a refused lossy change", func() (Result, error) { return set.Convert(map[string]any{"N": json.Number("2.5")}, "v1", "v2") }, schema.KindType, true},
		{"ConvertDocument, a refused lossy change", func() (Result, error) { return set.ConvertDocument([]byte("N: 2.5\n"), "v1", "v2") }, schema.KindType, true},
		{"ConvertObject, an object without kind", func() (Result, error) {
			return set.ConvertObject(map[string]any{"N": json.Number("1")}, "v1", "v2", ObjectTarget{APIVersion: "x/v2"})
		}, schema.KindRequired, true},
		{"MigrateDocument, unreadable", func() (Result, error) { return m.MigrateDocument([]byte("N: [")) }, schema.KindSyntax, false},
		{"ConvertDocument, unreadable", func() (Result, error) { return set.ConvertDocument([]byte("N: ["), "v1", "v2") }, schema.KindSyntax, false},
		{"Convert, an unknown version", func() (Result, error) { return set.Convert(lossy, "v1", "v9") }, schema.KindNotFound, false},
		{"ConvertObject, not an apiVersion", func() (Result, error) { return set.ConvertObject(lossy, "v1", "v2", ObjectTarget{APIVersion: "a/b/c"}) }, schema.KindUsage, false},
		{"Migrate, an unmade Migration", func() (Result, error) { return (&Migration{}).Migrate(lossy) }, schema.KindUsage, false},
		{"Down, without FromVersion", func() (Result, error) {
			m, err := New(target)
			require.NoError(t, err)
			return m.Down(map[string]any{"n": json.Number("1")})
		}, schema.KindUsage, false},
		{"Convert, an unmade VersionSet", func() (Result, error) { return (&VersionSet{}).Convert(lossy, "v1", "v2") }, schema.KindUsage, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := tt.call()
			require.Error(t, err)
			errs := schema.ErrorsOf(err)
			require.NotEmpty(t, errs)
			assert.Equal(t, tt.kind, errs[0].Kind, "%v", err)
			if !tt.ran {
				assert.Equal(t, Result{}, r, "nothing ran: the zero Result")
				return
			}
			require.NotNil(t, r.Values, "the values as converted")
		})
	}

	// The report of a failed migration is complete: the misfit stays at
	// its new place, the dropped value is reported.
	r, err := m.Migrate(lossy)
	require.Error(t, err)
	assert.Equal(t, map[string]any{"n": "x"}, r.Values)
	require.Len(t, r.Dropped, 1)
	assert.Equal(t, "/gone", r.Dropped[0].Pointer)
	assert.Equal(t, "/n", schema.ErrorsOf(err)[0].Pointer)

	// And with no failure, no error.
	r, err = set.Convert(map[string]any{"N": json.Number("1")}, "v1", "v2")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"n": json.Number("1")}, r.Values)
}
