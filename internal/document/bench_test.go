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

func BenchmarkReadYAML(b *testing.B) {
	y, _ := benchDocs()
	b.SetBytes(int64(len(y)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(y, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadYAMLOrder(b *testing.B) {
	y, _ := benchDocs()
	b.SetBytes(int64(len(y)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(y, Options{Order: true}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadJSON(b *testing.B) {
	_, j := benchDocs()
	b.SetBytes(int64(len(j)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(j, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
