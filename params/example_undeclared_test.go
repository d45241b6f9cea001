package params_test

import (
	"context"
	"fmt"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// A key the schema does not declare is a warning; Strict refuses it.
func ExampleResult_warnings() {
	s, _ := schema.Parse([]byte(`
type: object
properties:
  replicas: {type: integer}
  image: {type: string}
`))
	u := params.Update{Schema: s, Old: map[string]any{}, Set: []string{"replicsa=4"}}
	r, _ := u.Run()
	for _, w := range r.Warnings {
		fmt.Println(w.Kind, w)
	}
	u.Strict = true
	_, err := u.Run()
	fmt.Println(err)
	// Output:
	// undeclared /replicsa: "replicsa" is not declared by the schema; did you mean "replicas"?
	// /replicsa: "replicsa=4": "replicsa" is not declared by the schema; did you mean "replicas"? (strict: undeclared keys are refused)
}

// Whole values, as an admission webhook receives them.
func ExampleUndeclared() {
	s, _ := schema.Parse([]byte(`
type: object
properties:
  replicas: {type: integer}
  labels: {type: object}
`))
	v, _ := params.Decode(s, []byte("replicas: 3\nreplicsa: 4\nlabels: {team: web}\n"))
	ws, _, _ := params.Undeclared(context.Background(), s, v, nil, 0)
	for _, w := range ws {
		fmt.Println(w)
	}
	// Output:
	// /replicsa: "replicsa" is not declared by the schema; did you mean "replicas"?
}

// A webhook keeps only a few warnings, and stops at the review's
// deadline: Undeclared with a limit builds only those and counts the
// rest; the keys old already had are left out.
func ExampleUndeclared_limit() {
	s, _ := schema.Parse([]byte(`
type: object
properties:
  replicas: {type: integer}
`))
	v, _ := params.Decode(s, []byte("replicsa: 4\nzone: a\nextra: 1\n"))
	old, _ := params.Decode(s, []byte("zone: a\n"))
	ws, more, err := params.Undeclared(context.Background(), s, v, old, 1)
	for _, w := range ws {
		fmt.Println(w)
	}
	fmt.Println(more, "more;", err)
	// Output:
	// /extra: "extra" is not declared by the schema
	// 1 more; <nil>
}
