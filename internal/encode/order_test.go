package encode

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestByKeyOrder(t *testing.T) {
	v := map[string]any{
		"b": json.Number("1"),
		"a": []any{map[string]any{"y": true, "x": false, "w": nil}},
		"c": map[string]any{"k/2": "v", "k1": "v", "z": "v"},
		"d": "not recorded",
	}
	order := map[string][]string{
		"":      {"c", "a", "b", "gone"},
		"/a/0":  {"x", "y"},
		"/c":    {"z", "k/2"},
		"/c/k1": {"irrelevant"},
	}
	got := string(JSON(v, ByKeyOrder(order), ""))
	assert.Equal(t, `{"c":{"z":"v","k/2":"v","k1":"v"},"a":[{"x":false,"y":true,"w":null}],"b":1,"d":"not recorded"}`, got)

	y, err := YAML(v, ByKeyOrder(order))
	assert.NoError(t, err)
	assert.Equal(t, "c:\n  z: v\n  k/2: v\n  k1: v\na:\n  - x: false\n    \"y\": true\n    w: null\nb: 1\nd: not recorded\n", string(y))

	assert.Nil(t, ByKeyOrder(nil), "no record: sorted keys")
	assert.Equal(t, `{"a":1,"b":2}`, string(JSON(map[string]any{"b": json.Number("2"), "a": json.Number("1")}, ByKeyOrder(nil), "")))
}
