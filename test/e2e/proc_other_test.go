//go:build e2e && !linux

package e2e

import "syscall"

// childAttr has nothing to add where the kernel cannot tie a child's life
// to its parent's; the servers are stopped by the test's cleanup.
func childAttr() *syscall.SysProcAttr { return nil }
