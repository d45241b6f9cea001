package params_test

import (
	"fmt"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// A chart's -p: a key found in the second oneOf branch, Helm's list and
// index syntax where the schema says array, and null removing a key.
func ExampleUpdate_helmSet() {
	s, _ := schema.Parse([]byte(`
type: object
properties:
  nodePools:
    type: object
    additionalProperties:
      oneOf:
        - {additionalProperties: false, required: [type], properties: {type: {const: karpenter}, cpu: {type: [number, string]}}}
        - additionalProperties: false
          properties:
            maxSize: {type: integer}
            zones: {type: array, items: {type: string}}
  hosts:
    type: array
    items: {type: object, properties: {name: {type: string}, port: {type: integer}}}
  proxy: {type: string}
`))
	old, _ := params.Decode(s, []byte("nodePools: {pool0: {maxSize: 3}}\nproxy: http://proxy:3128\n"))
	r, err := (&params.Update{Schema: s, Old: old, Set: []string{
		"nodePools.pool0.maxSize=7",
		"nodePools.pool0.zones={eu-west-1a,eu-west-1b}",
		"hosts[0].name=web",
		"hosts[0].port=8080",
		"proxy=null",
	}}).Run()
	if err != nil {
		panic(err)
	}
	out, _ := params.MarshalYAML(s, r.Values)
	fmt.Print(string(out))
	// Output:
	// nodePools:
	//   pool0:
	//     maxSize: 7
	//     zones:
	//       - eu-west-1a
	//       - eu-west-1b
	// hosts:
	//   - name: web
	//     port: 8080
}
