package kube

import (
	"container/heap"
	"context"
	"sync"
)

// turns hands out the turns at working on a review: at most n at once,
// costly reviews at most costlyMax of them (at most n-1, all of them
// when n is 1), waiting reviews served smallest first (then first come,
// first served).
type turns struct {
	n, costlyMax int

	mu      sync.Mutex
	busy    int
	costly  int
	seq     uint64
	waiting waitQueue
}

// newTurns makes n turns, costly reviews holding at most costly of them
// (DefaultCostlyAtOnce(n) when costly is 0 or less).
func newTurns(n, costly int) *turns {
	n = max(n, 1)
	if costly <= 0 {
		costly = DefaultCostlyAtOnce(n)
	}
	return &turns{n: n, costlyMax: min(costly, max(n-1, 1))}
}

// waiter is a review waiting for a turn.
type waiter struct {
	cost    int64
	costly  bool
	seq     uint64
	index   int
	granted bool
	ready   chan struct{}
}

// fits reports whether a review may start now.
func (t *turns) fits(costly bool) bool {
	return t.busy < t.n && (!costly || t.costly < t.costlyMax)
}

func (t *turns) start(costly bool) {
	t.busy++
	if costly {
		t.costly++
	}
}

// take waits for a turn until ctx is done. It returns the function that
// gives the turn back, or ok=false when ctx ended first. A free turn is
// taken even past the deadline: the review then says which step it
// reached.
func (t *turns) take(ctx context.Context, cost int64, costly bool) (done func(), ok bool) {
	t.mu.Lock()
	if len(t.waiting) == 0 && t.fits(costly) {
		t.start(costly)
		t.mu.Unlock()
		return t.doneFunc(costly), true
	}
	t.seq++
	w := &waiter{cost: cost, costly: costly, seq: t.seq, ready: make(chan struct{})}
	heap.Push(&t.waiting, w)
	t.grant()
	t.mu.Unlock()
	select {
	case <-w.ready:
		return t.doneFunc(costly), true
	case <-ctx.Done():
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if w.granted {
		// Granted as the context ended: the turn is taken, and used.
		return t.doneFunc(costly), true
	}
	heap.Remove(&t.waiting, w.index)
	return nil, false
}

func (t *turns) doneFunc(costly bool) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			t.mu.Lock()
			t.busy--
			if costly {
				t.costly--
			}
			t.grant()
			t.mu.Unlock()
		})
	}
}

// grant starts the waiting reviews that fit, smallest first. Waiting
// reviews are ordered by cost, so when the smallest does not fit (a
// costly one while the costly turns are taken) none behind it does.
func (t *turns) grant() {
	for len(t.waiting) > 0 && t.fits(t.waiting[0].costly) {
		w := heap.Pop(&t.waiting).(*waiter)
		t.start(w.costly)
		w.granted = true
		close(w.ready)
	}
}

// waiting counts the reviews waiting for a turn.
func (t *turns) waitingCount() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.waiting)
}

// waitQueue is a heap of waiters, smallest cost first, then oldest.
type waitQueue []*waiter

func (q waitQueue) Len() int { return len(q) }
func (q waitQueue) Less(i, j int) bool {
	if q[i].cost != q[j].cost {
		return q[i].cost < q[j].cost
	}
	return q[i].seq < q[j].seq
}
func (q waitQueue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}
func (q *waitQueue) Push(x any) {
	w := x.(*waiter)
	w.index = len(*q)
	*q = append(*q, w)
}
func (q *waitQueue) Pop() any {
	old := *q
	w := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	w.index = -1
	return w
}

// yield is a channel closed at once: tests poll on it between looks at
// the queue, letting other goroutines run.
func (t *turns) yield() <-chan struct{} {
	ch := make(chan struct{})
	go close(ch)
	return ch
}
