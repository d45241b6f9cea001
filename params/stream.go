package params

import (
	"context"
	"errors"
	"io"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/internal/stream"
	"github.com/paramkit/paramkit/schema"
)

// Document is one document of a `---` stream as every stream function of
// the module hands it over (DecodeReader, MapStream, convert.UnwrapReader,
// migrate.Reader): its place in the stream, its text, and what the
// function made of it (Value, of the function's own type T) with its
// verdict (Err). Each of them calls its emit callback, a
// func(Document[T]) error, once a document, in input order, from the
// calling goroutine.
type Document[T any] struct {
	// Index is the document's position in the stream, from 0 (documents
	// holding only blanks and comments are not counted).
	Index int
	// Line is the line of the stream, from 1, where the document's text
	// starts.
	Line int
	// Text is the document's text without its `---` or `...` markers.
	Text []byte
	// Value is what the stream function made of the document: the
	// decoded values for DecodeReader, the *convert.Converted for
	// convert.UnwrapReader, the migrate.Result for migrate.Reader, the
	// work function's result for MapStream.
	Value T
	// Err is nil for a document that passed. Otherwise it holds every
	// reason it did not (schema.ErrorsOf lists them), with lines of the
	// whole stream. A document's Err does not stop the run: emit
	// decides (return d.Err to stop at the first).
	Err error
}

// Locate turns the lines of errors about the document's text (a
// *schema.Error or a schema.ErrorList, found through wrapping, such as
// Decode returns) into lines of the whole stream, in place, and returns
// err.
func (d Document[T]) Locate(err error) error {
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

// MapStream is the one way to run work of one's own on every document of
// a `---` stream in parallel, keeping input order (DecodeReader,
// migrate.Reader and convert.UnwrapReader are built on it). It reads the
// stream r one document at a time (a line `---` or `--- CONTENT` starts
// a document, a line `...` ends one, a byte-order mark is skipped,
// documents of nothing but blanks and comments are left out), calls work
// on each on workers goroutines (all cores when workers <= 0) with the
// document's Index, Line and Text, and calls emit on each document, its
// Value and Err being what work returned, in input order, from the
// calling goroutine. Lines in work's error are lines of the document's
// text unless work gives them as lines of the stream with
// Document.Locate. It holds a fixed window of documents (a few dozen per
// worker), whatever the stream's length.
//
// It keeps the cancellation contract of the package documentation
// ("Streams and cancellation"): nil means every document was emitted;
// otherwise it returns the first error of reading r or of emit, or ctx's
// error, having emitted every document before it and none after. work is
// not called on documents that a stop leaves behind. A nil ctx, r, work
// or emit fails with an error of kind schema.KindUsage before anything is
// read.
func MapStream[T any](ctx context.Context, r io.Reader, workers int, work func(Document[T]) (T, error), emit func(Document[T]) error) error {
	if err := streamUsage(ctx, r, work == nil, emit == nil); err != nil {
		return err
	}
	s := stream.NewSplitter(r)
	return stream.Map(ctx, s.Next, workers,
		func(d stream.Doc) Document[T] {
			out := Document[T]{Index: d.Index, Line: d.Line, Text: d.Text}
			out.Value, out.Err = work(out)
			return out
		},
		func(_ stream.Doc, d Document[T]) error { return emit(d) })
}

// DecodeReader is the one reader of parameter values from a `---`
// stream: it reads r one document at a time in a fixed window, decoding
// and validating on workers goroutines (all cores when workers <= 0), and
// calls emit on each document, in input order, with its value
// (Document.Value) and its verdict (Document.Err): nil for a document that
// was read and is valid against s, else the read error or the validation
// errors (every one, as Validate gives them), each with the line and
// column of its pointer in the whole stream where the text has it. Past
// the first document the text of Err starts with "doc N: "
// (schema.WrapError), so that returning it from emit names the document.
//
// A document that could not be read at all has a nil Value and an Err of
// kind schema.KindSyntax or schema.KindLimit (kinds validation never
// gives). A stream that holds no document at all (empty, or blanks and
// comments only) is refused as Decode refuses it: emit gets one document
// (Index 0, Line 1, no Text) whose Err, of kind schema.KindSyntax,
// wraps ErrNoDocument, so that a caller checking files never calls an
// empty one valid. A document that cannot be read, or is not valid, does not stop
// the run: emit decides. s may be nil: YAML 1.2 core rules then type
// plain scalars and nothing is validated.
//
// It keeps the cancellation contract of the package documentation: nil
// means every document was emitted; otherwise it returns the reader's
// error, emit's or ctx's.
func DecodeReader(ctx context.Context, s *schema.Schema, r io.Reader, workers int, emit func(Document[any]) error) error {
	if emit == nil {
		return streamUsage(ctx, r, false, true)
	}
	if err := zeroSchema(s); err != nil {
		return err
	}
	emitted := false
	err := MapStream(ctx, r, workers, func(d Document[any]) (any, error) {
		return decodeValidateRaw(s, d)
	}, func(d Document[any]) error {
		emitted = true
		return emit(d)
	})
	if err != nil || emitted {
		return err
	}
	return emit(Document[any]{Line: 1, Err: errNoDocument()})
}

// ErrNoDocument is wrapped by the error of input that holds no document
// at all (empty, or blanks and comments only): Decode's, and the Err of
// the one document DecodeReader emits for such a stream, a *schema.Error
// of kind schema.KindSyntax. A caller for whom an empty file means "no
// values" tests for it with errors.Is.
var ErrNoDocument = errors.New("the input holds no document")

// errNoDocument is the error of input that holds no document (Decode,
// DecodeReader).
func errNoDocument() error {
	return schema.NewError(schema.KindSyntax, "", "%w", ErrNoDocument)
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
