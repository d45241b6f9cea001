package main

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPUTime is the CPU time of the calling OS thread
// (CLOCK_THREAD_CPUTIME_ID); the caller locks its goroutine to the thread.
func threadCPUTime() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return -1
	}
	return time.Duration(ts.Nano())
}
