package schema_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// TestErrorsOfJoinsAndChains: ErrorsOf gets every entry of errors.Join
// and of fmt.Errorf with several %w, through wrapping at any depth, each
// with its own file and line (the probe of issue 37: a command joining
// two files' errors gets both).
func TestErrorsOfJoinsAndChains(t *testing.T) {
	a := schema.ErrorIn("a.yaml", schema.ErrorList{
		{Pointer: "/x", Line: 3, Column: 4, Kind: schema.KindType, Message: "expected integer"},
		{Pointer: "/y", Line: 5, Kind: schema.KindRequired, Message: "missing"},
	}.Err())
	b := schema.ErrorIn("b.yaml", &schema.Error{Pointer: "/z", Line: 7, Kind: schema.KindEnum, Message: "value must be 1"})
	type want struct {
		file, pointer, message, text string
		line                         int
	}
	wa := []want{
		{"a.yaml", "/x", "expected integer", "a.yaml: /x: expected integer", 3},
		{"a.yaml", "/y", "missing", "a.yaml: /y: missing", 5},
	}
	wb := want{"b.yaml", "/z", "value must be 1", "b.yaml: /z: value must be 1", 7}
	tests := []struct {
		name string
		err  error
		want []want
	}{
		{"join", errors.Join(a, b), append(wa[:2:2], wb)},
		{"join in a wrap", fmt.Errorf("check: %w", errors.Join(a, b)), []want{
			{"a.yaml", "/x", "check: expected integer", "a.yaml: /x: check: expected integer", 3},
			{"a.yaml", "/y", "check: missing", "a.yaml: /y: check: missing", 5},
			{"b.yaml", "/z", "check: value must be 1", "b.yaml: /z: check: value must be 1", 7}}},
		{"wraps in a join", errors.Join(fmt.Errorf("%w", a), fmt.Errorf("%w", b)), append(wa[:2:2], wb)},
		{"several %w", fmt.Errorf("%w; %w", b, a), append([]want{wb}, wa...)},
		{"nested joins", errors.Join(errors.Join(nil, a), errors.Join(b)), append(wa[:2:2], wb)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := schema.ErrorsOf(tt.err)
			require.Len(t, l, len(tt.want), "%v", l.Err())
			for i, w := range tt.want {
				assert.Equal(t, w.file, l[i].File, "%d", i)
				assert.Equal(t, w.pointer, l[i].Pointer, "%d", i)
				assert.Equal(t, w.line, l[i].Line, "%d", i)
				assert.Equal(t, w.message, l[i].Message, "%d", i)
				assert.Equal(t, w.text, l[i].Error(), "%d", i)
			}
		})
	}
	assert.Equal(t, "a.yaml: /x: expected integer", schema.ErrorsOf(a)[0].Error(), "the caller's errors are not changed")
}

// TestErrorsOfKeepsForeignErrors: an error that is not paramkit's becomes
// one entry of KindForeign whose text is its own, unchanged, and through
// which errors.Is and errors.As find it; beside paramkit's entries in a
// join, each stays itself.
func TestErrorsOfKeepsForeignErrors(t *testing.T) {
	_, statErr := os.Stat("/nonexistent/paramkit/values.yaml")
	require.Error(t, statErr)
	own := &schema.Error{Pointer: "/a", Kind: schema.KindType, Message: "bad"}
	wrappedCancel := fmt.Errorf("reading values: %w", context.Canceled)
	tests := []struct {
		name  string
		err   error
		texts []string
		is    []error
	}{
		{"path error", statErr, []string{statErr.Error()}, []error{fs.ErrNotExist}},
		{"context", context.Canceled, []string{"context canceled"}, []error{context.Canceled}},
		{"a wrapped foreign error keeps its words", wrappedCancel, []string{"reading values: context canceled"}, []error{context.Canceled}},
		{"beside paramkit's in a join", errors.Join(own, statErr, context.DeadlineExceeded),
			[]string{"/a: bad", statErr.Error(), "context deadline exceeded"}, []error{nil, fs.ErrNotExist, context.DeadlineExceeded}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := schema.ErrorsOf(tt.err)
			require.Len(t, l, len(tt.texts))
			for i, text := range tt.texts {
				assert.Equal(t, text, l[i].Error())
				if tt.is[i] == nil {
					assert.NotEqual(t, schema.KindForeign, l[i].Kind)
					continue
				}
				assert.Equal(t, schema.KindForeign, l[i].Kind)
				assert.Equal(t, text, l[i].Message, "the text is never rewritten")
				assert.ErrorIs(t, l[i], tt.is[i])
				assert.False(t, l[i].Kind.Warning())
			}
		})
	}
	var pe *fs.PathError
	require.ErrorAs(t, schema.ErrorsOf(statErr)[0], &pe)
	assert.Same(t, statErr, error(pe), "errors.As reaches the original")
	assert.ErrorIs(t, schema.ErrorsOf(errors.Join(own, statErr)).Err(), fs.ErrNotExist, "through the list too")
}

// TestZeroError: an Error built without a Kind or a Message never prints
// or encodes an empty kind.
func TestZeroError(t *testing.T) {
	tests := []struct {
		name     string
		e        *schema.Error
		text     string
		jsonKind string
	}{
		{"zero", &schema.Error{}, `"": invalid`, "invalid"},
		{"no kind", &schema.Error{Pointer: "/a", Message: "m"}, "/a: m", "invalid"},
		{"no message", &schema.Error{Pointer: "/a", Kind: schema.KindRequired}, "/a: required", "required"},
		{"file only", &schema.Error{File: "v.yaml"}, `v.yaml: "": invalid`, "invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.text, tt.e.Error())
			out, err := json.Marshal(tt.e)
			require.NoError(t, err)
			var m map[string]any
			require.NoError(t, json.Unmarshal(out, &m))
			assert.Equal(t, tt.jsonKind, m["kind"])
		})
	}
	out, err := json.Marshal(&schema.Error{File: "v.yaml", Pointer: "/a", Kind: schema.KindType, Message: "m"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"file":"v.yaml","pointer":"/a","kind":"type","message":"m"}`, string(out))
	var back schema.Error
	require.NoError(t, json.Unmarshal(out, &back))
	assert.Equal(t, "v.yaml", back.File)
}

// TestWarningKinds: the kinds that come back in a result's Warnings are
// warning kinds; the two gate kinds do not differ by one letter.
func TestWarningKinds(t *testing.T) {
	for _, k := range []schema.Kind{schema.KindGateEffect, schema.KindDeprecated, schema.KindUndeclared} {
		assert.True(t, k.Warning(), k)
	}
	for _, k := range []schema.Kind{schema.KindGateList, schema.KindInvalid, schema.KindForeign, schema.KindRequired, ""} {
		assert.False(t, k.Warning(), k)
	}
}

// TestWrapError: context before an error's text keeps paramkit's type and
// the entries' fields; ErrorsOf puts it at the start of each Message.
func TestWrapError(t *testing.T) {
	l := schema.ErrorList{{Pointer: "/a", Kind: schema.KindType, Message: "x"}, {File: "v.yaml", Line: 2, Kind: schema.KindSyntax, Message: "y"}}
	w := schema.WrapError("doc 2", l.Err())
	assert.Equal(t, fmt.Errorf("doc 2: %w", l[0]).Error(), schema.WrapError("doc 2", l[0]).Error(), "as fmt.Errorf writes it")
	assert.Equal(t, "doc 2: /a: x\ndoc 2: v.yaml: line 2: y", w.Error())
	var one *schema.Error
	require.ErrorAs(t, w, &one)
	assert.Equal(t, "x", one.Message, "the entry keeps its message")
	got := schema.ErrorsOf(w)
	require.Len(t, got, 2)
	assert.Equal(t, "doc 2: x", got[0].Message)
	assert.Equal(t, "v.yaml", got[1].File)
	assert.Equal(t, 2, got[1].Line)
	single := schema.WrapError("step", l[0])
	_, isOne := single.(*schema.Error)
	assert.True(t, isOne, "%T", single)
	assert.Equal(t, "step: /a: x", single.Error())
	f := schema.WrapError("step", context.Canceled)
	assert.ErrorIs(t, f, context.Canceled)
	assert.Equal(t, "step: context canceled", f.Error())
	assert.NoError(t, schema.WrapError("x", nil))
	assert.Equal(t, "/a: x", l[0].Error(), "the caller's list is not changed")
}

// TestSortKeepsNilEntriesLast: a list a caller built with nil entries
// sorts without a panic, the nil entries last.
func TestSortKeepsNilEntriesLast(t *testing.T) {
	b := &schema.Error{Pointer: "/b", Kind: schema.KindType, Message: "m"}
	a := &schema.Error{Pointer: "/a", Kind: schema.KindType, Message: "m"}
	l := schema.ErrorList{nil, b, nil, a}
	l.Sort()
	assert.Equal(t, schema.ErrorList{a, b, nil, nil}, l)
}
