package lint

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFindingsByPlaceThenPointer: the package doc promises findings "by
// place in the document, then pointer". Keys written out of pointer order
// (zeta before alpha, on lines of their own and on one line) come back in
// the order the document shows them: line, then column, then pointer.
func TestFindingsByPlaceThenPointer(t *testing.T) {
	for _, tt := range []struct {
		name, doc string
		first     string // the pointer whose findings come first
	}{
		{"block style", "type: object\nproperties:\n  zeta:\n    type: strin\n  alpha:\n    type: strin\n", "/properties/zeta"},
		{"flow style, one line", "type: object\nproperties: {zeta: {type: strin}, alpha: {type: strin}}\n", "/properties/zeta"},
		{"a CRD", crdWith("zeta", "alpha"), "/spec/versions/0/schema/openAPIV3Schema/properties/zeta"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fs, err := Document([]byte(tt.doc), Kudo(), ClusterApp(), Structural())
			require.NoError(t, err)
			require.NotEmpty(t, fs)
			for i := 1; i < len(fs); i++ {
				assert.False(t, findingLess(fs[i], fs[i-1]), "finding %d (%d:%d %s %s) comes before finding %d (%d:%d %s %s)",
					i, fs[i].Line, fs[i].Column, fs[i].Pointer, fs[i].Rule, i-1, fs[i-1].Line, fs[i-1].Column, fs[i-1].Pointer, fs[i-1].Rule)
			}
			firstAt := map[string]int{}
			for i, f := range fs {
				for _, p := range []string{tt.first, tt.first[:len(tt.first)-len("zeta")] + "alpha"} {
					if _, seen := firstAt[p]; !seen && len(f.Pointer) >= len(p) && f.Pointer[:len(p)] == p {
						firstAt[p] = i
					}
				}
			}
			require.Len(t, firstAt, 2, "both properties have findings: %v", fs)
			alpha := tt.first[:len(tt.first)-len("zeta")] + "alpha"
			assert.Less(t, firstAt[tt.first], firstAt[alpha], "zeta is written first, so its findings come first")
		})
	}
}

func crdWith(a, b string) string {
	return fmt.Sprintf(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: caches.example.dev
spec:
  group: example.dev
  names: {kind: Cache, plural: caches}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          %s: {type: strin}
          %s: {type: strin}
`, a, b)
}

// TestFindingLess pins the order's keys one by one.
func TestFindingLess(t *testing.T) {
	base := Finding{File: "a", Line: 4, Column: 26, Pointer: "/b", Rule: "r2", Message: "m"}
	for _, tt := range []struct {
		name   string
		change func(*Finding)
	}{
		{"file", func(f *Finding) { f.File = "b"; f.Line = 1 }},
		{"line", func(f *Finding) { f.Line = 5; f.Column = 1; f.Pointer = "/a" }},
		{"column (4:38 after 4:26)", func(f *Finding) { f.Column = 38; f.Pointer = "/a" }},
		{"pointer", func(f *Finding) { f.Pointer = "/c"; f.Rule = "r1" }},
		{"rule", func(f *Finding) { f.Rule = "r3"; f.Message = "a" }},
		{"message", func(f *Finding) { f.Message = "n" }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			later := base
			tt.change(&later)
			assert.True(t, findingLess(base, later))
			assert.False(t, findingLess(later, base))
		})
	}
}
