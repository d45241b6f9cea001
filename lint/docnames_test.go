package lint_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocsNameRealLintIdentifiers: every name qualified with "lint." (a
// function, type, type and method) that the repository's docs and
// comments name exists in package lint,
// and so do the names lint's own doc comments call (Document(...),
// Chart.Lint): a renamed or removed name leaves no stale mention behind.
// The CHANGELOG, which narrates history, is left out.
func TestDocsNameRealLintIdentifiers(t *testing.T) {
	names := map[string]bool{} // NAME and TYPE.METHOD
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var docs []*ast.CommentGroup
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		require.NoError(t, err)
		docs = append(docs, f.Comments...)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					names[d.Name.Name] = true
					continue
				}
				typ := d.Recv.List[0].Type
				if st, ok := typ.(*ast.StarExpr); ok {
					typ = st.X
				}
				if id, ok := typ.(*ast.Ident); ok {
					names[id.Name+"."+d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = true
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, f := range st.Fields.List {
								for _, n := range f.Names {
									names[s.Name.Name+"."+n.Name] = true
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names[n.Name] = true
						}
					}
				}
			}
		}
	}
	require.True(t, names["Document"] && names["Chart.Lint"], "the parser found the package")

	qualified := regexp.MustCompile(`\blint\.([A-Z][A-Za-z0-9]*(?:\.[A-Z][A-Za-z0-9]*)?)`)
	check := func(where, text string, re *regexp.Regexp) {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			name := m[1]
			if !names[name] {
				// lint.Chart.Lint or lint.Kudo().Rules: the type or function is what must exist.
				if i := strings.IndexByte(name, '.'); i < 0 || !names[name[:i]] {
					t.Errorf("%s names lint.%s, which package lint does not declare", where, name)
				}
			}
		}
	}
	root := filepath.Join("..")
	require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() == "CHANGELOG.md" || !(strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".go")) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		check(path, string(data), qualified)
		return nil
	}))

	// Within lint's own comments: a call Name( or Type.Method of an
	// exported-looking name is one the package declares.
	// Names another package qualifies (errors.Is, convert.ReadSchema) are
	// left out: the character before the name is no dot.
	call := regexp.MustCompile(`(?:^|[^.\w])([A-Z][A-Za-z0-9]*(?:\.[A-Z][A-Za-z0-9]*)?)\(`)
	method := regexp.MustCompile(`(?:^|[^.\w])((?:Chart|Package|Pass|Finding|Rule|Set)\.[A-Z][A-Za-z0-9]*)\b`)
	for _, cg := range docs {
		where := fset.Position(cg.Pos()).String()
		for _, re := range []*regexp.Regexp{call, method} {
			for _, m := range re.FindAllStringSubmatch(cg.Text(), -1) {
				name := m[1]
				if names[name] || strings.HasPrefix(name, "R") && strings.ContainsAny(name, "0123456789") {
					continue
				}
				if i := strings.IndexByte(name, '.'); i >= 0 && !names[name[:i]] {
					continue // another package's (schema.NewError)
				}
				assert.Fail(t, "a stale name", "%s: %s is not declared in package lint", where, name)
			}
		}
	}
}
