package edit_test

import (
	"encoding/json"
	"fmt"

	"github.com/paramkit/paramkit/schema/edit"
)

// A JSON schema keeps its own layout: the new property is written in the
// file's indentation, after its siblings.
func Example() {
	doc := []byte(`{
  "type": "object",
  "properties": {
    "name": {"type": "string"}
  }
}
`)
	out, err := edit.AddProperty(doc, "/replicas", edit.Property{Type: "integer", Default: json.Number("3"), HasDefault: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// {
	//   "type": "object",
	//   "properties": {
	//     "name": {"type": "string"},
	//     "replicas": {
	//       "type": "integer",
	//       "default": 3
	//     }
	//   }
	// }
}
