package gates

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// gateFuzzSeeds are the gates documents of testdata.
func gateFuzzSeeds(f *testing.F) map[string][]byte {
	f.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no gate seeds: %v", err)
	}
	out := map[string][]byte{}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		out[filepath.Base(name)] = data
	}
	return out
}

// FuzzParse: any input gives gates or an error of the documented
// kinds, never a panic; gates accepted from a file are accepted in Go too.
func FuzzParse(f *testing.F) {
	for _, data := range gateFuzzSeeds(f) {
		f.Add(data)
	}
	for _, s := range []string{
		"", "[]", "{}", "null", "featureGates: null", "[[]]", "[{}]",
		`- {name: A, preRelease: alpha, fieldPaths: ['.a\.b', /c~1d, ".e\\[0\\]"]}`,
		"- {name: A, prerelease: stable, enabled: false, fieldPaths: [.a, .a.b]}",
		"- &g {name: A, preRelease: alpha, fieldPaths: [.a]}\n- *g",
		`[{"name":"A","preRelease":"beta","default":true,"fieldPaths":["/a/~0/~1"]}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Parse(data)
		if err != nil {
			var de *schema.Error
			var ve schema.ErrorList
			switch {
			case errors.As(err, &de):
			case problem.As(err, &ve):
				if len(ve) == 0 {
					t.Fatal("empty validation errors")
				}
				for _, e := range ve {
					if e.Message == "" {
						t.Fatalf("error without a message at %q", e.Pointer)
					}
				}
			default:
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			return
		}
		st := g.Status()
		list := make([]Gate, len(st))
		for i, s := range st {
			if len(s.FieldPaths) == 0 {
				t.Fatalf("gate %q accepted without field paths", s.Name)
			}
			list[i] = s.Gate
		}
		again, err := New(list)
		if err != nil {
			t.Fatalf("New refuses what Parse accepted: %v", err)
		}
		if !slices.EqualFunc(st, again.Status(), gateStatusEqual) {
			t.Fatal("New and Parse disagree on the same gates")
		}
		g.Apply(map[string]any{"spec": map[string]any{}}, nil)
	})
}

func gateStatusEqual(a, b Status) bool {
	return a.Name == b.Name && a.Effective == b.Effective && a.Reason == b.Reason &&
		slices.Equal(a.IneffectiveBecause, b.IneffectiveBecause) && slices.EqualFunc(a.Warnings, b.Warnings, func(x, y *schema.Error) bool { return *x == *y })
}

// FuzzApply: applying any valid gates to any objects never panics,
// leaves its inputs alone, keeps the stored value (or its absence) at every
// counting disabled path, and is idempotent.
func FuzzApply(f *testing.F) {
	seeds := gateFuzzSeeds(f)
	objects := [][]byte{nil, []byte("{}"), []byte("[1]"), []byte("spec: {foo: text}")}
	for name, data := range seeds {
		if !strings.Contains(name, "gates") && !strings.Contains(name, "stages") {
			objects = append(objects, data)
		}
	}
	for name, gates := range seeds {
		if !strings.Contains(name, "gates") && !strings.Contains(name, "stages") {
			continue
		}
		for i, sent := range objects {
			f.Add(gates, sent, objects[(i+1)%len(objects)])
		}
	}
	f.Fuzz(func(t *testing.T, gatesData, sentData, storedData []byte) {
		g, err := Parse(gatesData)
		if err != nil {
			return
		}
		sent, err := params.Decode(nil, sentData)
		if err != nil {
			return
		}
		var stored any
		if len(storedData) > 0 {
			if stored, err = params.Decode(nil, storedData); err != nil {
				return
			}
		}
		sentCopy, storedCopy := value.DeepCopy(sent), value.DeepCopy(stored)
		res := g.Apply(sent, stored)
		if !value.Equal(sent, sentCopy) || !value.Equal(stored, storedCopy) {
			t.Fatal("Apply modified its inputs")
		}
		if !slices.IsSorted(res.Dropped) || len(res.Warnings) < len(res.Dropped) {
			t.Fatalf("dropped %q, warnings %q", res.Dropped, res.Warnings)
		}
		for _, i := range g.off {
			p := g.paths[i]
			got, inGot := gateGet(res.Object, p.toks)
			want, inStored := gateGet(stored, p.toks)
			if inGot == inStored && value.Equal(got, want) {
				continue
			}
			if !slices.ContainsFunc(res.Warnings, func(w *schema.Error) bool {
				return w.Pointer == p.ptr && strings.HasPrefix(w.Message, "the stored value cannot be kept")
			}) {
				t.Fatalf("%s: persisted %v (%v), stored %v (%v)", p.ptr, got, inGot, want, inStored)
			}
		}
		again := g.Apply(res.Object, stored)
		if !value.Equal(again.Object, res.Object) {
			t.Fatal("applying twice changed the object again")
		}
	})
}
