package params_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
)

func TestCloneIsDeep(t *testing.T) {
	orig := map[string]any{"a": map[string]any{"b": []any{json.Number("1"), map[string]any{"c": "x"}}}}
	c := params.Clone(orig).(map[string]any)
	require.True(t, params.Identical(orig, c))
	c["a"].(map[string]any)["b"].([]any)[1].(map[string]any)["c"] = "y"
	c["a"].(map[string]any)["new"] = true
	assert.Equal(t, "x", orig["a"].(map[string]any)["b"].([]any)[1].(map[string]any)["c"])
	assert.NotContains(t, orig["a"].(map[string]any), "new")
}

func TestCloneGoData(t *testing.T) {
	c := params.Clone(map[string]int{"n": 5})
	assert.Equal(t, map[string]any{"n": json.Number("5")}, c)
}

func TestEqualAndIdentical(t *testing.T) {
	big := json.Number("9007199254740993")
	tests := []struct {
		name             string
		a, b             any
		equal, identical bool
	}{
		{"same text", json.Number("1.10"), json.Number("1.10"), true, true},
		{"trailing zero", json.Number("1.10"), json.Number("1.1"), true, false},
		{"exponent", json.Number("1E3"), json.Number("1000"), true, false},
		{"big integers differ by one", big, json.Number("9007199254740992"), false, false},
		{"big integer itself", big, json.Number("9007199254740993"), true, true},
		{"Go int and number", 5, json.Number("5"), true, true},
		{"string is no number", "5", json.Number("5"), false, false},
		{"nested", map[string]any{"a": []any{json.Number("2.0")}}, map[string]any{"a": []any{json.Number("2")}}, true, false},
		{"missing key", map[string]any{"a": nil}, map[string]any{}, false, false},
		{"array length", []any{true}, []any{true, true}, false, false},
		{"null", nil, nil, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.equal, params.Equal(tt.a, tt.b), "Equal")
			assert.Equal(t, tt.equal, params.Equal(tt.b, tt.a), "Equal reversed")
			assert.Equal(t, tt.identical, params.Identical(tt.a, tt.b), "Identical")
			assert.Equal(t, tt.equal, len(params.Diff(tt.a, tt.b)) == 0, "Equal agrees with Diff")
		})
	}
}
