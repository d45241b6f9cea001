package paramkit_test

import (
	"fmt"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// The new user's program: an operator of one's own embeds paramkit to
// read its schema, decode, default and validate the values, apply an
// update from `-p` strings with its plan, and migrate values of the
// previous version to a renamed field. Every failure is printed the same
// way, as an error, with no type switch: each line is `POINTER: message`.
func Example() {
	// The schema of version 2: nodeCount was called replicas in version 1.
	s, err := schema.Parse([]byte(`
type: object
properties:
  clusterName: {type: string, immutable: true}
  nodeCount: {type: integer, minimum: 1, default: 3, oldName: replicas}
  backup:
    type: object
    trigger: backup
    properties:
      enabled: {type: boolean, default: false}
`))
	if err != nil {
		fmt.Println(err)
		return
	}

	// Decode, default, validate.
	values, err := params.Decode(s, []byte("clusterName: prod\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	values, _ = params.Default(s, values)
	fmt.Println("valid:", params.Validate(s, values) == nil)
	bad, _ := params.Decode(s, []byte("{clusterName: prod, nodeCount: 0}"))
	fmt.Println(params.Validate(s, bad))

	// An update from -p strings, and the plan it runs.
	r, err := (&params.Update{Schema: s, Old: values, Set: []string{"backup.enabled=true"}}).Run()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("plan:", r.Plan, r.Changed)

	// Refused updates: every reason, each with its pointer.
	_, err = (&params.Update{Schema: s, Old: values, Set: []string{"nodeCount=0"}}).Run()
	fmt.Println(err)
	_, err = (&params.Update{Schema: s, Old: values, Set: []string{"clusterName=test"}}).Run()
	fmt.Println(err)

	// Values of version 1 migrated to version 2 by oldName.
	m, err := migrate.New(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := m.MigrateDocument([]byte("clusterName: prod\nreplicas: 0\n"))
	fmt.Println("migrated:", res.Values)
	for _, e := range schema.ErrorsOf(err) {
		fmt.Println(e)
	}
	// Output:
	// valid: true
	// /nodeCount: must be >= 1 but found 0
	// plan: backup [/backup/enabled]
	// /nodeCount: must be >= 1 but found 0
	// /clusterName: cannot be changed: immutable (schema /properties/clusterName)
	// migrated: map[clusterName:prod nodeCount:0]
	// /nodeCount: must be >= 1 but found 0
}

// The program the README shows, kept here so that it compiles and its
// output holds (TestReadmeSnippetIsTheExample checks the README's copy):
// read a schema, decode values by it, fill defaults, validate, update from
// `-p` strings and learn the plan; every error is printed as it comes.
func Example_readme() {
	s, err := schema.Parse([]byte(`
type: object
properties:
  clusterName: {type: string}
  version: {type: string}
  nodeCount: {type: integer, minimum: 1, default: 3}
  backup:
    type: object
    trigger: backup
    properties:
      enabled: {type: boolean, default: false}
`))
	if err != nil {
		fmt.Println(err) // every problem, each with its JSON pointer
		return
	}
	// A plain YAML scalar takes the type of its schema node: 1.10 stays "1.10".
	v, err := params.Decode(s, []byte("clusterName: prod\nversion: 1.10\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	if v, err = params.Default(s, v); err == nil {
		err = params.Validate(s, v)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := params.MarshalJSON(s, v, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out))

	// An update from -p strings, and the plan it runs.
	r, err := (&params.Update{Schema: s, Old: v, Set: []string{"backup.enabled=true"}}).Run()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("plan:", r.Plan, r.Changed)

	// A refused update: each error has a pointer, a Kind and a message.
	_, err = (&params.Update{Schema: s, Old: v, Set: []string{"nodeCount=0"}}).Run()
	for _, e := range schema.ErrorsOf(err) {
		fmt.Println(e.Pointer, e.Kind, e.Message)
	}
	// Output:
	// {"clusterName":"prod","version":"1.10","nodeCount":3,"backup":{"enabled":false}}
	// plan: backup [/backup/enabled]
	// /nodeCount invalid must be >= 1 but found 0
}
