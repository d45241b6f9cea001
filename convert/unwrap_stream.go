package convert

import (
	"context"
	"io"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// UnwrapReader is the one way to unwrap a `---` stream of v1beta1
// documents: it unwraps the stream read from r document by document,
// as Unwrap does for one (flat maps of v1beta1 values or Instance
// manifests, typed by s; guessed when s is nil), on workers goroutines
// (all cores when workers <= 0), and calls emit on each document with its
// outcome in input order, from the calling goroutine: the Converted, or
// Unwrap's error with lines of the whole stream. It holds a fixed window
// of documents, whatever the stream's length. It keeps the cancellation
// contract of params' package documentation (as params.MapStream, which
// it runs on): nil means every document was emitted; otherwise it returns
// the first error of reading r or of emit, or ctx's error, having emitted
// every document before it and none after.
func UnwrapReader(ctx context.Context, s *schema.Schema, r io.Reader, workers int, emit func(params.RawDocument, *Converted, error) error) error {
	if emit == nil {
		return schema.NewError(schema.KindUsage, "", "a stream needs its callbacks")
	}
	if err := zeroSchema(s); err != nil {
		return err
	}
	type unwrapped struct {
		c   *Converted
		err error
	}
	return params.MapStream(ctx, r, workers, func(d params.RawDocument) unwrapped {
		c, err := Unwrap(s, d.Text)
		return unwrapped{c, d.Locate(err)}
	}, func(d params.RawDocument, u unwrapped) error {
		return emit(d, u.c, u.err)
	})
}
