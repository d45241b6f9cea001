package kube

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Turns go to waiting reviews smallest first, and costly reviews never
// hold the last turn: the order is the fairness, tested without a clock.
func TestTurnsOrder(t *testing.T) {
	tr := newTurns(2, 0)
	ctx := context.Background()
	doneA, ok := tr.take(ctx, 1000, true)
	require.True(t, ok)
	started := make(chan string, 8)
	wait := func(name string, cost int64, costly bool) chan func() {
		ch := make(chan func(), 1)
		go func() {
			done, ok := tr.take(ctx, cost, costly)
			if ok {
				ch <- done
				started <- name
			}
		}()
		return ch
	}
	waiting := func(n int) {
		for tr.waitingCount() < n {
			<-tr.yield()
		}
	}
	// The costly lane (one of two turns) is full: costly reviews wait
	// although a turn is free.
	c := wait("costly 5000", 5000, true)
	waiting(1)
	d := wait("costly 2000", 2000, true)
	waiting(2)
	assert.Empty(t, started)
	// A small review takes the free turn at once.
	s1 := wait("small 10", 10, false)
	assert.Equal(t, "small 10", <-started)
	// Both turns taken: the next small one waits, ahead of the costly.
	s2 := wait("small 20", 20, false)
	waiting(3)
	doneA()
	assert.Equal(t, "small 20", <-started, "the smallest waiting review gets the freed turn")
	(<-s1)()
	assert.Equal(t, "costly 2000", <-started, "then the smaller costly review")
	(<-s2)()
	assert.Empty(t, started, "the costly lane is full")
	(<-d)()
	assert.Equal(t, "costly 5000", <-started)
	(<-c)()
	assert.Equal(t, 0, tr.busy)
	assert.Equal(t, 0, tr.costly)
}

// A review whose deadline passes while it waits leaves the queue.
func TestTurnsDeadline(t *testing.T) {
	tr := newTurns(2, 0)
	done1, _ := tr.take(context.Background(), 1, false)
	done2, _ := tr.take(context.Background(), 1, false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, ok := tr.take(ctx, 1, false)
	assert.False(t, ok)
	assert.Equal(t, 0, tr.waitingCount())
	done1()
	done1() // a second call gives nothing back twice
	done2()
	assert.Equal(t, 0, tr.busy)
}
