package lint

import (
	"path/filepath"
	"strconv"
	"testing"
)

// largeCRD is a schema of 200 copies of the typical CRD schema under one
// object (about 20k schema nodes), the size of the largest CRDs in use.
func largeCRD(b *testing.B) map[string]any {
	one := yamlFile(b, filepath.Join("testdata", "structural", "crd-typical.yaml"))
	props := map[string]any{}
	for i := 0; i < 200; i++ {
		props["copy"+strconv.Itoa(i)] = one
	}
	return map[string]any{"type": "object", "properties": props}
}

// BenchmarkStructuralLargeCRD is one cold lint of a large CRD schema: the
// set's rules share one analysis.
func BenchmarkStructuralLargeCRD(b *testing.B) {
	doc := largeCRD(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		structuralCache.Lock()
		structuralCache.findings = nil
		structuralCache.Unlock()
		Run(nil, doc, structuralSet)
	}
}

// BenchmarkStructuralFingerprint is what each rule pays to find the shared
// analysis.
func BenchmarkStructuralFingerprint(b *testing.B) {
	doc := largeCRD(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fingerprint(doc)
	}
}
