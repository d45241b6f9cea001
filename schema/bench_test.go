package schema

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/paramkit/paramkit/internal/document"
)

// largeDoc is the cluster-app values schema lint's BenchmarkLintLarge
// lints (~270 KiB, ~1,600 properties, 2020-12, shared $defs).
func largeDoc(b *testing.B) any {
	b.Helper()
	data, err := os.ReadFile("../lint/testdata/large-values.schema.json")
	if err != nil {
		b.Fatal(err)
	}
	doc, err := document.DecodeJSON(data)
	if err != nil {
		b.Fatal(err)
	}
	return doc
}

// BenchmarkFromValueLarge builds a large schema from decoded values: the
// engine's compile and, alongside it, the node tree.
func BenchmarkFromValueLarge(b *testing.B) {
	doc := largeDoc(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FromValue(doc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEngineCompileLarge is the JSON Schema engine alone on the same
// document, set up as build sets it up: what FromValue (and lint.Document)
// cannot go below while the engine compiles. Most of it is the engine
// validating the document against the 2020-12 meta-schema and looking
// for $dynamicAnchor in every subschema once per subschema.
func BenchmarkEngineCompileLarge(b *testing.B) {
	raw, err := json.Marshal(largeDoc(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		c := jsonschema.NewCompiler()
		c.Draft = jsonschema.Draft2020
		c.LoadURL = refuseLoad
		c.RegisterExtension("kudo", kudoMeta, kudoExt{})
		if err := c.AddResource(baseURL, bytes.NewReader(raw)); err != nil {
			b.Fatal(err)
		}
		if _, err := c.Compile(baseURL); err != nil {
			b.Fatal(err)
		}
	}
}
