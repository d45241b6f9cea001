package convert_test

import (
	"fmt"
	"testing/fstest"

	"github.com/paramkit/paramkit/convert"
)

// ExampleReadSchema reads the schema of a KUDO package folder (here an
// in-memory one; os.DirFS gives a real folder): its params.yaml, a
// v1beta1 list converted on the fly.
func ExampleReadSchema() {
	fsys := fstest.MapFS{
		"zookeeper/operator.yaml": {Data: []byte("apiVersion: kudo.dev/v1beta1\nname: zookeeper\ntasks: []\nplans: {deploy: {}}\n")},
		"zookeeper/params.yaml":   {Data: []byte("apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: NODE_COUNT\n    type: integer\n    default: 3\n")},
	}
	s, err := convert.ReadSchema(fsys, "zookeeper")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Validate(map[string]any{"NODE_COUNT": "three"}))
	// Output: /NODE_COUNT: expected integer, but got string "three"
}
