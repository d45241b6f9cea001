package paramkit_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCoreImportsNoKubernetes: the core packages import nothing from
// Kubernetes (k8s.io, sigs.k8s.io, controller-runtime), so that a program
// embedding paramkit does not pull them in; only examples/ and test/ may.
func TestCoreImportsNoKubernetes(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	for _, dir := range []string{"schema", "params", "convert", "trigger", "lint", "internal"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
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
			files++
			for _, s := range f.Imports {
				p, err := strconv.Unquote(s.Path.Value)
				if err != nil {
					return err
				}
				if strings.HasPrefix(p, "k8s.io/") || strings.HasPrefix(p, "sigs.k8s.io/") {
					t.Errorf("%s imports %s: the core stays free of Kubernetes", path, p)
				}
			}
			return nil
		})
		require.NoError(t, err)
	}
	require.NotZero(t, files)
}
