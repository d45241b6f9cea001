package migrate_test

import (
	"encoding/json"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/schema"
)

// TestOptionsApplyWhereTheySay: the package has one Option type, and a
// call given an option that is not for it (Lossless to Convert, say)
// refuses it with a KindUsage error naming it, rather than ignoring it.
// Each option applies exactly where its godoc says.
func TestOptionsApplyWhereTheySay(t *testing.T) {
	v1, err := schema.Parse([]byte(`{"type":"object","properties":{"A":{"type":"number"}}}`))
	require.NoError(t, err)
	v2, err := schema.Parse([]byte(`{"type":"object","properties":{"a":{"type":"integer","oldName":"A"}}}`))
	require.NoError(t, err)
	versions := []migrate.Version{{Name: "v1", Schema: v1}, {Name: "v2", Schema: v2}}
	set, err := migrate.NewVersionSet(versions)
	require.NoError(t, err)
	calls := map[string]func(migrate.Option) error{
		"New": func(o migrate.Option) error {
			_, err := migrate.New(v2, migrate.FromVersion(v1), o)
			return err
		},
		"VersionSet": func(o migrate.Option) error {
			_, err := migrate.NewVersionSet(versions, o)
			return err
		},
		"LoadVersionSet": func(o migrate.Option) error {
			_, err := migrate.LoadVersionSet(fstest.MapFS{"v1.json": {Data: []byte(`{"type":"object"}`)}}, o)
			return err
		},
		"Conversions": func(o migrate.Option) error {
			_, err := conv(set.Convert(map[string]any{}, "v1", "v2", o))
			return err
		},
	}
	for _, c := range []struct {
		name    string
		opt     migrate.Option
		applies []string
	}{
		{"FromVersion", migrate.FromVersion(v1), []string{"New"}},
		{"ThroughVersions", migrate.ThroughVersions(v1), []string{"New"}},
		{"AllowLossy", migrate.AllowLossy(), []string{"New", "Conversions"}},
		{"Lossless", migrate.Lossless(), []string{"New"}},
		{"StepHooks", migrate.StepHooks(0, nil, nil), []string{"New"}},
		{"CaseInsensitiveNames", migrate.CaseInsensitiveNames(), []string{"VersionSet", "LoadVersionSet"}},
		{"Total", migrate.Total(), []string{"Conversions"}},
	} {
		for call, run := range calls {
			want := false
			for _, a := range c.applies {
				want = want || a == call
			}
			err := run(c.opt)
			if want {
				assert.NoError(t, err, "%s for %s", c.name, call)
				continue
			}
			require.Error(t, err, "%s for %s", c.name, call)
			var se *schema.Error
			require.ErrorAs(t, err, &se)
			assert.Equal(t, schema.KindUsage, se.Kind)
			assert.Contains(t, err.Error(), c.name+" is for ", "%s for %s", c.name, call)
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
	r, err := conv(set.Convert(in, "v1", "v2"))
	require.NoError(t, err)
	assert.False(t, r.OK(), "refused without AllowLossy")
	r, err = conv(set.Convert(in, "v1", "v2", migrate.AllowLossy()))
	require.NoError(t, err)
	assert.True(t, r.OK(), "%v", r.Errors)

	m, err := migrate.New(v2, migrate.FromVersion(v1), migrate.AllowLossy())
	require.NoError(t, err)
	assert.True(t, got(m.Migrate(in)).OK())
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
	r, err := conv(set.Convert(in, "v1", "v2", nil, migrate.AllowLossy()))
	require.NoError(t, err)
	assert.True(t, r.OK(), "%v", r.Errors)

	m, err := migrate.New(v2, nil, migrate.FromVersion(v1), migrate.AllowLossy())
	require.NoError(t, err)
	assert.True(t, got(m.Migrate(in)).OK())
}
