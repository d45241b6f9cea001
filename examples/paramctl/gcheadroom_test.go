package main

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNarrowGCHeadroom: paramctl (not a test, which leaves narrowGC
// unset) narrows the collector's headroom for a values file of a MiB or
// more, unless the user set GOGC or GOMEMLIMIT.
func TestNarrowGCHeadroom(t *testing.T) {
	was := debug.SetGCPercent(100)
	defer debug.SetGCPercent(was)
	percentAfter := func(main bool, size int) int {
		narrowGC = main
		defer func() { narrowGC = false }()
		debug.SetGCPercent(100)
		narrowGCHeadroom(size)
		return debug.SetGCPercent(100)
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	assert.Equal(t, gcHeadroom, percentAfter(true, 4<<20))
	assert.Equal(t, 100, percentAfter(true, 64<<10), "a small file")
	assert.Equal(t, 100, percentAfter(false, 4<<20), "a test's process")
	t.Setenv("GOGC", "200")
	assert.Equal(t, 100, percentAfter(true, 4<<20), "GOGC set")
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "1GiB")
	assert.Equal(t, 100, percentAfter(true, 4<<20), "GOMEMLIMIT set")
}
