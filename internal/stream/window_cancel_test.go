package stream

import (
	"context"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// slowCancelCtx is a context whose cancel reaches the contexts derived
// from it only when the test says so: it stands for the moment, between
// a cancelCtx closing its Done and cancelling its children, that the race
// detector and a loaded machine stretch to many reads.
type slowCancelCtx struct {
	mu      sync.Mutex
	done    chan struct{}
	err     error
	after   []func()
	release chan struct{}
}

func newSlowCancelCtx() *slowCancelCtx {
	return &slowCancelCtx{done: make(chan struct{}), release: make(chan struct{})}
}

func (c *slowCancelCtx) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *slowCancelCtx) Done() <-chan struct{}       { return c.done }
func (c *slowCancelCtx) Value(any) any               { return nil }

func (c *slowCancelCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// AfterFunc is what context.WithCancel uses to hear of this context's
// end: the functions run once the test releases them, not at cancel.
func (c *slowCancelCtx) AfterFunc(f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.after = append(c.after, f)
	return func() bool { return false }
}

func (c *slowCancelCtx) cancel() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.err = context.Canceled
		close(c.done)
	}
}

// propagate runs the derived contexts' cancels, as a cancelCtx does a
// moment after it closes Done.
func (c *slowCancelCtx) propagate() {
	c.mu.Lock()
	fs := c.after
	c.after = nil
	c.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// TestMapStopsReadingOnceCtxEnds: Map makes at most one read after its
// context ends, even while the cancel has not reached the contexts Map
// derived from it. Before Map asked ctx itself, its reader read the whole
// stream in that moment.
func TestMapStopsReadingOnceCtxEnds(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			ctx := newSlowCancelCtx()
			defer ctx.propagate()
			const docs, cancelAt = 5 * Batch, 3
			reads, late := 0, 0
			next := func() (Doc, error) {
				if ctx.Err() != nil {
					late++
				}
				i := reads
				reads++
				if i == cancelAt {
					ctx.cancel()
				}
				if i >= docs {
					return Doc{}, io.EOF
				}
				return Doc{Index: i}, nil
			}
			var emitted int
			err := Map(ctx, next, workers, func(d Doc) int { return d.Index },
				func(Doc, int) error { emitted++; return nil })
			require.ErrorIs(t, err, context.Canceled)
			assert.LessOrEqual(t, late, 1, "reads after ctx ended")
			assert.LessOrEqual(t, emitted, cancelAt)
		})
	}
}
