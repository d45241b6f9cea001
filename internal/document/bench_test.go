package document

import (
	"fmt"
	"strings"
	"testing"
)

// benchDocs: a values document of the usual shape, as YAML and as JSON.
func benchDocs() (yaml, json []byte) {
	var y, j strings.Builder
	j.WriteString("{")
	for i := range 40 {
		fmt.Fprintf(&y, "group%d:\n  name: \"item-%d\"\n  size: %d\n  enabled: true\n  ratio: 1.%d\n", i, i, i*7, i)
		if i > 0 {
			j.WriteString(",")
		}
		fmt.Fprintf(&j, `"group%d":{"name":"item-%d","size":%d,"enabled":true,"ratio":1.%d}`, i, i, i*7, i)
	}
	j.WriteString("}")
	return []byte(y.String()), []byte(j.String())
}

// BenchmarkRead: a YAML document on the fast path, the same with key
// order (the general parser), and JSON.
func BenchmarkRead(b *testing.B) {
	y, j := benchDocs()
	for _, bc := range []struct {
		name string
		data []byte
		o    Options
	}{
		{"YAML", y, Options{}},
		{"YAMLOrder", y, Options{Order: true}},
		{"JSON", j, Options{}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Read(bc.data, bc.o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
