package paramkit_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The API record: every exported identifier of the importable packages of
// this module (the library packages: what v1 covers), with everything a
// user's code can see of it, one fact a line, in the spirit of Go's api/*.txt. A change
// to the public API shows in review as lines added and removed in
// testdata/api.txt; rewrite it with `go test -run TestAPIRecord
// -update-api .` and say why in the commit.
//
// The listing comes from the type checker, not the syntax: the go command
// compiles each package (`go list -export`) and the record reads the
// compiler's export data, so a type behind an alias, a field promoted from
// an embedded type of another package, a constant's computed value and a
// generic function's constraints are all seen as a user's code sees them.

var updateAPI = flag.Bool("update-api", false, "rewrite testdata/api.txt from the code")

const apiRecord = "testdata/api.txt"

// The record holds this module alone: the examples are outside v1 (the
// README says so), and examples/operator and examples/crd-operator are
// modules of their own whose tests check them. Listing them here compiled
// controller-runtime inside the library's tests, which ran past go test's
// ten minutes on a loaded machine.
func TestAPIRecord(t *testing.T) {
	lines := append([]string(nil), apiListing(t, ".")...)
	sort.Strings(lines)
	got := strings.Join(lines, "\n") + "\n"
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

// TestAPIRecordSeesChanges guards the listing itself: each kind of change
// a user's code can notice changes it, with a line that says what changed.
// Each case edits one file of a small module (a public package p, an
// internal package behind an alias, a second public package q) and names
// a line the edit adds to the record.
func TestAPIRecordSeesChanges(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module per case: not in -short")
	}
	base := map[string]string{
		"p/p.go": `package p

import (
	"sync"

	"example.com/m/internal/in"
	"example.com/m/q"
)

// T is.
type T struct {
	A int ` + "`json:\"a\"`" + `
	b int
	q.Base
	inner
}

type inner struct{ Deep string }

func (T) M(x int) error  { return nil }
func (*T) P()            {}
func F()                 {}
func g()                 {}
func Map[K comparable, V any](m map[K]V) []K { return nil }

type Set[E comparable] struct{ Items []E }

func (s *Set[E]) Add(e E) {}

type Number interface{ ~int | ~int64 }

type Doer interface {
	q.Closer
	Do(ctx string) error
}

type Alias = in.Error

type Options = map[string]any

const C = 1

const K Kind = "k"

type Kind string

var V = []string{}

var Hook func(from, to any) error

type Locked struct{ sync.Mutex }

var Err = in.New()
`,
		"internal/in/in.go": `package in

type Error struct{ Pointer string }

func (e *Error) Error() string { return e.Pointer }

func New() *Error { return &Error{} }
`,
		"q/q.go": `package q

type Base struct{ ID string }

func (Base) Name() string { return "" }

type Closer interface{ Close() error }
`,
	}
	listing := func(t *testing.T, files map[string]string) []string {
		dir := t.TempDir()
		files["go.mod"] = "module example.com/m\n\ngo 1.26.0\n"
		for name, src := range files {
			require.NoError(t, os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
		}
		return listModule(t, dir, "example.com/m/")
	}
	withBase := func(edits map[string]string) map[string]string {
		files := map[string]string{}
		for k, v := range base {
			files[k] = v
		}
		for k, v := range edits {
			files[k] = v
		}
		return files
	}
	// replace edits one file of the base module.
	replace := func(file, old, new string) map[string]string {
		require.Contains(t, base[file], old, "the case's edit must apply")
		return withBase(map[string]string{file: strings.Replace(base[file], old, new, 1)})
	}

	got := listing(t, withBase(nil))
	assert.Equal(t, []string{
		"pkg p, const C untyped int = 1",
		`pkg p, const K Kind = "k"`,
		"pkg p, func F()",
		"pkg p, func Map[K comparable, V any](map[K]V) []K",
		"pkg p, method (*Set[E]) Add(E)",
		"pkg p, method (*T) P()",
		"pkg p, method (T) M(int) error",
		"pkg p, method (T) Name() string (promoted from q.Base)",
		"pkg p, type Alias = internal/in.Error",
		"pkg p, type Alias struct",
		"pkg p, type Alias struct, Pointer string",
		"pkg p, type Alias, method (*Alias) Error() string",
		"pkg p, type Doer interface",
		"pkg p, type Doer interface, Close() error",
		"pkg p, type Doer interface, Do(string) error",
		"pkg p, type Doer interface, embedded q.Closer",
		"pkg p, type Kind string",
		"pkg p, type Locked struct",
		"pkg p, type Locked struct, embedded sync.Mutex",
		"pkg p, type Number interface",
		"pkg p, type Number interface, type set ~int | ~int64",
		"pkg p, type Options = map[string]any",
		"pkg p, type Set[E comparable] struct",
		"pkg p, type Set[E comparable] struct, Items []E",
		"pkg p, type T struct",
		"pkg p, type T struct, A int `json:\"a\"`",
		"pkg p, type T struct, Deep string (promoted from inner)",
		"pkg p, type T struct, ID string (promoted from q.Base)",
		"pkg p, type T struct, embedded q.Base",
		"pkg p, var Err *internal/in.Error",
		"pkg p, var Hook func(any, any) error",
		"pkg p, var V []string",
		"pkg q, method (Base) Name() string",
		"pkg q, type Base struct",
		"pkg q, type Base struct, ID string",
		"pkg q, type Closer interface",
		"pkg q, type Closer interface, Close() error",
	}, got)

	for _, tt := range []struct {
		name  string
		files map[string]string
		want  string // a line of the record after the change, absent before; "-line": the other way round
	}{
		{"a function removed", replace("p/p.go", "func F()                 {}\n", ""), "-pkg p, func F()"},
		{"an exported function added", replace("p/p.go", "func g()", "func G()"), "pkg p, func G()"},
		{"a method's parameter type", replace("p/p.go", "M(x int)", "M(x string)"), "pkg p, method (T) M(string) error"},
		{"a method's receiver", replace("p/p.go", "func (*T) P()", "func (T) P()"), "pkg p, method (T) P()"},
		{"a field added", replace("p/p.go", "\tb int\n", "\tB int\n"), "pkg p, type T struct, B int"},
		{"a struct tag", replace("p/p.go", `json:"a"`, `json:"a,omitempty"`), "pkg p, type T struct, A int `json:\"a,omitempty\"`"},
		{"a field of a type behind an alias", replace("internal/in/in.go", "Pointer string", "Pointer string; Line int"), "pkg p, type Alias struct, Line int"},
		{"a method of a type behind an alias", replace("internal/in/in.go", "func New()", "func (e *Error) Unwrap() error { return nil }\n\nfunc New()"), "pkg p, type Alias, method (*Alias) Unwrap() error"},
		{"an alias's target", replace("p/p.go", "type Options = map[string]any", "type Options = map[string]string"), "pkg p, type Options = map[string]string"},
		{"a field promoted from an embedded type of another package", replace("q/q.go", "ID string", "ID int"), "pkg p, type T struct, ID int (promoted from q.Base)"},
		{"a field promoted from an unexported embedded type", replace("p/p.go", "Deep string", "Deep []byte"), "pkg p, type T struct, Deep []byte (promoted from inner)"},
		{"a method promoted from an embedded type", replace("q/q.go", "func (Base) Name() string", "func (*Base) Name() string"), "pkg p, method (*T) Name() string (promoted from q.Base)"},
		{"a type parameter's constraint", replace("p/p.go", "Set[E comparable]", "Set[E any]"), "pkg p, type Set[E any] struct"},
		{"a generic function's constraint", replace("p/p.go", "Map[K comparable, V any]", "Map[K comparable, V fmt.Stringer]"), "pkg p, func Map[K comparable, V fmt.Stringer](map[K]V) []K"},
		{"a type set", replace("p/p.go", "~int | ~int64", "~int | ~int32"), "pkg p, type Number interface, type set ~int | ~int32"},
		{"an interface method", replace("p/p.go", "Do(ctx string) error", "Do(ctx string) (int, error)"), "pkg p, type Doer interface, Do(string) (int, error)"},
		{"a method of an embedded interface", replace("q/q.go", "Close() error", "Close(force bool) error"), "pkg p, type Doer interface, Close(bool) error"},
		{"an unexported interface method (the interface is sealed)", replace("p/p.go", "Do(ctx string) error\n", "Do(ctx string) error\n\tsealed()\n"), "pkg p, type Doer interface, unexported methods"},
		{"a constant's value", replace("p/p.go", "const C = 1", "const C = 1 << 2"), "pkg p, const C untyped int = 4"},
		{"a constant's type", replace("p/p.go", "const C = 1", "const C int64 = 1"), "pkg p, const C int64 = 1"},
		{"a variable's type", replace("p/p.go", "var V = []string{}", "var V = []any{}"), "pkg p, var V []any"},
		{"a type's underlying type", withBase(map[string]string{"p/p.go": strings.NewReplacer("type Kind string", "type Kind int", `const K Kind = "k"`, "const K Kind = 7").Replace(base["p/p.go"])}), "pkg p, type Kind int"},
		{"a defined type made an alias", replace("p/p.go", "type Kind string", "type Kind = string"), "pkg p, type Kind = string"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if strings.Contains(tt.files["p/p.go"], "fmt.Stringer") {
				tt.files["p/p.go"] = strings.Replace(tt.files["p/p.go"], "import (\n", "import (\n\t\"fmt\"\n", 1)
			}
			changed := listing(t, tt.files)
			if gone, ok := strings.CutPrefix(tt.want, "-"); ok {
				assert.Contains(t, got, gone)
				assert.NotContains(t, changed, gone)
				return
			}
			assert.Contains(t, changed, tt.want)
			assert.NotContains(t, got, tt.want)
		})
	}
}

// apiListings caches each module's listing: the record and the alias
// check read the same one.
var apiListings sync.Map // dir → []string

// apiListing lists the exported API of the module in dir (relative to
// this one's root): every package of it that another module can import
// (no main, no internal packages, no tests).
func apiListing(t *testing.T, dir string) []string {
	t.Helper()
	if l, ok := apiListings.Load(dir); ok {
		return l.([]string)
	}
	l := listModule(t, dir, modulePath+"/")
	apiListings.Store(dir, l)
	return l
}

// listModule lists the API of the module in dir; trim is cut from the
// front of package paths, in labels and type names alike.
func listModule(t *testing.T, dir, trim string) []string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	require.NoError(t, err, "the API record needs the go command")
	cmd := exec.Command(goBin, "list", "-export", "-deps", "-json=ImportPath,Name,Export,DepOnly,Error", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list -export in %s:\n%s", dir, stderr.String())

	type listed struct {
		ImportPath, Name, Export string
		DepOnly                  bool
		Error                    *struct{ Err string }
	}
	exports := map[string]string{}
	var targets []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		err := dec.Decode(&p)
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		require.Nil(t, p.Error, "go list: %s", p.ImportPath)
		exports[p.ImportPath] = p.Export
		if !p.DepOnly && p.Name != "main" && !isInternal(p.ImportPath) {
			targets = append(targets, p)
		}
	}
	require.NotEmpty(t, targets, "no importable package in %s", dir)

	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	})
	var lines []string
	for _, p := range targets {
		pkg, err := imp.Import(p.ImportPath)
		require.NoError(t, err)
		label := strings.TrimPrefix(p.ImportPath, trim)
		if label == strings.TrimSuffix(trim, "/") {
			label = pkg.Name() // the module's root package
		}
		lines = append(lines, packageAPI(pkg, label, trim)...)
	}
	sort.Strings(lines)
	return lines
}

// packageAPI lists one package's exported API. Types of other packages
// are named by import path (less trim), so that two packages of one name
// (paramkit's schema and apimachinery's) never read alike.
func packageAPI(pkg *types.Package, label, trim string) []string {
	var out []string
	add := func(format string, args ...any) {
		out = append(out, "pkg "+label+", "+fmt.Sprintf(format, args...))
	}
	qual := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return strings.TrimPrefix(p.Path(), trim)
	}
	// A function type prints without parameter names, as a func line does.
	var typ func(types.Type) string
	typ = func(t types.Type) string {
		if sig, ok := t.(*types.Signature); ok {
			return "func" + signature(sig, typ)
		}
		return types.TypeString(t, qual)
	}
	own := func(p *types.Package) bool { return p == pkg || strings.HasPrefix(p.Path(), trim) }

	scope := pkg.Scope()
	for _, name := range scope.Names() { // sorted
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch o := obj.(type) {
		case *types.Const:
			add("const %s %s = %s", name, typ(o.Type()), o.Val().ExactString())
		case *types.Var:
			add("var %s %s", name, typ(o.Type()))
		case *types.Func:
			sig := o.Type().(*types.Signature)
			add("func %s%s%s", name, typeParams(sig.TypeParams(), typ), signature(sig, typ))
		case *types.TypeName:
			typeAPI(add, typ, own, o)
		}
	}
	return out
}

// typeAPI lists a type: its kind (or, for an alias, its target), then what
// a user reaches through it: fields (promoted ones too), methods (promoted
// ones too), an interface's methods and type set. For an alias these are
// listed under the alias's name, so that a change to a type behind an
// alias (in an internal package, say) shows where users meet it.
//
// Members promoted from a type of another module (metav1.ObjectMeta's
// thirty methods) are left out: its "embedded" line and the version
// go.mod requires record them, and the record stays readable. Those
// declared in this module (own) are listed, whatever package or
// visibility the embedded type has.
func typeAPI(add func(string, ...any), typ func(types.Type) string, own func(*types.Package) bool, o *types.TypeName) {
	name := o.Name()
	var tparams *types.TypeParamList
	switch t := o.Type().(type) {
	case *types.Alias:
		tparams = t.TypeParams()
	case *types.Named:
		tparams = t.TypeParams()
	}
	decl := name + typeParams(tparams, typ)
	recv := name // the receiver as a method line shows it
	if tparams.Len() > 0 {
		var names []string
		for i := range tparams.Len() {
			names = append(names, tparams.At(i).Obj().Name())
		}
		recv += "[" + strings.Join(names, ", ") + "]"
	}
	target := types.Unalias(o.Type())
	methodPrefix := "method "
	if o.IsAlias() {
		add("type %s = %s", decl, typ(target))
		methodPrefix = "type " + decl + ", method "
	}

	switch u := target.Underlying().(type) {
	case *types.Struct:
		if _, named := target.(*types.Named); !named && o.IsAlias() {
			break // an alias of a type literal: the target line says it all
		}
		add("type %s struct", decl)
		for i := range u.NumFields() {
			f := u.Field(i)
			switch {
			case f.Embedded():
				if f.Exported() {
					add("type %s struct, embedded %s", decl, typ(f.Type()))
				}
			case f.Exported():
				add("type %s struct, %s %s%s", decl, f.Name(), typ(f.Type()), tag(u.Tag(i)))
			}
		}
		for _, p := range promotedFields(target) {
			if !own(p.field.Pkg()) {
				continue
			}
			add("type %s struct, %s %s%s (promoted from %s)", decl, p.field.Name(), typ(p.field.Type()), tag(p.tag), typ(p.via))
		}
	case *types.Interface:
		if _, named := target.(*types.Named); !named && o.IsAlias() {
			break
		}
		add("type %s interface", decl)
		for i := range u.NumEmbeddeds() {
			e := u.EmbeddedType(i)
			if _, ok := types.Unalias(e).(*types.Named); ok {
				add("type %s interface, embedded %s", decl, typ(e))
			} else {
				add("type %s interface, type set %s", decl, typ(e))
			}
		}
		unexported := false
		for i := range u.NumMethods() {
			m := u.Method(i)
			if !m.Exported() {
				unexported = true
				continue
			}
			add("type %s interface, %s%s", decl, m.Name(), signature(m.Type().(*types.Signature), typ))
		}
		if unexported {
			add("type %s interface, unexported methods", decl)
		}
		return // an interface's methods are listed above
	default:
		if _, named := target.(*types.Named); named || !o.IsAlias() {
			add("type %s %s", decl, typ(u))
		}
	}

	if _, named := target.(*types.Named); !named {
		return // only a defined type has methods
	}
	byValue := types.NewMethodSet(target)
	all := types.NewMethodSet(types.NewPointer(target))
	for i := range all.Len() {
		sel := all.At(i)
		m := sel.Obj().(*types.Func)
		if !m.Exported() {
			continue
		}
		r := "*" + recv
		if byValue.Lookup(m.Pkg(), m.Name()) != nil {
			r = recv
		}
		via := ""
		if len(sel.Index()) > 1 {
			if !own(m.Pkg()) {
				continue
			}
			via = fmt.Sprintf(" (promoted from %s)", typ(embeddedPath(target, sel.Index())))
		}
		add("%s(%s) %s%s%s", methodPrefix, r, m.Name(), signature(m.Type().(*types.Signature), typ), via)
	}
}

// promoted is a field reached through embedded fields.
type promoted struct {
	field *types.Var
	tag   string
	via   types.Type // the outermost embedded field's type
}

// promotedFields lists the exported fields a user reaches through the
// embedded fields of struct type t (exported or not), as Go resolves
// them: the shallowest wins, two at one depth hide each other.
func promotedFields(t types.Type) []promoted {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	// Candidates: every exported field name below an embedded field.
	names := map[string]bool{}
	var walk func(s *types.Struct, depth int, path []types.Type)
	walk = func(s *types.Struct, depth int, path []types.Type) {
		for i := range s.NumFields() {
			f := s.Field(i)
			if depth > 0 && f.Exported() {
				names[f.Name()] = true
			}
			if !f.Embedded() {
				continue
			}
			et := f.Type()
			if p, ok := et.(*types.Pointer); ok {
				et = p.Elem()
			}
			es, ok := et.Underlying().(*types.Struct)
			if !ok || slicesContainsIdentical(path, et) {
				continue // an embedded interface has no fields; a cycle ends
			}
			walk(es, depth+1, append(path, et))
		}
	}
	walk(st, 0, []types.Type{t})
	var out []promoted
	for name := range names {
		// Go's own resolution decides what the name reaches, if anything.
		obj, index, _ := types.LookupFieldOrMethod(t, true, nil, name)
		if v, ok := obj.(*types.Var); ok && v.IsField() && len(index) > 1 {
			out = append(out, promoted{field: v, tag: fieldTag(t, index), via: embeddedPath(t, index)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].field.Name() < out[j].field.Name() })
	return out
}

func slicesContainsIdentical(ts []types.Type, t types.Type) bool {
	for _, u := range ts {
		if types.Identical(u, t) {
			return true
		}
	}
	return false
}

// embeddedPath is the type of the first embedded field on a selection's
// path: what a promoted field or method comes from.
func embeddedPath(t types.Type, index []int) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	return t.Underlying().(*types.Struct).Field(index[0]).Type()
}

// fieldTag is the tag of the field a selection's index path ends at.
func fieldTag(t types.Type, index []int) string {
	tagText := ""
	for _, i := range index {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		s := t.Underlying().(*types.Struct)
		tagText, t = s.Tag(i), s.Field(i).Type()
	}
	return tagText
}

// tag prints a struct tag as source does, after a space; "" for none.
func tag(s string) string {
	if s == "" {
		return ""
	}
	if strings.Contains(s, "`") {
		return " " + fmt.Sprintf("%q", s)
	}
	return " `" + s + "`"
}

// typeParams prints type parameters with their constraints: "[K
// comparable, V any]"; "" for none.
func typeParams(l *types.TypeParamList, typ func(types.Type) string) string {
	if l.Len() == 0 {
		return ""
	}
	var parts []string
	for i := range l.Len() {
		p := l.At(i)
		parts = append(parts, p.Obj().Name()+" "+typ(p.Constraint()))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// signature prints parameter and result types without names:
// "(string, ...Option) (*T, error)".
func signature(sig *types.Signature, typ func(types.Type) string) string {
	var params []string
	for i := range sig.Params().Len() {
		t := sig.Params().At(i).Type()
		if sig.Variadic() && i == sig.Params().Len()-1 {
			params = append(params, "..."+typ(t.(*types.Slice).Elem()))
			continue
		}
		params = append(params, typ(t))
	}
	s := "(" + strings.Join(params, ", ") + ")"
	var results []string
	for i := range sig.Results().Len() {
		results = append(results, typ(sig.Results().At(i).Type()))
	}
	switch len(results) {
	case 0:
		return s
	case 1:
		return s + " " + results[0]
	}
	return s + " (" + strings.Join(results, ", ") + ")"
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
