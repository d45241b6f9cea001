package migrate

import "github.com/paramkit/paramkit/schema"

// outcome is a Result with its error as a list, for tests that look at
// both: the shape of a migration's report before the error left it.
type outcome struct {
	Result
	Errors schema.ErrorList
}

func (o outcome) OK() bool   { return len(o.Errors) == 0 }
func (o outcome) Err() error { return o.Errors.Err() }

// got is a migration's (Result, error) as one outcome.
func got(r Result, err error) outcome { return outcome{r, schema.ErrorsOf(err)} }

// conv is a conversion's (Result, error) split as the tests read it: the
// error when nothing was converted (the zero Result), else the outcome
// with the errors about the values.
func conv(r Result, err error) (outcome, error) {
	if err != nil && r.Values == nil && len(r.Dropped) == 0 && len(r.Lossy) == 0 {
		return outcome{}, err
	}
	return got(r, err), nil
}

// got2 is a run's Result and errors as one outcome.
func got2(r Result, errs schema.ErrorList) outcome { return outcome{r, errs} }
