package controller_test

import (
	"fmt"

	"github.com/paramkit/paramkit/params"
)

// Operator code that runs a plan reads the Instance's parameters with
// paramkit's typed getters: each names the JSON pointer it could not
// read, and integers are exact (never through float64).
func Example_typedGetters() {
	in := newInstance("i", "my-operator-0.2.0", `{"clusterName":"prod","nodeCount":3,"storageBytes":9007199254740993,"backup":{"enabled":false}}`, "deploy")
	values, err := params.Decode(nil, in.Spec.Parameters.Raw)
	if err != nil {
		panic(err)
	}
	name, _ := params.String(values, "/clusterName")
	bytes, _ := params.Int64(values, "/storageBytes")
	backup, _ := params.Bool(values, "/backup/enabled")
	fmt.Println(name, bytes, backup)
	_, err = params.Int64(values, "/clusterName")
	fmt.Println(err)
	// Output:
	// prod 9007199254740993 false
	// /clusterName: is string, want integer
}
