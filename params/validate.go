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
	return s.Validate(v)
}
