//go:build !linux

package main

import "time"

// threadCPUTime is not measured off Linux.
func threadCPUTime() time.Duration { return -1 }
