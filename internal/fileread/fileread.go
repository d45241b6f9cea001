// Package fileread is the one way the module's packages read a file: with
// a size limit, refused with an error naming the file and the limit once
// the file is larger (a regular file by its size, before anything is read;
// anything else, /dev/zero for instance, after limit+1 bytes, never read
// to the end), and, in a folder opened with os.OpenRoot, a symbolic link
// leading out of the folder refused with an error that says so.
package fileread

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
)

// ChartFileLimit is the largest file of a Helm chart folder that is read:
// Helm's own (helm.sh/helm/v4/pkg/chart/loader.MaxDecompressedFileSize),
// so that a chart Helm refuses to load is refused here too.
const ChartFileLimit = 5 << 20

// Limit is the largest file, or document of a stream, read elsewhere.
const Limit = 16 << 20

// TooLargeError is a file (or a document of a stream) larger than the
// limit it was read with. ReadFS returns it inside a *fs.PathError naming
// the file, as it returns the system's errors.
type TooLargeError struct {
	// Limit is the limit in bytes.
	Limit int64
	// Document is true when one document of a stream, not the whole
	// file, went over the limit.
	Document bool
}

func (e *TooLargeError) Error() string {
	what := "larger than"
	if e.Document {
		what = "holds a document larger than"
	}
	return fmt.Sprintf("%s the limit of %s; refused", what, Size(e.Limit))
}

// IrregularError is a file in a folder that is no regular file (a device,
// a pipe, a socket), which Helm refuses to load from a chart folder.
type IrregularError struct {
	Mode fs.FileMode
}

func (e *IrregularError) Error() string {
	return fmt.Sprintf("not a regular file (%s); refused", kind(e.Mode))
}

// ErrEscapes is a path of a folder opened with os.OpenRoot that a symbolic
// link leads out of: reading it could show anything on the machine
// (/etc/shadow), so it is refused.
var ErrEscapes = errors.New("a symbolic link leads outside the folder; refused")

// Size is n bytes as a person reads it: "5 MiB", "512 KiB", "100 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a folder"
	}
	return "mode " + m.String()
}

// ReadFS reads name from fsys, at most limit bytes; with regularOnly a
// file that is not a regular file (after symbolic links) is refused
// before it is read, as Helm refuses it in a chart folder. Errors name
// the file as name does, each a *fs.PathError (as fs.ReadFile's); a
// missing file's error satisfies errors.Is(err, fs.ErrNotExist).
func ReadFS(fsys fs.FS, name string, limit int64, regularOnly bool) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, pathError(name, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, pathError(name, err)
	}
	if regularOnly && !info.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: &IrregularError{Mode: info.Mode()}}
	}
	return Read(f, name, limit, info)
}

// Read reads r to its end, at most limit bytes: more is a *TooLargeError
// naming name. info, when not nil, is r's: a regular file larger than the
// limit is refused before anything is read, and a smaller one is read
// into a buffer of its size (not grown by doubling).
func Read(r io.Reader, name string, limit int64, info fs.FileInfo) ([]byte, error) {
	size := int64(0)
	if info != nil && info.Mode().IsRegular() {
		size = info.Size()
		if size > limit {
			return nil, &fs.PathError{Op: "read", Path: name, Err: &TooLargeError{Limit: limit}}
		}
	}
	data, err := ReadCapped(r, limit, size)
	if err != nil {
		var tl *TooLargeError
		if errors.As(err, &tl) {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		return nil, pathError(name, err)
	}
	return data, nil
}

// ReadCapped reads r to its end into a buffer that never grows beyond
// limit+1 bytes (a *TooLargeError once it would), starting at size+1
// bytes (size is what Stat said, 0 when unknown), so that a file of known
// size is read without growing the buffer and /dev/zero costs at most
// about twice the limit, never more.
func ReadCapped(r io.Reader, limit, size int64) ([]byte, error) {
	buf := make([]byte, 0, min(max(size+1, 512), limit+1))
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > limit {
				return nil, &TooLargeError{Limit: limit}
			}
			grown := make([]byte, len(buf), min(2*int64(cap(buf)), limit+1))
			copy(grown, buf)
			buf = grown
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(buf)) > limit {
		return nil, &TooLargeError{Limit: limit}
	}
	return buf, nil
}

// pathError is err about the file name as a *fs.PathError (as fs.ReadFile
// gives it); os.Root's refusal of a path leaving its folder becomes
// ErrEscapes, which says why.
func pathError(name string, err error) error {
	op := "read"
	var pe *fs.PathError
	if errors.As(err, &pe) {
		op, err = pe.Op, pe.Err
	}
	if escapes(err) {
		return &fs.PathError{Op: "open", Path: name, Err: ErrEscapes}
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// escapes reports whether err is os.Root's refusal of a path leaving its
// folder (its error value is not exported; its text is stable).
func escapes(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}
