package problem

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestErrorText(t *testing.T) {
	tests := []struct {
		name string
		e    *Error
		want string
	}{
		{"pointer", &Error{Pointer: "/a", Kind: NotPlain, Message: "m"}, "/a: m"},
		{"root", &Error{Kind: NotPlain, Message: "m"}, `"": m`},
		{"line only", &Error{Line: 3, Kind: Syntax, Message: "m"}, "line 3: m"},
		{"pointer and line", &Error{Pointer: "/a", Line: 3, Kind: Syntax, Message: "m"}, "/a: m"},
		{"whole input unreadable", &Error{Kind: Syntax, Message: "empty"}, "empty"},
		{"limit at a place", &Error{Pointer: "/n", Kind: Limit, Message: "big"}, "/n: big"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.e.Error())
		})
	}
}
