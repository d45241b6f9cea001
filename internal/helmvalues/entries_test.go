package helmvalues

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// readWhole is Read as Helm's loader.LoadValues reads a values file, each
// document whole by sigs.k8s.io/yaml: the reference Read, which reads a
// document an entry at a time where it can, must agree with.
func readWhole(data []byte) (map[string]any, error) {
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(append([]byte(nil), data...), '\n')
	}
	var docs [][]byte
	var buf []byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		line := data
		if i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		if bytes.HasPrefix(line, []byte("---")) {
			rest := strings.TrimSpace(string(line[3:]))
			if rest != "" && rest[0] != '#' {
				return nil, fmt.Errorf("error reading yaml document: invalid Yaml document separator: %s", rest)
			}
			if len(buf) > 0 {
				docs = append(docs, buf)
				buf = nil
			}
			continue
		}
		buf = append(buf, line...)
	}
	if len(buf) > 0 {
		docs = append(docs, buf)
	}
	values := map[string]any{}
	for _, d := range docs {
		m := map[string]any{}
		if err := yaml.Unmarshal(d, &m); err != nil {
			return nil, fmt.Errorf("cannot unmarshal yaml document: %w", err)
		}
		values = MergeMaps(values, m)
	}
	return Numbers(values).(map[string]any), nil
}

// sameReading fails t unless Read and readWhole agree on data: the same
// values, or the same error.
func sameReading(t *testing.T, data []byte) {
	t.Helper()
	want, werr := readWhole(data)
	// Each entry alone, a few together, and Read's batches.
	for _, batch := range []int{1, 100, BatchBytes} {
		got, gerr := read(data, batch)
		if werr != nil {
			require.Error(t, gerr, "sigs.k8s.io/yaml refuses %q: %v", data, werr)
			assert.Equal(t, werr.Error(), gerr.Error())
			continue
		}
		require.NoError(t, gerr, "sigs.k8s.io/yaml reads %q", data)
		assert.Equal(t, want, got, "%q, batches of %d bytes", data, batch)
	}
}

// entrySeeds are documents at the edges of reading by entries: what must
// be read whole (anchors, directives, the end of a document, an indented
// root), entries that do not read alone (a flow collection or a quoted
// scalar continued at column 0), keys given twice across entries, block
// scalars with their chomping, indentless lists, complex keys, merge keys.
var entrySeeds = []string{
	"a: 1\nb: 2\n",
	"a: 1\nb: 2",
	"# head\n\na: 1\n# between\nb:\n  c: 3\n",
	"a: &x 1\nb: *x\n",
	"a: &x {k: 1}\nb:\n  <<: *x\n",
	"a: 1\nb: *x\n",
	"a: 'x&y'\nb: \"&z\"\nc: p&q\nd: a && b\n",
	"%YAML 1.1\n---\na: 1\n",
	"a: 1\n...\nb: 2\n",
	"a: 1\n---\nb: 2\n",
	"  a: 1\nb: 2\n",
	"- x\nb: 2\n",
	"a: [1,\n2]\nb: 3\n",
	"a: {k: 1,\nj: 2}\nb: 3\n",
	"a: \"x\ny: z\"\nb: 1\n",
	"a: 'x\ny: z'\nb: 1\n",
	"a: x\ny\nb: 1\n",
	"a: 1\na: 2\n",
	"a: 1\nb: 2\na: 3\n",
	"1: a\n\"2\": b\n",
	"true: a\n\"false\": b\n",
	"a: |+\n  x\n\n\nb: 1\n",
	"a: |+\n  x\n\n# c\n\nb: 1\n",
	"a: |-\n  x\n\nb: |\n  y",
	"a: >\n  folded\n  text\n\nb: 1\n",
	"a:\n- 1\n- 2\nb:\n- {c: 3}\n",
	"? a\n: 1\nb: 2\n",
	"a: 1\n? b\n: 2\n",
	"<<: {a: 1}\nb: 2\n",
	"<<: {a: 1}\na: 2\n",
	"a: 1\nnull\n",
	"a: 1\nNull\nb: 2\n",
	"a: 1\n\"s\"\n",
	"a: 1\nnull: 2\n",
	"a: 1\n<<: {}\n",
	"a: 1\nb\n",
	"a: 1\n\tb: 2\n",
	"a: 1\r\nb: 2\r\n",
	"a: 1\rb: 2\r",
	"\ufeffa: 1\nb: 2\n",
	"a: 1\n\u0085b: 2\n",
	"a: !!binary aGVsbG8=\nb: !!str 1\n",
	"a: .inf\nb: .nan\n",
	"a: 9007199254740993\nb: 0x1F\nc: 1e400\n",
	"a: {b: [c, {d: e}]}\nf: [\"g\", 'h']\n",
	"a: yes\nb: on\nc: ~\n",
	"'a': 1\n\"b\": 2\n_c: 3\n9: 4\n",
	"a:\n  b: 1\n  c:\n    d: 2\ne: 3\n",
	"a: 1 # comment\nb: 2 # &no anchor in a comment\n",
	"a: 1\n   \nb: 2\n",
	"",
	"# only a comment\n",
	"a:\n",
	"a:\nb:\n",
	"a: 1\n#\n",
}

// TestReadByEntriesAgrees: Read gives what sigs.k8s.io/yaml gives reading
// each document whole, on the edge cases of reading by entries.
func TestReadByEntriesAgrees(t *testing.T) {
	for _, s := range entrySeeds {
		t.Run(fmt.Sprintf("%.30q", s), func(t *testing.T) { sameReading(t, []byte(s)) })
	}
}

// TestBatches: entries joined up to the size, in order, none split.
func TestBatches(t *testing.T) {
	doc := []byte("a: 1\nb: 2\nccc: [1, 2, 3]\nd: 4\n")
	assert.Equal(t, []Entry{{[]byte("a: 1\nb: 2\n"), 1}, {[]byte("ccc: [1, 2, 3]\n"), 3}, {[]byte("d: 4\n"), 4}}, Batches(doc, 12))
	assert.Equal(t, []Entry{{doc, 1}}, Batches(doc, 1<<10))
	assert.Equal(t, Entries(doc), Batches(doc, 1))
	assert.Nil(t, Batches([]byte("a: &x 1\n"), 1))
}

// TestEntries: where a document splits and where it must be read whole.
func TestEntries(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []Entry // nil: read whole
	}{
		{"keys", "a: 1\nb:\n  c: 2\n", []Entry{{[]byte("a: 1\n"), 1}, {[]byte("b:\n  c: 2\n"), 2}}},
		{"comments go with the entry before", "# head\na: 1\n# b's\nb: 2", []Entry{{[]byte("# head\na: 1\n# b's\n"), 1}, {[]byte("b: 2"), 4}}},
		{"an indentless list stays", "a:\n- 1\n- 2\nb: 3\n", []Entry{{[]byte("a:\n- 1\n- 2\n"), 1}, {[]byte("b: 3\n"), 4}}},
		{"quoted keys", "\"a\": 1\n'b': 2\n", []Entry{{[]byte("\"a\": 1\n"), 1}, {[]byte("'b': 2\n"), 2}}},
		{"one entry", "a: 1\n", []Entry{{[]byte("a: 1\n"), 1}}},
		{"an anchor", "a: &x 1\nb: *x\n", nil},
		{"an anchor in a list", "a: [&x 1]\n", nil},
		{"no anchor in a word", "a: x=1&y=2\nb: a && b\n", []Entry{{[]byte("a: x=1&y=2\n"), 1}, {[]byte("b: a && b\n"), 2}}},
		{"a directive", "%YAML 1.1\na: 1\n", nil},
		{"a document end", "a: 1\n...\n", nil},
		{"a separator", "a: 1\n---\nb: 1\n", nil},
		{"an indented root", "  a: 1\nb: 2\n", nil},
		{"a list root", "- a\n", nil},
		{"a byte order mark", "\ufeffa: 1\n", nil},
		{"empty", "", nil},
		{"comments only", "# x\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Entries([]byte(tt.doc)))
		})
	}
}

// TestReadRealValuesFiles: Read agrees with sigs.k8s.io/yaml on every
// values file of the repository's real charts, and on those files
// repeated under distinct keys (the shape of a large values file), which
// it reads by entries.
func TestReadRealValuesFiles(t *testing.T) {
	files := realYAMLFiles(t)
	require.NotEmpty(t, files)
	split := 0
	for _, name := range files {
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		t.Run(name, func(t *testing.T) {
			sameReading(t, data)
			if len(Entries(data)) > 1 {
				split++
			}
			var big bytes.Buffer
			for i := range 3 {
				fmt.Fprintf(&big, "copy%d:\n", i)
				for line := range strings.Lines(string(data)) {
					if strings.TrimSpace(line) != "" {
						big.WriteString("  ")
					}
					big.WriteString(line)
				}
				big.WriteString("\n")
			}
			sameReading(t, big.Bytes())
		})
	}
	// The large files of the charts are read by entries, not whole.
	assert.Greater(t, split, len(files)/2, "files read by entries")
}

// realYAMLFiles lists the YAML files of the repository's Helm charts and
// values files.
func realYAMLFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, root := range []string{"../../examples/paramctl/testdata/helm", "../../examples/paramctl/testdata/schema", "../../lint/testdata"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				files = append(files, path)
			}
			return nil
		})
		require.NoError(t, err)
	}
	return files
}

// FuzzReadByEntries: on any input, Read (by entries where it can) gives
// what sigs.k8s.io/yaml gives reading each document whole: the same
// values, or the same error.
func FuzzReadByEntries(f *testing.F) {
	for _, s := range entrySeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		sameReading(t, data)
	})
}
