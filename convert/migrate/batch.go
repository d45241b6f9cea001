package migrate

import (
	"context"
	"io"

	"github.com/paramkit/paramkit/params"
)

// Reader is the one way to migrate many documents: it migrates the
// `---` stream read from r document by document, as MigrateDocument does
// for one, on workers goroutines (all cores when workers <= 0), and calls
// emit on each document in input order, from the calling goroutine, with
// MigrateDocument's Result as Document.Value and its error as
// Document.Err, with lines of the whole stream (Document.Value is then
// meaningful as Result says). It holds a fixed window
// of documents, whatever the stream's length. It keeps the cancellation
// contract of params' package documentation (as params.MapStream, which
// it runs on): nil means every document was migrated and emitted;
// otherwise it returns the first error of reading r or of emit, or ctx's
// error, having emitted every document before it and none after.
func Reader(ctx context.Context, m *Migration, r io.Reader, workers int, emit func(params.Document[Result]) error) error {
	if e := m.unmade(); e != nil {
		return e
	}
	return params.MapStream(ctx, r, workers, func(d params.Document[Result]) (Result, error) {
		res, err := m.MigrateDocument(d.Text)
		d.Locate(err)
		return res, err
	}, emit)
}
