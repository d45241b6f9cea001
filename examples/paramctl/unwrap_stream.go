package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// unwrapped is one document's verdict in an unwrap stream: its output and
// notes, or its error.
type unwrapped struct {
	out   []byte
	notes []convert.Note
	err   error
}

// unwrapRun types v1beta1 instance parameters read from name as a `---`
// stream, by s (nil: guessed), through the bounded window of
// params.MapStream. A single document is converted exactly as one file
// always was (one, its output and its messages byte for byte); with more,
// each document is converted on its own, its notes and errors on standard
// error as `doc N: …` with lines of the whole stream, and the documents
// are written to standard output in input order as a `---` stream (JSON
// documents one after the other) only when every one of them passed:
// they wait in a spool. The exit status is the worst of all documents (2
// for one that cannot be read, 1 for one that cannot be converted).
// instances refuses documents that are not Instance manifests (for
// convert).
func (e *env) unwrapRun(name string, s *schema.Schema, format string, instances bool) int {
	in, err := e.openInput(name)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	defer in.Close()
	defer streamGC()()
	rec := &headRecorder{r: in}
	var sp *spool // made at the second document: one needs none
	var buf *bufio.Writer
	defer func() {
		if sp != nil {
			sp.discard()
		}
	}()
	worst, docs := exitOK, 0
	var first *unwrapped
	put := func(i int, r *unwrapped) {
		prefix := fmt.Sprintf("doc %d: ", i)
		for _, n := range r.notes {
			fmt.Fprintln(e.stderr, prefix+n.String())
		}
		if r.err != nil {
			worst = max(worst, e.unwrapFailed(prefix, name, r.err))
			return
		}
		if worst != exitOK {
			return // nothing will be written
		}
		if i > 0 && format != "json" {
			_, _ = buf.WriteString("---\n")
		}
		_, _ = buf.Write(r.out)
	}
	err = params.MapStream(context.Background(), rec, 0, func(d params.Document[unwrapped]) (unwrapped, error) {
		return unwrapOne(d.Text, s, format, instances, d.Locate), nil
	}, func(d params.Document[unwrapped]) error {
		r := d.Value
		docs++
		if d.Index == 0 {
			first = &r
			return nil
		}
		if first != nil {
			rec.stop() // a stream: the one-document path is not taken
			var err error
			if sp, err = newSpool(""); err != nil {
				return err
			}
			buf = bufio.NewWriterSize(sp, 256<<10)
			put(0, first)
			first = nil
		}
		put(d.Index, &r)
		return nil
	})
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	if docs <= 1 {
		// One document (or none): the whole input, as it always was.
		r := unwrapOne(rec.head(), s, format, instances, func(err error) error { return err })
		e.printNotes(r.notes)
		if r.err != nil {
			return e.unwrapFailed("", name, r.err)
		}
		e.stdout.Write(r.out)
		return exitOK
	}
	if worst != exitOK {
		return worst // nothing is written unless every document passed
	}
	if err := buf.Flush(); err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	if err := sp.copyTo(e.stdout); err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	return exitOK
}

// unwrapOne converts one document and writes it out in format; locate
// turns the lines of its errors into lines of the stream.
func unwrapOne(data []byte, s *schema.Schema, format string, instances bool, locate func(error) error) unwrapped {
	c, err := convert.Unwrap(s, data)
	if err != nil {
		return unwrapped{err: locate(err)}
	}
	if instances && !isInstance(c.Document) {
		return unwrapped{err: schema.ErrorList{{Pointer: "/kind", Kind: schema.KindEnum, Message: "convert --schema and --guess convert Instances; unwrap converts a map of values"}}.Err()}
	}
	if format == "json" {
		return unwrapped{out: append(mustBytes(c.JSON("  ")), '\n'), notes: c.Notes}
	}
	out, err := c.YAML()
	if err != nil {
		return unwrapped{err: err, notes: c.Notes}
	}
	return unwrapped{out: out, notes: c.Notes}
}

// isInstance tells an unwrapped Instance (kind Instance, or the KEP's
// `spec: parameters:` fragment; always kudo.dev/v1beta2 once unwrapped)
// from unwrapped values.
func isInstance(doc any) bool {
	m, ok := doc.(map[string]any)
	if !ok || m["apiVersion"] != "kudo.dev/v1beta2" {
		return false
	}
	if m["kind"] == "Instance" {
		return true
	}
	spec, ok := m["spec"].(map[string]any)
	if !ok {
		return false
	}
	_, ok = spec["parameters"]
	return ok
}

// unwrapFailed reports a document's conversion error as conversionFailed
// does, each line after prefix ("doc N: " in a stream), and returns the
// exit code: 2 for a document that cannot be read, 1 for one that cannot
// be converted.
func (e *env) unwrapFailed(prefix, file string, err error) int {
	if prefix == "" {
		return e.conversionFailed(file, err)
	}
	if _, ok := readFailure(err); ok {
		return e.fail(exitUsage, "%s: %s%v", file, prefix, err)
	}
	var el schema.ErrorList
	if asList(err, &el) {
		for _, x := range el {
			fmt.Fprintln(e.stderr, prefix+x.Error())
		}
		return exitInvalid
	}
	return e.fail(exitInvalid, "%s%v", prefix, err)
}

// headRecorder keeps what is read through it until stop, so that an input
// of one document can be converted whole, as it always was, while a stream
// is dropped once its second document is seen (by then at most the
// window's read-ahead has been kept).
type headRecorder struct {
	r       io.Reader
	mu      sync.Mutex
	buf     []byte
	stopped bool
}

func (h *headRecorder) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	h.mu.Lock()
	if !h.stopped {
		h.buf = append(h.buf, p[:n]...)
	}
	h.mu.Unlock()
	return n, err
}

// stop drops what was kept and keeps nothing more.
func (h *headRecorder) stop() {
	h.mu.Lock()
	h.stopped, h.buf = true, nil
	h.mu.Unlock()
}

// head returns everything read, unless stopped.
func (h *headRecorder) head() []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.buf
}
