package convert_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// A stream of v1beta1 Instances of any length, unwrapped document by
// document: results come back in input order, errors with lines of the
// whole stream.
func ExampleUnwrapReader() {
	s, _ := convert.LoadSchema([]byte("parameters:\n  - {name: NODE_COUNT, type: integer}\n"))
	in := strings.NewReader(`kind: Instance
spec: {parameters: {NODE_COUNT: "3"}}
---
kind: Instance
spec: {parameters: {NODE_COUNT: [4}}
---
NODE_COUNT: "5"
`)
	err := convert.UnwrapReader(context.Background(), s, in, 0, func(d params.Document[*convert.Converted]) error {
		c, err := d.Value, d.Err
		var se *schema.Error
		if errors.As(err, &se) {
			fmt.Println(d.Index, "line", se.Line, se.Kind)
			return nil
		}
		y, _ := c.YAML()
		fmt.Printf("%d %s", d.Index, y)
		return nil
	})
	fmt.Println(err)
	// Output:
	// 0 apiVersion: kudo.dev/v1beta2
	// kind: Instance
	// spec:
	//   parameters:
	//     NODE_COUNT: 3
	// 1 line 5 syntax
	// 2 NODE_COUNT: 5
	// <nil>
}
