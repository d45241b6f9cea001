package params

import (
	"context"
	"errors"
	"io"

	"github.com/paramkit/paramkit/internal/problem"
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
	if problem.As(err, &l) {
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

// Splitter is the one way to cut a `---` stream into raw documents, not
// decoded (a stream held in memory: NewSplitter(bytes.NewReader(data))).
// It reads an io.Reader one document at a time,
// holding one document (and one buffer of input) at a time: a line `---`
// or `--- CONTENT` starts a document, a line `...` ends one, a byte-order
// mark is skipped, and documents of nothing but blanks and comments are
// left out.
type Splitter struct{ s *stream.Splitter }

// NewSplitter returns a Splitter reading r.
func NewSplitter(r io.Reader) *Splitter {
	if r == nil {
		return &Splitter{}
	}
	return &Splitter{stream.NewSplitter(r)}
}

// Next returns the next document, io.EOF after the last one, or the
// reader's error (a document cut short by it is not returned). A Splitter
// not made by NewSplitter, or made with a nil reader, fails with an error
// of kind schema.KindUsage.
func (s *Splitter) Next() (RawDocument, error) {
	if s == nil || s.s == nil {
		return RawDocument{}, schema.NewError(schema.KindUsage, "", "params.Splitter needs a reader: make it with params.NewSplitter")
	}
	d, err := s.s.Next()
	return RawDocument(d), err
}

// MapStream is the one way to run work of one's own on every document of
// a `---` stream in parallel, keeping input order (DecodeReader,
// migrate.Reader and convert.UnwrapReader are built on it). It reads the
// stream r one document at a time, calls work
// on each on workers goroutines (all cores when workers <= 0) and emit on
// each document with its result in input order, from the calling
// goroutine. It holds a fixed window of documents (a few dozen per
// worker), whatever the stream's length. It keeps the cancellation
// contract of the package documentation ("Streams and cancellation"): nil
// means every document was emitted; otherwise it returns the first error
// of reading r or of emit, or ctx's error, having emitted every document
// before it and none after. work is not called on documents that a stop
// leaves behind. A nil ctx, r, work or emit fails with an error of kind
// schema.KindUsage before anything is read.
func MapStream[T any](ctx context.Context, r io.Reader, workers int, work func(RawDocument) T, emit func(RawDocument, T) error) error {
	if err := streamUsage(ctx, r, work == nil, emit == nil); err != nil {
		return err
	}
	s := stream.NewSplitter(r)
	return stream.Map(ctx, s.Next, workers,
		func(d stream.Doc) T { return work(RawDocument(d)) },
		func(d stream.Doc, v T) error { return emit(RawDocument(d), v) })
}

// DecodeReader is the one reader of parameter values from a `---`
// stream: it reads r one document at a time in a fixed window (decoding
// and validating on all cores) and calls emit on each document, in input
// order, with its value and its verdict (Document.Err): nil for a document
// that was read and is valid against s, else the read error (Unreadable
// set) or the validation errors, each with the line and column of its
// pointer in the whole stream. A document that cannot be read, or is not
// valid, does not stop the run: emit decides (return d.Err to stop at the
// first). s may be nil: YAML 1.2 core rules then type plain scalars and
// nothing is validated.
//
// It keeps the cancellation contract of the package documentation: nil
// means every document was emitted; otherwise it returns the reader's
// error, emit's or ctx's.
func DecodeReader(ctx context.Context, s *schema.Schema, r io.Reader, emit func(Document) error) error {
	if emit == nil {
		return streamUsage(ctx, r, false, true)
	}
	if err := zeroSchema(s); err != nil {
		return err
	}
	return MapStream(ctx, r, 0, func(d RawDocument) Document {
		return decodeValidateRaw(s, d)
	}, func(_ RawDocument, d Document) error {
		return emit(d)
	})
}

// streamUsage is the KindUsage error of a stream function called without
// a context, a reader or a callback, or nil.
func streamUsage(ctx context.Context, r io.Reader, noWork, noEmit bool) error {
	switch {
	case ctx == nil:
		return schema.NewError(schema.KindUsage, "", "a stream needs a context (context.Background() for none)")
	case r == nil:
		return schema.NewError(schema.KindUsage, "", "a stream needs a reader")
	case noWork, noEmit:
		return schema.NewError(schema.KindUsage, "", "a stream needs its callbacks")
	}
	return nil
}
