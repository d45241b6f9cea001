package migrate_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/schema"
)

// A version set converts between any two versions through its hub.
func ExampleVersionSet_Convert() {
	set, err := migrate.LoadVersionSet(os.DirFS("testdata/versions/three"))
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

// ConvertDocument reads the document by the source version's schema and
// keeps the text of a plain scalar it does not type until a node of a
// version on the way types it: v2 declares code a string, so 007 stays
// "007". Text no node types means what YAML 1.2 core rules say: 0x1F is
// 31, yes is "yes".
func ExampleVersionSet_ConvertDocument() {
	v1, err := schema.Parse([]byte("type: object\nproperties:\n  name: {type: string}\n"))
	if err != nil {
		panic(err)
	}
	v2, err := schema.Parse([]byte("type: object\nproperties:\n  name: {type: string}\n  code: {type: string}\n  extra: {type: object}\n"))
	if err != nil {
		panic(err)
	}
	set, err := migrate.NewVersionSet([]migrate.Version{{Name: "v1", Schema: v1}, {Name: "v2", Schema: v2}})
	if err != nil {
		panic(err)
	}
	r, err := set.ConvertDocument([]byte("name: demo\ncode: 007\nextra: {on: yes}\nlegacy: 0x1F\n"), "v1", "v2")
	if err != nil {
		panic(err)
	}
	vals := r.Values.(map[string]any)
	fmt.Printf("code: %T %v\n", vals["code"], vals["code"])
	fmt.Printf("extra: %v\n", vals["extra"])
	for _, d := range r.Dropped {
		fmt.Printf("dropped %s: %T %v\n", d.Pointer, d.Value, d.Value)
	}
	// Output:
	// code: string 007
	// extra: map[on:yes]
	// dropped /legacy: json.Number 31
}

// Where a conversion loses values, found by sampling the source schema,
// and which directions the set refuses.
func ExampleVersionSet_Losses() {
	set, err := migrate.LoadVersionSet(os.DirFS("testdata/bmh/set"))
	if err != nil {
		panic(err)
	}
	losses, err := set.Losses("v1alpha1", "v1alpha2", 100)
	if err != nil {
		panic(err)
	}
	for _, p := range losses {
		fmt.Println(p)
	}
	_, err = set.Losses("v1alpha2", "v1alpha1", 100)
	fmt.Println(set.Refused("v1alpha2", "v1alpha1") != nil, err != nil)
	// Output:
	// /spec/hardwareProfile
	// /status/hardware/cpu/clockMegahertz
	// /status/hardwareProfile
	// true true
}
