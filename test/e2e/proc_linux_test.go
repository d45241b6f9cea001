//go:build e2e && linux

package e2e

import "syscall"

// childAttr makes the kernel kill a server when the test process dies, so
// that an interrupted run leaves nothing listening.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
