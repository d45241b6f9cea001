package convert

import (
	"context"
	"github.com/paramkit/paramkit/schema"
	"runtime"
	"sync"
	"sync/atomic"
)

// batchChunk is how many documents a worker takes at a time: large enough
// that workers rarely meet at the counter, small enough to balance uneven
// documents.
const batchChunk = 32

// MigrateStream migrates many documents (each the text of one YAML or
// JSON document of a `---` stream) with workers
// goroutines (all cores when workers <= 0), as MigrateDocument does for
// one. The results are in input order, one per document. When ctx is
// cancelled, the documents not yet started get a Result whose only error
// says so.
func MigrateStream(ctx context.Context, m *Migration, docs [][]byte, workers int) []Result {
	out := make([]Result, len(docs))
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > (len(docs)+batchChunk-1)/batchChunk {
		workers = (len(docs) + batchChunk - 1) / batchChunk
	}
	var next atomic.Int64
	work := func() {
		for {
			start := int(next.Add(batchChunk)) - batchChunk
			if start >= len(docs) {
				return
			}
			end := min(start+batchChunk, len(docs))
			for i := start; i < end; i++ {
				if err := ctx.Err(); err != nil {
					out[i] = Result{Errors: schema.ErrorList{{Kind: schema.KindInvalid, Message: "not migrated: " + err.Error()}}}
					continue
				}
				out[i] = m.MigrateDocument(docs[i])
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
