package params

import (
	"github.com/paramkit/paramkit/internal/pointer"
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

// ValidateStructural validates as a kube-apiserver validates a CRD object:
// like Validate, except that null is accepted wherever the governing node
// says `nullable: true` (OpenAPI's keyword, which JSON Schema ignores).
func ValidateStructural(s *schema.Schema, v any) error {
	err := Validate(s, v)
	list, ok := err.(schema.ValidationErrors)
	if !ok {
		return err
	}
	var kept schema.ValidationErrors
	for _, e := range list {
		if x, found := pointer.Get(v, e.Pointer); found && x == nil {
			if n := s.Lookup(e.Pointer); n != nil && nullableNode(n) {
				continue
			}
		}
		kept = append(kept, e)
	}
	if len(kept) == 0 {
		return nil
	}
	return kept
}
