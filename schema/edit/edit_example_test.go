package edit_test

import (
	"encoding/json"
	"fmt"

	"github.com/paramkit/paramkit/schema/edit"
)

func ExampleAddProperty() {
	doc := []byte(`type: object
properties:
  backup:
    type: object   # nightly
    properties:
      enabled: {type: boolean}
`)
	out, err := edit.AddProperty(doc, "/backup/retentionDays", edit.Property{
		Type: "integer", Title: "Retention days", Default: json.Number("7"), HasDefault: true, Required: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// type: object
	// properties:
	//   backup:
	//     type: object   # nightly
	//     properties:
	//       enabled: {type: boolean}
	//       retentionDays:
	//         type: integer
	//         title: Retention days
	//         default: 7
	//     required: [retentionDays]
}
