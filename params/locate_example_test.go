package params_test

import (
	"fmt"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// A command that checks one values file prints each error as
// FILE:LINE:COLUMN: POINTER: message, as it does for a stream.
func ExampleLocate() {
	s, _ := schema.Parse([]byte(`{"type":"object","properties":{
	  "nodes":{"type":"object","properties":{"count":{"type":"integer","minimum":1}}}}}`))
	data := []byte("# staging\nnodes:\n  count: 0\n")
	v, _ := params.Decode(s, data)
	l := schema.ErrorsOf(params.Validate(s, v))
	params.Locate(data, l)
	for _, e := range schema.ErrorsOf(schema.ErrorIn("staging.yaml", l.Err())) {
		fmt.Printf("%s:%d:%d: %s: %s\n", e.File, e.Line, e.Column, e.Pointer, e.Message)
	}
	// Output:
	// staging.yaml:3:3: /nodes/count: must be >= 1 but found 0
}

// A message names the place as the user typed it with -p.
func ExampleKeyOf() {
	fmt.Println(params.KeyOf("/nodes/count"))
	fmt.Println(params.KeyOf("/labels/app.kubernetes.io~1name"))
	fmt.Println(params.KeyOf("/annotations/a.b"))
	// Output:
	// nodes.count
	// /labels/app.kubernetes.io~1name
	// annotations.a\.b
}

// Values printed for a person show that a secret is set, never what it is.
func ExampleMask() {
	s, _ := schema.Parse([]byte(`{"properties":{"user":{"type":"string"},"password":{"type":"string","format":"password"}}}`))
	v, _ := params.Decode(s, []byte("user: bob\npassword: hunter2\n"))
	masked, _ := params.Mask(s, v)
	out, _ := params.MarshalYAML(s, masked)
	fmt.Print(string(out))
	// Output:
	// user: bob
	// password: (value hidden)
}
