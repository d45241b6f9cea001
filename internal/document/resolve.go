package document

import (
	"errors"
	"strconv"

	"github.com/paramkit/paramkit/internal/problem"
)

// Resolve turns a value read in the text-keeping mode into a plain value:
// every Text takes its YAML 1.2 core meaning (what a v1beta2 document
// means by it). Maps and slices are copied, so the result shares nothing
// mutable with v. Both the v1beta1 converter and migration use it.
func Resolve(v any) any {
	switch t := v.(type) {
	case Text:
		return t.Value()
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = Resolve(x)
		}
		return m
	case []any:
		a := make([]any, len(t))
		for i, x := range t {
			a[i] = Resolve(x)
		}
		return a
	}
	return v
}

// AsProblem turns an error of the readers into the *problem.Error that
// params.Decode would give for it: a *problem.Error as it is, anything
// else as a syntax error with its text.
func AsProblem(err error) error {
	var pe *problem.Error
	if errors.As(err, &pe) {
		return err
	}
	return &problem.Error{Kind: problem.Syntax, Message: err.Error()}
}

// Bool reads a boolean as KUDO's v1beta1 did: YAML 1.2 core words, and
// the forms Go's strconv.ParseBool accepts (1, t, F, ...), which KUDO
// used to validate boolean parameters. It serves the v1beta1 converter
// and the versions.yaml file of a version set.
func Bool(s string) (bool, bool) {
	if b, ok := Core(s).(bool); ok {
		return b, true
	}
	if b, err := strconv.ParseBool(s); err == nil {
		return b, true
	}
	return false, false
}
