package document

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
)

// TestResolve: every Text takes its YAML 1.2 core meaning, at any depth,
// and the result is a copy that shares no map or slice with the input.
func TestResolve(t *testing.T) {
	in := map[string]any{
		"a": Text("007"),
		"b": []any{Text("yes"), Text("~"), Text("true"), "007"},
		"c": map[string]any{"d": Text("1.10"), "e": json.Number("3")},
	}
	got := Resolve(in).(map[string]any)
	assert.Equal(t, map[string]any{
		"a": json.Number("7"),
		"b": []any{"yes", nil, true, "007"},
		"c": map[string]any{"d": json.Number("1.10"), "e": json.Number("3")},
	}, got)
	got["c"].(map[string]any)["d"] = "changed"
	got["b"].([]any)[0] = "changed"
	assert.Equal(t, Text("1.10"), in["c"].(map[string]any)["d"], "the input is not touched")
	assert.Equal(t, Text("yes"), in["b"].([]any)[0], "the input is not touched")
	assert.Equal(t, "x", Resolve("x"))
	assert.Nil(t, Resolve(nil))
}

// TestAsProblem: a reader's *problem.Error comes back as it is; any other
// error becomes a syntax error with its text.
func TestAsProblem(t *testing.T) {
	pe := &problem.Error{Kind: problem.Limit, Line: 3, Message: "too deep"}
	assert.Same(t, pe, AsProblem(pe))

	var got *problem.Error
	require.ErrorAs(t, AsProblem(errors.New("bad input")), &got)
	assert.Equal(t, problem.Syntax, got.Kind)
	assert.Equal(t, "bad input", got.Message)
}

// TestBool: YAML 1.2 core words and strconv.ParseBool's forms, nothing else.
func TestBool(t *testing.T) {
	for _, tc := range []struct {
		in     string
		want   bool
		wantOK bool
	}{
		{"true", true, true}, {"false", false, true}, {"True", true, true}, {"FALSE", false, true},
		{"1", true, true}, {"0", false, true}, {"t", true, true}, {"F", false, true},
		{"yes", false, false}, {"on", false, false}, {"", false, false}, {"2", false, false},
	} {
		b, ok := Bool(tc.in)
		assert.Equal(t, tc.wantOK, ok, tc.in)
		assert.Equal(t, tc.want, b, tc.in)
	}
}
