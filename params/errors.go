package params

import (
	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/schema"
)

// publicError gives an error of the internal readers as a *schema.Error
// (or a schema.ErrorList), through schema.ErrorsOf: see internal/problem.
func publicError(err error) error { return problem.Public(err, schema.ErrorsOf) }

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
