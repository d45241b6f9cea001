package convert

import (
	"fmt"
	"slices"
	"strings"
)

// Option configures FromV1beta1 (the only call of this package that takes
// options): InferStringTypes and KeepV1beta1List. Migration between
// schema versions has its own options in convert/migrate.
//
//	convert.FromV1beta1(data, convert.InferStringTypes())
type Option func(*options)

// options holds every setting an Option can make, and the names of the
// options given, so that each call can refuse those that do not apply.
type options struct {
	given []string
	flat  flatConfig
}

func (o *options) note(name string) {
	if !slices.Contains(o.given, name) {
		o.given = append(o.given, name)
	}
}

// The options that apply to each call.
var flatOptions = []string{"InferStringTypes", "KeepV1beta1List"}

// collect applies opts for the call fn, refusing an option that does not
// apply to it.
func collect(fn string, opts []Option, allowed []string) (options, error) {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	for _, name := range o.given {
		if !slices.Contains(allowed, name) {
			return o, fmt.Errorf("convert: option %s does not apply to %s (these do: %s)", name, fn, strings.Join(allowed, ", "))
		}
	}
	return o, nil
}

// KeepV1beta1List makes FromV1beta1 keep the v1beta1 list of an
// OperatorVersion in the ListAnnotation. Conversion webhooks use it: the
// apiserver converts an object back and forth and an old client must read
// what it wrote. For FromV1beta1.
func KeepV1beta1List() Option {
	return func(o *options) { o.note("KeepV1beta1List"); o.flat.keepList = true }
}

// InferStringTypes lets FromV1beta1 give a parameter without a declared
// type a narrower type than string when its default is a quoted string
// that reads unambiguously as one: "true"/"false" as boolean, a canonical
// integer ("3", "-12", not "007" or "+3") as integer, a canonical decimal
// without a trailing zero ("0.5", not "1.10", which is more often a
// version) as number — and every enum value reads the same way. Each
// inference is reported as a Note. Without this option such parameters
// stay strings, which is what v1beta1 meant. For FromV1beta1.
func InferStringTypes() Option {
	return func(o *options) { o.note("InferStringTypes"); o.flat.inferStrings = true }
}
