package paramkit_test

import (
	"strings"
	"testing"
)

// TestCoreImportsNoKubernetes: the core packages import nothing from
// Kubernetes (k8s.io, sigs.k8s.io, controller-runtime), so that a program
// embedding paramkit does not pull them in; only examples/ and test/ may.
func TestCoreImportsNoKubernetes(t *testing.T) {
	for file, imps := range goImports(t, "schema", "params", "convert", "trigger", "lint", "internal") {
		for _, p := range imps {
			if strings.HasPrefix(p, "k8s.io/") || strings.HasPrefix(p, "sigs.k8s.io/") {
				t.Errorf("%s imports %s: the core stays free of Kubernetes", file, p)
			}
		}
	}
}
