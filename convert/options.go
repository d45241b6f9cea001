package convert

// Option configures FromV1beta1 (the only call of this package that takes
// options): InferStringTypes and KeepV1beta1List. Migration between
// schema versions has its own options in convert/migrate.
//
//	convert.FromV1beta1(data, convert.InferStringTypes())
type Option func(*flatConfig)

// KeepV1beta1List makes FromV1beta1 keep the v1beta1 list of an
// OperatorVersion in the ListAnnotation. Conversion webhooks use it: the
// apiserver converts an object back and forth and an old client must read
// what it wrote. For FromV1beta1.
func KeepV1beta1List() Option {
	return func(c *flatConfig) { c.keepList = true }
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
	return func(c *flatConfig) { c.inferStrings = true }
}
