package migrate

import (
	"github.com/paramkit/paramkit/internal/pointer"
)

// A chain of versions runs its steps in order (ThroughVersions), each step a complete
// migration into the next schema; the Result speaks of the input and the
// output, whatever happened in between. Each step records where its static
// places took their values from (moves) and what it dropped, so that a
// pointer can be traced through the chain: every value under a place moves
// with it, keeping its path below.

// traceBack turns a pointer in the input of the step after steps into a
// pointer in the input of the first step.
func traceBack(steps []*migTrace, p string) string {
	for i := len(steps) - 1; i >= 0; i-- {
		best := -1
		for j, mv := range steps[i].moves {
			if pointer.HasPrefix(p, mv.to) && (best < 0 || len(mv.to) > len(steps[i].moves[best].to)) {
				best = j
			}
		}
		if best < 0 {
			return p
		}
		mv := steps[i].moves[best]
		p = mv.from + p[len(mv.to):]
	}
	return p
}

// traceForward turns a pointer in the output of a step into a pointer in
// the output of the last of the steps that follow it. A value dropped on
// the way keeps the pointer it had where it was dropped.
func traceForward(steps []*migTrace, p string) string {
	for _, st := range steps {
		best, bestLen := -1, -1
		for j, mv := range st.moves {
			if pointer.HasPrefix(p, mv.from) && len(mv.from) > bestLen {
				best, bestLen = j, len(mv.from)
			}
		}
		for _, d := range st.drops {
			if pointer.HasPrefix(p, d) && len(d) > bestLen {
				return p
			}
		}
		if best < 0 {
			return p
		}
		mv := st.moves[best]
		p = mv.to + p[len(mv.from):]
	}
	return p
}
