//go:build !unix

package main

import "time"

// processCPUTime is not measured off Unix.
func processCPUTime() time.Duration { return -1 }
