package schema_test

import (
	"encoding/json"
	"fmt"

	"github.com/paramkit/paramkit/schema"
)

// Nodes marked writeOnly or format: password, and everything below them,
// hold secrets: validation messages never quote their values.
func ExampleSchema_SecretAt() {
	s, _ := schema.Parse([]byte(`
properties:
  db:
    type: object
    writeOnly: true
    properties:
      port: {type: integer}
  replicas: {type: integer}
`))
	fmt.Println(s.SecretAt("/db/port"), s.SecretAt("/replicas"))
	fmt.Println(s.Validate(map[string]any{"db": map[string]any{"port": "hunter2"}, "replicas": json.Number("1.5")}))
	// Output:
	// true false
	// /db/port: expected integer, but got string (value hidden)
	// /replicas: expected integer, but got number 1.5
}
