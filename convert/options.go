package convert

// Option configures FromV1beta1, the one call of this package that takes
// options (InferStringTypes). Migration between schema versions has its
// own options in convert/migrate.
//
//	convert.FromV1beta1(data, convert.InferStringTypes())
type Option func(*options)

// options is what the Options of a call set.
type options struct {
	inferStrings bool
}

// InferStringTypes lets FromV1beta1 give a parameter without a declared
// type a narrower type than string when its default is a quoted string
// that reads unambiguously as one: "true"/"false" as boolean, a canonical
// integer ("3", "-12", not "007" or "+3") as integer, a canonical decimal
// without a trailing zero ("0.5", not "1.10", which is more often a
// version) as number — and every enum value reads the same way. Each
// inference is reported as a Note. Without this option such parameters
// stay strings, which is what v1beta1 meant.
func InferStringTypes() Option {
	return func(c *options) { c.inferStrings = true }
}
