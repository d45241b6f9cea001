package edit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// wideSchema is a schema file with n top-level properties, each with a
// comment, a type and a default (YAML), or the same as indented JSON.
func wideSchema(n int, asJSON bool) []byte {
	var b bytes.Buffer
	if asJSON {
		b.WriteString("{\n  \"type\": \"object\",\n  \"properties\": {\n")
		for i := range n {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, "    \"p%d\": {\n      \"type\": \"string\",\n      \"default\": \"v%d\"\n    }", i, i)
		}
		b.WriteString("\n  }\n}\n")
		return b.Bytes()
	}
	b.WriteString("type: object\nproperties:\n")
	for i := range n {
		fmt.Fprintf(&b, "  # parameter %d\n  p%d:\n    type: string\n    default: v%d\n", i, i, i)
	}
	return b.Bytes()
}

// BenchmarkAddPropertyWide adds a nested parameter with a default to a
// schema of many properties: it reads, plans, splices and checks the
// result (issue 26: 20,000 properties took 35 s through paramctl
// add-param, the engine compiling 2020-12 in quadratic time).
func BenchmarkAddPropertyWide(b *testing.B) {
	for _, n := range []int{5000, 20000} {
		for _, format := range []string{"yaml", "json"} {
			b.Run(fmt.Sprintf("%s/%d", format, n), func(b *testing.B) {
				src := wideSchema(n, format == "json")
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := AddProperty(src, "/backup/retentionDays", Property{Type: "integer", Default: json.Number("7"), HasDefault: true}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
