package convert

import (
	"errors"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/schema"
)

// readError gives an error of the internal readers as a *schema.Error,
// through schema.ErrorsOf (see internal/problem); what is not theirs is
// a syntax error with its text.
func readError(err error) error {
	return problem.Public(document.AsProblem(err), schema.ErrorsOf)
}

// zeroSchema is the KindUsage error of a non-nil Schema not made by
// schema.Parse or FromValue (a zero &schema.Schema{}), or nil:
// nil means "no schema" where a function allows that, a zero Schema is a
// mistake.
func zeroSchema(s *schema.Schema) error {
	if s != nil && s.Root() == nil {
		return schema.NewError(schema.KindUsage, "", "the schema was not made by schema.Parse or FromValue")
	}
	return nil
}

// notPlainError is the error of a document that holds Go data no plain
// value is (kind schema.KindUsage unless the reader said more).
func notPlainError(err error) error {
	var e *schema.Error
	if pe := problem.Public(err, schema.ErrorsOf); errors.As(pe, &e) && e.Kind != schema.KindInvalid {
		return e
	}
	return schema.NewError(schema.KindUsage, "", "%v", err)
}
