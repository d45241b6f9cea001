package kudoparams

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func plain(v any) any { return v }

func TestFirstFormat(t *testing.T) {
	p := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name string
		in   map[string]any
		want bool
	}{
		{"parameter fields only", p("memory", p("default", "1Gi", "description", "m")), true},
		{"a field KUDO ignored beside parameter fields", p("REPOS", p("description", "r", "example", "a/b", "required", true)), true},
		{"ignored field with a v1beta1 type", p("A", p("type", "map", "example", "{}")), true},
		{"empty parameters beside one with fields", p("a", nil, "b", p(), "c", p("default", "x")), true},
		{"only empty parameters", p("a", nil, "b", p()), false},
		{"no parameter field at all", p("image", p("repository", "nginx", "tag", "1")), false},
		{"a type that is no v1beta1 type", p("service", p("type", "ClusterIP", "port", "80")), false},
		{"a type that is no string", p("a", p("type", []any{"string"}, "example", "x")), false},
		{"a name field", p("a", p("name", "a", "default", "x")), false},
		{"a name field beside ignored ones", p("a", p("name", "a", "example", "x")), false},
		{"one value is no parameter", p("a", p("default", "x", "example", "y"), "b", p("repository", "r")), false},
		{"a scalar value", p("a", p("default", "x"), "b", "3"), false},
		{"a list value", p("a", p("default", "x"), "b", []any{}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, FirstFormat(tt.in, plain))
		})
	}
	// The caller's reader says what a scalar means: raw text "string" is
	// a type, raw text "~" a null.
	type text string
	value := func(v any) any {
		if s, ok := v.(text); ok {
			if s == "~" {
				return nil
			}
			return string(s)
		}
		return v
	}
	assert.True(t, FirstFormat(p("a", p("type", text("string"), "example", text("x")), "b", text("~")), value))
	assert.False(t, FirstFormat(p("a", p("type", text("colour"), "example", text("x"))), value))
}

func TestIsOperatorFile(t *testing.T) {
	for _, c := range []struct {
		doc  any
		want bool
	}{
		{map[string]any{"plans": map[string]any{}}, true},
		{map[string]any{"tasks": []any{}}, true},
		{map[string]any{"plans": nil, "kind": "OperatorVersion"}, false},
		{map[string]any{"parameters": []any{}}, false},
		{[]any{"plans"}, false},
		{nil, false},
	} {
		assert.Equal(t, c.want, IsOperatorFile(c.doc), "%v", c.doc)
	}
}
