package lint

import (
	"os"
	"testing"

	"github.com/paramkit/paramkit/schema"
)

//go:generate go run testdata/genschema.go

// BenchmarkLintLarge lints a cluster-app values schema the size of real
// ones (testdata/large-values.schema.json: ~270 KiB, ~1,600 properties,
// shared $defs) with every rule of the cluster-app and kudo sets, from
// bytes to findings, as `paramctl lint` does on save. The target is well
// under 100 ms per run. On the idle 2-core development machine (load
// average about 1, the benchmark's own) it takes 62-64 ms/op, 24 MB/op
// and 291k allocs/op; the JSON Schema engine's compile alone takes 56-58 ms
// (schema's BenchmarkEngineCompileLarge), and everything else runs beside
// it or takes the last few milliseconds.
func BenchmarkLintLarge(b *testing.B) {
	data, err := os.ReadFile("testdata/large-values.schema.json")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Document(data, clusterAppSet, kudoSet); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLintLargeRules is BenchmarkLintLarge without decoding and
// compiling: the cost of the rules alone, on an already compiled schema.
// The difference to BenchmarkLintLarge is the JSON Schema engine's
// compile, which also backs schema.Parse.
func BenchmarkLintLargeRules(b *testing.B) {
	data, err := os.ReadFile("testdata/large-values.schema.json")
	if err != nil {
		b.Fatal(err)
	}
	doc, _, err := decode(data)
	if err != nil {
		b.Fatal(err)
	}
	s, err := schema.FromValue(doc)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Run(s, doc, clusterAppSet, kudoSet)
	}
}
