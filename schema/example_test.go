package schema_test

import (
	"encoding/json"
	"fmt"

	"github.com/paramkit/paramkit/schema"
)

func Example() {
	s, err := schema.Parse([]byte(`
type: object
properties:
  topology:
    type: array
    items:
      type: object
      properties:
        labels:
          type: array
          items: {$ref: "#/$defs/label"}
$defs:
  label:
    type: object
    properties:
      key: {type: string, immutable: true}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	n := s.Lookup("/topology/0/labels/1/key")
	fmt.Println(n.Pointer(), n.Types(), n.Immutable())
	// Output: /$defs/label/properties/key [string] true
}

func ExampleParse_errors() {
	_, err := schema.Parse([]byte(`
properties:
  replicas: {type: integer, immutable: "yes"}
  config: {$ref: "https://example.com/config.json"}
`))
	for _, e := range schema.ErrorsOf(err) {
		fmt.Println(e.Pointer)
	}
	// Output:
	// /properties/replicas/immutable
	// /properties/config/$ref
}

func ExampleSchema_Validate() {
	s, _ := schema.Parse([]byte(`{"type":"object","required":["name"],"properties":{"replicas":{"type":"integer","maximum":5}}}`))
	err := s.Validate(map[string]any{"replicas": json.Number("7")})
	for _, e := range schema.ErrorsOf(err) {
		fmt.Printf("%q: %s\n", e.Pointer, e.Message)
	}
	// Output:
	// "/name": missing required property: "name"
	// "/replicas": must be <= 5 but found 7
}

// A map of values is no schema: Parse refuses it with an Error of
// KindNotSchema (convert.LoadSchema reads params files, CRDs and the like).
func ExampleParse_notSchema() {
	_, err := schema.Parse([]byte("replicas: 3\nimage: nginx\n"))
	for _, e := range schema.ErrorsOf(err) {
		fmt.Println(e.Kind)
		fmt.Println(e.Message)
	}
	// Output:
	// not-schema
	// expected a JSON Schema (an object of schema keywords such as type and properties, or {} or true); found a flat map of values (keys image, replicas), none of them a schema keyword
}
