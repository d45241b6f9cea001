//go:build unix

package main

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// readOnly reports whether an editor would call the file read-only: its
// owner may not write it, or the user running paramctl may not (root may
// write anything, so the permission bits decide for root).
func readOnly(path string, fi fs.FileInfo) bool {
	if fi.Mode().Perm()&0o200 == 0 {
		return true
	}
	return syscall.Access(path, 2 /* W_OK */) != nil
}

// keepOwner gives the temporary file f the owner and group of the file
// fi describes, as an editor keeps them.
func keepOwner(f *os.File, fi fs.FileInfo) error {
	uid, gid, ok := fileOwner(fi)
	if !ok || uid == os.Getuid() && gid == os.Getgid() {
		return nil // a new file is ours already
	}
	return f.Chown(uid, gid)
}

// hardLinks is the number of names the file has.
func hardLinks(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// processAlive reports whether a process pid runs (or may: one of
// another user answers EPERM).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// fileOwner is the file's owner and group.
func fileOwner(fi fs.FileInfo) (uid, gid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return int(st.Uid), int(st.Gid), true
}
