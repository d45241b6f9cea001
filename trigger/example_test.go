package trigger_test

import (
	"fmt"

	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/trigger"
)

func Example() {
	s, err := schema.Parse([]byte(`
type: object
properties:
  NodeCount: {type: integer}
  Authorization:
    type: object
    trigger: auth-update
    properties:
      ENABLED: {type: boolean}
      NAME: {type: string}
`))
	if err != nil {
		panic(err)
	}
	r, err := trigger.New(s, trigger.DefaultPlan("update"))
	if err != nil {
		panic(err) // trigger conflicts: the schema names two plans on one branch
	}
	plan, _ := r.Resolve([]string{"/Authorization/NAME", "/Authorization/ENABLED"})
	fmt.Println(plan)
	plan, _ = r.Resolve([]string{"/NodeCount"})
	fmt.Println(plan)
	_, err = r.Resolve([]string{"/NodeCount", "/Authorization/NAME"})
	fmt.Println(err)
	// Output:
	// auth-update
	// update
	// /NodeCount: triggers update, but an update may trigger only one plan (the changes trigger auth-update, update)
	// /Authorization/NAME: triggers auth-update, but an update may trigger only one plan (the changes trigger auth-update, update)
}

// New checks the schema's triggers: a conflict refuses it, with every
// conflict listed.
func ExampleNew() {
	s, _ := schema.Parse([]byte(`
type: object
properties:
  Authorization:
    type: object
    trigger: deploy
    properties:
      ENABLED: {type: boolean, trigger: update-instance}
`))
	_, err := trigger.New(s)
	for _, c := range schema.ErrorsOf(err) {
		fmt.Println(c)
	}
	// Output:
	// /properties/Authorization/properties/ENABLED: trigger "update-instance" differs from trigger "deploy" of its ancestor /properties/Authorization (a level below a trigger must name the same plan or none)
}
