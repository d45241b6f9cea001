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
// (all cores when workers <= 0), and calls emit on each document in input
// order, from the calling goroutine, with its outcome: Document.Value the
// *Converted (nil when Err is set), Document.Err Unwrap's error with
// lines of the whole stream. It holds a fixed window of documents,
// whatever the stream's length. It keeps the cancellation contract of
// params' package documentation (as params.MapStream, which it runs on):
// nil means every document was emitted; otherwise it returns the first
// error of reading r or of emit, or ctx's error, having emitted every
// document before it and none after.
func UnwrapReader(ctx context.Context, s *schema.Schema, r io.Reader, workers int, emit func(params.Document[*Converted]) error) error {
	if emit == nil {
		return schema.NewError(schema.KindUsage, "", "a stream needs its callbacks")
	}
	if err := zeroSchema(s); err != nil {
		return err
	}
	return params.MapStream(ctx, r, workers, func(d params.Document[*Converted]) (*Converted, error) {
		c, err := Unwrap(s, d.Text)
		if err != nil {
			return nil, d.Locate(err)
		}
		return c, nil
	}, emit)
}
