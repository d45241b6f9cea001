package params_test

import (
	"fmt"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

func Example() {
	s, _ := schema.Parse([]byte(`
type: object
properties:
  version: {type: string}
  nodeCount: {type: integer, default: 3}
  backup:
    type: object
    properties:
      enabled: {type: boolean, default: false}
`))
	v, _ := params.Decode(s, []byte("version: 1.10\n"))
	v = params.Default(s, v)
	if err := params.Validate(s, v); err != nil {
		fmt.Println(err)
	}
	out, _ := params.MarshalYAML(s, v)
	fmt.Print(string(out))
	// Output:
	// version: "1.10"
	// nodeCount: 3
	// backup:
	//   enabled: false
}

func ExampleParseText() {
	s, _ := schema.Parse([]byte(`
properties:
  ARRAY_PARAM: {type: array, items: {type: string}}
  MAP_PARAM: {type: object}
  NODE_COUNT: {type: integer}
`))
	for _, p := range []struct{ ptr, text string }{
		{"/ARRAY_PARAM", "[foo,bar,bazz]"},
		{"/MAP_PARAM", `{foo:"bar"}`},
		{"/NODE_COUNT", "3"},
	} {
		v, _ := params.ParseText(s.Lookup(p.ptr), p.text)
		fmt.Printf("%s: %T %v\n", p.ptr, v, v)
	}
	// Output:
	// /ARRAY_PARAM: []interface {} [foo bar bazz]
	// /MAP_PARAM: map[string]interface {} map[foo:bar]
	// /NODE_COUNT: json.Number 3
}
