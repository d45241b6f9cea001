package paramkit_test

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The API record: every exported identifier of the library's packages, one
// a line, as Go keeps api/*.txt. Any change to the public API shows in
// review as a change to testdata/api.txt; rewrite it with
// `go test -run TestAPIRecord -update-api .` and say why in the commit.

var updateAPI = flag.Bool("update-api", false, "rewrite testdata/api.txt from the code")

const apiRecord = "testdata/api.txt"

func TestAPIRecord(t *testing.T) {
	got := strings.Join(apiListing(t, "."), "\n") + "\n"
	if *updateAPI {
		require.NoError(t, os.MkdirAll(filepath.Dir(apiRecord), 0o755))
		require.NoError(t, os.WriteFile(apiRecord, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(apiRecord)
	require.NoError(t, err, "run `go test -run TestAPIRecord -update-api .` to create the record")
	if string(want) == got {
		return
	}
	added, removed := lineDiff(strings.Split(strings.TrimSpace(string(want)), "\n"), strings.Split(strings.TrimSpace(got), "\n"))
	t.Errorf("the public API differs from %s; if the change is meant, run `go test -run TestAPIRecord -update-api .`\nadded:\n  %s\nremoved:\n  %s",
		apiRecord, strings.Join(added, "\n  "), strings.Join(removed, "\n  "))
}

// TestAPIRecordSeesChanges guards the listing itself: an exported name, a
// changed signature or a new field must change it.
func TestAPIRecordSeesChanges(t *testing.T) {
	listing := func(src string) []string {
		dir := t.TempDir()
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "p"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "p", "p.go"), []byte(src), 0o644))
		return apiListing(t, dir)
	}
	base := listing("package p\n// T is.\ntype T struct{ A int; b int }\nfunc (T) M(x int) error { return nil }\nfunc F() {}\nfunc g() {}\nconst C = 1\n")
	require.Equal(t, []string{
		"pkg p, const C = 1",
		"pkg p, func F()",
		"pkg p, method (T) M(int) error",
		"pkg p, type T struct",
		"pkg p, type T struct, A int",
	}, base)
	for _, src := range []string{
		"package p\ntype T struct{ A int; B int }\nfunc (T) M(x int) error { return nil }\nfunc F() {}\nconst C = 1\n",
		"package p\ntype T struct{ A int }\nfunc (T) M(x string) error { return nil }\nfunc F() {}\nconst C = 1\n",
		"package p\ntype T struct{ A int }\nfunc (T) M(x int) error { return nil }\nfunc F() {}\nfunc G() {}\nconst C = 1\n",
		"package p\ntype T struct{ A int }\nfunc (T) M(x int) error { return nil }\nconst C = 1\n",
	} {
		require.NotEqual(t, base, listing(src), src)
	}
}

// apiListing lists the exported API of every non-main, non-internal
// package below root (test files and testdata left out), sorted.
func apiListing(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (name == "internal" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if path != root {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module (test/e2e)
			}
		}
		entries, err := os.ReadDir(path)
		if err != nil {
			return err
		}
		pkgs := map[string][]*ast.File{}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(path, e.Name()), nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			pkgs[f.Name.Name] = append(pkgs[f.Name.Name], f)
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		for pname, files := range pkgs {
			if pname == "main" {
				continue
			}
			label := rel
			if rel == "." {
				label = pname
			}
			out = append(out, packageAPI(fset, label, files)...)
		}
		return nil
	})
	require.NoError(t, err)
	sort.Strings(out)
	return out
}

func packageAPI(fset *token.FileSet, label string, files []*ast.File) []string {
	var out []string
	add := func(format string, args ...any) {
		out = append(out, "pkg "+label+", "+fmt.Sprintf(format, args...))
	}
	expr := func(e ast.Expr) string {
		var b bytes.Buffer
		_ = printer.Fprint(&b, fset, e)
		return strings.Join(strings.Fields(b.String()), " ")
	}
	for _, f := range files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				sig := signature(expr, d.Type)
				if d.Recv == nil {
					add("func %s%s", d.Name.Name, sig)
					continue
				}
				recv := expr(d.Recv.List[0].Type)
				base := strings.TrimPrefix(recv, "*")
				if i := strings.IndexByte(base, '['); i >= 0 {
					base = base[:i]
				}
				if !ast.IsExported(base) {
					continue
				}
				add("method (%s) %s%s", recv, d.Name.Name, sig)
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						typeAPI(add, expr, s)
					case *ast.ValueSpec:
						for i, n := range s.Names {
							if !n.IsExported() {
								continue
							}
							kw := "var"
							if d.Tok == token.CONST {
								kw = "const"
							}
							switch {
							case s.Type != nil:
								add("%s %s %s", kw, n.Name, expr(s.Type))
							case d.Tok == token.CONST && i < len(s.Values):
								add("%s %s = %s", kw, n.Name, expr(s.Values[i]))
							default:
								add("%s %s", kw, n.Name)
							}
						}
					}
				}
			}
		}
	}
	return out
}

func typeAPI(add func(string, ...any), expr func(ast.Expr) string, s *ast.TypeSpec) {
	name := s.Name.Name
	if s.TypeParams != nil {
		name += "[" + fieldList(expr, s.TypeParams) + "]"
	}
	if s.Assign.IsValid() {
		add("type %s = %s", name, expr(s.Type))
		return
	}
	switch t := s.Type.(type) {
	case *ast.StructType:
		add("type %s struct", name)
		for _, f := range t.Fields.List {
			if len(f.Names) == 0 { // embedded
				add("type %s struct, embedded %s", name, expr(f.Type))
				continue
			}
			for _, n := range f.Names {
				if n.IsExported() {
					add("type %s struct, %s %s", name, n.Name, expr(f.Type))
				}
			}
		}
	case *ast.InterfaceType:
		add("type %s interface", name)
		for _, m := range t.Methods.List {
			if len(m.Names) == 0 {
				add("type %s interface, embedded %s", name, expr(m.Type))
				continue
			}
			for _, n := range m.Names {
				if ft, ok := m.Type.(*ast.FuncType); ok {
					add("type %s interface, %s%s", name, n.Name, signature(expr, ft))
				}
			}
		}
	default:
		add("type %s %s", name, expr(s.Type))
	}
}

// signature prints parameter and result types without names.
func signature(expr func(ast.Expr) string, ft *ast.FuncType) string {
	s := "(" + typesOnly(expr, ft.Params) + ")"
	if ft.Results == nil || len(ft.Results.List) == 0 {
		return s
	}
	r := typesOnly(expr, ft.Results)
	if len(ft.Results.List) == 1 && len(ft.Results.List[0].Names) <= 1 {
		return s + " " + r
	}
	return s + " (" + r + ")"
}

func typesOnly(expr func(ast.Expr) string, fl *ast.FieldList) string {
	if fl == nil {
		return ""
	}
	var parts []string
	for _, f := range fl.List {
		n := len(f.Names)
		if n == 0 {
			n = 1
		}
		for i := 0; i < n; i++ {
			parts = append(parts, expr(f.Type))
		}
	}
	return strings.Join(parts, ", ")
}

func fieldList(expr func(ast.Expr) string, fl *ast.FieldList) string {
	var parts []string
	for _, f := range fl.List {
		var names []string
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
		parts = append(parts, strings.Join(names, ", ")+" "+expr(f.Type))
	}
	return strings.Join(parts, ", ")
}

// lineDiff returns the lines only in b (added) and only in a (removed).
func lineDiff(a, b []string) (added, removed []string) {
	in := func(l []string) map[string]bool {
		m := map[string]bool{}
		for _, s := range l {
			m[s] = true
		}
		return m
	}
	ia, ib := in(a), in(b)
	for _, s := range b {
		if !ia[s] {
			added = append(added, s)
		}
	}
	for _, s := range a {
		if !ib[s] {
			removed = append(removed, s)
		}
	}
	return added, removed
}
