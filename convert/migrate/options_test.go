package migrate_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/schema"
)

// TestOptionsApplyWhereTheySay: each family of calls has its own option
// type, so that an option given where it does not apply (Lossless to
// Convert, say) does not compile. Each option implements exactly the
// families its godoc names.
func TestOptionsApplyWhereTheySay(t *testing.T) {
	v1, err := schema.Parse([]byte(`{"type":"object","properties":{"A":{"type":"number"}}}`))
	require.NoError(t, err)
	families := map[string]reflect.Type{
		"New":         reflect.TypeFor[migrate.Option](),
		"VersionSet":  reflect.TypeFor[migrate.SetOption](),
		"Conversions": reflect.TypeFor[migrate.ConvertOption](),
	}
	for _, c := range []struct {
		name    string
		opt     any
		applies []string
	}{
		{"FromVersion", migrate.FromVersion(v1), []string{"New"}},
		{"ThroughVersions", migrate.ThroughVersions(v1), []string{"New"}},
		{"AllowLossy", migrate.AllowLossy(), []string{"New", "Conversions"}},
		{"Lossless", migrate.Lossless(), []string{"New"}},
		{"StepHooks", migrate.StepHooks(0, nil, nil), []string{"New"}},
		{"CaseInsensitiveNames", migrate.CaseInsensitiveNames(), []string{"VersionSet"}},
		{"PairHooks", migrate.PairHooks("v1", "v2", nil, nil), []string{"VersionSet"}},
	} {
		for family, typ := range families {
			want := false
			for _, a := range c.applies {
				want = want || a == family
			}
			assert.Equal(t, want, reflect.TypeOf(c.opt).Implements(typ), "%s for %s", c.name, family)
		}
	}
}

// The options do what they say where they apply: AllowLossy lets a
// conversion and a migration truncate a number to an integer.
func TestAllowLossyInBothFamilies(t *testing.T) {
	v1, err := schema.Parse([]byte(`{"type":"object","properties":{"A":{"type":"number"}}}`))
	require.NoError(t, err)
	v2, err := schema.Parse([]byte(`{"type":"object","properties":{"a":{"type":"integer","oldName":"A"}}}`))
	require.NoError(t, err)
	set, err := migrate.NewVersionSet([]migrate.Version{{Name: "v1", Schema: v1}, {Name: "v2", Schema: v2}}, migrate.CaseInsensitiveNames())
	require.NoError(t, err)
	in := map[string]any{"A": json.Number("2.5")}
	r, err := set.Convert(in, "v1", "v2")
	require.NoError(t, err)
	assert.False(t, r.OK(), "refused without AllowLossy")
	r, err = set.Convert(in, "v1", "v2", migrate.AllowLossy())
	require.NoError(t, err)
	assert.True(t, r.OK(), "%v", r.Errors)

	m, err := migrate.New(v2, migrate.FromVersion(v1), migrate.AllowLossy())
	require.NoError(t, err)
	assert.True(t, m.Migrate(in).OK())
}

// A nil option is skipped in every family, as a caller building an
// option list conditionally may leave one.
func TestNilOptionsAreSkipped(t *testing.T) {
	v1, err := schema.Parse([]byte(`{"type":"object","properties":{"A":{"type":"number"}}}`))
	require.NoError(t, err)
	v2, err := schema.Parse([]byte(`{"type":"object","properties":{"a":{"type":"integer","oldName":"A"}}}`))
	require.NoError(t, err)
	set, err := migrate.NewVersionSet([]migrate.Version{{Name: "v1", Schema: v1}, {Name: "v2", Schema: v2}}, nil, migrate.CaseInsensitiveNames())
	require.NoError(t, err)
	in := map[string]any{"A": json.Number("2.5")}
	r, err := set.Convert(in, "v1", "v2", nil, migrate.AllowLossy())
	require.NoError(t, err)
	assert.True(t, r.OK(), "%v", r.Errors)

	m, err := migrate.New(v2, nil, migrate.FromVersion(v1), migrate.AllowLossy())
	require.NoError(t, err)
	assert.True(t, m.Migrate(in).OK())
}
