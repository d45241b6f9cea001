package problem

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestErrorText(t *testing.T) {
	tests := []struct {
		name string
		e    *Error
		want string
	}{
		{"pointer", &Error{Pointer: "/a", Kind: Type, Message: "m"}, "/a: m"},
		{"root", &Error{Kind: Type, Message: "m"}, `"": m`},
		{"line only", &Error{Line: 3, Kind: Syntax, Message: "m"}, "line 3: m"},
		{"pointer and line", &Error{Pointer: "/a", Line: 3, Kind: Syntax, Message: "m"}, "/a: m"},
		{"input", &Error{Pointer: "/a", Kind: Path, Message: "m", Detail: &Detail{Input: "a=1"}}, `/a: "a=1": m`},
		{"whole input unreadable", &Error{Kind: Syntax, Message: "empty"}, "empty"},
		{"refused conversion", &Error{Kind: Refused, Message: "refused"}, "refused"},
		{"limit at a place", &Error{Pointer: "/n", Kind: Limit, Message: "big"}, "/n: big"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.e.Error())
		})
	}
}

func TestListWorksWithErrorsAs(t *testing.T) {
	l := List{{Pointer: "/a", Kind: Required, Message: "x"}, {Pointer: "/b", Kind: Type, Message: "y"}}
	err := fmt.Errorf("context: %w", l.Err())
	assert.Equal(t, "context: /a: x\n/b: y", err.Error())
	var got List
	require.True(t, errors.As(err, &got))
	assert.Equal(t, l, got)
	var one *Error
	require.True(t, errors.As(err, &one))
	assert.Same(t, l[0], one)
	assert.True(t, errors.Is(err, l[1]))
	assert.NoError(t, List{}.Err())
	assert.NoError(t, List(nil).Err())
}

func TestOf(t *testing.T) {
	e := &Error{Pointer: "/a", Kind: Syntax, Message: "bad"}
	assert.Nil(t, Of(nil))
	assert.Equal(t, List{e}, Of(e))
	l := List{e, {Kind: Type, Message: "t"}}
	assert.Equal(t, l, Of(l))
	wrapped := Of(fmt.Errorf("doc 2: %w", e))
	require.Len(t, wrapped, 1)
	assert.Equal(t, "doc 2: bad", wrapped[0].Message)
	assert.Equal(t, Syntax, wrapped[0].Kind)
	assert.Equal(t, "/a", wrapped[0].Pointer)
	assert.Equal(t, "bad", e.Message, "the original is not changed")
	after := Of(fmt.Errorf("%w (more)", e))
	assert.Same(t, e, after[0])
	other := Of(errors.New("plain"))
	assert.Equal(t, List{{Kind: Invalid, Message: "plain"}}, other)
}

func TestNew(t *testing.T) {
	e := New(Range, "/n", "must be >= %d", 1)
	assert.Equal(t, &Error{Pointer: "/n", Kind: Range, Message: "must be >= 1"}, e)
}
