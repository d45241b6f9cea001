package params

import (
	"context"
	"errors"
	"io"

	"github.com/paramkit/paramkit/internal/stream"
	"github.com/paramkit/paramkit/schema"
)

// RawDocument is the text of one document of a `---` stream, not yet
// decoded.
type RawDocument struct {
	// Index is the document's position in the stream, from 0 (documents
	// holding only blanks and comments are not counted).
	Index int
	// Line is the line of the stream, from 1, where the document's text
	// starts.
	Line int
	// Text is the document's text without its `---` or `...` markers.
	Text []byte
}

// Locate turns the lines of errors about the document's text (a
// schema.ErrorList, or a *schema.Error found through wrapping, such as
// Decode or Convert return) into lines of the whole stream, in place, and
// returns err.
func (d RawDocument) Locate(err error) error {
	if err == nil || d.Line <= 1 {
		return err
	}
	shift := func(e *schema.Error) {
		if e != nil && e.Line > 0 {
			e.Line += d.Line - 1
		}
	}
	var l schema.ErrorList
	if errors.As(err, &l) {
		for _, e := range l {
			shift(e)
		}
		return err
	}
	var e *schema.Error
	if errors.As(err, &e) {
		shift(e)
	}
	return err
}

// Splitter reads a `---` stream from an io.Reader one document at a time,
// holding one document (and one buffer of input) at a time: a line `---`
// or `--- CONTENT` starts a document, a line `...` ends one, a byte-order
// mark is skipped, and documents of nothing but blanks and comments are
// left out.
type Splitter struct{ s *stream.Splitter }

// NewSplitter returns a Splitter reading r.
func NewSplitter(r io.Reader) *Splitter { return &Splitter{stream.NewSplitter(r)} }

// Next returns the next document, io.EOF after the last one, or the
// reader's error (a document cut short by it is not returned).
func (s *Splitter) Next() (RawDocument, error) {
	d, err := s.s.Next()
	return RawDocument(d), err
}

// MapStream reads the `---` stream r one document at a time, calls work
// on each on workers goroutines (all cores when workers <= 0) and emit on
// each document with its result in input order, from the calling
// goroutine. It holds a fixed window of documents (a few dozen per
// worker), whatever the stream's length. It keeps the cancellation
// contract of the package documentation ("Streams and cancellation"): nil
// means every document was emitted; otherwise it returns the first error
// of reading r or of emit, or ctx's error, having emitted every document
// before it and none after. work is not called on documents that a stop
// leaves behind.
func MapStream[T any](ctx context.Context, r io.Reader, workers int, work func(RawDocument) T, emit func(RawDocument, T) error) error {
	s := stream.NewSplitter(r)
	return stream.Map(ctx, s.Next, workers,
		func(d stream.Doc) T { return work(RawDocument(d)) },
		func(d stream.Doc, v T) error { return emit(RawDocument(d), v) })
}

// DecodeReader reads a `---` stream from r as DecodeStream reads a whole
// one, document by document in constant memory (decoding on all cores),
// and calls emit on each in input order. The first document that cannot
// be read stops it: the error says `doc N:` (after the first) and carries
// the line in the whole stream. It keeps the cancellation contract of the
// package documentation: nil means every document was emitted; otherwise
// it returns the unreadable document's error, the reader's, emit's or
// ctx's.
func DecodeReader(ctx context.Context, s *schema.Schema, r io.Reader, emit func(Document) error) error {
	type decoded struct {
		doc Document
		err error
	}
	return MapStream(ctx, r, 0, func(d RawDocument) decoded {
		doc, err := decodeRaw(s, d)
		return decoded{doc, err}
	}, func(_ RawDocument, x decoded) error {
		if x.err != nil {
			return x.err
		}
		return emit(x.doc)
	})
}
