package kube

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of a BodyBudget whose fields are zero.
const (
	defaultBudgetBytes = 128 << 20
	defaultBodyTimeout = 30 * time.Second
	// firstChunk is the most a body's buffer holds before bytes arrive
	// (a declared Content-Length only ever shrinks it).
	firstChunk = 16 << 10
)

// BodyBudget bounds the request bodies of the handlers it wraps, so that
// a body costs the memory of the bytes that actually arrived, never what
// a client declares:
//
//   - Each body is read, before the wrapped handler runs, into a buffer
//     that grows with the bytes received, up to the limit given to Limit.
//     A larger body (declared or sent) gets 413 at once.
//   - Bytes counts the body bytes held at once by every handler the budget
//     wraps, from the first byte read until the handler returns. A request
//     whose next bytes would exceed it is answered at once with 429 Too
//     Many Requests and a Retry-After header (the kube-apiserver's client
//     retries such answers); nothing waits in a queue.
//   - ReadTimeout bounds the reading of one body: a body that has not
//     arrived in full by then gets 408 and its connection is closed.
//
// The wrapped handler sees the whole body in r.Body with r.ContentLength
// set to its true length. A BodyBudget is safe for concurrent use; share
// one among all the handlers of a server and do not change its fields
// after the first request. The zero value is usable: 128 MiB in flight,
// 30 seconds per body.
//
// Bytes should be at least the largest limit given to Limit, or a body of
// that size can never be read. The body read deadline is set through
// http.ResponseController, which net/http's server supports over HTTP/1
// and HTTP/2; behind a ResponseWriter without deadlines the body is read
// without one.
type BodyBudget struct {
	// Bytes is the most body bytes held at once across the wrapped
	// handlers (128 MiB when zero).
	Bytes int64
	// ReadTimeout bounds the reading of one body (30 seconds when zero).
	ReadTimeout time.Duration

	used atomic.Int64
}

// Limit wraps next: a request reaches it only once its whole body, at
// most limit bytes, has been read within the budget (see BodyBudget).
// A nil BodyBudget gives the handler a budget of its own with the
// defaults; a nil next answers 404 once the body is read.
func (b *BodyBudget) Limit(limit int64, next http.Handler) http.Handler {
	if b == nil {
		b = &BodyBudget{}
	}
	if next == nil {
		next = http.NotFoundHandler()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > limit {
			bodyError(w, http.StatusRequestEntityTooLarge, tooLarge(r.URL.Path, limit))
			return
		}
		body, held, pooled, err := b.read(w, r, limit, time.Now().Add(b.timeout()))
		defer b.used.Add(-held)
		if err != nil {
			putBuffer(pooled)
			b.refuse(w, r, limit, err)
			return
		}
		d := &drainingBody{b: body}
		defer func() {
			d.b = nil
			putBuffer(pooled)
		}()
		r.Body = d
		r.ContentLength = int64(len(body))
		next.ServeHTTP(w, r)
	})
}

var (
	errTooLarge   = errors.New("body too large")
	errOverBudget = errors.New("over budget")
)

// buffers holds the first buffers of bodies, firstChunk bytes each: most
// reviews fit, and a body then costs no allocation of its own.
var buffers = sync.Pool{New: func() any { b := make([]byte, firstChunk); return &b }}

// putBuffer gives a buffer of buffers back (none when nil).
func putBuffer(b *[]byte) {
	if b != nil {
		buffers.Put(b)
	}
}

// read reads r's body within limit, holding budget for every byte of buffer
// it uses; held is what it holds, to be given back by the caller, and
// pooled the buffer of buffers the body is in, if it is, to be given back
// once nothing reads it any more. The body must arrive by deadline.
func (b *BodyBudget) read(w http.ResponseWriter, r *http.Request, limit int64, deadline time.Time) (body []byte, held int64, pooled *[]byte, err error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, 0, nil, nil
	}
	limit = max(limit, 0)
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(deadline) == nil {
		defer func() {
			if err == nil {
				// The body is in: lift the deadline, which would cancel
				// the request if it passed while the handler runs.
				_ = rc.SetReadDeadline(time.Time{})
			}
			// A refusal keeps the deadline: net/http then discards a
			// little of the rest of the body (into no buffer of ours) and
			// closes the connection gently, so that the client reads the
			// answer (a 429 it retries) instead of a reset while it is
			// still sending; a client that sends slowly meets the deadline.
		}()
	}
	if limit+1 >= firstChunk {
		if !b.take(firstChunk) {
			return nil, 0, nil, errOverBudget
		}
		pooled = buffers.Get().(*[]byte)
		body, held = (*pooled)[:0], firstChunk
	}
	size := int64(firstChunk)
	if r.ContentLength >= 0 {
		size = min(size, r.ContentLength+1) // +1 to see EOF without growing
	}
	size = min(max(size, 512), limit+1)
	for {
		if int64(len(body)) == int64(cap(body)) {
			if int64(len(body)) > limit {
				return nil, held, pooled, errTooLarge
			}
			next := max(2*int64(cap(body)), size)
			if r.ContentLength >= int64(len(body)) {
				next = min(next, r.ContentLength+1) // a declared length only shrinks it
			}
			grow := min(next, limit+1) - int64(cap(body))
			if !b.take(grow) {
				return nil, held, pooled, errOverBudget
			}
			held += grow
			nb := make([]byte, len(body), int64(cap(body))+grow)
			copy(nb, body)
			body = nb
			putBuffer(pooled)
			pooled = nil
		}
		n, rerr := r.Body.Read(body[len(body):cap(body)])
		body = body[:len(body)+n]
		if int64(len(body)) > limit {
			return nil, held, pooled, errTooLarge
		}
		if rerr == io.EOF {
			return body, held, pooled, nil
		}
		if rerr != nil {
			return nil, held, pooled, rerr
		}
	}
}

// take reserves n bytes of the budget, or reports that they do not fit.
func (b *BodyBudget) take(n int64) bool {
	total := b.Bytes
	if total <= 0 {
		total = defaultBudgetBytes
	}
	for {
		used := b.used.Load()
		if used+n > total {
			return false
		}
		if b.used.CompareAndSwap(used, used+n) {
			return true
		}
	}
}

func (b *BodyBudget) timeout() time.Duration {
	if b.ReadTimeout > 0 {
		return b.ReadTimeout
	}
	return defaultBodyTimeout
}

func (b *BodyBudget) refuse(w http.ResponseWriter, r *http.Request, limit int64, err error) {
	if r.ProtoMajor == 1 {
		// The rest of the body is not read: the connection cannot carry
		// another request.
		w.Header().Set("Connection", "close")
	}
	var mbe *http.MaxBytesError
	switch {
	case errors.Is(err, errTooLarge), errors.As(err, &mbe):
		bodyError(w, http.StatusRequestEntityTooLarge, tooLarge(r.URL.Path, limit))
	case errors.Is(err, errOverBudget):
		w.Header().Set("Retry-After", "1")
		bodyError(w, http.StatusTooManyRequests, "the server holds as many request bodies as it accepts at once: retry later")
	case errors.Is(err, os.ErrDeadlineExceeded):
		bodyError(w, http.StatusRequestTimeout, fmt.Sprintf("the request body did not arrive within %s", b.timeout()))
	default:
		bodyError(w, http.StatusBadRequest, "cannot read the request body: "+err.Error())
	}
}

func bodyError(w http.ResponseWriter, code int, msg string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_, _ = io.WriteString(w, msg+"\n")
}

func tooLarge(path string, limit int64) string {
	return fmt.Sprintf("the request body is larger than the %d bytes (%s) %s accepts", limit, sizeText(limit), path)
}

func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// drainingBody hands the body read to the wrapped handler and lets go of
// it once read, so that a handler that copies the body does not keep two
// copies alive.
type drainingBody struct{ b []byte }

func (d *drainingBody) Read(p []byte) (int, error) {
	if len(d.b) == 0 {
		d.b = nil
		return 0, io.EOF
	}
	n := copy(p, d.b)
	d.b = d.b[n:]
	if len(d.b) == 0 {
		d.b = nil
	}
	return n, nil
}

// WriteTo lets io.Copy take the body in one write.
func (d *drainingBody) WriteTo(w io.Writer) (int64, error) {
	b := d.b
	d.b = nil
	n, err := w.Write(b)
	return int64(n), err
}

func (d *drainingBody) Close() error {
	d.b = nil
	return nil
}
