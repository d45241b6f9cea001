package convert_test

import (
	"encoding/json"
	"fmt"

	"github.com/paramkit/paramkit/convert"
)

// A version set converts between any two versions through its hub.
func ExampleVersionSet_Convert() {
	set, err := convert.LoadVersionSet("testdata/versions/three")
	if err != nil {
		panic(err)
	}
	r, err := set.Convert(map[string]any{"name": "a", "replicas": json.Number("3")}, "v1", "v3")
	if err != nil {
		panic(err)
	}
	fmt.Println("hub:", set.Hub())
	fmt.Println(r.Values.(map[string]any)["scaling"])
	_, err = set.Convert(map[string]any{}, "v9", "v1")
	fmt.Println(err != nil)
	// Output:
	// hub: v2
	// map[replicas:3]
	// true
}
