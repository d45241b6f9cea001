package helmvalues

import (
	"encoding/json"

	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tree is a parent with a subchart sub listed twice (once as alias
// other), a subchart gated by a condition and one by a tag.
func tree(t *testing.T) *Chart {
	t.Helper()
	read := func(s string) map[string]any {
		v, err := Read([]byte(s))
		require.NoError(t, err)
		return v
	}
	sub := &Chart{Name: "sub", Dir: "charts/sub", Values: read("replicas: 1\nimage: nginx\nglobal:\n  region: us\nexports:\n  defaults:\n    timeout: 30\n")}
	gated := &Chart{Name: "gated", Dir: "charts/gated", Values: read("port: http\n")}
	tagged := &Chart{Name: "tagged", Dir: "charts/tagged", Values: read("port: http\n")}
	return &Chart{Name: "parent", Values: read("global:\n  region: eu\nsub:\n  replicas: 2\ngated:\n  enabled: false\n"),
		Deps: []Dep{
			{Name: "sub", ImportValues: []any{"defaults"}},
			{Name: "sub", Alias: "other", Condition: "other.enabled"},
			{Name: "gated", Condition: "gated.enabled"},
			{Name: "tagged", Tags: []string{"extras"}},
		},
		Subs: []*Chart{sub, gated, tagged}}
}

func names(c *Chart) []string {
	var out []string
	for _, s := range c.Subs {
		out = append(out, s.Name)
	}
	return out
}

// TestProcessAndCoalesce: Helm's ProcessDependencies and CoalesceValues
// (the cases test/helm's TestHelmSubcharts checks against Helm itself).
func TestProcessAndCoalesce(t *testing.T) {
	for _, tc := range []struct {
		name    string
		user    string
		enabled []string
		check   func(t *testing.T, v map[string]any)
		errMsg  string
	}{
		{name: "defaults", enabled: []string{"sub", "other", "tagged"}, check: func(t *testing.T, v map[string]any) {
			assert.Equal(t, map[string]any{"region": "eu"}, v["sub"].(map[string]any)["global"], "the parent's globals win")
			assert.Equal(t, map[string]any{"region": "eu"}, v["other"].(map[string]any)["global"])
			assert.Equal(t, "2", string(v["sub"].(map[string]any)["replicas"].(json.Number)))
			assert.Equal(t, "1", string(v["other"].(map[string]any)["replicas"].(json.Number)), "an alias has its own values")
			assert.Equal(t, "30", string(v["timeout"].(json.Number)), "import-values")
		}},
		{name: "a condition false", user: "other:\n  enabled: false\n", enabled: []string{"sub", "tagged"}},
		{name: "a condition true", user: "gated:\n  enabled: true\n", enabled: []string{"sub", "other", "gated", "tagged"}},
		{name: "a tag false", user: "tags:\n  extras: false\n", enabled: []string{"sub", "other"}},
		{name: "a null removes the parent's values for a subchart", user: "sub: null\n", enabled: []string{"sub", "other", "tagged"}, check: func(t *testing.T, v map[string]any) {
			assert.Equal(t, "1", string(v["sub"].(map[string]any)["replicas"].(json.Number)))
		}},
		{name: "a string where a subchart's values go", user: "sub: nginx\n", errMsg: "type mismatch on sub: the values of subchart sub must be a map, not a string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tree(t)
			user, err := Read([]byte(tc.user))
			require.NoError(t, err)
			err = Process(c, user)
			if err == nil {
				var v map[string]any
				v, err = CoalesceChart(c, user)
				if err == nil && tc.check != nil {
					tc.check(t, v)
				}
			}
			if tc.errMsg != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.errMsg)
				return
			}
			require.NoError(t, err)
			assert.ElementsMatch(t, tc.enabled, names(c))
		})
	}
}

func TestMissing(t *testing.T) {
	c := tree(t)
	c.Deps = append(c.Deps, Dep{Name: "absent"})
	assert.Equal(t, []string{"absent"}, Missing(c))
	assert.Empty(t, Missing(tree(t)))
}
