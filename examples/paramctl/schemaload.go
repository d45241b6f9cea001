package main

import (
	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/schema"
)

// loadSchema reads the schema named by --schema. Every command that takes
// a schema reads it here: a v1beta2 schema, a v1beta1 params.yaml or an
// OperatorVersion of either version (converted on the fly). It fails only
// for what makes the schema unusable; the error is a schema.ErrorList
// with pointers into the file, or the error of reading the file.
func loadSchema(e *env, path string) (*schema.Schema, error) {
	data, err := e.readInput(path)
	if err != nil {
		return nil, err
	}
	return convert.LoadSchema(data)
}
