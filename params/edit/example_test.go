package edit_test

import (
	"fmt"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/edit"
	"github.com/paramkit/paramkit/schema"
)

// Values writes an update into a values file: the comments, the order and
// the quoting stay, the new key goes where the schema puts it, and the
// default of replicas is not written.
func ExampleValues() {
	s, _ := schema.Parse([]byte(`
type: object
properties:
  replicas: {type: integer, default: 1}
  image:
    type: object
    properties:
      repository: {type: string}
      tag: {type: string}
      pullPolicy: {type: string, default: IfNotPresent}
`))
	src := []byte(`# production
image:
  repository: "nginx" # pinned
  pullPolicy: Always
`)
	old, _ := params.Decode(s, src)
	r, err := (&params.Update{Schema: s, Old: old, Set: []string{"image.tag=1.27"}, Sparse: true}).Run()
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := edit.Values(s, src, old, r.Values)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// # production
	// image:
	//   repository: "nginx" # pinned
	//   tag: "1.27"
	//   pullPolicy: Always
}
