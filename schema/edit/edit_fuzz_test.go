package edit

import (
	"testing"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/schema"
)

// FuzzAddProperty: no document or path makes AddProperty panic, and what
// it returns is a schema with the new property where the path says.
func FuzzAddProperty(f *testing.F) {
	for _, doc := range []string{editYAML, editJSON, "type: object\n", "{}", "properties: {a: {type: object}}\nrequired: []\n",
		"type: object\nproperties:\n  a:\n    type: string\n    description: |\n      x\n\n# c\n"} {
		for _, at := range []string{"/a", "/backup/x", "/a/b/c", "/clusterName"} {
			f.Add([]byte(doc), at, "string", "x", true)
		}
	}
	f.Fuzz(func(t *testing.T, doc []byte, at, typ, def string, required bool) {
		spec := Property{Type: typ, Required: required, Title: "T"}
		if def != "" {
			spec.Default, spec.HasDefault = document.Core(def), true
		}
		out, err := AddProperty(doc, at, spec)
		if err != nil {
			return
		}
		s, err := schema.Parse(out)
		if err != nil {
			t.Fatalf("the result does not parse: %v\n%s", err, out)
		}
		n := s.Lookup(at)
		if n == nil || len(n.Types()) != 1 || n.Types()[0] != typ {
			t.Fatalf("no %s property at %s in\n%s", typ, at, out)
		}
	})
}
