//go:build !linux

package webhook

import "time"

// threadCPUTime is not measured off Linux.
func threadCPUTime() time.Duration { return -1 }
