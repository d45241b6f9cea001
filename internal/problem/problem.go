// Package problem holds the error value of paramkit's internal packages:
// the document readers and the value checks report what is wrong and
// where with it.
//
// It is not the error callers see. The internal packages lie below every
// public package and import none of them (TestInternalImportsNoPublicPackage),
// so they cannot build a *schema.Error; each public package turns a
// *problem.Error into one where it calls them, through schema.ErrorsOf,
// which keeps the kind, the place and the message. Keeping the two types
// apart keeps the layers clean: a change to the public type is a change to
// package schema alone, and no internal type reaches a caller's %T.
package problem

import (
	"errors"
	"fmt"

	"github.com/paramkit/paramkit/internal/pointer"
)

// Kind is what sort of failure an Error is. The values are those of the
// schema.Kind constants of the same meaning, which schema.ErrorsOf keeps.
type Kind string

// The kinds the internal packages report.
const (
	Syntax   Kind = "syntax" // malformed YAML or JSON (schema.KindSyntax)
	Limit    Kind = "limit"  // a size, depth or count limit was passed (schema.KindLimit)
	NotPlain Kind = "usage"  // a Go value that cannot be a parameter value (schema.KindUsage)
)

// Error is one failure at one place: the JSON pointer it is about, the
// line and column in the source where known, its kind, and a message for a
// person.
type Error struct {
	Kind    Kind
	Pointer string // RFC 6901; "" is the root
	Line    int    // 1-based, 0 when unknown
	Column  int    // 1-based, 0 when unknown
	Message string
}

// Error formats the error as schema.Error does: `POINTER: message`, or
// `line N: message` for a problem located only by its line, or the
// message alone for a document unreadable as a whole.
func (e *Error) Error() string {
	if e.Line > 0 && e.Pointer == "" {
		return fmt.Sprintf("line %d: %s", e.Line, e.Message)
	}
	if e.Pointer == "" && e.Line == 0 && (e.Kind == Syntax || e.Kind == Limit) {
		return e.Message
	}
	return fmt.Sprintf("%s: %s", pointer.Quote(e.Pointer), e.Message)
}

// Public returns err as the public error type, converted by conv (always
// schema.ErrorsOf, which internal packages cannot name): nil for nil, the
// one entry of a single error, else the whole list as an error (its Err
// method). Every public package passes the internal packages' errors
// through it where it calls them.
func Public[L interface {
	~[]E
	Err() error
}, E error](err error, conv func(error) L) error {
	if err == nil {
		return nil
	}
	l := conv(err)
	if len(l) == 1 {
		return l[0]
	}
	return l.Err()
}

// List returns the entries of the list err holds (the error of
// schema.ErrorList.Err, maybe wrapped, E being *schema.Error), the very
// values the list holds, and true; or false when err holds a lone entry
// (an E, maybe wrapped), an error of another package, or nil. It is how
// a caller tells a list from a single error where it still must.
func List[E error](err error) ([]E, bool) {
	for err != nil {
		if _, one := err.(E); one {
			return nil, false
		}
		if u, ok := err.(interface{ Unwrap() []error }); ok {
			errs := u.Unwrap()
			out := make([]E, 0, len(errs))
			for _, x := range errs {
				e, ok := x.(E)
				if !ok {
					return nil, false
				}
				out = append(out, e)
			}
			return out, true
		}
		err = errors.Unwrap(err)
	}
	return nil, false
}

// As is errors.As for a list type (schema.ErrorList, which is no error):
// it sets *target to the entries of the list err holds and reports
// whether it holds one (see List).
func As[E error, L ~[]E](err error, target *L) bool {
	l, ok := List[E](err)
	if ok {
		*target = l
	}
	return ok
}
