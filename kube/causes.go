package kube

import (
	"strconv"
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/suggest"
	"github.com/paramkit/paramkit/schema"
)

// causes returns the causes of a denial for err, a paramkit error about
// the values of the field at pointer field in the object
// ("/spec/parameters"): one StatusCause per problem, its Type
// Kubernetes' CauseType for the error's Kind and its Field the object's
// field path (spec.parameters.engine). A missing required property and a
// property the schema forbids are named at the property's own path, one
// cause each (FieldValueRequired, FieldValueForbidden). An error that
// holds no *schema.Error becomes one FieldValueInvalid cause at the
// field. It returns up to maxCauses causes and how many there are in
// all; with the schema, a forbidden property's cause names the closest
// declared names. Messages and keys in field paths are cut to a short
// prefix.
func causes(field string, err error, s *schema.Schema) ([]StatusCause, int) {
	if err == nil {
		return nil, 0
	}
	var out []StatusCause
	total := 0
	add := func(c StatusCause) {
		total++
		if len(out) < maxCauses {
			out = append(out, c)
		}
	}
	for _, e := range schema.ErrorsOf(err) {
		if len(out) >= maxCauses {
			// Counted, not described: each error is one cause, and a
			// review of 150,000 undeclared keys would otherwise build
			// 150,000 field paths for the message's count.
			total++
			continue
		}
		// A missing required property and a forbidden one come at the
		// property's own pointer (schema.KindRequired, KindAdditional).
		switch e.Kind {
		case schema.KindRequired:
			if e.Keyword == "required" {
				add(StatusCause{Type: "FieldValueRequired", Field: fieldPath(field, e.Pointer), Message: "Required value"})
				continue
			}
		case schema.KindAdditional:
			if e.Keyword == "additionalProperties" {
				msg := "Forbidden: not allowed here (the schema does not declare it)"
				if parent, key, ok := pointer.Parent(e.Pointer); s != nil && ok && len(out) < maxCauses {
					msg += didYouMean(s, parent, key)
				}
				add(StatusCause{Type: "FieldValueForbidden", Field: fieldPath(field, e.Pointer), Message: msg})
				continue
			}
			// An error at the property's own pointer: the closest
			// declared names are those of its parent.
			if toks, err := pointer.Split(e.Pointer); err == nil && len(toks) > 0 && s != nil && len(out) < maxCauses {
				add(StatusCause{Type: "FieldValueForbidden", Field: fieldPath(field, e.Pointer),
					Message: shorten(e.Message, maxMessage) + didYouMean(s, pointer.Join(toks[:len(toks)-1]...), toks[len(toks)-1])})
				continue
			}
		}
		add(StatusCause{Type: causeType(e), Field: fieldPath(field, e.Pointer), Message: shorten(e.Message, maxMessage)})
	}
	return out, total
}

// causeType is Kubernetes' CauseType for an error.
func causeType(e *schema.Error) string {
	switch e.Kind {
	case schema.KindRequired:
		return "FieldValueRequired"
	case schema.KindImmutable, schema.KindConflict, schema.KindAdditional, schema.KindForbidden:
		return "FieldValueForbidden"
	case schema.KindDuplicate:
		return "FieldValueDuplicate"
	case schema.KindEnum, schema.KindUndeclared:
		return "FieldValueNotSupported"
	case schema.KindType:
		return "FieldValueTypeInvalid"
	case schema.KindInvalid:
		switch e.Keyword {
		case "uniqueItems":
			return "FieldValueDuplicate"
		case "maxLength", "maxItems", "maxProperties":
			return "FieldValueTooLong"
		}
	}
	return "FieldValueInvalid"
}

// fieldPath is the field path of the value at p (below it, keys more)
// in the field at pointer field of the object, every key cut to a short
// prefix, the whole to maxField bytes.
func fieldPath(field, p string, more ...string) string {
	toks, err := pointer.Split(field)
	if err != nil {
		toks = []string{field}
	}
	below, err := pointer.Split(p)
	if err != nil {
		below = []string{p}
	}
	toks = append(append(toks, below...), more...)
	for i, t := range toks {
		toks[i] = shorten(t, maxQuoted)
	}
	return shorten(schema.NewError(schema.KindInvalid, pointer.Join(toks...), "").FieldPath(""), maxField)
}

// didYouMean is "; did you mean "x"?" for a key the object at p does not
// declare, naming the closest declared names, or "".
func didYouMean(s *schema.Schema, p, key string) string {
	n := s.Lookup(p)
	if n == nil {
		return ""
	}
	var names []string
	for name := range n.Properties() {
		names = append(names, name)
	}
	near := suggest.Closest(key, names)
	if len(near) == 0 {
		return ""
	}
	q := make([]string, len(near))
	for i, x := range near {
		q[i] = strconv.Quote(shorten(x, maxQuoted))
	}
	return "; did you mean " + strings.Join(q, " or ") + "?"
}

// CauseType is Kubernetes' cause type (metav1.CauseType) for an error of
// paramkit's: FieldValueRequired, FieldValueInvalid,
// FieldValueNotSupported, FieldValueForbidden, FieldValueDuplicate,
// FieldValueTooLong or FieldValueTypeInvalid, as admission denials carry
// them. An unknown field refused under Strict field validation
// (schema.KindUndeclared in a Verdict's Errors) has none: the apiserver
// answers it with a BadRequest that carries no cause, and CauseType
// returns "" for it.
func CauseType(e *schema.Error) string {
	if e == nil {
		return ""
	}
	if e.Kind == schema.KindUndeclared {
		return ""
	}
	return causeType(e)
}
