package document

import "bytes"

// Part is one document of a `---` stream.
type Part struct {
	// Text is the document's text.
	Text []byte
	// Line is the 1-based line of the stream where Text starts.
	Line int
}

// Split splits a `---` stream into its documents. Documents holding
// nothing but blanks and comments are left out; a byte order mark at the
// start is dropped.
func Split(data []byte) []Part {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var parts []Part
	var cur []byte
	start, line := 1, 0
	flush := func(next int) {
		if !blank(cur) {
			parts = append(parts, Part{Text: cur, Line: start})
		}
		cur, start = nil, next
	}
	for len(data) > 0 {
		line++
		l := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		trimmed := bytes.TrimRight(l, "\r\n")
		switch {
		case bytes.Equal(trimmed, []byte("---")):
			flush(line + 1)
			continue
		case bytes.HasPrefix(trimmed, []byte("--- ")) || bytes.HasPrefix(trimmed, []byte("---\t")):
			flush(line)
			cur = append(cur, l[4:]...)
			continue
		case bytes.Equal(bytes.TrimRight(trimmed, " \t"), []byte("...")):
			flush(line + 1)
			continue
		}
		cur = append(cur, l...)
	}
	flush(0)
	return parts
}

// blank reports whether b holds nothing but blanks and comments.
func blank(b []byte) bool {
	for _, line := range bytes.Split(b, []byte("\n")) {
		// YAML white space is space, tab and line breaks only: a document
		// holding a Unicode space is not blank.
		l := bytes.Trim(line, " \t\r")
		if len(l) > 0 && l[0] != '#' {
			return false
		}
	}
	return true
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
