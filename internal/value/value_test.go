package value

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/number"
)

func TestEqualDiffCopy(t *testing.T) {
	a := map[string]any{"n": json.Number("1.0"), "l": []any{"x", json.Number("2")}, "m": map[string]any{"k": true}}
	b := DeepCopy(a).(map[string]any)
	assert.True(t, Equal(a, b))
	b["m"].(map[string]any)["k"] = false
	assert.Equal(t, true, a["m"].(map[string]any)["k"], "deep copy shares nothing")
	assert.Equal(t, []string{"/m/k"}, Diff(a, b))
	assert.True(t, Equal(json.Number("1.0"), json.Number("1")))
	assert.Equal(t, []string{}, Diff(a, a))
	c := DeepCopy(a).(map[string]any)
	delete(c, "n")
	c["new"] = nil
	c["l"] = []any{"x"}
	assert.Equal(t, []string{"/l", "/n", "/new"}, Diff(a, c))
	assert.False(t, Equal(nil, false))
	assert.False(t, Equal("1", json.Number("1")))
}

func TestCheckNumbersAndTypeName(t *testing.T) {
	assert.NoError(t, CheckNumbers(map[string]any{"a": []any{json.Number("1e9999")}}))
	err := CheckNumbers(map[string]any{"a": []any{json.Number("1"), json.Number("1e99999")}})
	assert.ErrorContains(t, err, "/a/1")
	ptr, err := BadNumber(map[string]any{"a": []any{json.Number("1"), json.Number("1e99999")}})
	assert.Equal(t, "/a/1", ptr)
	assert.ErrorIs(t, err, number.ErrTooLarge)
	ptr, err = BadNumber([]any{json.Number("1e9999")})
	assert.Equal(t, "", ptr)
	assert.NoError(t, err)
	assert.Equal(t, "integer", TypeName(json.Number("2.0")))
	assert.Equal(t, "number", TypeName(json.Number("2.5")))
	assert.Equal(t, "null", TypeName(nil))
}

func TestEqualAndIdentical(t *testing.T) {
	n := func(s string) json.Number { return json.Number(s) }
	for _, c := range []struct {
		name             string
		a, b             any
		equal, identical bool
	}{
		{"same text", n("1000"), n("1000"), true, true},
		{"same value, other text", n("1E3"), n("1000"), true, false},
		{"nested numbers", map[string]any{"l": []any{n("2.0")}}, map[string]any{"l": []any{n("2")}}, true, false},
		{"other value", n("2"), n("3"), false, false},
		{"other key", map[string]any{"a": nil}, map[string]any{"b": nil}, false, false},
		{"longer list", []any{"x"}, []any{"x", "y"}, false, false},
		{"text is not a number", "1", n("1"), false, false},
		{"null is not false", nil, false, false, false},
		{"strings", "x", "x", true, true},
		{"bools", true, false, false, false},
		{"not a plain value", 1, 1, false, false},
	} {
		assert.Equal(t, c.equal, Equal(c.a, c.b), "Equal: %s", c.name)
		assert.Equal(t, c.identical, Identical(c.a, c.b), "Identical: %s", c.name)
	}
}

func TestCopyPlain(t *testing.T) {
	orig := map[string]any{"a": []any{json.Number("1"), "x", true, nil}, "b": map[string]any{"c": "d"}}
	c, ok := CopyPlain(orig)
	require.True(t, ok)
	require.Equal(t, orig, c)
	c.(map[string]any)["b"].(map[string]any)["c"] = "changed"
	c.(map[string]any)["a"].([]any)[1] = "changed"
	require.Equal(t, "d", orig["b"].(map[string]any)["c"], "the copy is deep")
	require.Equal(t, "x", orig["a"].([]any)[1])

	c, ok = CopyPlain(map[string]any{"n": json.Number("1x")})
	require.True(t, ok, "number text is not checked")
	require.Equal(t, map[string]any{"n": json.Number("1x")}, c)

	for _, notPlain := range []any{
		map[string]any{"a": 1},
		[]any{[]string{"x"}},
		struct{}{},
	} {
		_, ok := CopyPlain(notPlain)
		require.False(t, ok, "%#v", notPlain)
	}
}
