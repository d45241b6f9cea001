package main

import (
	"errors"

	"github.com/paramkit/paramkit/schema"
)

// asList is errors.As for a schema.ErrorList, which is no error: it sets
// *target to the entries of the list err holds (the error of
// schema.ErrorList.Err, maybe wrapped) and reports whether err holds one;
// a lone *schema.Error, an error of another package or nil give false.
// schema.ErrorsOf reads any error as a list; this tells the two apart
// where paramctl's output still does.
func asList(err error, target *schema.ErrorList) bool {
	for err != nil {
		if _, one := err.(*schema.Error); one {
			return false
		}
		if u, ok := err.(interface{ Unwrap() []error }); ok {
			errs := u.Unwrap()
			l := make(schema.ErrorList, 0, len(errs))
			for _, x := range errs {
				e, ok := x.(*schema.Error)
				if !ok {
					return false
				}
				l = append(l, e)
			}
			*target = l
			return true
		}
		err = errors.Unwrap(err)
	}
	return false
}
