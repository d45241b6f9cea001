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

// Decode keeps the text of a plain scalar no node types; a conversion
// carries it as written, here into the property bag of v1 (which cannot
// hold it) and back.
func ExampleDecode() {
	set, err := convert.LoadVersionSet("testdata/versions/three")
	if err != nil {
		panic(err)
	}
	v2, _ := set.Version("v2")
	in, err := convert.Decode(v2.Schema, []byte("name: a\nreplicaCount: 007\nlegacyCode: 007\n"))
	if err != nil {
		panic(err)
	}
	show := func(v any) string { return fmt.Sprintf("%T %v", v, v) }
	fmt.Println(show(in.(map[string]any)["replicaCount"]), "/", show(in.(map[string]any)["legacyCode"]))
	down, _ := set.Convert(in, "v2", "v1")
	fmt.Println("dropped", down.Dropped[0].Pointer, show(down.Dropped[0].Value))
	up, _ := set.Convert(down.Values, "v1", "v2")
	fmt.Println("back:", show(up.Values.(map[string]any)["legacyCode"]))
	b, _ := json.Marshal(up.Values.(map[string]any)["legacyCode"])
	fmt.Println("as JSON:", string(b))
	// Output:
	// json.Number 7 / convert.PlainScalar 007
	// dropped /legacyCode convert.PlainScalar 007
	// back: convert.PlainScalar 007
	// as JSON: 7
}
