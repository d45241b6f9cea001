package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The one way paramctl writes a file (list --write, add-param, migrate
// --output, crd --output, schema --write, the demo's files): into a
// temporary file beside the file, renamed over it once complete, so that
// a reader sees the old content or the new, never half of it, and a crash
// loses neither. It behaves as an editor does:
//
//   - A symbolic link is written through: the file it leads to (through
//     any chain of links, as a mounted ConfigMap's file is) gets the new
//     content and the links stay.
//   - The file keeps its permission bits (0644 for a new file) and its
//     owner and group; where they cannot be kept (another user's file)
//     it is refused unless forced.
//   - A read-only file (no write permission for its owner, or none for
//     the user running paramctl) is refused unless forced (--force).
//   - A file with other hard links is written all the same, saying so
//     (the other names keep the old content).
//   - The temporary file is synced before the rename, and the directory
//     before and after it, so that the rename is durable.
//   - On any failure the temporary file is removed and the file is as it
//     was. Temporary files are named .NAME.paramctl-PID-RANDOM.tmp; one
//     an earlier run left (killed mid-write: older than this run, its
//     process gone) is removed by the next write beside it.
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

// writeOption changes how createAtomic and writeFileAtomic write.
type writeOption func(*writeOptions)

type writeOptions struct {
	force bool
	notes io.Writer
}

// forceWrite, when force is true, replaces a read-only file and one whose
// owner cannot be kept (--force).
func forceWrite(force bool) writeOption { return func(o *writeOptions) { o.force = force } }

// writeNotes sends what the writer has to say (a hard link broken, stale
// temporary files removed) to w; standard error unless set.
func writeNotes(w io.Writer) writeOption { return func(o *writeOptions) { o.notes = w } }

// writeOptions are the options of a command's write: forced or not, notes
// on its standard error.
func (e *env) writeOptions(force bool) []writeOption {
	return []writeOption{forceWrite(force), writeNotes(e.stderr)}
}

// Seams for tests that make a step fail.
var (
	atomicSync   = func(f *os.File) error { return f.Sync() }
	atomicRename = os.Rename
)

// maxLinks bounds a chain of symbolic links (as the kernel's ELOOP does).
const maxLinks = 40

// runStart is when this run started: a temporary file of ours older than
// it, whose process is gone, was left by an earlier run.
var runStart = time.Now()

// tempPattern is the name of the writer's temporary files for the file
// base: recognisably paramctl's, with the process that wrote it.
func tempPattern(base string, pid int) string {
	return "." + base + ".paramctl-" + strconv.Itoa(pid) + "-*.tmp"
}

// createAtomic starts replacing the file at path (which need not exist).
func createAtomic(path string, opts ...writeOption) (*atomicFile, error) {
	o := writeOptions{notes: os.Stderr}
	for _, opt := range opts {
		opt(&o)
	}
	target, err := linkTarget(path)
	if err != nil {
		return nil, err
	}
	mode := fs.FileMode(0o644)
	fi, err := os.Stat(target)
	exists := err == nil
	if exists {
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s is not a regular file", path)
		}
		mode = fi.Mode().Perm()
		if !o.force && readOnly(target, fi) {
			return nil, fmt.Errorf("%s is read-only (mode %04o); not replaced (--force replaces it)", path, mode)
		}
	}
	dir, base := filepath.Dir(target), filepath.Base(target)
	removeStaleTemps(dir, base, o.notes)
	f, err := os.CreateTemp(dir, tempPattern(base, os.Getpid()))
	if err != nil {
		return nil, err
	}
	a := &atomicFile{f: f, target: target, mode: mode}
	if exists {
		if err := keepOwner(f, fi); err != nil && !o.force {
			a.discard()
			return nil, fmt.Errorf("%s: its owner cannot be kept (%v); not replaced (--force replaces it, owned by you)", path, err)
		}
		if n := hardLinks(fi); n > 1 && o.notes != nil {
			fmt.Fprintf(o.notes, "%s: has %d hard links; replacing it breaks them (the other names keep the old content)\n", path, n)
		}
	}
	return a, nil
}

// removeStaleTemps removes the temporary files for the file base in dir
// that an earlier run left: older than this run, and their process gone.
func removeStaleTemps(dir, base string, notes io.Writer) {
	matches, _ := filepath.Glob(filepath.Join(dir, "."+base+".paramctl-*.tmp"))
	prefix := "." + base + ".paramctl-"
	for _, m := range matches {
		rest := strings.TrimPrefix(filepath.Base(m), prefix)
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil {
			continue
		}
		fi, err := os.Lstat(m)
		if err != nil || !fi.Mode().IsRegular() || !fi.ModTime().Before(runStart) {
			continue
		}
		if pid == os.Getpid() || processAlive(pid) {
			continue
		}
		if os.Remove(m) == nil && notes != nil {
			fmt.Fprintf(notes, "%s: removed, a temporary file an earlier run left\n", m)
		}
	}
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
func writeFileAtomic(path string, data []byte, opts ...writeOption) error {
	a, err := createAtomic(path, opts...)
	if err != nil {
		return err
	}
	if _, err := a.Write(data); err != nil {
		a.discard()
		return err
	}
	return a.commit()
}
