package migrate

import (
	"context"
	"io"

	"github.com/paramkit/paramkit/internal/stream"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// Stream migrates many documents (each the text of one YAML or
// JSON document of a `---` stream) with workers
// goroutines (all cores when workers <= 0), as MigrateDocument does for
// one. The results are in input order, one per document. When ctx is
// cancelled, the documents not yet started get a Result whose only error
// says so. For a stream of any length in constant memory, use
// Reader.
func Stream(ctx context.Context, m *Migration, docs [][]byte, workers int) []Result {
	out := make([]Result, 0, len(docs))
	i := 0
	next := func() (stream.Doc, error) {
		if i == len(docs) {
			return stream.Doc{}, io.EOF
		}
		i++
		return stream.Doc{Index: i - 1, Text: docs[i-1]}, nil
	}
	_ = stream.Map(context.Background(), next, workers, migrateWork(ctx, m.MigrateDocument), func(_ stream.Doc, r Result) error {
		out = append(out, r)
		return nil
	})
	return out
}

// Reader migrates the `---` stream read from r document by
// document, as MigrateDocument does for one, on workers goroutines (all
// cores when workers <= 0), and calls emit on each document with its
// Result in input order, from the calling goroutine. It holds a fixed
// window of documents, whatever the stream's length. The lines of a
// Result's errors are lines of the whole stream. When ctx is cancelled,
// the documents not yet started get a Result whose only error says so.
// It returns the first error of reading r or of emit (every document
// before it has been emitted), or nil at the end of the stream.
func Reader(ctx context.Context, m *Migration, r io.Reader, workers int, emit func(params.RawDocument, Result) error) error {
	work := migrateWork(ctx, m.MigrateDocument)
	return params.MapStream(context.Background(), r, workers, func(d params.RawDocument) Result {
		res := work(stream.Doc(d))
		d.Locate(res.Errors)
		return res
	}, emit)
}

// migrateWork is convert on one document, or a Result saying the document
// was not migrated once ctx is cancelled.
func migrateWork(ctx context.Context, convert func([]byte) Result) func(stream.Doc) Result {
	return func(d stream.Doc) Result {
		if err := ctx.Err(); err != nil {
			return Result{Errors: schema.ErrorList{{Kind: schema.KindInvalid, Message: "not migrated: " + err.Error()}}}
		}
		return convert(d.Text)
	}
}
