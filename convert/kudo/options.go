package kudo

// Option configures ConvertObject. Options are passed last; a nil Option
// is ignored.
type Option func(*options)

type options struct {
	guess bool
}

// GuessWithoutOperatorVersion makes ConvertObject convert the parameters
// of an Instance that names no operator version by safe guessing (the
// rules of convert.UnwrapValues without a schema, keeping only numbers a
// kube-apiserver writes back exactly), as it does when resolve finds no
// schema. Without it such an Instance is refused.
func GuessWithoutOperatorVersion() Option {
	return func(o *options) { o.guess = true }
}
