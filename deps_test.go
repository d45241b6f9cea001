package paramkit_test

import (
	"regexp"
	"strings"
	"testing"
)

// TestCoreImportsNoKubernetes: the core packages import nothing from
// Kubernetes (k8s.io, sigs.k8s.io, controller-runtime), so that a program
// embedding paramkit does not pull them in; only examples/ and test/ may.
// sigs.k8s.io/yaml is the one exception: a YAML reader (it imports only
// go.yaml.in/yaml/v2), the one Helm reads values with and kubectl reads
// manifests with, so internal/helmvalues reads chart values headed for
// Helm with it and internal/kubectlyaml reads Kubernetes objects as
// kubectl sends them (DESIGN.md, "Two readings of values" and "The
// apiserver's verdict").
func TestCoreImportsNoKubernetes(t *testing.T) {
	for file, imps := range goImports(t, "schema", "params", "convert", "trigger", "lint", "kube", "internal") {
		for _, p := range imps {
			if p == "sigs.k8s.io/yaml" && (strings.HasPrefix(file, "internal/helmvalues/") || strings.HasPrefix(file, "internal/kubectlyaml/")) {
				continue
			}
			if strings.HasPrefix(p, "k8s.io/") || strings.HasPrefix(p, "sigs.k8s.io/") {
				t.Errorf("%s imports %s: the core stays free of Kubernetes", file, p)
			}
		}
	}
}

// TestInternalImportsNoPublicPackage: the packages under internal/ lie
// below every public package of the module, so that a public package may
// use any of them and no cycle or hidden dependency on the public API can
// form (the error type, above all, is schema's alone). Their files, tests
// included, import only other internal packages of the module.
func TestInternalImportsNoPublicPackage(t *testing.T) {
	for file, imps := range goImports(t, "internal") {
		for _, p := range imps {
			if p == modulePath || strings.HasPrefix(p, modulePath+"/") && !strings.HasPrefix(p, modulePath+"/internal/") {
				t.Errorf("%s imports %s: internal/ imports no public package of the module (move the package below the one that needs it, as convert/migrate/internal/shape)", file, p)
			}
		}
	}
}

// TestPublicPackagesDeclareNoInternalAliases: no exported name of a
// public package is an alias of an internal package's type, so that %T,
// go doc and the API record show the public name.
func TestPublicPackagesDeclareNoInternalAliases(t *testing.T) {
	// The record names other packages' types by import path: an alias
	// line "type X = …internal/….T" is what this looks for.
	alias := regexp.MustCompile(`, type [^ ]+ = (\S+/)?internal/`)
	for _, line := range apiListing(t, ".") {
		if alias.MatchString(line) {
			t.Errorf("%s: an alias of an internal type", line)
		}
	}
}

// layers ranks the library's top-level folders from the bottom up: a
// package may import a package of a lower layer or of its own folder,
// never one above it. The folder a package sits in says which layer it
// belongs to, so a package that needs a higher layer moves up (as kube
// moved out of params, which it stands above: it imports lint and
// convert/migrate).
var layers = []string{"schema", "trigger", "params", "convert", "lint", "kube"}

// TestLayers: no import of a library package (its non-test files) runs
// back up a layer. Tests may import what they compare against.
func TestLayers(t *testing.T) {
	rank := map[string]int{}
	for i, l := range layers {
		rank[l] = i
	}
	top := func(path string) string { return strings.SplitN(path, "/", 2)[0] }
	for file, imps := range goImports(t, layers...) {
		if strings.HasSuffix(file, "_test.go") || isInternal(file) {
			continue
		}
		from := top(file)
		for _, p := range imps {
			if !strings.HasPrefix(p, modulePath+"/") {
				continue
			}
			rel := strings.TrimPrefix(p, modulePath+"/")
			to := top(rel)
			r, ok := rank[to]
			if !ok {
				if to != "internal" {
					t.Errorf("%s imports %s: a package outside the layers (%v)", file, p, layers)
				}
				continue
			}
			if to != from && r > rank[from] {
				t.Errorf("%s imports %s: %s stands above %s; move the code down or the importer up", file, p, to, from)
			}
		}
	}
}
