package schema

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: any bytes give a schema or an ErrorList, never a panic or a
// hang; a schema that parses can be walked and validates a value.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/kep/*.yaml")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":"integer","minimum":1e-9999}}}`,
		"type: object\nproperties:\n  a: &x {type: string}\n  b: *x\n",
		`{"$ref":"#"}`,
		`{"anyOf":[{"items":{"$ref":"#"}},{"type":"null"}]}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}],"additionalItems":false}`,
		`{"type":"object","trigger":"a","properties":{"b":{"trigger":"b","immutable":"yes","oldName":[1]}}}`,
		`{"pattern":"(?<=a)"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			if _, ok := err.(*listError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		s.Walk(func(n *Node) bool {
			_ = n.Types()
			// Every node ChildNodes gives is one Child could give, or
			// lies in a branch: never a false node.
			for _, c := range append(nodesOf(n.ChildNodes("a")), nodesOf(n.ElemNodes(1))...) {
				if c == nil || c.IsFalse() {
					t.Fatalf("ChildNodes/ElemNodes of %s gave %v", n.pointer, c)
				}
			}
			return true
		})
		_ = s.Validate(map[string]any{"a": []any{"x", nil}})
		_ = s.Lookup("/a/0/b")
	})
}

func nodesOf(nodes []*Node, _ bool) []*Node { return nodes }
