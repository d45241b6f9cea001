package stream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func all(t testing.TB, r io.Reader) []Doc {
	t.Helper()
	s := NewSplitter(r)
	var out []Doc
	for {
		d, err := s.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		require.NoError(t, err)
		out = append(out, d)
	}
}

func TestSplitter(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		texts []string
		lines []int
	}{
		{"one", "a: 1\n", []string{"a: 1\n"}, []int{1}},
		{"no final break", "a: 1", []string{"a: 1"}, []int{1}},
		{"empty", "", nil, nil},
		{"markers", "---\na: 1\n---\nb: 2\n...\n---\nc: 3\n", []string{"a: 1\n", "b: 2\n", "c: 3\n"}, []int{2, 4, 7}},
		{"blank and comment documents are left out", "# c\n---\n\n---\na: 1\n", []string{"a: 1\n"}, []int{5}},
		{"content on the marker line", "--- {a: 1}\n--- [2]\nb: 3\n", []string{"{a: 1}\n", "[2]\nb: 3\n"}, []int{1, 2}},
		{"byte-order mark", "\xef\xbb\xbfa: 1\n---\nb: 2\n", []string{"a: 1\n", "b: 2\n"}, []int{1, 3}},
		{"CRLF", "a: 1\r\n---\r\nb: 2\r\n", []string{"a: 1\r\n", "b: 2\r\n"}, []int{1, 3}},
		{"lone CR is a line break, as to YAML", "a: 1\r---\rb: 2\r\r# c\rc: 3", []string{"a: 1\r", "b: 2\r\r# c\rc: 3"}, []int{1, 3}},
		{"lone CR before a comment-only document", "# c\rx: 1\r---\r# d\r", []string{"# c\rx: 1\r"}, []int{1}},
		{"comment opens a document", "---\n# note\na: 1\n", []string{"# note\na: 1\n"}, []int{2}},
		{"indented marker is content", "a: |\n  ---\n", []string{"a: |\n  ---\n"}, []int{1}},
		{"unicode space is not blank", "---\n\u00a0\n", []string{"\u00a0\n"}, []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// One byte at a time too: splitting does not depend on reads.
			for _, r := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				docs := all(t, r)
				var texts []string
				var lines []int
				for i, d := range docs {
					assert.Equal(t, i, d.Index)
					texts = append(texts, string(d.Text))
					lines = append(lines, d.Line)
				}
				assert.Equal(t, tt.texts, texts)
				assert.Equal(t, tt.lines, lines)
			}
		})
	}
}

func TestSplitterLongLine(t *testing.T) {
	long := strings.Repeat("x", 200<<10)
	docs := all(t, strings.NewReader("a: "+long+"\n---\nb: 1\n"))
	require.Len(t, docs, 2)
	assert.Equal(t, "a: "+long+"\n", string(docs[0].Text))
	assert.Equal(t, 3, docs[1].Line)
}

func TestSplitterReadError(t *testing.T) {
	boom := errors.New("boom")
	s := NewSplitter(io.MultiReader(strings.NewReader("a: 1\n---\nb: 2\n"), iotest.ErrReader(boom)))
	d, err := s.Next()
	require.NoError(t, err)
	assert.Equal(t, "a: 1\n", string(d.Text))
	_, err = s.Next()
	assert.ErrorIs(t, err, boom, "a document cut short by a read error is not handed out")
	_, err = s.Next()
	assert.ErrorIs(t, err, boom)
}

func stream(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "---\nn: %d\n", i)
	}
	return b.String()
}

func TestMapKeepsOrder(t *testing.T) {
	for _, workers := range []int{0, 1, 3} {
		s := NewSplitter(strings.NewReader(stream(1000)))
		var got []string
		err := Map(context.Background(), s.Next, workers, func(d Doc) string {
			return strings.ToUpper(string(d.Text))
		}, func(d Doc, out string) error {
			assert.Equal(t, len(got), d.Index)
			assert.Equal(t, 2*d.Index+2, d.Line)
			got = append(got, out)
			return nil
		})
		require.NoError(t, err)
		require.Len(t, got, 1000)
		assert.Equal(t, "N: 999\n", got[999])
	}
}

func TestMapStops(t *testing.T) {
	stop := errors.New("stop")
	s := NewSplitter(strings.NewReader(stream(10000)))
	n := 0
	err := Map(context.Background(), s.Next, 2, func(d Doc) int { return d.Index }, func(d Doc, i int) error {
		n++
		if i == 100 {
			return stop
		}
		return nil
	})
	assert.ErrorIs(t, err, stop)
	assert.Equal(t, 101, n, "nothing is emitted after emit fails")

	boom := errors.New("boom")
	s = NewSplitter(io.MultiReader(strings.NewReader(stream(100)), iotest.ErrReader(boom)))
	n = 0
	err = Map(context.Background(), s.Next, 2, func(d Doc) int { return 0 }, func(Doc, int) error { n++; return nil })
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, 99, n, "the documents read whole before the error are emitted")

	ctx, cancel := context.WithCancel(context.Background())
	s = NewSplitter(strings.NewReader(stream(10000)))
	err = Map(ctx, s.Next, 2, func(d Doc) int { return 0 }, func(d Doc, _ int) error {
		if d.Index == 50 {
			cancel()
		}
		return nil
	})
	assert.ErrorIs(t, err, context.Canceled)
}

func FuzzSplitter(f *testing.F) {
	for _, s := range []string{"a: 1\n---\nb\n", "--- x\n...\n--- \n#c\n", "\xef\xbb\xbf---\r\n", "a\n---\t[1]\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		docs := all(t, iotest.HalfReader(strings.NewReader(in)))
		// The same documents as the whole-input splitter it replaced.
		want := oldSplit([]byte(in))
		require.Len(t, docs, len(want))
		for i := range want {
			require.Equal(t, string(want[i]), string(docs[i].Text))
		}
		// Every document's text is in the input from its line on.
		lines := splitLines(strings.TrimPrefix(in, "\xef\xbb\xbf"))
		for i, d := range docs {
			require.Equal(t, i, d.Index)
			require.GreaterOrEqual(t, d.Line, 1)
			require.LessOrEqual(t, d.Line, len(lines))
			rest := strings.Join(lines[d.Line-1:], "")
			first := d.Text
			if i := lineBreak(first); i >= 0 {
				first = first[:i]
			}
			require.Contains(t, rest, string(first))
			require.False(t, blank(d.Text))
		}
	})
}

// lineBreak returns the index of the byte that ends the first line of
// data ("\n", or a "\r" not followed by "\n": YAML's line breaks), or -1.
func lineBreak(data []byte) int {
	for i, c := range data {
		if c == '\n' || c == '\r' && (i+1 == len(data) || data[i+1] != '\n') {
			return i
		}
	}
	return -1
}

// splitLines splits s after each line break, as lineBreak finds them.
func splitLines(s string) []string {
	var out []string
	for {
		i := lineBreak([]byte(s))
		if i < 0 {
			return append(out, s)
		}
		out, s = append(out, s[:i+1]), s[i+1:]
	}
}

// oldSplit is yamlx.SplitDocuments as it was before streams, over a whole
// input, with a lone "\r" a line break as YAML has it (the Splitter too,
// since issue 26): the reference the Splitter must agree with.
func oldSplit(data []byte) [][]byte {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var docs [][]byte
	var cur []byte
	flush := func() {
		if !blank(cur) {
			docs = append(docs, cur)
		}
		cur = nil
	}
	for len(data) > 0 {
		line := data
		if i := lineBreak(data); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		trimmed := bytes.TrimRight(line, "\r\n")
		switch {
		case bytes.Equal(trimmed, []byte("---")):
			flush()
			continue
		case bytes.HasPrefix(trimmed, []byte("--- ")) || bytes.HasPrefix(trimmed, []byte("---\t")):
			flush()
			cur = append(cur, line[4:]...)
			continue
		case bytes.Equal(bytes.TrimRight(trimmed, " \t"), []byte("...")):
			flush()
			continue
		}
		cur = append(cur, line...)
	}
	flush()
	return docs
}

// TestMapReusesBatches: a long stream allocates a window of batches, not
// one per Batch documents, so that its garbage does not grow with it.
func TestMapReusesBatches(t *testing.T) {
	text := []byte("a: 1\n")
	run := func(n int) float64 {
		return testing.AllocsPerRun(5, func() {
			i := 0
			next := func() (Doc, error) {
				if i == n {
					return Doc{}, io.EOF
				}
				i++
				return Doc{Index: i - 1, Text: text}, nil
			}
			_ = Map(context.Background(), next, 2, func(d Doc) int { return d.Index }, func(Doc, int) error { return nil })
		})
	}
	short, long := run(4*Batch), run(400*Batch)
	assert.Less(t, long-short, float64(60), "allocations grew with the stream: %v for %d batches, %v for %d", short, 4, long, 400)
}
