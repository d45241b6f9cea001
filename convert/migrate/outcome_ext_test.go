package migrate_test

import (
	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/schema"
)

// outcome is a migrate.Result with its error as a list, for tests that look at
// both: the shape of a migration's report before the error left it.
type outcome struct {
	migrate.Result
	Errors schema.ErrorList
}

func (o outcome) OK() bool   { return len(o.Errors) == 0 }
func (o outcome) Err() error { return o.Errors.Err() }

// got is a migration's (migrate.Result, error) as one outcome.
func got(r migrate.Result, err error) outcome { return outcome{r, schema.ErrorsOf(err)} }

// conv is a conversion's (migrate.Result, error) split as the tests read it: the
// error when nothing was converted (the zero migrate.Result), else the outcome
// with the errors about the values.
func conv(r migrate.Result, err error) (outcome, error) {
	if err != nil && r.Values == nil && len(r.Dropped) == 0 && len(r.Lossy) == 0 {
		return outcome{}, err
	}
	return got(r, err), nil
}
