package params_test

import (
	"fmt"
	"math"

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
	v, _ = params.Default(s, v)
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

// Values built in Go may hold Go data: Plain converts it as encoding/json
// would, with exact numbers, and every function of the package does so on
// its own.
func ExamplePlain() {
	v, err := params.Plain(map[string]any{
		"replicas": 3,
		"zones":    []string{"a", "b"},
		"limit":    uint64(18446744073709551615),
		"labels":   map[string]string{"tier": "db"},
	})
	if err != nil {
		panic(err)
	}
	out, _ := params.MarshalYAML(nil, v)
	fmt.Print(string(out))

	_, err = params.Plain(map[string]any{"ratio": math.NaN()})
	fmt.Println(err)
	// Output:
	// labels:
	//   tier: db
	// limit: 18446744073709551615
	// replicas: 3
	// zones:
	//   - a
	//   - b
	// /ratio: the Go float64 NaN is not a value: JSON has no NaN or infinity
}
