package trigger_test

import (
	"bytes"
	"encoding/json"
	"os"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/trigger"
)

// largeChanges loads the foundation's large schema, with a trigger on
// every scalar parameter when deep is set (so that every change resolves
// at the bottom of its pointer, the worst case), and 1,000 pointers into
// its values document: every value, container or leaf, then again.
func largeChanges(tb testing.TB, deep bool) (*schema.Schema, []string) {
	tb.Helper()
	read := func(name string) any {
		data, err := os.ReadFile("../params/testdata/large/" + name)
		require.NoError(tb, err)
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		require.NoError(tb, dec.Decode(&v))
		return v
	}
	doc := read("schema.json")
	if deep {
		var mark func(v any)
		mark = func(v any) {
			switch t := v.(type) {
			case map[string]any:
				if ty, ok := t["type"].(string); ok && ty != "object" && ty != "array" {
					t["trigger"] = "reconfigure"
				}
				for _, x := range t {
					mark(x)
				}
			case []any:
				for _, x := range t {
					mark(x)
				}
			}
		}
		mark(doc)
	}
	s, err := schema.FromValue(doc)
	require.NoError(tb, err)

	var ptrs []string
	var walk func(v any, p string)
	walk = func(v any, p string) {
		if p != "" {
			ptrs = append(ptrs, p)
		}
		switch t := v.(type) {
		case map[string]any:
			for k, x := range t {
				walk(x, pointer.Append(p, k))
			}
		case []any:
			for i, x := range t {
				walk(x, pointer.AppendIndex(p, i))
			}
		}
	}
	walk(read("values.json"), "")
	sort.Strings(ptrs)
	out := make([]string, 1000)
	for i := range out {
		out[i] = ptrs[i%len(ptrs)]
	}
	return s, out
}

func benchmarkResolve(b *testing.B, deep bool) {
	s, changed := largeChanges(b, deep)
	r, err := trigger.New(s)
	require.NoError(b, err)
	if deep {
		// Containers resolve to deploy, leaves to reconfigure: keep leaves.
		var leaves []string
		for _, p := range changed {
			if r.Effective(p) == "reconfigure" {
				leaves = append(leaves, p)
			}
		}
		for len(leaves) < 1000 {
			leaves = append(leaves, leaves[:min(len(leaves), 1000-len(leaves))]...)
		}
		changed = leaves
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := r.Resolve(changed); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResolve1000 resolves 1,000 changed paths of the large document
// against its schema (no triggers: the precomputed "no trigger below"
// ends every descent at once).
func BenchmarkResolve1000(b *testing.B) { benchmarkResolve(b, false) }

// BenchmarkResolve1000Deep: a trigger on every scalar parameter, so each
// change descends its whole pointer.
func BenchmarkResolve1000Deep(b *testing.B) { benchmarkResolve(b, true) }

// BenchmarkNewLarge is the precomputation, done once per schema.
func BenchmarkNewLarge(b *testing.B) {
	s, _ := largeChanges(b, true)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := trigger.New(s); err != nil {
			b.Fatal(err)
		}
	}
}
