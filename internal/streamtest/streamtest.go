// Package streamtest checks a stream function against the cancellation
// contract of params' package documentation, at every point of a stream:
// stopped by its context, by its reader and by emit, before the first
// document, at it, mid-batch, at a batch boundary, in the last batch and
// after the last document. It is test support for the packages of this
// module; nothing outside tests imports it.
//
// The stops are deterministic: the context is cancelled from inside emit
// or from the reader on its Nth read (or by the test once the reader
// blocks there), never after a sleep. Each read of the reader yields one
// whole document and its closing `---` line, so that read N is where
// document N starts.
package streamtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/stream"
)

// Func runs the stream function under test on r with ctx and workers
// (when it takes a count), calling emit with the index of each document it
// emits, in the order it emits them, and returns what the function
// returned.
type Func func(ctx context.Context, r io.Reader, workers int, emit func(index int) error) error

// Docs is how many documents a stream of Check has: three batches and a
// part of a fourth, so that there is a mid-batch, a boundary and a last
// batch apart from the first.
const Docs = 3*stream.Batch + stream.Batch/2 + 3

// Workers are the worker counts Check runs each case with.
var Workers = []int{1, 2, 4}

// Errors that Check's readers and emit return.
var (
	ErrRead = errors.New("streamtest: the reader failed")
	ErrEmit = errors.New("streamtest: emit failed")
)

// stopKind is what stops a run.
type stopKind int

const (
	none            stopKind = iota
	cancelBefore             // ctx cancelled before the call
	deadlineBefore           // ctx's deadline passed before the call
	cancelInEmit             // emit cancels ctx on document At, then returns nil
	failInEmit               // emit returns ErrEmit on document At
	failRead                 // read At returns ErrRead
	cancelInRead             // read At cancels ctx and returns its data
	blockRead                // read At blocks until the test cancels ctx, then returns ctx's error
	blockReadIgnore          // read At blocks until the test cancels ctx, then returns its data
	blockReadExpire          // read At blocks until ctx's (short) deadline passes
)

// Case is one run of Check: a stop at one point of the stream.
type Case struct {
	Name string
	kind stopKind
	// At is the document (for emit) or the read (for the reader) where
	// the stop happens; read Docs is the one that finds the end.
	At   int
	Docs int
}

// Cases lists every stop Check tries on a stream of n documents.
func Cases(n int) []Case {
	b := stream.Batch
	cs := []Case{
		{Name: "whole stream", kind: none, Docs: n},
		{Name: "empty stream", kind: none, Docs: 0},
		{Name: "cancelled before the call", kind: cancelBefore, Docs: n},
		{Name: "cancelled before the call, empty stream", kind: cancelBefore, Docs: 0},
		{Name: "deadline passed before the call", kind: deadlineBefore, Docs: n},
	}
	emitPoints := []struct {
		name string
		at   int
	}{
		{"the first document", 0},
		{"the second document", 1},
		{"mid-batch", b / 2},
		{"the end of a batch", b - 1},
		{"the start of a batch", b},
		{"the last batch", n - 3},
		{"the last document", n - 1},
	}
	for _, p := range emitPoints {
		cs = append(cs,
			Case{Name: "emit cancels at " + p.name, kind: cancelInEmit, At: p.at, Docs: n},
			Case{Name: "emit fails at " + p.name, kind: failInEmit, At: p.at, Docs: n})
	}
	readPoints := []struct {
		name string
		at   int
	}{
		{"before the first document", 0},
		{"at the second document", 1},
		{"mid-batch", b/2 + 1},
		{"at a batch boundary", b},
		{"in the last batch", n - 2},
		{"at the end of the stream", n},
	}
	for _, p := range readPoints {
		cs = append(cs,
			Case{Name: "reader fails " + p.name, kind: failRead, At: p.at, Docs: n},
			Case{Name: "reader cancels " + p.name, kind: cancelInRead, At: p.at, Docs: n},
			Case{Name: "reader blocks, then cancelled, " + p.name, kind: blockRead, At: p.at, Docs: n},
			Case{Name: "reader blocks, cancelled and goes on, " + p.name, kind: blockReadIgnore, At: p.at, Docs: n})
	}
	cs = append(cs,
		Case{Name: "reader blocks past the deadline mid-batch", kind: blockReadExpire, At: b/2 + 1, Docs: n},
		Case{Name: "reader blocks past the deadline at the end", kind: blockReadExpire, At: n, Docs: n})
	return cs
}

// Check runs fn on every case of Cases(Docs) with every count of Workers,
// document i of each stream being text(i) (a YAML or JSON document that
// ends in a line break), and asserts the contract on each run:
//   - what was emitted is documents 0, 1, ... in order, each once, from
//     one goroutine at a time;
//   - nil is returned only when every document was emitted;
//   - a run that stops early returns the error that stopped it (the
//     context's, the reader's or emit's);
//   - after emit fails or cancels, no emit call follows; after the reader
//     or the test cancels, at most the one emit call already under way
//     when it happened begins;
//   - after ctx ends, the reader is read once more at most;
//   - the run returns, and no goroutine it started is left.
func Check(t *testing.T, text func(i int) string, fn Func) {
	t.Helper()
	for _, c := range Cases(Docs) {
		for _, w := range Workers {
			t.Run(fmt.Sprintf("%s/workers=%d", c.Name, w), func(t *testing.T) {
				Run(t, c, w, text, fn)
			})
		}
	}
}

// reader yields one document and its `---` line per Read, and stops as
// its case says on read At.
type reader struct {
	c       Case
	text    func(int) string
	ctx     context.Context
	cancel  context.CancelFunc
	blocked chan struct{} // closed when the reader blocks
	reads   int
	late    int // reads begun after ctx ended
	pending []byte
}

func (r *reader) Read(p []byte) (int, error) {
	if len(r.pending) == 0 {
		if r.ctx.Err() != nil {
			r.late++
		}
		i := r.reads
		r.reads++
		if i == r.c.At {
			switch r.c.kind {
			case failRead:
				return 0, ErrRead
			case cancelInRead:
				r.cancel()
			case blockRead, blockReadExpire:
				close(r.blocked)
				<-r.ctx.Done()
				return 0, r.ctx.Err()
			case blockReadIgnore:
				close(r.blocked)
				<-r.ctx.Done()
			}
		}
		if i >= r.c.Docs {
			return 0, io.EOF
		}
		r.pending = []byte(r.text(i) + "---\n")
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

// Run runs fn on one case with workers and asserts the contract.
func Run(t *testing.T, c Case, workers int, text func(int) string, fn Func) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	switch c.kind {
	case cancelBefore:
		cancel()
	case deadlineBefore:
		ctx, cancel = context.WithDeadline(ctx, time.Unix(0, 0))
		defer cancel()
	case blockReadExpire:
		ctx, cancel = context.WithTimeout(ctx, time.Millisecond)
		defer cancel()
	}
	r := &reader{c: c, text: text, ctx: ctx, cancel: cancel, blocked: make(chan struct{})}
	canceller := make(chan struct{})
	if c.kind != blockRead && c.kind != blockReadIgnore {
		close(canceller)
	} else {
		// The test's own cancel, once the reader waits on it.
		go func() {
			defer close(canceller)
			select {
			case <-r.blocked:
				cancel()
			case <-ctx.Done():
			}
		}()
	}

	before := goroutines()
	var (
		mu        sync.Mutex
		emitted   []int
		inEmit    bool
		overlap   bool
		stopped   bool // emit stopped the run
		lateCalls int  // emit calls begun after ctx ended
	)
	emit := func(i int) error {
		mu.Lock()
		defer mu.Unlock()
		if inEmit {
			overlap = true
		}
		inEmit = true
		defer func() { inEmit = false }()
		if stopped {
			t.Errorf("emit called on document %d after emit stopped the run", i)
		}
		if ctx.Err() != nil {
			lateCalls++
		}
		emitted = append(emitted, i)
		if i == c.At {
			switch c.kind {
			case cancelInEmit:
				cancel()
				stopped = true
			case failInEmit:
				stopped = true
				return fmt.Errorf("document %d: %w", i, ErrEmit)
			}
		}
		return nil
	}

	done := make(chan error, 1)
	go func() { done <- fn(ctx, r, workers, emit) }()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		require.FailNow(t, "the stream function did not return", "case %q, workers %d", c.Name, workers)
	}

	cancel()
	<-canceller

	mu.Lock()
	defer mu.Unlock()
	assert.False(t, overlap, "emit calls overlapped")
	for k, i := range emitted {
		if !assert.Equal(t, k, i, "emit call %d was for document %d: not in order, or twice", k, i) {
			break
		}
	}
	m := len(emitted)
	if err == nil {
		assert.Equal(t, c.Docs, m, "nil returned after emitting %d of %d documents", m, c.Docs)
	} else {
		assert.Less(t, m, c.Docs+1)
	}

	switch c.kind {
	case none:
		require.NoError(t, err)
		assert.Equal(t, c.Docs, m)
	case cancelBefore:
		assert.ErrorIs(t, err, context.Canceled)
		assert.Zero(t, m, "emitted with ctx done before the call")
	case deadlineBefore:
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Zero(t, m, "emitted with ctx done before the call")
	case cancelInEmit:
		// A cancel as the last document is emitted stops nothing: every
		// document is out, and the run says so.
		if c.At == c.Docs-1 {
			assert.NoError(t, err)
		} else {
			assert.ErrorIs(t, err, context.Canceled)
		}
		assert.Equal(t, c.At+1, m, "documents emitted")
	case failInEmit:
		assert.ErrorIs(t, err, ErrEmit)
		assert.Equal(t, c.At+1, m, "documents emitted")
	case failRead:
		assert.ErrorIs(t, err, ErrRead)
		assert.Equal(t, min(c.At, c.Docs), m, "every document read whole before the failure is emitted")
	case cancelInRead, blockRead, blockReadIgnore, blockReadExpire:
		// The stop comes from the reader's goroutine, ahead of emit: how
		// many documents were emitted before it depends on timing, but
		// none read after it is, and the run ends with ctx's error unless
		// every document was out already.
		want := context.Canceled
		if c.kind == blockReadExpire {
			want = context.DeadlineExceeded
		}
		if err != nil || m < c.Docs {
			assert.ErrorIs(t, err, want)
		}
		assert.LessOrEqual(t, m, c.At, "a document read after the stop was emitted")
		assert.LessOrEqual(t, lateCalls, 1, "emit calls begun after ctx ended")
	}
	// The reader's goroutine has ended (or fn would have returned early,
	// which noLeak reports): its counts are settled.
	assert.LessOrEqual(t, r.late, 1, "reads begun after ctx ended")
	noLeak(t, before)
}

// goroutines returns the ids of the goroutines running now.
func goroutines() map[string]bool {
	ids := map[string]bool{}
	for _, g := range stacks() {
		ids[goroutineID(g)] = true
	}
	return ids
}

func stacks() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Split(string(buf[:n]), "\n\n")
		}
		buf = make([]byte, 2*len(buf))
	}
}

func goroutineID(stack string) string {
	id, _, _ := strings.Cut(strings.TrimPrefix(stack, "goroutine "), " ")
	return id
}

// noLeak fails when a goroutine of this module's code that was not
// running before is still there: one that the function under test started
// and did not end. A goroutine ends a moment after it signals that it is
// done, so this waits a while for that before it fails.
func noLeak(t *testing.T, before map[string]bool) {
	t.Helper()
	var leaked []string
	for deadline := time.Now().Add(10 * time.Second); ; {
		leaked = leaked[:0]
		for _, g := range stacks() {
			if !before[goroutineID(g)] && strings.Contains(g, "github.com/paramkit/paramkit/") && !strings.Contains(g, "testing.tRunner") {
				leaked = append(leaked, g)
			}
		}
		if len(leaked) == 0 || time.Now().After(deadline) {
			break
		}
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
	assert.Empty(t, leaked, "goroutines left running")
}

// Text is a document text for tests that do not care about it: `n: I`.
func Text(i int) string { return "n: " + strconv.Itoa(i) + "\n" }

// Stream is the text of a stream of n documents text(0) … text(n-1), as
// Check's readers yield it.
func Stream(n int, text func(int) string) string {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		b.WriteString(text(i))
		b.WriteString("---\n")
	}
	return b.String()
}
