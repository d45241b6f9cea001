package params_test

import (
	"fmt"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// An update from `-P` files and `-p` strings: the files are merge patches
// (DecodePatch reads each as a -P file), Set takes the -p strings as
// typed. The result holds the new values and the one plan they trigger.
func ExampleUpdate_filesAndSet() {
	s, _ := schema.Parse([]byte(`
type: object
properties:
  nodeCount: {type: integer, default: 3}
  backup:
    type: object
    trigger: backup
    properties:
      enabled: {type: boolean, default: false}
      schedule: {type: string}
`))
	old, _ := params.Decode(s, []byte("nodeCount: 3\n"))
	file := []byte("backup:\n  enabled: true\n") // the content of a -P file
	patch, err := params.DecodePatch(s, file)
	if err != nil {
		panic(err) // a file that is no YAML or JSON
	}
	u := params.Update{
		Schema:  s,
		Old:     old,
		Patches: []any{patch},
		Set:     []string{"backup.schedule=0 2 * * *"},
	}
	r, err := u.Run()
	if err != nil {
		fmt.Println(err) // every reason, one a line, each with its pointer
		return
	}
	fmt.Println(r.Plan, r.Changed)
	fmt.Println(r.Values)
	// Output:
	// backup [/backup/enabled /backup/schedule]
	// map[backup:map[enabled:true schedule:0 2 * * *] nodeCount:3]
}

// The typed getter reads a value at a JSON pointer and says which pointer
// was missing or of the wrong type.
func ExampleString() {
	v, _ := params.Decode(nil, []byte(`{"nodeCount": 3, "backup": {"enabled": true}}`))
	n, err := params.Int64(v, "/nodeCount")
	fmt.Println(n, err)
	on, err := params.Bool(v, "/backup/enabled")
	fmt.Println(on, err)
	_, err = params.String(v, "/backup/schedule")
	fmt.Println(err)
	// Output:
	// 3 <nil>
	// true <nil>
	// /backup/schedule: no value (want string)
}

// Structural defaults and validates as a kube-apiserver does for a CRD
// object: no missing parent is created, a null on a non-nullable
// property is dropped, then defaulted, and nullable: true admits null.
func ExampleStructural() {
	s, _ := schema.Parse([]byte(`
type: object
properties:
  replicas: {type: integer, default: 3}
  backup:
    type: object
    properties:
      enabled: {type: boolean, default: false}
  comment: {type: string, nullable: true}
`))
	v, _ := params.Decode(s, []byte("replicas: null\ncomment: null\n"))
	for _, opts := range [][]params.Option{nil, {params.Structural()}} {
		d, _ := params.Default(s, v, opts...)
		out, _ := params.MarshalJSON(s, d, "")
		fmt.Println(string(out), "valid:", params.Validate(s, d, opts...) == nil)
	}
	// Output:
	// {"replicas":null,"backup":{"enabled":false},"comment":null} valid: false
	// {"replicas":3,"comment":null} valid: true
}
