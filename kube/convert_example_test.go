package kube_test

import (
	"fmt"
	"os"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/kube"
)

// A v2 Cache read by a v1 client: ttlSeconds, which v1 cannot hold,
// travels in an annotation and comes back when the object is written in
// v1 again. An invalid value converts as it is: admission judges it.
func ExampleConvert() {
	set, err := migrate.LoadVersionSet(os.DirFS("testdata/cache")) // v1.yaml, v2.yaml, versions.yaml
	if err != nil {
		panic(err)
	}
	v2 := []byte(`{"apiVersion":"example.paramkit.dev/v2","kind":"Cache","metadata":{"name":"c"},` +
		`"spec":{"parameters":{"memoryLimitMB":8,"ttlSeconds":600}}}`)
	v1, err := kube.Convert(set, v2, "/spec/parameters", "example.paramkit.dev/v1")
	if err != nil {
		panic(err)
	}
	fmt.Println(string(v1))
	back, err := kube.Convert(set, v1, "/spec/parameters", "example.paramkit.dev/v2")
	if err != nil {
		panic(err)
	}
	fmt.Println(string(back))
	// Output:
	// {"apiVersion":"example.paramkit.dev/v1","kind":"Cache","metadata":{"annotations":{"conversion.paramkit.dev/kept":"{\"/spec/parameters\":[{\"dir\":\"down\",\"patch\":[{\"pointer\":\"/ttlSeconds\",\"value\":600}],\"step\":\"bd6b60f59a562460\"}]}"},"name":"c"},"spec":{"parameters":{"maxMemoryMB":8}}}
	// {"apiVersion":"example.paramkit.dev/v2","kind":"Cache","metadata":{"name":"c"},"spec":{"parameters":{"memoryLimitMB":8,"ttlSeconds":600}}}
}
