// Command etcd is etcd's own server entry point, built from the Go module
// proxy so that the end-to-end test needs nothing from outside it.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
