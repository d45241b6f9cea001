//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPUTime is the CPU time of the process so far (user and
// system), or -1 where it cannot be read.
func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
