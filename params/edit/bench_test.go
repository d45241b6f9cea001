package edit_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/edit"
	"github.com/paramkit/paramkit/schema"
)

// BenchmarkValues edits one scalar of traefik's values.yaml (1634 lines,
// mostly comments): the cost is three readings of the file (the old
// values checked, the node tree, the result checked).
func BenchmarkValues(b *testing.B) {
	dir := filepath.Join(charts, "traefik")
	raw, err := os.ReadFile(filepath.Join(dir, "values.schema.json"))
	if err != nil {
		b.Fatal(err)
	}
	s, err := schema.Parse(raw)
	if err != nil {
		b.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "values.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	old, err := params.Decode(s, src)
	if err != nil {
		b.Fatal(err)
	}
	r, err := (&params.Update{Schema: s, Old: old, Set: []string{"deployment.replicas=3"}, Sparse: true}).Run()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := edit.Values(s, src, old, r.Values); err != nil {
			b.Fatal(err)
		}
	}
}
