package convert_test

import (
	"fmt"

	"github.com/paramkit/paramkit/convert"
)

// The KEP's OperatorVersion example: v1beta1 parameters become a schema,
// typed by the YAML type of their defaults.
func ExampleFromV1beta1() {
	c, err := convert.FromV1beta1([]byte(`apiVersion: kudo.dev/v1beta1
kind: OperatorVersion
spec:
  parameters:
  - name: NODE_COUNT
    description: Number of replicas that should be run as part of the deployment
    default: 3
    required: true
  - name: BACKUP_ENABLED
    default: false
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	out, _ := c.YAML()
	fmt.Print(string(out))
	// Output:
	// apiVersion: kudo.dev/v1beta2
	// kind: OperatorVersion
	// spec:
	//   parameters:
	//     title: Parameter Schema
	//     $schema: https://json-schema.org/draft/2019-09/schema
	//     type: object
	//     required:
	//       - NODE_COUNT
	//     properties:
	//       NODE_COUNT:
	//         type: integer
	//         description: Number of replicas that should be run as part of the deployment
	//         default: 3
	//       BACKUP_ENABLED:
	//         type: boolean
	//         default: false
}

// Every problem at once, each with its pointer and the parameter's name.
func ExampleFromV1beta1_errors() {
	_, err := convert.FromV1beta1([]byte(`parameters:
  - name: REPLICAS
    type: integer
    default: three
  - name: MODE
    type: int
`))
	fmt.Println(err)
	// Output:
	// /parameters/0/default: parameter "REPLICAS": default "three" is not an integer
	// /parameters/1/type: parameter "MODE": unknown type int: use string, integer, number, boolean, array or map
}

// A conversion webhook serving old clients writes the schema down as a
// flat list and keeps the whole schema in an annotation, so that the way
// back up restores it exactly.
func ExampleToV1beta1() {
	v2 := []byte(`{"apiVersion":"kudo.dev/v1beta2","kind":"OperatorVersion","spec":{"parameters":
  {"type":"object","required":["replicas"],"properties":{"replicas":{"type":"integer","default":3,"minimum":1}}}}}`)
	down, err := convert.ToV1beta1(v2)
	if err != nil {
		fmt.Println(err)
		return
	}
	v1, err := down.JSON("")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(v1))
	up, _ := convert.FromV1beta1(v1)
	back, err := up.JSON("")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(back))
	// Output:
	// {"apiVersion":"kudo.dev/v1beta1","kind":"OperatorVersion","spec":{"parameters":[{"name":"replicas","required":true,"default":"3","value-type":"integer"}]},"metadata":{"annotations":{"paramkit.dev/v1beta2-parameters":"{\"type\":\"object\",\"required\":[\"replicas\"],\"properties\":{\"replicas\":{\"type\":\"integer\",\"default\":3,\"minimum\":1}}}"}}}
	// {"apiVersion":"kudo.dev/v1beta2","kind":"OperatorVersion","spec":{"parameters":{"type":"object","required":["replicas"],"properties":{"replicas":{"type":"integer","default":3,"minimum":1}}}}}
}

// A schema in any form: here a v1beta1 params.yaml.
func ExampleLoadSchema() {
	s, err := convert.LoadSchema([]byte(`apiVersion: kudo.dev/v1beta1
parameters:
  - name: ZOOKEEPER_URI
    displayName: zookeeper cluster URI
    default: zk-0.zk-hs:2181
    required: true
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	n := s.Lookup("/ZOOKEEPER_URI")
	fmt.Println(n.Type(), n.Title(), n.Default(), n.Required())
	// Output:
	// [string] zookeeper cluster URI zk-0.zk-hs:2181 true
}
