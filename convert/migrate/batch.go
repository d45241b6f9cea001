package migrate

import (
	"context"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/paramkit/paramkit/internal/stream"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// Stream migrates many documents (each the text of one YAML or
// JSON document of a `---` stream) with workers
// goroutines (all cores when workers <= 0), as MigrateDocument does for
// one. The results are in input order, one per document. It keeps the
// cancellation contract of params' package documentation: the error is
// nil when every document was migrated, and ctx's error when ctx ended
// before some were (a context already done stops it before the first);
// the Results of the documents not migrated then hold one error that says
// so. For a stream of any length in constant memory, use Reader.
func Stream(ctx context.Context, m *Migration, docs [][]byte, workers int) ([]Result, error) {
	// The documents are in memory already, so no window is needed: the
	// workers take chunks of the slice and write their results in place,
	// with no channel between them (measured: a window here cost 15% of
	// the throughput with two workers).
	out := make([]Result, len(docs))
	if err := ctx.Err(); err != nil {
		for i := range out {
			out[i] = notMigrated(err)
		}
		return out, err
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, (len(docs)+stream.Batch-1)/stream.Batch)
	var skipped atomic.Bool
	var next atomic.Int64
	work := func() {
		for {
			start := int(next.Add(stream.Batch)) - stream.Batch
			if start >= len(docs) {
				return
			}
			for i := start; i < min(start+stream.Batch, len(docs)); i++ {
				if err := ctx.Err(); err != nil {
					skipped.Store(true)
					out[i] = notMigrated(err)
					continue
				}
				out[i] = m.MigrateDocument(docs[i])
			}
		}
	}
	if workers <= 1 {
		work()
	} else {
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				work()
			}()
		}
		wg.Wait()
	}
	if skipped.Load() {
		return out, ctx.Err()
	}
	return out, nil
}

// notMigrated is the Result of a document that a stop left behind.
func notMigrated(err error) Result {
	return Result{Errors: schema.ErrorList{{Kind: schema.KindInvalid, Message: "not migrated: " + err.Error()}}}
}

// Reader migrates the `---` stream read from r document by
// document, as MigrateDocument does for one, on workers goroutines (all
// cores when workers <= 0), and calls emit on each document with its
// Result in input order, from the calling goroutine. It holds a fixed
// window of documents, whatever the stream's length. The lines of a
// Result's errors are lines of the whole stream. It keeps the
// cancellation contract of params' package documentation (as
// params.MapStream, which it runs on): nil means every document was
// migrated and emitted; otherwise it returns the first error of reading r
// or of emit, or ctx's error, having emitted every document before it and
// none after.
func Reader(ctx context.Context, m *Migration, r io.Reader, workers int, emit func(params.RawDocument, Result) error) error {
	return params.MapStream(ctx, r, workers, func(d params.RawDocument) Result {
		res := m.MigrateDocument(d.Text)
		d.Locate(res.Errors)
		return res
	}, emit)
}
