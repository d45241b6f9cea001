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
// one. The results are in input order, one per document. When ctx is
// cancelled, the documents not yet started get a Result whose only error
// says so. For a stream of any length in constant memory, use
// Reader.
func Stream(ctx context.Context, m *Migration, docs [][]byte, workers int) []Result {
	// The documents are in memory already, so no window is needed: the
	// workers take chunks of the slice and write their results in place,
	// with no channel between them (measured: a window here cost 15% of
	// the throughput with two workers).
	out := make([]Result, len(docs))
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, (len(docs)+stream.Batch-1)/stream.Batch)
	convert := migrateWork(ctx, m.MigrateDocument)
	var next atomic.Int64
	work := func() {
		for {
			start := int(next.Add(stream.Batch)) - stream.Batch
			if start >= len(docs) {
				return
			}
			for i := start; i < min(start+stream.Batch, len(docs)); i++ {
				out[i] = convert(stream.Doc{Index: i, Text: docs[i]})
			}
		}
	}
	if workers <= 1 {
		work()
		return out
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	wg.Wait()
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
