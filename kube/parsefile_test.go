package kube_test

import (
	"os"

	"github.com/paramkit/paramkit/schema"
)

// parseSchemaFile reads a schema file for a test: schema.Parse of its
// bytes (schema has no ParseFile; callers read the file).
func parseSchemaFile(path string) (*schema.Schema, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return schema.Parse(data)
}
