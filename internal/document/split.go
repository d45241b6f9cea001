package document

import "github.com/paramkit/paramkit/internal/stream"

// Split splits a `---` stream into its documents, with the line of the
// stream each starts on: internal/stream's Splitter over the whole input,
// so that streams read whole and streams read from a reader split alike.
// Documents holding nothing but blanks and comments are left out; a byte
// order mark at the start is dropped.
func Split(data []byte) []stream.Doc {
	sp := stream.SplitBytes(data)
	var out []stream.Doc
	for {
		d, err := sp.Next()
		if err != nil { // io.EOF: a bytes.Reader fails in no other way
			return out
		}
		out = append(out, d)
	}
}

// Texts is Split without the line numbers: the text of each document.
func Texts(data []byte) [][]byte {
	parts := Split(data)
	out := make([][]byte, len(parts))
	for i, p := range parts {
		out[i] = p.Text
	}
	return out
}
