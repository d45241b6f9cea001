package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
)

// openInput opens a file argument to read as a stream; "-" is standard
// input. Each document of the stream is bounded by the input limit
// (maxInputSize), not the stream as a whole. Its errors (and those of reading it) are readErrors, as
// readInput's.
func (e *env) openInput(name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(&namedReader{r: newDocLimit(e.stdin, e.inputLimit()), name: "standard input"}), nil
	}
	f, err := os.Open(name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &readError{name: name, err: err}
	}
	return &namedFile{f: f, r: newDocLimit(f, e.inputLimit()), name: name}, nil
}

// namedReader makes a read error a readError naming the input.
type namedReader struct {
	r    io.Reader
	name string
}

func (n *namedReader) Read(p []byte) (int, error) {
	k, err := n.r.Read(p)
	if err != nil && err != io.EOF {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		err = &readError{name: n.name, err: err}
	}
	return k, err
}

type namedFile struct {
	f    *os.File
	r    io.Reader // f, each document bounded
	name string
}

func (n *namedFile) Read(p []byte) (int, error) {
	return (&namedReader{r: n.r, name: n.name}).Read(p)
}

func (n *namedFile) Close() error { return n.f.Close() }

// spool is output held back until every document has passed: with a
// target, an atomicFile (renamed into place whole, or not at all), else a
// temporary file in the temporary directory (copied out at the end).
type spool struct {
	f      *os.File
	atomic *atomicFile // with a target
}

func newSpool(target string, opts ...writeOption) (*spool, error) {
	if target != "" {
		a, err := createAtomic(target, opts...)
		if err != nil {
			return nil, err
		}
		return &spool{f: a.f, atomic: a}, nil
	}
	f, err := os.CreateTemp("", "paramctl-*")
	if err != nil {
		return nil, err
	}
	return &spool{f: f}, nil
}

func (s *spool) Write(p []byte) (int, error) { return s.f.Write(p) }

// discard removes the spooled output (after commit: nothing).
func (s *spool) discard() {
	if s.atomic != nil {
		s.atomic.discard()
		return
	}
	_ = s.f.Close()
	_ = os.Remove(s.f.Name())
}

// copyTo copies the spooled output to w and removes it.
func (s *spool) copyTo(w io.Writer) error {
	defer s.discard()
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(w, s.f)
	return err
}

// commit puts the spooled output in place of its target (see atomicFile:
// links written through, mode kept, synced).
func (s *spool) commit() error {
	if s.atomic == nil {
		return errors.New("spool: no target to commit to")
	}
	return s.atomic.commit()
}

// codeError stops a run over a stream with an exit code.
type codeError struct {
	code int
	err  error
}

func (c *codeError) Error() string { return c.err.Error() }

// streamGC lets the garbage of a long stream grow to four times the live
// heap before a collection, unless GOGC says otherwise: the bounded window
// keeps the live heap at a few MB, where the default (GOGC=100) collects
// after every few MB of garbage and a YAML stream spends a third of its
// time collecting. Memory stays bounded (tens of MB), whatever the stream's
// length. It returns what puts the setting back.
func streamGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(400)
	return func() { debug.SetGCPercent(old) }
}
