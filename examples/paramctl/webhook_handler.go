package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params/gates"
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"runtime/debug"
	"strconv"
	"time"
)

// Limits of the HTTP layer. Each can be changed through Options.
const (
	// DefaultMaxReviewBytes bounds the body of /validate and /mutate. The
	// apiserver's own request limit is 3 MiB, so a larger admission review
	// cannot come from it.
	DefaultMaxReviewBytes = 3 << 20
	// DefaultMaxConversionBytes bounds the body of /convert: a LIST sends
	// many objects in one review.
	DefaultMaxConversionBytes = 64 << 20
	// DefaultReviewTimeout bounds the handling of one review when the URL
	// has no ?timeout= (the apiserver adds ?timeout=30s by default).
	DefaultReviewTimeout = 30 * time.Second
	// maxReviewTimeout caps what ?timeout= may ask for.
	maxReviewTimeout = 5 * time.Minute
)

// DefaultMaxReviewsAtOnce is the number of reviews a Handler works on at
// once when Options.MaxReviewsAtOnce is zero: twice the CPUs Go uses.
// The work is CPU-bound, so more at once is no faster, and each holds
// the values it decodes (about 35 MB for a 1.5 MB review of 150,000
// keys), which the body budget does not count.
func DefaultMaxReviewsAtOnce() int { return max(2*runtime.GOMAXPROCS(0), 2) }

// Options configure a Handler.
type Options struct {
	// Resolver finds the schema of an operator version. Required.
	Resolver SchemaResolver
	// GuessWithoutSchema chooses the documented fallback for converting an
	// Instance whose operator version has no schema: false (the default)
	// refuses the conversion, naming the operator version and what the
	// resolver looked for; true unwraps (and wraps) its parameters by safe
	// guessing, which types a text only where the value's JSON text is the
	// text itself ("3", "true"; never "007" or "0x1F") and otherwise keeps
	// the string. A schema that exists but cannot be used is refused
	// either way.
	GuessWithoutSchema bool
	// MaxReviewBytes bounds the body of /validate and /mutate
	// (DefaultMaxReviewBytes when zero).
	MaxReviewBytes int64
	// MaxConversionBytes bounds the body of /convert
	// (DefaultMaxConversionBytes when zero).
	MaxConversionBytes int64
	// Logger receives one line per refusal and per internal error
	// (discarded when nil).
	Logger *slog.Logger
	// OnAdmission, when set, is called with every admission decision of a
	// request that is not a dry run, after the response is decided; an
	// operator can record the resolved plan there. Dry-run requests change
	// nothing outside the response, so they never reach it.
	OnAdmission func(ctx context.Context, d Decision)
	// MaxReviewsAtOnce bounds the reviews worked on at once over HTTP
	// (DefaultMaxReviewsAtOnce() when zero). A review beyond it waits,
	// its body read, until one finishes or its deadline passes; then it
	// is answered 503 with Retry-After. Bodies waiting are bounded by
	// the server's body budget (Server.MaxBodyBytesInFlight).
	MaxReviewsAtOnce int
	// Gates, when set, are the field-level feature gates /mutate applies
	// to every object it admits, against oldObject on updates, exactly as
	// `paramctl gates` does: a warning per dropped field, and the audit
	// annotation spec-unchanged on updates.
	Gates *gates.Set
}

// Decision is one admission decision, as OnAdmission sees it.
type Decision struct {
	// Mutating is true for /mutate, false for /validate.
	Mutating bool
	Request  *kube.AdmissionRequest
	Response *kube.AdmissionResponse
	// Plan is the plan the change runs ("" when nothing changed or the
	// request was denied); set by /validate only.
	Plan string
}

// Handler serves the webhook endpoints: /validate and /mutate (admission
// reviews), /convert (conversion reviews) and /healthz. Its Validate,
// Mutate and Convert methods can also be called directly by a program
// with its own HTTP server. A Handler is safe for concurrent use.
//
// A Handler answers every caller that reaches it. To admit only callers
// with a client certificate your CA signed (the kube-apiserver), wrap it
// with kube.ClientCA.Require(h, "/healthz") and configure the TLS server with
// kube.ClientCA.ConfigureTLS; Server.ClientCAFile does both.
type Handler struct {
	opts Options
	log  *slog.Logger
	// turns holds a token per review being worked on over HTTP.
	turns chan struct{}
	// serve answers a review body; tests wrap it to time the handling
	// apart from reading the request and writing the answer.
	serve func(ctx context.Context, path string, body []byte) ([]byte, error)
}

// NewHandler returns a Handler for the options.
func NewHandler(opts Options) (*Handler, error) {
	if opts.Resolver == nil {
		return nil, errors.New("webhook: Options.Resolver is required")
	}
	if opts.MaxReviewBytes <= 0 {
		opts.MaxReviewBytes = DefaultMaxReviewBytes
	}
	if opts.MaxConversionBytes <= 0 {
		opts.MaxConversionBytes = DefaultMaxConversionBytes
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.MaxReviewsAtOnce <= 0 {
		opts.MaxReviewsAtOnce = DefaultMaxReviewsAtOnce()
	}
	h := &Handler{opts: opts, log: log, turns: make(chan struct{}, opts.MaxReviewsAtOnce)}
	h.serve = h.ServeReview
	return h, nil
}

// ServeHTTP routes the endpoints.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		// Handle* recover their own panics into denials; this catches
		// anything before a review is known, so the server never dies.
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			h.log.Error("internal error", "path", r.URL.Path, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			httpError(w, http.StatusInternalServerError, fmt.Sprintf("internal error: %v", p))
		}
	}()
	switch r.URL.Path {
	case "/healthz":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "ok\n")
	case "/validate", "/mutate":
		h.serveReview(w, r, h.opts.MaxReviewBytes)
	case "/convert":
		h.serveReview(w, r, h.opts.MaxConversionBytes)
	default:
		httpError(w, http.StatusNotFound, fmt.Sprintf("no endpoint %s: use /validate, /mutate, /convert or /healthz", r.URL.Path))
	}
}

func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_, _ = io.WriteString(w, msg+"\n")
}

// readReview checks the method, applies ?timeout= and reads the body
// within limit. It writes the HTTP error itself and returns ok=false.
func (h *Handler) readReview(w http.ResponseWriter, r *http.Request, limit int64) (context.Context, context.CancelFunc, []byte, bool) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		httpError(w, http.StatusMethodNotAllowed, fmt.Sprintf("%s needs POST, not %s", r.URL.Path, r.Method))
		return nil, nil, nil, false
	}
	timeout := DefaultReviewTimeout
	if t := r.URL.Query().Get("timeout"); t != "" {
		d, err := time.ParseDuration(t)
		if err != nil || d <= 0 {
			httpError(w, http.StatusBadRequest, fmt.Sprintf("?timeout=%s is not a positive duration such as 30s", t))
			return nil, nil, nil, false
		}
		timeout = min(d, maxReviewTimeout)
	}
	if r.ContentLength > limit {
		httpError(w, http.StatusRequestEntityTooLarge, tooLarge(r.URL.Path, limit))
		return nil, nil, nil, false
	}
	body, err := readBody(w, r, limit)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			httpError(w, http.StatusRequestEntityTooLarge, tooLarge(r.URL.Path, limit))
		} else {
			httpError(w, http.StatusBadRequest, "cannot read the request body: "+err.Error())
		}
		return nil, nil, nil, false
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	return ctx, cancel, body, true
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

func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	body := http.MaxBytesReader(w, r.Body, limit)
	defer body.Close()
	// The buffer grows with the bytes that arrive, never from the length
	// a client declares (40 header-only requests declaring 64 MiB once
	// took a server to 2.5 GB).
	var buf bytes.Buffer
	_, err := buf.ReadFrom(body)
	return buf.Bytes(), err
}

func (h *Handler) serveReview(w http.ResponseWriter, r *http.Request, limit int64) {
	ctx, cancel, body, ok := h.readReview(w, r, limit)
	if !ok {
		return
	}
	defer cancel()
	if !h.takeTurn(ctx, w) {
		return
	}
	defer func() { <-h.turns }()
	out, err := h.serve(ctx, r.URL.Path, body)
	if err != nil {
		code := http.StatusBadRequest
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			code = http.StatusGatewayTimeout // the review's deadline passed while reading it
		}
		httpError(w, code, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	_, _ = w.Write(out)
}

// takeTurn waits for one of the Handler's turns at working on a review
// until ctx ends; then it answers 503 itself and returns false.
func (h *Handler) takeTurn(ctx context.Context, w http.ResponseWriter) bool {
	select {
	case h.turns <- struct{}{}:
		return true // a free turn is taken even past the deadline: the review then says which step it reached
	default:
	}
	select {
	case h.turns <- struct{}{}:
		return true
	case <-ctx.Done():
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusServiceUnavailable, fmt.Sprintf("the server works on %d reviews at once and none finished before this review's deadline: retry later", cap(h.turns)))
		return false
	}
}

// ServeReview answers one review body as the endpoint path ("/validate",
// "/mutate" or "/convert") would over HTTP, without the HTTP: it returns
// the response review as JSON, or an error for a body that is not a
// review of the endpoint's kind (what HTTP answers with 400). Body
// limits are the caller's business.
func (h *Handler) ServeReview(ctx context.Context, path string, body []byte) ([]byte, error) {
	switch path {
	case "/validate", "/mutate":
		review, err := kube.DecodeReview[kube.AdmissionReview](ctx, body)
		if err != nil {
			return nil, err
		}
		var resp *kube.AdmissionResponse
		if path == "/mutate" {
			resp = h.Mutate(ctx, review.Request)
		} else {
			resp = h.Validate(ctx, review.Request)
		}
		out, err := review.Respond(resp) // warnings capped as the apiserver keeps them
		if out != nil {
			return out, nil // an answer too large became a failure that says so
		}
		return nil, err
	case "/convert":
		review, err := kube.DecodeReview[kube.ConversionReview](ctx, body)
		if err != nil {
			return nil, err
		}
		return review.Respond(h.Convert(ctx, review.Request))
	}
	return nil, fmt.Errorf("no endpoint %s: use /validate, /mutate or /convert", path)
}
