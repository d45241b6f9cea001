package helmvalues

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRead: the reading Helm v4 gives (sigs.k8s.io/yaml): YAML 1.1
// booleans, numbers through float64, the last of duplicate keys, a
// comment-only file as empty values, documents merged.
func TestRead(t *testing.T) {
	tests := []struct {
		name, in string
		want     map[string]any
		err      string
	}{
		{"yaml 1.1 booleans", "a: yes\nb: on\nc: off\nd: y\ne: 'yes'\n", map[string]any{"a": true, "b": true, "c": false, "d": true, "e": "yes"}, ""},
		{"numbers as Helm holds them", "a: 1.10\nb: 1234567890\nc: 9007199254740993\nd: 1e3\ne: 0x1F\nf: 007\ng: 1e21\n",
			map[string]any{"a": json.Number("1.1"), "b": json.Number("1234567890"), "c": json.Number("9007199254740992"),
				"d": json.Number("1000"), "e": json.Number("31"), "f": json.Number("7"), "g": json.Number("1e+21")}, ""},
		{"empty is null", "a:\nb: ~\n", map[string]any{"a": nil, "b": nil}, ""},
		{"duplicate keys: the last", "a: 1\na: 2\n", map[string]any{"a": json.Number("2")}, ""},
		{"comment only", "# nothing\n", map[string]any{}, ""},
		{"empty", "", map[string]any{}, ""},
		{"documents merge", "a: {b: 1, c: 2}\n---\na: {c: 3}\n", map[string]any{"a": map[string]any{"b": json.Number("1"), "c": json.Number("3")}}, ""},
		{"a list is no values", "- a\n", nil, "cannot unmarshal"},
		{"bad separator", "a: 1\n--- x\n", nil, "invalid Yaml document separator"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Read([]byte(tt.in))
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestCoalesce: Helm's null rule (util.coalesceValues and
// coalesceTablesFullKey, merge false).
func TestCoalesce(t *testing.T) {
	chart := map[string]any{
		"image":  map[string]any{"repo": "nginx", "tag": "1", "pull": nil},
		"a":      "x",
		"gone":   nil,
		"table":  map[string]any{"k": "v"},
		"scalar": "s",
		"nested": map[string]any{"deep": map[string]any{"x": "1", "y": "2"}},
	}
	user := map[string]any{
		"image":  map[string]any{"tag": nil, "digest": nil},
		"a":      nil,
		"new":    nil,
		"table":  "flat",
		"scalar": map[string]any{"k": "v"},
		"nested": map[string]any{"deep": map[string]any{"x": nil}},
	}
	got := Coalesce(chart, user)
	assert.Equal(t, map[string]any{
		"image":  map[string]any{"repo": "nginx", "digest": nil}, // tag removed (chart has it), digest stays null (chart has none)
		"new":    nil,                                            // top level: no chart value, stays
		"table":  "flat",
		"scalar": map[string]any{"k": "v"},
		"nested": map[string]any{"deep": map[string]any{"y": "2"}},
	}, got)
	assert.Equal(t, "1", chart["image"].(map[string]any)["tag"], "the chart's values are not changed")
}

func TestApply(t *testing.T) {
	base := map[string]any{}
	var err error
	for _, a := range []struct{ flag, expr string }{
		{"set", `podAnnotations.prometheus\.io/scrape=true,tolerations[0].key=dedicated,tolerations[0].operator=Exists`},
		{"set", "big=9007199254740993,tag=1.10,list={a,b}"},
		{"set-string", "s=true"},
		{"set-json", `j={"n":1.50}`},
		{"set-json", `{"top":{"x":1}}`},
		{"set-literal", `lit=a,b\.c`},
		{"set-file", "f=some/path"},
	} {
		base, err = Apply(a.flag, a.expr, base, func(p string) ([]byte, error) { return []byte("file:" + p), nil })
		require.NoError(t, err, a.expr)
	}
	assert.Equal(t, map[string]any{
		"podAnnotations": map[string]any{"prometheus.io/scrape": true},
		"tolerations":    []any{map[string]any{"key": "dedicated", "operator": "Exists"}},
		"big":            json.Number("9007199254740993"),
		"tag":            "1.10",
		"list":           []any{"a", "b"},
		"s":              "true",
		"j":              map[string]any{"n": json.Number("1.5")},
		"top":            map[string]any{"x": json.Number("1")},
		"lit":            `a,b\.c`,
		"f":              "file:some/path",
	}, base)
	_, err = Apply("nope", "a=1", base, nil)
	assert.ErrorIs(t, err, ErrFlag)
	_, err = Apply("set", "a[70000]=1", map[string]any{}, nil)
	assert.Error(t, err)
}
