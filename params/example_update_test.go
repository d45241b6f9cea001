package params_test

import (
	"fmt"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

func ExampleUpdate() {
	s, _ := schema.Parse([]byte(`
type: object
properties:
  clusterName: {type: string, immutable: true}
  topology:
    type: array
    items:
      type: object
      properties:
        datacenterName: {type: string}
        labels:
          type: array
          items: {type: object, properties: {key: {type: string}, value: {type: string}}}
`))
	old, _ := params.Decode(s, []byte(`
clusterName: prod
topology:
  - datacenterName: dc1
    labels: [{key: Usage, value: old}]
`))
	var as []params.Assignment
	for _, arg := range []string{
		`topology/0/datacenterName="NewDC1"`,
		`topology/0/labels/0={ key: "Usage", value: "newValue" }`,
	} {
		a, err := params.ParseAssignment(arg)
		if err != nil {
			panic(err)
		}
		as = append(as, a)
	}
	r, err := (&params.Update{Schema: s, Old: old, Assignments: as}).Run()
	if err != nil {
		panic(err)
	}
	out, _ := params.MarshalYAML(s, r.Values)
	fmt.Print(string(out))
	fmt.Println(r.Plan, r.Changed)

	a, _ := params.ParseAssignment("clusterName=test")
	_, err = (&params.Update{Schema: s, Old: old, Assignments: []params.Assignment{a}}).Run()
	fmt.Println(err)
	// Output:
	// clusterName: prod
	// topology:
	//   - datacenterName: NewDC1
	//     labels:
	//       - key: Usage
	//         value: newValue
	// deploy [/topology/0/datacenterName /topology/0/labels/0/value]
	// /clusterName: cannot be changed: immutable (schema /properties/clusterName)
}
