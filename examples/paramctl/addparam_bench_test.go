package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wideSchema is a schema file with n top-level properties, each with a
// type and a default, as YAML or JSON.
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

// BenchmarkAddParamWide: paramctl add-param on a schema file with many
// properties (issue 26: 20,000 properties took 35 s), the whole command:
// read, parse, edit, check, write.
func BenchmarkAddParamWide(b *testing.B) {
	for _, n := range []int{5000, 20000} {
		for _, format := range []string{"yaml", "json"} {
			b.Run(fmt.Sprintf("%s/%d", format, n), func(b *testing.B) {
				file := filepath.Join(b.TempDir(), "schema."+format)
				src := wideSchema(n, format == "json")
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					if err := os.WriteFile(file, src, 0o644); err != nil {
						b.Fatal(err)
					}
					var out, errOut bytes.Buffer
					e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
					if code := e.dispatch([]string{"add-param", "--schema", file, "--path", "/backup/retentionDays", "--type", "integer", "--default", "7"}); code != 0 {
						b.Fatalf("exit %d: %s", code, errOut.String())
					}
				}
			})
		}
	}
}
