package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"

	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params/gates"
)

// Limits of the HTTP layer, kube's (see kube.Reviews). Each can be
// changed through Options.
const (
	// DefaultMaxReviewBytes bounds the body of /validate and /mutate.
	DefaultMaxReviewBytes = kube.DefaultMaxReviewBytes
	// DefaultMaxConversionBytes bounds the body of /convert.
	DefaultMaxConversionBytes = kube.DefaultMaxConversionBytes
	// DefaultMaxBodyBytesInFlight bounds the request body bytes the
	// handler holds at once, across all requests: two of the largest
	// conversion reviews, or forty-odd of the largest admission reviews.
	DefaultMaxBodyBytesInFlight = 128 << 20
)

// DefaultMaxReviewsAtOnce is the number of reviews a Handler works on at
// once when Options.MaxReviewsAtOnce is zero: kube.DefaultReviewsAtOnce.
func DefaultMaxReviewsAtOnce() int { return kube.DefaultReviewsAtOnce() }

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
	// its body read, for a turn until its deadline passes; then it is
	// answered 503 with Retry-After. Turns go to the smallest waiting
	// body first, and large reviews hold at most a quarter of the turns,
	// never the last (kube.DefaultCostlyAtOnce; see kube.Reviews), so a
	// small review is not queued behind costly ones.
	MaxReviewsAtOnce int
	// MaxBodyBytesInFlight bounds the request body bytes held at once
	// across all requests (DefaultMaxBodyBytesInFlight when zero): a
	// request whose body does not fit gets 429 with Retry-After at once.
	// Each body is read into memory as its bytes arrive, never sized from
	// the Content-Length a client declares (see kube.BodyBudget).
	MaxBodyBytesInFlight int64
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
	// validate, mutate and convert are the HTTP endpoints (kube.Reviews).
	validate, mutate, convert http.Handler
	// timed runs the work of one review; tests replace it to time the
	// work apart from reading the request and writing the answer.
	timed func(work func())
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
	if opts.MaxBodyBytesInFlight <= 0 {
		opts.MaxBodyBytesInFlight = DefaultMaxBodyBytesInFlight
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.MaxReviewsAtOnce <= 0 {
		opts.MaxReviewsAtOnce = DefaultMaxReviewsAtOnce()
	}
	h := &Handler{opts: opts, log: log, timed: func(work func()) { work() }}
	rv := &kube.Reviews{
		// A body must arrive within the server's read timeout (and the
		// review's deadline).
		Budget:             &kube.BodyBudget{Bytes: opts.MaxBodyBytesInFlight, ReadTimeout: kube.DefaultReadTimeout},
		MaxReviewBytes:     opts.MaxReviewBytes,
		MaxConversionBytes: opts.MaxConversionBytes,
		AtOnce:             opts.MaxReviewsAtOnce,
		Logger:             log,
	}
	h.validate = rv.Admission(func(ctx context.Context, req *kube.AdmissionRequest) (resp *kube.AdmissionResponse, _ error) {
		h.timed(func() { resp = h.Validate(ctx, req) })
		return resp, nil
	})
	h.mutate = rv.Admission(func(ctx context.Context, req *kube.AdmissionRequest) (resp *kube.AdmissionResponse, _ error) {
		h.timed(func() { resp = h.Mutate(ctx, req) })
		return resp, nil
	})
	h.convert = rv.Conversion(func(ctx context.Context, req *kube.ConversionRequest) (resp *kube.ConversionResponse) {
		h.timed(func() { resp = h.Convert(ctx, req) })
		return resp
	})
	return h, nil
}

// ServeHTTP routes the endpoints; /validate, /mutate and /convert are
// kube.Reviews' handlers (body budget, the review's deadline from the
// first byte, fair turns, capped answers).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/healthz":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "ok\n")
	case "/validate":
		h.validate.ServeHTTP(w, r)
	case "/mutate":
		h.mutate.ServeHTTP(w, r)
	case "/convert":
		h.convert.ServeHTTP(w, r)
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
