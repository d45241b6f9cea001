package convert

import (
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
