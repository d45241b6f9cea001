package params

import (
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// Validate checks a value as given (no defaults applied) against the
// schema. It returns nil or schema.ErrorList holding every error,
// each with the JSON pointer of the offending value.
//
// Go data other than plain values is converted first, as Plain does; a
// part that cannot be a value (a channel, NaN) is the one error returned.
// A nil schema allows every value: Validate then checks only what needs no
// schema, that v can be a plain value, every number is within the
// supported range and every string valid UTF-8.
//
// With Structural, it validates as a kube-apiserver validates a CRD
// object: null is accepted wherever the governing node says
// `nullable: true`.
func Validate(s *schema.Schema, v any, opts ...Option) error {
	if optionsOf(opts).structural {
		return validateStructural(s, v, nil)
	}
	_, err := validate(s, v, nil)
	return err
}

// ValidateUpdate is Validate for the new value of an update whose value
// before was old: a schema's x-kubernetes-validations transition rules
// (those naming oldSelf) run too, as kube-apiserver runs them on an
// update (see schema.Schema.ValidateUpdate); Validate runs none, as on a
// create. Old is converted to plain values as v is; a nil old is an
// update from nothing (no transition rule runs).
func ValidateUpdate(s *schema.Schema, v, old any, opts ...Option) error {
	o, err := value.Plain(old)
	if err != nil {
		return schema.ErrorList{notPlain(err, "in the old values: ")}.Err()
	}
	if o == nil {
		return Validate(s, v, opts...)
	}
	if optionsOf(opts).structural {
		return validateStructural(s, v, &o)
	}
	_, err = validate(s, v, &o)
	return err
}

// validate is Validate, returning also v as the plain value it checked;
// old, when not nil, is the plain value before an update.
func validate(s *schema.Schema, v any, old *any) (any, error) {
	if !value.Sound(v) { // the common case skips this: one walk, no allocation
		var err error
		if v, err = value.Plain(v); err != nil {
			return nil, notPlainValidation(err).Err()
		}
		if p, err := value.BadNumber(v); err != nil {
			return v, schema.ErrorList{{Pointer: p, Kind: schema.KindLimit, Message: err.Error()}}.Err()
		}
		if p, ok := value.InvalidUTF8(v); ok {
			return v, schema.ErrorList{{Pointer: p, Kind: schema.KindInvalid, Message: "the string is not valid UTF-8"}}.Err()
		}
	}
	if old != nil && s != nil {
		return v, s.ValidateUpdate(v, *old)
	}
	return v, validateSound(s, v)
}

// validateSound validates v, which must be sound (value.Sound), against s.
func validateSound(s *schema.Schema, v any) error {
	if s == nil {
		return nil
	}
	return s.Validate(v)
}

// validateStructural is Validate with Structural: null is accepted
// wherever the governing node says `nullable: true`.
func validateStructural(s *schema.Schema, v any, old *any) error {
	v, err := validate(s, v, old)
	if err == nil || s == nil {
		return err
	}
	list := schema.ErrorsOf(err)
	var kept schema.ErrorList
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
	return kept.Err()
}
