package main

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"

	"github.com/paramkit/paramkit/lint"
)

// maxInputSize is the largest file paramctl reads (a schema, a values file,
// a --set-file, a CRD, a config or baseline, standard input) and the
// largest document of a `---` stream (a stream as a whole may be as long
// as it likes). The files of a chart folder have Helm's own limit, 5 MiB.
const maxInputSize = 16 << 20

// inputLimit is the limit readInput and openInput read with: maxInputSize,
// unless a test set a smaller one.
func (e *env) inputLimit() int64 {
	if e.maxInput > 0 {
		return e.maxInput
	}
	return maxInputSize
}

// errTooLarge is a file over the limit; readError names the file.
type errTooLarge struct {
	limit    int64
	document bool // one document of a stream, not the whole file
}

func (e *errTooLarge) Error() string {
	if e.document {
		return "holds a document larger than the limit of " + sizeText(e.limit) + "; refused"
	}
	return "larger than the limit of " + sizeText(e.limit) + "; refused"
}

// readBounded reads r to its end, at most limit bytes (more is an
// errTooLarge, never read to the end: /dev/zero is refused after limit+1
// bytes). A regular file larger than the limit is refused by its size
// before anything is read, and a smaller one is read into a buffer of its
// size rather than one grown by doubling.
func readBounded(r io.Reader, limit int64) ([]byte, error) {
	size := int64(0)
	if f, ok := r.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
			if size = info.Size(); size > limit {
				return nil, &errTooLarge{limit: limit}
			}
		}
	}
	// The buffer never grows beyond limit+1 bytes: /dev/zero costs at
	// most about twice the limit.
	buf := make([]byte, 0, min(max(size+1, 512), limit+1))
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > limit {
				return nil, &errTooLarge{limit: limit}
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
		return nil, &errTooLarge{limit: limit}
	}
	return buf, nil
}

// readFileBounded reads a file as readInput does (at most maxInputSize
// bytes), for code without an env; its error is a readError.
func readFileBounded(name string) ([]byte, error) {
	return (&env{}).readInput(name)
}

// pathErr is err without a *fs.PathError's op and path, so that a
// readError names the file once.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// readChart reads a chart folder with lint.ReadChart through an
// os.OpenRoot of the folder: a symbolic link leading out of the chart (a
// subchart's values.yaml linked to /etc/shadow or /dev/zero) is refused,
// saying so, and every file is bounded by Helm's limit on a chart file.
func readChart(dir string) (*lint.Chart, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, pathErr(err)
	}
	defer root.Close()
	chart, err := lint.ReadChart(root.FS())
	if err == nil {
		narrowGCHeadroom(len(chart.Values))
	}
	return chart, err
}

// limitFS is a file system whose files are refused (errTooLarge) beyond
// limit bytes: for library functions that read files of a folder on
// paramctl's behalf (convert.ReadSchema), so that paramctl's limit holds
// there too.
type limitFS struct {
	fsys  fs.FS
	limit int64
}

func (l limitFS) Open(name string) (fs.File, error) {
	f, err := l.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && info.Size() > l.limit {
		f.Close()
		return nil, &fs.PathError{Op: "read", Path: name, Err: &errTooLarge{limit: l.limit}}
	}
	return &limitFile{File: f, left: l.limit, limit: l.limit}, nil
}

// limitFile is a file of a limitFS.
type limitFile struct {
	fs.File
	left, limit int64
}

func (f *limitFile) Read(p []byte) (int, error) {
	if f.left < 0 {
		return 0, &errTooLarge{limit: f.limit}
	}
	if int64(len(p)) > f.left+1 {
		p = p[:f.left+1]
	}
	n, err := f.File.Read(p)
	f.left -= int64(n)
	if f.left < 0 {
		return n, &errTooLarge{limit: f.limit}
	}
	return n, err
}

// ReadDir passes a folder's listing through (fs.ReadDir needs it).
func (f *limitFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if d, ok := f.File.(fs.ReadDirFile); ok {
		return d.ReadDir(n)
	}
	return nil, &fs.PathError{Op: "readdir", Err: errors.ErrUnsupported}
}

// docLimit bounds each document of a `---` stream to limit bytes, so that
// a stream is read in bounded memory however long it is, and a file
// without line breaks (/dev/zero) is refused after limit bytes. It counts
// the bytes since the last line that starts or ends a document (`---`,
// `--- CONTENT`, `...`), as the stream readers split documents; a line
// that may still turn out to be such a marker is not counted until it
// ends, unless it is itself longer than the limit.
type docLimit struct {
	r     io.Reader
	limit int64
	count int64 // bytes of the current document so far, this line included
	// the current line: its length, its first four bytes, and whether
	// everything after a leading "..." is blank.
	lineLen   int64
	head      [4]byte
	dotsBlank bool
}

func newDocLimit(r io.Reader, limit int64) *docLimit {
	return &docLimit{r: r, limit: limit, dotsBlank: true}
}

func (d *docLimit) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	b := p[:n]
	for len(b) > 0 {
		seg, nl := b, false
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			seg, nl = b[:i+1], true
		}
		d.line(seg[:len(seg)-btoi(nl)])
		d.count += int64(len(seg))
		if d.over() {
			return n, &errTooLarge{limit: d.limit, document: true}
		}
		if nl {
			d.lineEnd()
		}
		b = b[len(seg):]
	}
	if d.over() {
		return n, &errTooLarge{limit: d.limit, document: true}
	}
	return n, err
}

// line takes in more of the current line (without its "\n").
func (d *docLimit) line(b []byte) {
	start := d.lineLen
	for i := 0; i < len(b) && start+int64(i) < int64(len(d.head)); i++ {
		d.head[start+int64(i)] = b[i]
	}
	d.lineLen += int64(len(b))
	if start < 4 && d.lineLen >= 4 && d.startsDoc() {
		// "--- CONTENT": CONTENT belongs to the next document.
		d.count = start - 4
	}
	if d.lineLen < 3 || !d.dotsBlank || string(d.head[:3]) != "..." {
		return
	}
	for _, c := range b[max(0, 3-start):] {
		if c != ' ' && c != '\t' && c != '\r' {
			d.dotsBlank = false
			return
		}
	}
}

// startsDoc reports whether the line so far (four bytes at least) is
// "---" followed by a blank: it starts a document.
func (d *docLimit) startsDoc() bool {
	return string(d.head[:3]) == "---" && (d.head[3] == ' ' || d.head[3] == '\t' || d.head[3] == '\r')
}

// lineEnd is the end of the current line (its "\n" counted).
func (d *docLimit) lineEnd() {
	switch {
	case d.lineLen == 3 && string(d.head[:3]) == "---",
		d.lineLen >= 3 && string(d.head[:3]) == "..." && d.dotsBlank:
		d.count = 0
	}
	d.lineLen, d.dotsBlank = 0, true
}

// over reports whether the current document is over the limit, leaving
// out a line that may yet be a marker (one not longer than the limit).
func (d *docLimit) over() bool {
	pending := int64(0)
	switch {
	case d.lineLen <= 3 && (string(d.head[:d.lineLen]) == "---"[:d.lineLen] || string(d.head[:d.lineLen]) == "..."[:d.lineLen]),
		d.lineLen > 3 && string(d.head[:3]) == "..." && d.dotsBlank:
		pending = d.lineLen
	}
	return d.count-pending > d.limit || pending > d.limit
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sizeText is a byte count as people read a limit: MiB or KiB when it is
// a whole number of them.
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
