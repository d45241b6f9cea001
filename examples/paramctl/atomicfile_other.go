//go:build !unix

package main

import (
	"io/fs"
	"os"
)

// readOnly reports whether the file's owner may not write it.
func readOnly(path string, fi fs.FileInfo) bool { return fi.Mode().Perm()&0o200 == 0 }

// keepOwner does nothing where files have no Unix owner.
func keepOwner(*os.File, fs.FileInfo) error { return nil }

// hardLinks is 1 where the count is not known.
func hardLinks(fs.FileInfo) uint64 { return 1 }

// processAlive cannot tell here: every process may be running, so no
// temporary file is taken for stale.
func processAlive(int) bool { return true }

// fileOwner is not known here.
func fileOwner(fs.FileInfo) (uid, gid int, ok bool) { return 0, 0, false }
