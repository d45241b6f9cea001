package migrate

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/schema"
)

func TestVersionOrder(t *testing.T) {
	ordered := [][]string{
		{"v1alpha1", "v1alpha2", "v1beta1", "v1beta10", "v1", "v2alpha1", "v2", "v10"},
		{"0.1.0", "0.2.0", "0.10.0", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1"},
		{"v1beta1", "v1", "1.0.1", "v2"},
	}
	for _, list := range ordered {
		for i := 0; i+1 < len(list); i++ {
			a, err := parseVersionKey(list[i])
			require.NoError(t, err)
			b, err := parseVersionKey(list[i+1])
			require.NoError(t, err)
			assert.Equal(t, -1, compareVersionKeys(a, b), "%s < %s", list[i], list[i+1])
			assert.Equal(t, 1, compareVersionKeys(b, a), "%s > %s", list[i+1], list[i])
		}
	}
	_, err := parseVersionKey("stable")
	require.ErrorContains(t, err, "versions.yaml")
}

func loadThree(t testing.TB, opts ...Option) *VersionSet {
	t.Helper()
	s, err := LoadVersionSet(os.DirFS("testdata/versions/three"), opts...)
	require.NoError(t, err)
	return s
}

func TestVersionSetHub(t *testing.T) {
	s := loadThree(t)
	assert.Equal(t, []string{"v1", "v2", "v3"}, s.Order())
	assert.Equal(t, "v2", s.Hub(), "the newest version not marked preview")

	// Without versions.yaml: version order of the names, the newest is the hub.
	dir := t.TempDir()
	for _, name := range []string{"v1", "v2", "v3"} {
		data, err := os.ReadFile(filepath.Join("testdata/versions/three", name+".yaml"))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+".yaml"), data, 0o644))
	}
	s2, err := LoadVersionSet(os.DirFS(dir))
	require.NoError(t, err)
	assert.Equal(t, "v3", s2.Hub())
}

func TestVersionSetLoadErrors(t *testing.T) {
	cases := map[string]struct {
		files map[string]string
		want  string
	}{
		"unlisted":      {map[string]string{"versions.yaml": "[v1]\n", "v1.yaml": "{}", "v2.yaml": "{}"}, "v2.yaml is not listed"},
		"missing":       {map[string]string{"versions.yaml": "[v1, v2]\n", "v1.yaml": "{}"}, "version v2 has no schema file"},
		"all preview":   {map[string]string{"versions.yaml": "[{name: v1, preview: true}]\n", "v1.yaml": "{}"}, "no hub"},
		"bad field":     {map[string]string{"versions.yaml": "[{name: v1, storage: true}]\n", "v1.yaml": "{}"}, `unknown field "storage"`},
		"bad bool":      {map[string]string{"versions.yaml": "[{name: v1, downgrade: nope}]\n", "v1.yaml": "{}"}, "true or false"},
		"not a list":    {map[string]string{"versions.yaml": "v1: {}\n", "v1.yaml": "{}"}, "a list of version names"},
		"duplicate":     {map[string]string{"versions.yaml": "[v1, v1]\n", "v1.yaml": "{}"}, "listed twice"},
		"unorderable":   {map[string]string{"stable.yaml": "{}", "v1.yaml": "{}"}, "order the set in versions.yaml"},
		"empty":         {map[string]string{}, "no schema files"},
		"bad schema":    {map[string]string{"v1.yaml": "type: 7\n"}, "v1.yaml"},
		"two of a kind": {map[string]string{"v1.yaml": "{}", "v1.json": "{}"}, "two schema files"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for f, body := range c.files {
				require.NoError(t, os.WriteFile(filepath.Join(dir, f), []byte(body), 0o644))
			}
			_, err := LoadVersionSet(os.DirFS(dir))
			require.ErrorContains(t, err, c.want)
		})
	}
}

func mustJSON(t testing.TB, s string) any {
	t.Helper()
	v, err := document.DecodeJSON([]byte(s))
	require.NoError(t, err)
	return v
}

func TestVersionSetConvert(t *testing.T) {
	s := loadThree(t)
	v1 := mustJSON(t, `{"name":"a","replicas":3,"size":2.5,"legacyMode":true}`)

	// v1 → v3 goes through the hub v2: renamed twice, size truncated
	// (refused without AllowLossy), legacyMode dropped.
	r, err := conv(s.Convert(v1, "v1", "v3"))
	require.NoError(t, err)
	require.False(t, r.OK())
	require.Len(t, r.Lossy, 1)
	assert.True(t, r.Lossy[0].Refused)

	r, err = conv(s.Convert(v1, "v1", "v3", AllowLossy()))
	require.NoError(t, err)
	require.True(t, r.OK(), "%v", r.Errors)
	got := stripBag(r.Values).(map[string]any)
	assert.Equal(t, show(mustJSON(t, `{"name":"a","scaling":{"replicas":3},"size":2}`)), show(got))
	require.Len(t, r.Dropped, 1)
	assert.Equal(t, "/legacyMode", r.Dropped[0].Pointer)
	assert.Equal(t, "/size", r.Lossy[0].Pointer)
	assert.Equal(t, "2.5", fmt.Sprint(r.Lossy[0].From))
	assert.Contains(t, r.Values, bagKey, "v3 → v1 is allowed, so what v3 cannot hold is kept")

	// And back: the bag restores exactly what went in.
	back, err := conv(s.Convert(r.Values, "v3", "v1", AllowLossy()))
	require.NoError(t, err)
	require.True(t, back.OK(), "%v", back.Errors)
	assert.Equal(t, show(v1), show(back.Values))

	_, err = conv(s.Convert(v1, "v1", "v9"))
	require.ErrorContains(t, err, `no version "v9"`)

	same, err := conv(s.Convert(v1, "v1", "v1"))
	require.NoError(t, err)
	assert.True(t, same.OK())
	assert.Equal(t, show(v1), show(same.Values))
}

func TestVersionSetRefusesDowngrade(t *testing.T) {
	s, err := LoadVersionSet(os.DirFS("testdata/bmh/set"))
	require.NoError(t, err)
	_, err = conv(s.Convert(map[string]any{}, "v1alpha2", "v1alpha1"))
	var re *schema.Error
	require.ErrorAs(t, err, &re)
	assert.Equal(t, schema.KindRefused, re.Kind)
	assert.Equal(t, "conversion from v1alpha2 to v1alpha1 is refused: v1alpha2 is upgrade-only (downgrade: false), it cannot be converted to an older version", err.Error())
	// Upgrades carry no property bag: nothing could ever read it back.
	r, err := conv(s.Convert(mustJSON(t, `{"spec":{"hardwareProfile":"dell"}}`), "v1alpha1", "v1alpha2"))
	require.NoError(t, err)
	assert.NotContains(t, r.Values, bagKey)
	require.Len(t, r.Dropped, 1)
}

func TestVersionSetHooks(t *testing.T) {
	three := loadThree(t)
	var vs []Version
	for _, n := range three.Order() {
		v, _ := three.Version(n)
		vs = append(vs, v)
	}
	up := func(from, to any) (any, error) {
		m := to.(map[string]any)
		if from.(map[string]any)["legacyMode"] == true {
			m["tier"] = "gold"
		}
		return m, nil
	}
	hooked := append([]Version(nil), vs...)
	hooked[1].Up = up // the pair v1 → v2
	s, err := NewVersionSet(hooked)
	require.NoError(t, err)
	r, err := conv(s.Convert(mustJSON(t, `{"legacyMode":true}`), "v1", "v2"))
	require.NoError(t, err)
	assert.Equal(t, "gold", stripBag(r.Values).(map[string]any)["tier"])

	oldest := append([]Version(nil), vs...)
	oldest[0].Up = up
	_, err = NewVersionSet(oldest)
	require.ErrorContains(t, err, "is the oldest: it has no previous version")
}

func TestVersionSetCaseInsensitive(t *testing.T) {
	old, err := schema.Parse([]byte(`{"type":"object","properties":{"ClockSpeed":{"type":"number"},"Spec":{"type":"object","properties":{"Name":{"type":"string"}}}}}`))
	require.NoError(t, err)
	nw, err := schema.Parse([]byte(`{"type":"object","properties":{"clockSpeed":{"type":"number"},"spec":{"type":"object","properties":{"name":{"type":"string"}}}}}`))
	require.NoError(t, err)
	vs := []Version{{Name: "v1", Schema: old}, {Name: "v2", Schema: nw}}

	exact, err := NewVersionSet(vs)
	require.NoError(t, err)
	r, err := conv(exact.Convert(mustJSON(t, `{"ClockSpeed":1.5,"Spec":{"Name":"x"}}`), "v1", "v2"))
	require.NoError(t, err)
	assert.Len(t, r.Dropped, 2, "exact names only by default")

	folded, err := NewVersionSet(vs, CaseInsensitiveNames())
	require.NoError(t, err)
	assert.Equal(t, []string{
		"v2: /clockSpeed takes /ClockSpeed (names matched ignoring case)",
		"v2: /spec takes /Spec (names matched ignoring case)",
		"v2: /spec/name takes /Spec/Name (names matched ignoring case)",
	}, folded.Notes())
	r, err = conv(folded.Convert(mustJSON(t, `{"ClockSpeed":1.5,"Spec":{"Name":"x"}}`), "v1", "v2"))
	require.NoError(t, err)
	assert.Empty(t, r.Dropped)
	assert.Equal(t, `{"clockSpeed":1.5,"spec":{"name":"x"}}`, show(stripBag(r.Values)))
	back, err := conv(folded.Convert(r.Values, "v2", "v1"))
	require.NoError(t, err)
	assert.Equal(t, `{"ClockSpeed":1.5,"Spec":{"Name":"x"}}`, show(back.Values))
}

func TestVersionSetLosses(t *testing.T) {
	s := loadThree(t)
	losses := func(set *VersionSet, from, to string, samples int) []string {
		t.Helper()
		ps, err := set.Losses(from, to, samples)
		require.NoError(t, err)
		return ps
	}
	assert.Equal(t, []string{"/legacyMode", "/size"}, losses(s, "v1", "v2", 200))
	// {"scaling":{}} has no place in v2: the empty object is reported too.
	assert.Equal(t, []string{"/scaling", "/scaling/autoscale"}, losses(s, "v3", "v2", 200))
	assert.Equal(t, []string{"/tier"}, losses(s, "v2", "v1", 200))
	assert.Equal(t, []string{}, losses(s, "v2", "v2", 200))

	b, err := LoadVersionSet(os.DirFS("testdata/bmh/set"))
	require.NoError(t, err)
	assert.Equal(t, []string{"/spec/hardwareProfile", "/status/hardware/cpu/clockMegahertz", "/status/hardwareProfile"}, losses(b, "v1alpha1", "v1alpha2", 100))
	_, err = b.Losses("v1alpha2", "v1alpha1", 100)
	assert.ErrorContains(t, err, "upgrade-only")
	_, err = b.Losses("v1alpha2", "v9", 100)
	assert.Error(t, err)
}
