package params

import (
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// Mask returns a copy of the values v for printing, in which every
// secret value (one whose node, or a node above it, says writeOnly: true
// or format: password; see schema.Schema.SecretAt) is replaced whole by
// the text schema.Hidden, "(value hidden)": a secret object or list
// becomes that one string, and a secret null or empty string is masked
// too, so that the output says nothing of a secret but that it is set. v
// is not changed. A nil schema knows no secrets: the result is a copy of
// v.
//
// Go data other than plain values is converted first, as Plain does; a
// part that cannot be a value is the error returned, as is a Schema not
// made by schema.Parse or FromValue (kind schema.KindUsage).
func Mask(s *schema.Schema, v any) (any, error) {
	if err := zeroSchema(s); err != nil {
		return nil, err
	}
	v, err := Plain(v)
	if err != nil {
		return nil, err
	}
	return mask(s, v, ""), nil
}

// mask is Mask of the plain value v at pointer p.
func mask(s *schema.Schema, v any, p string) any {
	if s.SecretAt(p) {
		return schema.Hidden
	}
	if !s.HoldsSecretAt(p) {
		return cloneValue(v) // nothing secret below: a plain copy
	}
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = mask(s, x, pointer.Append(p, k))
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = mask(s, x, pointer.AppendIndex(p, i))
		}
		return out
	}
	return v
}
