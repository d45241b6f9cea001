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
// length. next returns io.EOF after the last document.
//
// Map keeps the contract params' package documentation states for every
// stream function: it returns nil only when next reached io.EOF and every
// document it yielded was emitted, in order, exactly once. Otherwise it
// returns why it stopped: ctx's error (ctx done when Map is called, or
// before a document is emitted), next's error (after emitting every
// document next yielded before it), or emit's error. After a stop no
// further emit call happens, and when Map returns none of its goroutines
// is left: it waits for a next call in progress (a reader that can block
// must return when ctx ends, as a network body or a closed pipe does).
func Map[T any](ctx context.Context, next func() (Doc, error), workers int, work func(Doc) T, emit func(Doc, T) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// run ends with ctx or when emit fails: the workers and the reader
	// watch it, so that one stop reaches them all.
	run, stop := context.WithCancel(ctx)
	defer stop()
	// stopped reports whether the run has ended. It asks ctx as well as
	// run: a cancel of ctx closes ctx's Done and only then cancels run, so
	// for a moment (long under load) run still looks alive while the
	// caller has already seen ctx end, and a reader asking run alone would
	// go on reading in that moment.
	stopped := func() bool { return ctx.Err() != nil || run.Err() != nil }

	jobs := make(chan *batch[T], workers)
	order := make(chan *batch[T], Window*workers)
	free := make(chan *batch[T], (Window+2)*workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range jobs {
				b.out = b.out[:0]
				for _, d := range b.docs {
					if run.Err() != nil {
						break // not emitted: the emitter sees run ended too
					}
					b.out = append(b.out, work(d))
				}
				b.done <- struct{}{}
			}
		}()
	}
	// The reader fills batches and queues them in order and for work. Once
	// run ends it stops before its next read, unless the batch is still
	// empty: then that read may be the one that finds io.EOF, and a
	// stream emitted whole returns nil however late the stop came, where
	// stopping would make the outcome depend on timing. So after a stop
	// the reader makes one read at most.
	var readErr error // set before order is closed, read after
	eof := false
	wg.Add(1)
	go func() {
		defer wg.Done()
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
				if len(b.docs) > 0 && stopped() {
					return // b's documents would never be emitted
				}
				var d Doc
				if d, err = next(); err != nil {
					break
				}
				b.docs = append(b.docs, d)
			}
			if len(b.docs) > 0 {
				if stopped() {
					return // b's documents would never be emitted
				}
				select {
				case order <- b:
				case <-run.Done():
					return
				}
				select {
				case jobs <- b:
				case <-run.Done():
					return
				}
			}
			if err != nil {
				if errors.Is(err, io.EOF) {
					eof = true
				} else {
					readErr = err
				}
				return
			}
		}
	}()

	var err error // why the run stopped, once it did: ctx's or emit's error
	for b := range order {
		if err != nil {
			continue // drain, so that the reader can end
		}
		select {
		case <-b.done:
		case <-run.Done(): // a worker may hold b still: leave it be
			err = ctxErr(ctx)
			continue
		}
		for i, d := range b.docs {
			// ctx, not run: a cancel reaches run a moment after ctx, and
			// no emit may begin once the caller's cancel has begun.
			if err = ctx.Err(); err != nil {
				break
			}
			if i >= len(b.out) { // work skipped it: run ended, so ctx did
				err = ctxErr(ctx)
				break
			}
			if err = emit(d, b.out[i]); err != nil {
				stop()
				break
			}
		}
		if err == nil { // no worker holds it: reuse it, holding nothing
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
	switch {
	case err != nil:
		return err
	case readErr != nil:
		return readErr
	case !eof: // the reader stopped on run, which only ctx ends here
		return ctxErr(ctx)
	}
	return nil
}

// ctxErr is ctx's error, and context.Canceled should ctx not say one (a
// stop is never reported as nil).
func ctxErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return context.Canceled
}
