package schema

import (
	"fmt"
	"strings"
)

// Error is a problem with a schema document at a JSON pointer into it.
type Error struct {
	// Pointer locates the problem in the schema document ("" is the root).
	Pointer string
	// Line is the 1-based source line where known (YAML syntax errors), else 0.
	Line int
	// Message says what is wrong.
	Message string
}

func (e *Error) Error() string {
	if e.Line > 0 && e.Pointer == "" {
		return fmt.Sprintf("line %d: %s", e.Line, e.Message)
	}
	return fmt.Sprintf("%s: %s", quotePointer(e.Pointer), e.Message)
}

func quotePointer(p string) string {
	if p == "" {
		return `""`
	}
	return p
}

// ErrorList holds every problem found in a schema. It is the error type of
// Parse and Compile; range over it to see each one.
type ErrorList []*Error

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(e.Error())
	}
	return b.String()
}
