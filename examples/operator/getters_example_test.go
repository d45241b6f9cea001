package main

import (
	"fmt"
	"os"

	"github.com/paramkit/paramkit/params"
)

// Operator code reads the reconciled parameters with paramkit's typed
// getters: each names the JSON pointer it could not read, and integers are
// exact (never through float64).
func Example_typedGetters() {
	data, err := os.ReadFile("testdata/instances/upgrade.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	in, err := readInstance(data)
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := newOperator("testdata/operator-versions").reconcile(in)
	if err != nil {
		fmt.Println(err)
		return
	}
	name, _ := params.String(d.Params, "/clusterName")
	nodes, _ := params.Int64(d.Params, "/nodeCount")
	backup, _ := params.Bool(d.Params, "/backup/enabled")
	creds, _ := params.Map(d.Params, "/backup/credentials")
	fmt.Println(name, nodes, backup, len(creds))
	_, err = params.Int64(d.Params, "/clusterName")
	fmt.Println(err)
	// Output:
	// my-cluster 3 false 2
	// /clusterName: is string, want integer
}
