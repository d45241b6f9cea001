package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
)

// The one way paramctl writes a file (list --write, add-param, migrate
// --output, the demo's files): into a temporary file beside the
// file, renamed over it once complete, so that a reader sees the old
// content or the new, never half of it, and a crash loses neither.
//
//   - A symbolic link is written through: the file it leads to (through
//     any chain of links, as a mounted ConfigMap's file is) gets the new
//     content and the links stay.
//   - The file keeps its permission bits (0644 for a new file).
//   - The temporary file is synced before the rename, and the directory
//     before and after it, so that the rename is durable.
//   - On any failure the temporary file is removed and the file is as it
//     was.
//
// The library writes no files; this is paramctl's own and lives here so
// that the example builds as a module of its own (examples import no
// internal package of the root module).

// atomicFile is a file being replaced whole.
type atomicFile struct {
	f      *os.File
	target string // the file the path leads to, links followed
	mode   fs.FileMode
}

// Seams for tests that make a step fail.
var (
	atomicSync   = func(f *os.File) error { return f.Sync() }
	atomicRename = os.Rename
)

// maxLinks bounds a chain of symbolic links (as the kernel's ELOOP does).
const maxLinks = 40

// createAtomic starts replacing the file at path (which need not exist).
func createAtomic(path string) (*atomicFile, error) {
	target, err := linkTarget(path)
	if err != nil {
		return nil, err
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(target); err == nil {
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s is not a regular file", path)
		}
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &atomicFile{f: f, target: target, mode: mode}, nil
}

// linkTarget follows path through symbolic links to the file they lead
// to (which may not exist yet); path itself when it is no link.
func linkTarget(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

func (a *atomicFile) Write(p []byte) (int, error) { return a.f.Write(p) }

// discard removes the temporary file; the target stays as it was. After
// commit it does nothing.
func (a *atomicFile) discard() {
	if a.f == nil {
		return
	}
	_ = a.f.Close()
	_ = os.Remove(a.f.Name())
	a.f = nil
}

// commit puts the written content in place of the target: synced, with
// the target's mode, renamed over it, the directory synced.
func (a *atomicFile) commit() (err error) {
	if a.f == nil {
		return errors.New("atomic write: already finished")
	}
	defer func() {
		if err != nil {
			a.discard()
		}
	}()
	if err = a.f.Chmod(a.mode); err != nil {
		return err
	}
	if err = atomicSync(a.f); err != nil {
		return err
	}
	dir := filepath.Dir(a.target)
	if err = syncDir(dir); err != nil {
		return err
	}
	if err = a.f.Close(); err != nil {
		return err
	}
	if err = atomicRename(a.f.Name(), a.target); err != nil {
		return err
	}
	a.f = nil // in place: nothing left to remove
	return syncDir(dir)
}

// syncDir makes the entries of a directory durable. Where directories
// cannot be synced (Windows; file systems that answer EINVAL) it does
// nothing.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

// writeFileAtomic replaces the file at path with data, as createAtomic
// and commit do.
func writeFileAtomic(path string, data []byte) error {
	a, err := createAtomic(path)
	if err != nil {
		return err
	}
	if _, err := a.Write(data); err != nil {
		a.discard()
		return err
	}
	return a.commit()
}
