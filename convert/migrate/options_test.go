package migrate_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/schema"
)

// TestOptionsApplyWhereTheySay: migrate has one Option type; each call
// takes the options its godoc names and refuses any other, naming it,
// rather than ignoring it.
func TestOptionsApplyWhereTheySay(t *testing.T) {
	v1, err := schema.Parse([]byte(`{"type":"object","properties":{"A":{"type":"number"}}}`))
	require.NoError(t, err)
	v2, err := schema.Parse([]byte(`{"type":"object","properties":{"a":{"type":"integer","oldName":"A"}}}`))
	require.NoError(t, err)
	set, err := migrate.NewVersionSet([]migrate.Version{{Name: "v1", Schema: v1}, {Name: "v2", Schema: v2}})
	require.NoError(t, err)

	calls := map[string]func(...migrate.Option) error{
		"New": func(o ...migrate.Option) error {
			_, err := migrate.New(v2, append([]migrate.Option{migrate.FromVersion(v1)}, o...)...)
			return err
		},
		"NewVersionSet": func(o ...migrate.Option) error {
			_, err := migrate.NewVersionSet([]migrate.Version{{Name: "v1", Schema: v1}}, o...)
			return err
		},
		"LoadVersionSet": func(o ...migrate.Option) error {
			_, err := migrate.LoadVersionSet("testdata/versions/three", o...)
			return err
		},
		"Convert": func(o ...migrate.Option) error {
			_, err := set.Convert(map[string]any{}, "v1", "v2", o...)
			return err
		},
	}
	opts := map[string]migrate.Option{
		"FromVersion":          migrate.FromVersion(v1),
		"ThroughVersions":      migrate.ThroughVersions(v1),
		"AllowLossy":           migrate.AllowLossy(),
		"Lossless":             migrate.Lossless(),
		"StepHooks":            migrate.StepHooks(0, nil, nil),
		"CaseInsensitiveNames": migrate.CaseInsensitiveNames(),
		"PairHooks":            migrate.PairHooks("v1", "v2", nil, nil),
	}
	applies := map[string][]string{
		"New":            {"FromVersion", "ThroughVersions", "AllowLossy", "Lossless", "StepHooks"},
		"NewVersionSet":  {"CaseInsensitiveNames"}, // PairHooks needs a pair: tested with LoadVersionSet
		"LoadVersionSet": {"CaseInsensitiveNames"},
		"Convert":        {"AllowLossy"},
	}
	for call, fn := range calls {
		for name, opt := range opts {
			t.Run(call+"/"+name, func(t *testing.T) {
				err := fn(opt)
				if contains(applies[call], name) {
					if err != nil {
						assert.NotContains(t, err.Error(), "does not apply")
					}
					return
				}
				if name == "PairHooks" && (call == "NewVersionSet" || call == "LoadVersionSet") {
					return
				}
				require.Error(t, err)
				assert.Contains(t, err.Error(), "option "+name+" does not apply to")
			})
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
