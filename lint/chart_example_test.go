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

// A team accepts findings by rule and place, and adopts the linter on a
// schema with findings through a baseline: only new findings fail.
func ExampleFilter() {
	schema := []byte(`{
  "type": "object",
  "properties": {
    "internal": {"type": "object", "properties": {"x": {"enum": [1], "default": 2}}},
    "a": {"enum": ["x"], "default": "y"},
    "b": {"enum": ["x"], "default": "z"}
  }
}`)
	findings, _ := lint.Document(schema, lint.Kudo())
	report := lint.Report{File: "values.schema.json", Findings: findings}
	filter := lint.Filter{
		Ignore:   []lint.Ignore{{Pointer: "/properties/internal/**"}},
		Baseline: []lint.Finding{{Rule: "kudo-enum-default", Pointer: "/properties/a/default"}},
	}
	kept, silenced := filter.Apply(report)
	for _, f := range kept.Findings {
		fmt.Println(f.Pointer, f.Rule)
	}
	fmt.Printf("silenced: %d ignored, %d in the baseline\n", silenced.Ignored, silenced.Baseline)
	// Output:
	// /properties/b/default kudo-enum-default
	// silenced: 1 ignored, 1 in the baseline
}

// A configuration file names the sets, the rules to turn off, the
// findings to accept and the words the title rules accept as written.
func ExampleReadConfig() {
	cfg, err := lint.ReadConfig([]byte(`
rules: [cluster-app]
disable: ["R6-*", R8-string-constraint]
words: [etcd]
`), lint.Sets()...)
	if err != nil {
		fmt.Println(err)
		return
	}
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
	after, _ := lint.Document(schema, cfg.Sets(lint.ClusterApp())...)
	for _, rule := range []string{"R5-title-case", "R6-description"} {
		fmt.Printf("%s: %d -> %d\n", rule, count(before, rule), count(after, rule))
	}
	// Output:
	// R5-title-case: 1 -> 0
	// R6-description: 1 -> 0
}
