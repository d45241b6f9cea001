package paramkit_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const modulePath = "github.com/paramkit/paramkit"

// goImports returns, for every Go file below the roots (testdata left
// out), the import paths it names, keyed by the file's slash path.
func goImports(t *testing.T, roots ...string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, root := range roots {
		before := len(out)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			var imps []string
			for _, s := range f.Imports {
				p, err := strconv.Unquote(s.Path.Value)
				if err != nil {
					return err
				}
				imps = append(imps, p)
			}
			out[filepath.ToSlash(path)] = imps
			return nil
		})
		require.NoError(t, err)
		require.Greater(t, len(out), before, "no Go files found under %s/", root)
	}
	return out
}

// isInternal reports whether an import path names an internal package:
// one with an element "internal" (Go's rule for what may import it).
func isInternal(path string) bool {
	for _, e := range strings.Split(path, "/") {
		if e == "internal" {
			return true
		}
	}
	return false
}

// TestExamplesUsePublicAPI: the examples are what users copy into their
// own modules, where this module's internal packages cannot be imported.
// No Go file under examples/ (tests included) imports one; code outside
// tests imports no internal package at all, examples/internal included
// (its test certificates serve tests only).
func TestExamplesUsePublicAPI(t *testing.T) {
	for file, imps := range goImports(t, "examples") {
		test := strings.HasSuffix(file, "_test.go")
		inExamplesInternal := strings.HasPrefix(file, "examples/internal/")
		for _, p := range imps {
			if !strings.HasPrefix(p, modulePath+"/") {
				continue
			}
			switch {
			case strings.HasPrefix(p, modulePath+"/internal/") || p == modulePath+"/internal":
				t.Errorf("%s imports %s: examples must live on the public API", file, p)
			case isInternal(p) && !test && !inExamplesInternal:
				t.Errorf("%s imports %s outside a test: code users copy must not depend on it", file, p)
			}
		}
	}
}

// TestIsInternal pins the rule TestExamplesUsePublicAPI relies on.
func TestIsInternal(t *testing.T) {
	for p, want := range map[string]bool{
		modulePath + "/internal/value":             true,
		modulePath + "/examples/internal/testcert": true,
		modulePath + "/params":                     false,
		modulePath + "/internalize":                false,
		"internal/foo":                             true,
	} {
		assert.Equal(t, want, isInternal(p), p)
	}
}

// TestRootModuleExportsNoExamples: an importable package under examples/
// in this module would be part of its v1 promise. Every package there is
// a main package or sits below an internal/ folder; modules of their own
// (a go.mod of their own, such as examples/operator) are theirs.
func TestRootModuleExportsNoExamples(t *testing.T) {
	fset := token.NewFileSet()
	seen := 0
	err := filepath.WalkDir("examples", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a module of its own
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.PackageClauseOnly)
		if err != nil {
			return err
		}
		seen++
		if f.Name.Name != "main" && !isInternal(filepath.ToSlash(filepath.Dir(path))) {
			t.Errorf("%s: package %s is importable from the root module (make it main, internal, or a module of its own)", path, f.Name.Name)
		}
		return nil
	})
	require.NoError(t, err)
	require.Positive(t, seen)
}

// TestExamplesBuildInTheirOwnModule copies paramctl (with its webhook
// server) into a fresh module outside this repository, as a user would, with a replace
// directive pointing here, and builds them. Modules come as the go command
// finds them (the module cache, else the proxy), so a clean machine with
// a module proxy passes; this repository's go.sum is copied first, so a
// warm cache needs no network.
func TestExamplesBuildInTheirOwnModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds modules: not in -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	root, err := os.Getwd()
	require.NoError(t, err)
	sum, err := os.ReadFile("go.sum")
	require.NoError(t, err)
	for _, example := range []string{"paramctl"} {
		t.Run(example, func(t *testing.T) {
			dir := t.TempDir()
			copyTree(t, filepath.Join("examples", example), dir, func(rel string) bool {
				return !strings.HasSuffix(rel, "_test.go")
			})
			goMod := "module example.com/my" + example + "\n\ngo 1.26.0\n\n" +
				"require " + modulePath + " v0.0.0\n\n" +
				"replace " + modulePath + " => " + filepath.ToSlash(root) + "\n"
			require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644))
			// This repository's go.sum: the checksums go mod tidy would
			// otherwise look up.
			require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))

			env := append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOWORK=off", "GOTOOLCHAIN=local")
			goCmd := func(args ...string) {
				t.Helper()
				cmd := exec.Command(goBin, args...)
				cmd.Dir = dir
				cmd.Env = env
				out, err := cmd.CombinedOutput()
				require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
			}
			goCmd("mod", "tidy")
			goCmd("build", "-o", filepath.Join(dir, "bin"), ".")
		})
	}
}

// copyTree copies the files of src for which keep(relative path) is true
// into dst.
func copyTree(t *testing.T, src, dst string, keep func(rel string) bool) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !keep(rel) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	require.NoError(t, err)
}

// TestAnnotationKeysHaveOneHome: the annotation keys stored on objects
// in a cluster are written out once, where the library exports them
// (convert.ParametersAnnotation, kube.ConversionAnnotation); paramctl,
// the operators and every other program use the exported constants, so
// that no copy can drift from what the library reads and writes.
func TestAnnotationKeysHaveOneHome(t *testing.T) {
	homes := map[string]string{
		strconv.Quote("paramkit.dev/v1beta2-parameters"): "internal/kudoparams/kudoparams.go",
		strconv.Quote("paramkit.dev/v1beta1-parameters"): "internal/kudoparams/kudoparams.go",
		strconv.Quote("conversion.paramkit.dev/kept"):    "kube/convert.go",
	}
	found := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for key, home := range homes {
			if strings.Contains(string(data), key) {
				found[key] = true
				assert.Equal(t, home, filepath.ToSlash(path), "%s is written out here: use the exported constant", key)
			}
		}
		return nil
	})
	require.NoError(t, err)
	for key := range homes {
		assert.True(t, found[key], "%s not found at home: update the test", key)
	}
}
