package lint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	yaml "go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/helmvalues"
	"github.com/paramkit/paramkit/internal/pointer"
)

// duplicateKeysWhole is the duplicate-key check on the whole file's node
// tree: the reference duplicateKeysBatched, which parses a batch of entries at a
// time where it can, must agree with.
func duplicateKeysWhole(file string, data []byte) []Finding {
	n, _ := document.ParseNode(data)
	return duplicateKeys(file, n, "", 0)
}

// duplicateSeeds: duplicates within an entry, across entries (the whole
// file must then tell), at depth, in lists, after comments (lines must
// stay the file's), and documents that must be parsed whole.
var duplicateSeeds = []string{
	"a: 1\nb: 2\n",
	"a: 1\na: 2\n",
	"a: 1\nb: 2\na: 3\n",
	"# one\n# two\na:\n  x: 1\n  x: 2\nb:\n  y: 1\n\n  y: 2\n",
	"a:\n- {k: 1, k: 2}\n- k: 3\n  k: 4\nb: 1\n",
	"a: &x {k: 1}\nb:\n  <<: *x\n  k: 2\n",
	"<<: {a: 1}\n<<: {b: 2}\nc: 3\n",
	"a: 1\n---\na: 2\n",
	"a: 1\n...\na: 2\n",
	"  a: 1\nb: 2\nb: 3\n",
	"a: [1,\n2]\nb: 3\nb: 4\n",
	"a: |\n  a: 1\n  a: 2\nb: 1\n",
	"\"a\": 1\n'a': 2\n",
	"a: 1\nnull\na: 2\n",
	"? a\n: 1\na: 2\n",
	"a:\n  b:\n    c: 1\n    c: 2\n  b: 3\nd: 4\n",
}

// sameLocations fails t unless the lines and nodes found by batches are
// those found in the whole file's tree, for every pointer of the file
// and pointers it lacks.
func sameLocations(t *testing.T, data []byte, text *valuesText) {
	t.Helper()
	whole, _ := document.ParseNode(data)
	var ptrs []string
	var walk func(n *yaml.Node, ptr string)
	walk = func(n *yaml.Node, ptr string) {
		ptrs = append(ptrs, ptr, ptr+"/absent")
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				walk(n.Content[i+1], ptr+"/"+pointer.Escape(n.Content[i].Value))
			}
		case yaml.SequenceNode:
			for i, e := range n.Content {
				walk(e, fmt.Sprintf("%s/%d", ptr, i))
			}
		}
	}
	if whole != nil {
		walk(whole, "")
	}
	ptrs = append(ptrs, "/absent/key", "/0")
	src := &valuesSource{file: text}
	wholeSrc := &valuesSource{file: &valuesText{data: data}}
	for _, p := range ptrs {
		toks, _ := pointer.Split(p)
		wl, wc, wd := wholeSrc.locate(toks)
		gl, gc, gd := src.locate(toks)
		assert.Equal(t, []int{wl, wc, wd}, []int{gl, gc, gd}, "locate %q in %q", p, data)
		node, _ := text.treeAt(p)
		assert.Equal(t, nodeAt(whole, p) == nil, nodeAt(node, p) == nil, "nodeAt %q", p)
		if w, g := nodeAt(whole, p), nodeAt(node, p); w != nil && g != nil {
			assert.Equal(t, []any{w.Kind, w.Tag, w.Value, w.Style}, []any{g.Kind, g.Tag, g.Value, g.Style}, "nodeAt %q", p)
		}
	}
}

func sameDuplicates(t *testing.T, data []byte) {
	t.Helper()
	want := duplicateKeysWhole("values.yaml", data)
	// Each entry alone, a few together, and the batches of a run.
	for _, batch := range []int{1, 100, helmvalues.BatchBytes} {
		got, batches, rootBatch := duplicateKeysBatched("values.yaml", data, batch)
		assert.Equal(t, want, got, "%q, batches of %d bytes", data, batch)
		if batches != nil {
			sameLocations(t, data, &valuesText{data: data, batches: batches, rootBatch: rootBatch})
		}
	}
}

// TestDuplicateKeysByEntryAgrees: parsing a values file a top-level entry
// at a time finds the duplicate keys, at the same lines, that parsing it
// whole finds.
func TestDuplicateKeysByEntryAgrees(t *testing.T) {
	for _, s := range duplicateSeeds {
		t.Run(fmt.Sprintf("%.30q", s), func(t *testing.T) { sameDuplicates(t, []byte(s)) })
	}
	// A duplicate deep in a later entry keeps the file's line.
	fs, batches, _ := duplicateKeysBatched("values.yaml", []byte("# c\na: 1\nb:\n  x: 1\n  x: 2\n"), 1)
	assert.Len(t, batches, 2)
	require.Len(t, fs, 1)
	assert.Equal(t, 5, fs[0].Line)
	assert.Equal(t, "/b/x", fs[0].Pointer)
	assert.Contains(t, fs[0].Message, "(lines 4 and 5)")
}

// TestDuplicateKeysRealValuesFiles: the same on the repository's real
// values files, each also repeated under distinct keys with a duplicate
// added in one copy.
func TestDuplicateKeysRealValuesFiles(t *testing.T) {
	var files []string
	require.NoError(t, filepath.WalkDir("../examples/paramctl/testdata/helm", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".yaml") {
			files = append(files, path)
		}
		return err
	}))
	require.NotEmpty(t, files)
	for _, name := range files {
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		t.Run(name, func(t *testing.T) {
			sameDuplicates(t, data)
			var big strings.Builder
			for i := range 3 {
				fmt.Fprintf(&big, "copy%d:\n", i)
				if i == 1 {
					big.WriteString("  twice: 1\n  twice: 2\n")
				}
				for line := range strings.Lines(string(data)) {
					if strings.TrimSpace(line) != "" {
						big.WriteString("  ")
					}
					big.WriteString(line)
				}
				big.WriteString("\n")
			}
			sameDuplicates(t, []byte(big.String()))
		})
	}
}

// FuzzDuplicateKeysByEntry: on any input, the duplicate keys found an
// entry at a time are those found in the whole file's node tree.
func FuzzDuplicateKeysByEntry(f *testing.F) {
	for _, s := range duplicateSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		sameDuplicates(t, data)
	})
}
