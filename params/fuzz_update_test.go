package params_test

import (
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// FuzzParseAssignment: any text parses or fails without panic; a parsed
// assignment keeps its input and value, its pointer form means the same
// place, a Helm index is a decimal within MaxBracketIndex, and a dotted
// path written back from the tokens (escapes and Helm indexes) parses to
// the same tokens.
func FuzzParseAssignment(f *testing.F) {
	for _, s := range []string{
		`clusterName="NewClusterName"`, `topology/0/datacenterName="NewDC1"`,
		`topology/0/labels/0={ key: "Usage", value: "newValue" }`,
		`a\.b.c=1`, `a~1b/c~0d=x`, `/=x`, `=x`, `a..b=1`, `a~2=1`, `noequals`, `a\\.b=`, "a.b=\n- x\n",
		"hosts[1]=z", "a.b[0].c=1", "a[0][12]=x", `a\[0\]=x`, "a[x]=1", "a[0]b=1", "[0]=1", "a[65537]=1",
		"a[007]=x", "tags={a,b}", `tags={a\,b}`, "a[0=1", "a.[0]=1", "a[0]..b=1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := params.ParseAssignment(s)
		if err != nil {
			return
		}
		if a.Input != s || len(a.Path) == 0 || !strings.HasSuffix(s, "="+a.Value) {
			t.Fatalf("%q parsed as %+v", s, a)
		}
		if a.Brackets != nil && len(a.Brackets) != len(a.Path) {
			t.Fatalf("%q: brackets %v for path %q", s, a.Brackets, a.Path)
		}
		for i, br := range a.Brackets {
			if n, err := strconv.Atoi(a.Path[i]); br && (err != nil || n < 0 || n > params.MaxBracketIndex || strconv.Itoa(n) != a.Path[i]) {
				t.Fatalf("%q: Helm index %q", s, a.Path[i])
			}
		}
		b, err := params.ParseAssignment(a.Pointer() + "=" + a.Value)
		if err != nil {
			t.Fatalf("pointer form of %q: %v", s, err)
		}
		if strings.Join(b.Path, "\x00") != strings.Join(a.Path, "\x00") || b.Value != a.Value {
			t.Fatalf("pointer form of %q means %q, not %q", s, b.Path, a.Path)
		}
		if d, ok := dottedKey(a); ok {
			c, err := params.ParseAssignment(d + "=" + a.Value)
			if err != nil {
				t.Fatalf("dotted form %q of %q: %v", d, s, err)
			}
			if strings.Join(c.Path, "\x00") != strings.Join(a.Path, "\x00") || !slices.Equal(c.Brackets, a.Brackets) {
				t.Fatalf("dotted form %q of %q means %q %v, not %q %v", d, s, c.Path, c.Brackets, a.Path, a.Brackets)
			}
		}
	})
}

// dottedKey writes a's path as a dotted KEY, escaping dots, backslashes
// and brackets and writing Helm's indexes as [i]; false where a dotted
// path cannot say it (a "/" or an empty name, an index first).
func dottedKey(a params.Assignment) (string, bool) {
	var b strings.Builder
	for i, tok := range a.Path {
		if i < len(a.Brackets) && a.Brackets[i] {
			if i == 0 {
				return "", false
			}
			b.WriteString("[" + tok + "]")
			continue
		}
		if tok == "" || strings.Contains(tok, "/") {
			return "", false
		}
		if i > 0 {
			b.WriteByte('.')
		}
		for _, c := range []byte(tok) {
			if strings.IndexByte(`.\[]`, c) >= 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// FuzzUpdate: whatever the edits, the pipeline never panics, never
// changes the old values, and returns only values that pass validation,
// with a plan exactly when something changed.
func FuzzUpdate(f *testing.F) {
	s, old := cluster(f)
	seeds := [][4]string{
		{`topology/0/labels/0={ key: "Usage", value: "newValue" }`, "", "", ""},
		{`clusterName="x"`, `topology/-={datacenterName: a}`, "", ""},
		{"scaling.min=1", "scaling.max=2", "", ""},
		{"storage.size=1", "", "", "storage: null"},
		{"Authorization.NAME=x", "nodeCount=4", "", ""},
		{"", "", "add topology/0/labels={key: a, value: b}", ""},
		{"", "", "remove topology/1", `{"ratio": 1e400}`},
		{"extra.a.b=[1, {c: d}]", "annotations.team=storage", "replace nodeCount=0", "nodeCount: ~"},
		{"topology[0].labels[1].key=x", "topology[3].datacenterName=y", "replace topology[0].datacenterName=z", ""},
		{"clusterName=null", "topology[0].labels={a,b}", "", ""},
		{"extra.list[2][0]=null", `extra.tags={a\,b,c}`, "", ""},
	}
	for _, sd := range seeds {
		f.Add(sd[0], sd[1], sd[2], sd[3])
	}
	f.Fuzz(func(t *testing.T, p1, p2, op, patch string) {
		before := value.DeepCopy(old)
		for _, o := range []any{old, nil} {
			u := params.Update{Schema: s, Old: o}
			if patch != "" {
				v, err := params.DecodePatch(s, []byte(patch))
				if err != nil {
					continue
				}
				u.Patches = append(u.Patches, v)
			}
			for _, p := range []string{p1, p2} {
				if _, err := params.ParseAssignment(p); err == nil {
					u.Set = append(u.Set, p)
				}
			}
			if _, _, ok := strings.Cut(op, " "); ok {
				u.Operations = append(u.Operations, op)
			}
			r, err := u.Run()
			if err != nil {
				if !reflect.ValueOf(r).IsZero() {
					t.Fatal("a result with an error")
				}
				continue
			}
			if verr := params.Validate(s, r.Values); verr != nil {
				t.Fatalf("invalid result: %v", verr)
			}
			if !sort.StringsAreSorted(r.Changed) || r.Changed == nil {
				t.Fatalf("changed: %q", r.Changed)
			}
			if (len(r.Changed) == 0) != (r.Plan == "") {
				t.Fatalf("plan %q for changes %q", r.Plan, r.Changed)
			}
			for _, w := range r.Warnings {
				if w.Kind != schema.KindUndeclared || w.Pointer == "" {
					t.Fatalf("warning %+v", w)
				}
			}
			u.Strict = true
			if _, err := u.Run(); (err != nil) != (len(r.Warnings) > 0) {
				t.Fatalf("strict: %v, with warnings %v", err, r.Warnings)
			}
		}
		if !value.Equal(before, old) {
			t.Fatal("the old values were changed")
		}
	})
}
