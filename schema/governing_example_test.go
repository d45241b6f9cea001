package schema_test

import (
	"fmt"

	"github.com/paramkit/paramkit/schema"
)

// A node pool of Giant Swarm's cluster-aws chart is one of two closed
// branches: maxSize belongs to the second, and no branch allows nope.
func ExampleNode_ChildNodes() {
	s, _ := schema.Parse([]byte(`
type: object
oneOf:
  - additionalProperties: false
    required: [type]
    properties: {type: {const: karpenter}, cpu: {type: [number, string]}}
  - additionalProperties: false
    properties: {type: {const: machinepool}, maxSize: {type: integer}}
`))
	pool := s.Root()
	fmt.Println(pool.Child("maxSize").Pointer())
	for _, key := range []string{"maxSize", "type", "nope"} {
		nodes, open := pool.ChildNodes(key)
		fmt.Print(key, ":")
		for _, n := range nodes {
			fmt.Print(" ", n.Pointer())
		}
		fmt.Println(" open:", open)
	}
	// Output:
	// /oneOf/1/properties/maxSize
	// maxSize: /oneOf/1/properties/maxSize open: false
	// type: /oneOf/0/properties/type /oneOf/1/properties/type open: false
	// nope: open: false
}
