package convert_test

import (
	"encoding/json"
	"fmt"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/params"
)

// The KEP's Instance example: v1beta1 strings typed by the schema.
func ExampleUnwrapValues() {
	s, _ := convert.LoadSchema([]byte(`parameters:
  - {name: NODE_COUNT, type: integer}
  - {name: BACKUP_ENABLED, type: boolean}
  - {name: ARRAY_PARAM, type: array}
  - {name: MAP_PARAM, type: map}
  - {name: VERSION, type: string}
`))
	values, err := convert.UnwrapValues(s, map[string]string{
		"NODE_COUNT":     "3",
		"BACKUP_ENABLED": "false",
		"ARRAY_PARAM":    "[foo,bar,bazz]",
		"MAP_PARAM":      `{foo:"bar"}`,
		"VERSION":        "1.10",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := params.MarshalJSON(s, values, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out))
	// Output:
	// {"NODE_COUNT":3,"BACKUP_ENABLED":false,"ARRAY_PARAM":["foo","bar","bazz"],"MAP_PARAM":{"foo":"bar"},"VERSION":"1.10"}
}

// Without a schema (nil), values are guessed by safe rules, and every
// guess is reported as a Note.
func ExampleUnwrap_guess() {
	c, err := convert.Unwrap(nil, []byte(`NODE_COUNT: "3"
ZIP: "007"
ENABLED: "yes"
LIST: "[foo,bar]"
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := c.JSON("")
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	for _, n := range c.Notes {
		fmt.Println(n)
	}
	// Output:
	// {"NODE_COUNT":3,"ZIP":"007","ENABLED":"yes","LIST":["foo","bar"]}
	// /LIST: guessed an array from "[foo,bar]"
	// /NODE_COUNT: guessed an integer from "3"
}

// Typed values back to v1beta1 text that unwraps to the same values.
func ExampleWrapValues() {
	s, _ := convert.LoadSchema([]byte(`type: object
properties:
  replicas: {type: integer}
  name: {type: string}
  label: {type: [string, integer]}
  zones: {type: array, items: {type: string}}
`))
	text, err := convert.WrapValues(s, map[string]any{
		"replicas": json.Number("3"),
		"name":     "007",
		"label":    "42",
		"zones":    []any{"a", "b"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q %q %q %q\n", text["replicas"], text["name"], text["label"], text["zones"])
	// Output:
	// "3" "007" "\"42\"" "[\"a\",\"b\"]"
}
