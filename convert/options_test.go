package convert_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/schema"
)

// TestOptionsApplyWhereTheySay: convert has one Option type; each call
// takes the options its godoc names and refuses any other, naming it,
// rather than ignoring it.
func TestOptionsApplyWhereTheySay(t *testing.T) {
	v1, err := schema.Parse([]byte(`{"type":"object","properties":{"A":{"type":"number"}}}`))
	require.NoError(t, err)
	v2, err := schema.Parse([]byte(`{"type":"object","properties":{"a":{"type":"integer","oldName":"A"}}}`))
	require.NoError(t, err)
	set, err := convert.NewVersionSet([]convert.Version{{Name: "v1", Schema: v1}, {Name: "v2", Schema: v2}})
	require.NoError(t, err)
	flat := []byte("parameters:\n  - name: A\n    default: \"3\"\n")

	calls := map[string]func(...convert.Option) error{
		"FromV1beta1": func(o ...convert.Option) error { _, err := convert.FromV1beta1(flat, o...); return err },
		"NewMigration": func(o ...convert.Option) error {
			_, err := convert.NewMigration(v2, append([]convert.Option{convert.FromVersion(v1)}, o...)...)
			return err
		},
		"NewVersionSet": func(o ...convert.Option) error {
			_, err := convert.NewVersionSet([]convert.Version{{Name: "v1", Schema: v1}}, o...)
			return err
		},
		"LoadVersionSet": func(o ...convert.Option) error {
			_, err := convert.LoadVersionSet("testdata/versions/three", o...)
			return err
		},
		"Convert": func(o ...convert.Option) error {
			_, err := set.Convert(map[string]any{}, "v1", "v2", o...)
			return err
		},
	}
	opts := map[string]convert.Option{
		"InferStringTypes":     convert.InferStringTypes(),
		"KeepV1beta1List":      convert.KeepV1beta1List(),
		"FromVersion":          convert.FromVersion(v1),
		"ThroughVersions":      convert.ThroughVersions(v1),
		"AllowLossy":           convert.AllowLossy(),
		"Lossless":             convert.Lossless(),
		"StepHooks":            convert.StepHooks(0, nil, nil),
		"CaseInsensitiveNames": convert.CaseInsensitiveNames(),
		"PairHooks":            convert.PairHooks("v1", "v2", nil, nil),
	}
	applies := map[string][]string{
		"FromV1beta1":    {"InferStringTypes", "KeepV1beta1List"},
		"NewMigration":   {"FromVersion", "ThroughVersions", "AllowLossy", "Lossless", "StepHooks"},
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
