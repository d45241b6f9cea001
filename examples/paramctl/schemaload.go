package main

import (
	"github.com/paramkit/paramkit/schema"
)

// loadSchema reads the schema named by --schema. Every command that takes
// a schema reads it here, so that v1beta1 params.yaml and OperatorVersion
// files are accepted everywhere once conversion exists.
func loadSchema(e *env, path string) (*schema.Schema, error) {
	data, err := e.readInput(path)
	if err != nil {
		return nil, err
	}
	return schema.Parse(data)
}
