package lint_test

import (
	"fmt"
	"testing/fstest"

	"github.com/paramkit/paramkit/lint"
)

// A Helm chart folder is read from any fs.FS (os.DirFS(dir) on disk): its
// schema is linted and its values.yaml validated against it, each finding
// naming its file and line.
func ExampleChart_Lint() {
	fsys := fstest.MapFS{
		"Chart.yaml": {Data: []byte("apiVersion: v2\nname: web\nversion: 0.1.0\n")},
		"values.schema.json": {Data: []byte(`{
  "type": "object",
  "properties": {
    "replicas": {"type": "integer", "minimum": 1},
    "image": {"type": "string", "enum": ["nginx", "caddy"], "default": "httpd"}
  }
}`)},
		"values.yaml": {Data: []byte("replicas: 0\nimage: nginx\n")},
	}
	chart, err := lint.ReadChart(fsys)
	if err != nil {
		fmt.Println(err)
		return
	}
	fs, err := chart.Lint(lint.Kudo())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range fs {
		fmt.Printf("%s:%d: %s %s: %s\n", f.File, f.Line, f.Pointer, f.Rule, f.Message)
	}
	// Output:
	// values.schema.json:5: /properties/image/default kudo-enum-default: the default "httpd" is not one of the enum values ["nginx","caddy"]: add it to the enum or change the default
	// values.yaml:1: /replicas chart-values: must be >= 1 but found 0
}

// The title rules of the cluster-app set accept the words given as
// written: product names and other proper nouns.
func ExampleClusterApp() {
	schema := []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
  "properties": {"controlPlane": {"type": "object", "title": "etcd settings"}}}`)
	count := func(fs []lint.Finding, rule string) int {
		n := 0
		for _, f := range fs {
			if f.Rule == rule {
				n++
			}
		}
		return n
	}
	before, _ := lint.Document(schema, lint.ClusterApp())
	after, _ := lint.Document(schema, lint.ClusterApp("etcd"))
	fmt.Printf("R5-title-case: %d -> %d\n", count(before, "R5-title-case"), count(after, "R5-title-case"))
	// Output:
	// R5-title-case: 1 -> 0
}
