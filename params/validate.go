package params

import (
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// Validate checks a value as given (no defaults applied) against the
// schema. It returns nil or schema.ValidationErrors holding every error,
// each with the JSON pointer of the offending value.
func Validate(s *schema.Schema, v any) error {
	if err := value.CheckNumbers(v); err != nil {
		return schema.ValidationErrors{{Message: err.Error()}}
	}
	if p, ok := value.InvalidUTF8(v); ok {
		return schema.ValidationErrors{{Pointer: p, Message: "the string is not valid UTF-8"}}
	}
	return s.Validate(v)
}
