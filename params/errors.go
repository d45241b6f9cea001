package params

import (
	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/schema"
)

// publicError gives an error of the internal readers as a *schema.Error
// (or a schema.ErrorList), through schema.ErrorsOf: see internal/problem.
func publicError(err error) error { return problem.Public(err, schema.ErrorsOf) }
