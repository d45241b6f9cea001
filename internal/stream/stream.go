// Package stream reads a `---`-separated stream of YAML or JSON documents
// one document at a time and processes documents in parallel through a
// bounded window, handing the results back in input order. Memory depends
// on the window and the largest document, never on the stream's length.
//
// Splitting is line-based and knows nothing of how a document is parsed:
// a line `---` (or `--- ` followed by content) starts a document, a line
// `...` ends one, a byte-order mark at the start is skipped, and documents
// holding nothing but blanks and comments are left out.
package stream

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Doc is one document of a stream.
type Doc struct {
	// Index is the document's position among the stream's documents, from
	// 0 (documents holding only blanks and comments are not counted).
	Index int
	// Line is the line of the stream, from 1, where the document's text
	// starts: a line N of the document is line Line+N-1 of the stream.
	Line int
	// Text is the document's text, without its `---` or `...` markers. It
	// is the caller's to keep.
	Text []byte
}

// Splitter yields the documents of a stream read from an io.Reader.
type Splitter struct {
	r       *bufio.Reader
	line    int // lines read so far
	index   int
	started bool
	err     error
	long    []byte // a line longer than the reader's buffer
	// rest is what follows a lone "\r" in the last line read: the next
	// line (YAML counts a lone "\r" as a line break, and so does the
	// Splitter, so that its line numbers and markers agree with the
	// parser's).
	rest []byte
	// pending is the start of the next document, read with the `--- `
	// line that ended the previous one, and the line it is on.
	pending     []byte
	pendingLine int
}

// bufSize is how much of the input a Splitter reads at a time.
const bufSize = 64 << 10

// NewSplitter returns a Splitter reading r.
func NewSplitter(r io.Reader) *Splitter {
	return &Splitter{r: bufio.NewReaderSize(r, bufSize)}
}

// SplitBytes returns a Splitter over data already in memory, with a
// buffer no larger than data (a small document costs no 64 KiB).
func SplitBytes(data []byte) *Splitter {
	return &Splitter{r: bufio.NewReaderSize(bytes.NewReader(data), min(bufSize, len(data)+16))}
}

// readLine returns the next line with its line break; the slice is valid
// until the next call. At the end of the input it returns nil, io.EOF.
func (s *Splitter) readLine() ([]byte, error) {
	if len(s.rest) > 0 {
		line := s.rest
		s.rest = nil
		s.line++
		return s.cutAtLoneCR(line), nil
	}
	line, err := s.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		s.long = append(s.long[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = s.r.ReadSlice('\n')
			s.long = append(s.long, line...)
		}
		line = s.long
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if len(line) == 0 {
		return nil, io.EOF
	}
	s.line++
	if !s.started {
		s.started = true
		line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
	}
	return s.cutAtLoneCR(line), nil
}

// cutAtLoneCR returns line up to and with its first lone "\r" (one not
// followed by "\n"), keeping the rest for the next readLine; line itself
// when it has none.
func (s *Splitter) cutAtLoneCR(line []byte) []byte {
	for i := bytes.IndexByte(line, '\r'); i >= 0 && i+1 < len(line); {
		if line[i+1] != '\n' {
			s.rest = line[i+1:]
			return line[:i+1]
		}
		j := bytes.IndexByte(line[i+1:], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return line
}

// Next returns the next document, or io.EOF after the last one, or the
// reader's error.
func (s *Splitter) Next() (Doc, error) {
	if s.err != nil {
		return Doc{}, s.err
	}
	cur, start := s.pending, s.pendingLine // start: the line cur starts on
	s.pending, s.pendingLine = nil, 0
	add := func(b []byte) {
		if cur == nil {
			start = s.line
		}
		cur = append(cur, b...)
	}
	for {
		line, err := s.readLine()
		if err != nil {
			s.err = err
			if errors.Is(err, io.EOF) && !blank(cur) {
				return s.doc(cur, start), nil
			}
			return Doc{}, err
		}
		trimmed := bytes.TrimRight(line, "\r\n")
		switch {
		case bytes.Equal(trimmed, []byte("---")),
			bytes.Equal(bytes.TrimRight(trimmed, " \t"), []byte("...")):
			if !blank(cur) {
				return s.doc(cur, start), nil
			}
			cur = nil
		case bytes.HasPrefix(trimmed, []byte("--- ")) || bytes.HasPrefix(trimmed, []byte("---\t")):
			if !blank(cur) {
				d := s.doc(cur, start)
				// This line opens the next document; keep it for then.
				s.pending = append([]byte(nil), line[4:]...)
				s.pendingLine = s.line
				return d, nil
			}
			cur = nil
			add(line[4:])
		default:
			add(line)
		}
	}
}

func (s *Splitter) doc(text []byte, line int) Doc {
	d := Doc{Index: s.index, Line: line, Text: text}
	s.index++
	return d
}

// blank reports whether b holds nothing but YAML white space (space, tab,
// line breaks) and comments: a document holding a Unicode space is not
// blank.
func blank(b []byte) bool {
	for len(b) > 0 {
		var line []byte
		if i := bytes.IndexAny(b, "\n\r"); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			line, b = b, nil
		}
		l := bytes.Trim(line, " \t\r")
		if len(l) > 0 && l[0] != '#' {
			return false
		}
	}
	return true
}
