package stream

import (
	"context"
	"errors"
	"io"
	"runtime"
	"sync"
)

// Batch is how many documents a worker takes at a time: large enough that
// workers rarely meet at a channel, small enough to balance uneven
// documents and keep the window small.
const Batch = 32

// Window is how many batches may be in flight (read, being processed or
// waiting to be handed back) per worker.
const Window = 2

// batch is a run of documents and their results; done receives once the
// results are in. Batches go back to a free list once emitted, so that a
// long stream allocates a window of them, not one per Batch documents.
type batch[T any] struct {
	docs []Doc
	out  []T
	done chan struct{}
}

// Map calls work on every document next yields, on workers goroutines
// (GOMAXPROCS when workers <= 0), and emit on each document and its result
// in input order, from the calling goroutine. At most Window×workers
// batches of Batch documents are held at a time, whatever the stream's
// length. next returns io.EOF after the last document; any other error of
// next, an error of emit, or ctx ending stops the run and is returned
// (documents already handed to emit stay emitted).
func Map[T any](ctx context.Context, next func() (Doc, error), workers int, work func(Doc) T, emit func(Doc, T) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	jobs := make(chan *batch[T], workers)
	order := make(chan *batch[T], Window*workers)
	free := make(chan *batch[T], (Window+2)*workers)
	var readErr error
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range jobs {
				b.out = b.out[:0]
				for _, d := range b.docs {
					b.out = append(b.out, work(d))
				}
				b.done <- struct{}{}
			}
		}()
	}
	// The reader: fills batches and queues them in order and for work.
	go func() {
		defer close(order)
		defer close(jobs)
		for {
			var b *batch[T]
			select {
			case b = <-free:
			default:
				b = &batch[T]{docs: make([]Doc, 0, Batch), out: make([]T, 0, Batch), done: make(chan struct{}, 1)}
			}
			var err error
			for len(b.docs) < Batch {
				var d Doc
				if d, err = next(); err != nil {
					break
				}
				b.docs = append(b.docs, d)
			}
			if len(b.docs) > 0 {
				select {
				case order <- b:
				case <-ctx.Done():
					return
				}
				select {
				case jobs <- b:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				if !errors.Is(err, io.EOF) {
					readErr = err // read after order is closed
				}
				return
			}
		}
	}()

	var err error
	for b := range order {
		finished := false
		select {
		case <-b.done:
			finished = true
		case <-ctx.Done():
		}
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			cancel()
			continue // drain, so that the reader can end
		}
		for i, d := range b.docs {
			if err = emit(d, b.out[i]); err != nil {
				cancel()
				break
			}
		}
		if finished { // no worker holds it: reuse it, holding nothing
			clear(b.docs)
			clear(b.out)
			b.docs, b.out = b.docs[:0], b.out[:0]
			select {
			case free <- b:
			default:
			}
		}
	}
	wg.Wait()
	if err != nil {
		return err
	}
	return readErr
}
