package kube

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"time"
)

// Defaults of a Reviews whose fields are zero.
const (
	// DefaultMaxReviewBytes bounds an admission review's body: the
	// apiserver's own request limit is 3 MiB, so a larger admission
	// review cannot come from it.
	DefaultMaxReviewBytes = 3 << 20
	// DefaultMaxConversionBytes bounds a conversion review's body: a LIST
	// converts many objects in one review.
	DefaultMaxConversionBytes = 64 << 20
	// DefaultReviewTimeout is a review's deadline when its URL has no
	// ?timeout= (the apiserver adds ?timeout=10s or what the webhook
	// configuration says).
	DefaultReviewTimeout = 30 * time.Second
	// DefaultSmallReviewBytes is the largest body of a small review: one
	// a costly queue never holds up (see Reviews).
	DefaultSmallReviewBytes = 64 << 10
	// maxReviewTimeout caps what ?timeout= may ask for.
	maxReviewTimeout = 5 * time.Minute
)

// DefaultReviewsAtOnce is the number of reviews a Reviews works on at once
// when its AtOnce is zero: twice the CPUs Go uses, at least 2. The work
// is CPU-bound, so more at once is no faster, and each review holds the
// values it decodes (about 35 MB for a 1.8 MB review of 150,000 keys),
// which the body budget does not count.
func DefaultReviewsAtOnce() int { return max(2*runtime.GOMAXPROCS(0), 2) }

// DefaultCostlyAtOnce is the number of costly reviews (bodies above
// SmallBytes) a Reviews working on atOnce reviews at once works on at
// once when its CostlyAtOnce is zero: a quarter of atOnce, at least 1.
// A costly review's work holds about a hundred times its body (a 1.8 MB
// review of 150,000 undeclared keys allocates over 200 MB), so it is
// these, not the turns, that bound the memory under attack: one at a
// time on two CPUs keeps 30 clients looping such reviews within 400 MB
// of growth, where three grew a server by 550 MB.
func DefaultCostlyAtOnce(atOnce int) int { return max(atOnce/4, 1) }

// AdmitFunc answers one admission request; kube.Admit with a schema is
// one. An error is never dropped: it is logged, and unless the response
// already denies the request, the request is denied with it (code 500).
type AdmitFunc func(ctx context.Context, req *AdmissionRequest) (*AdmissionResponse, error)

// ConvertFunc answers one conversion request; ConvertReview with a
// function that converts one object is one. A nil response is answered
// as a failure.
type ConvertFunc func(ctx context.Context, req *ConversionRequest) *ConversionResponse

// Reviews makes the net/http handlers of admission and conversion
// webhooks, bounded for hostile clients as the package doc's "Serving
// hostile clients" says. Every handler it makes shares its bounds:
//
//   - The review's deadline is the URL's ?timeout= (DefaultReviewTimeout
//     without one, at most five minutes), counted from the first byte of
//     the body: a body still trickling in when it passes is answered 504
//     at once, and so is a review still waiting for its turn.
//   - Bodies are read as their bytes arrive, never sized from a declared
//     Content-Length, within the path's limit (413 beyond it) and within
//     Budget, shared by all the handlers (429 with Retry-After when the
//     bytes held at once would exceed it; see BodyBudget).
//   - At most AtOnce reviews are worked on at once. A review beyond
//     waits for a turn until its deadline (then 503 with Retry-After).
//     The service is fair by cost: waiting reviews get turns smallest
//     body first, and reviews larger than SmallBytes (costly ones) never
//     hold more than CostlyAtOnce turns (a quarter of AtOnce by
//     default, at most AtOnce-1), so a small review is never queued behind costly ones:
//     it waits at most for another small review; and the memory costly
//     reviews hold is bounded by CostlyAtOnce, not by the clients.
//   - A body is decoded by DecodeReview: not a review, or an envelope
//     that repeats a key (two "uid" or "object"), is answered 400.
//   - The answer is written by Respond: warnings capped as the apiserver
//     keeps them (4 KiB in total, 256 characters each), an admission
//     answer at most 256 KiB.
//   - An error of the AdmitFunc is logged and denies the request; a
//     panic is logged and answered 500; the server goes on.
//
// The zero value is usable: set fields before making the first handler
// and do not change them after. A Reviews is safe for concurrent use.
type Reviews struct {
	// Budget bounds the body bytes held at once by every handler made
	// here (a BodyBudget of its own with the defaults when nil). It
	// should be at least the largest body limit. Its ReadTimeout bounds
	// the reading of one body besides the review's deadline.
	Budget *BodyBudget
	// MaxReviewBytes bounds an admission review's body
	// (DefaultMaxReviewBytes when zero).
	MaxReviewBytes int64
	// MaxConversionBytes bounds a conversion review's body
	// (DefaultMaxConversionBytes when zero).
	MaxConversionBytes int64
	// AtOnce is the most reviews worked on at once (DefaultReviewsAtOnce
	// when zero). With 1 there is no turn costly reviews cannot take, and
	// a small review may wait for a costly one to finish.
	AtOnce int
	// SmallBytes is the largest body of a small review
	// (DefaultSmallReviewBytes when zero).
	SmallBytes int64
	// CostlyAtOnce is the most costly reviews (bodies above SmallBytes)
	// worked on at once (DefaultCostlyAtOnce(AtOnce) when zero); never
	// more than AtOnce-1 when AtOnce is above 1, so a small review
	// always has a turn costly ones cannot hold.
	CostlyAtOnce int
	// Logger receives refusals (Info), errors of the AdmitFunc and panics
	// (Error); discarded when nil.
	Logger *slog.Logger

	once  sync.Once
	turns *turns
	log   *slog.Logger
}

func (rv *Reviews) init() {
	rv.once.Do(func() {
		if rv.Budget == nil {
			rv.Budget = &BodyBudget{}
		}
		n := rv.AtOnce
		if n <= 0 {
			n = DefaultReviewsAtOnce()
		}
		rv.turns = newTurns(n, rv.CostlyAtOnce)
		rv.log = rv.Logger
		if rv.log == nil {
			rv.log = slog.New(slog.DiscardHandler)
		}
	})
}

func (rv *Reviews) reviewLimit() int64 {
	if rv.MaxReviewBytes > 0 {
		return rv.MaxReviewBytes
	}
	return DefaultMaxReviewBytes
}

func (rv *Reviews) conversionLimit() int64 {
	if rv.MaxConversionBytes > 0 {
		return rv.MaxConversionBytes
	}
	return DefaultMaxConversionBytes
}

func (rv *Reviews) small() int64 {
	if rv.SmallBytes > 0 {
		return rv.SmallBytes
	}
	return DefaultSmallReviewBytes
}

// Admission returns the handler of an admission webhook's path: it
// answers POSTed AdmissionReviews with admit (see Reviews for the
// bounds). A nil admit denies every request.
func (rv *Reviews) Admission(admit AdmitFunc) http.Handler {
	rv.init()
	return rv.handler(rv.reviewLimit(), func(ctx context.Context, body []byte) ([]byte, error) {
		review, err := DecodeReview[AdmissionReview](ctx, body)
		if err != nil {
			return nil, err
		}
		return review.Respond(rv.admit(ctx, admit, review.Request))
	})
}

// admit calls admit and makes sure an error denies the request.
func (rv *Reviews) admit(ctx context.Context, admit AdmitFunc, req *AdmissionRequest) *AdmissionResponse {
	if admit == nil {
		return &AdmissionResponse{UID: req.UID, Result: failure(500, "InternalError", "the webhook has no admission function", nil)}
	}
	resp, err := admit(ctx, req)
	if err != nil {
		rv.log.Error("admission failed", "uid", req.UID, "kind", req.Kind.Kind, "name", req.Name, "namespace", req.Namespace, "error", err)
		if resp == nil || resp.Allowed || resp.Result == nil {
			code, reason := int32(500), "InternalError"
			if ctx.Err() != nil {
				code, reason = 504, "Timeout"
			}
			return &AdmissionResponse{UID: req.UID, Result: failure(code, reason, shorten("the request could not be judged: "+err.Error(), 4*maxMessage), nil)}
		}
	}
	if resp == nil {
		return &AdmissionResponse{UID: req.UID, Result: failure(500, "InternalError", "the webhook gave no answer", nil)}
	}
	if resp.UID == "" {
		c := *resp
		c.UID = req.UID
		resp = &c
	}
	return resp
}

// Conversion returns the handler of a conversion webhook's path: it
// answers POSTed ConversionReviews with convert (see Reviews for the
// bounds). Every object of the review must nest at most 1,000 levels, as
// everywhere paramkit reads values; a deeper one fails the review. A nil
// convert fails every review.
func (rv *Reviews) Conversion(convert ConvertFunc) http.Handler {
	rv.init()
	return rv.handler(rv.conversionLimit(), func(ctx context.Context, body []byte) ([]byte, error) {
		review, err := DecodeReview[ConversionReview](ctx, body)
		if err != nil {
			return nil, err
		}
		req := review.Request
		var resp *ConversionResponse
		if err := checkDepths(req); err != nil {
			resp = &ConversionResponse{UID: req.UID, Result: *failure(400, "BadRequest", err.Error(), nil)}
		} else if convert != nil {
			resp = convert(ctx, req)
		}
		if resp == nil {
			resp = &ConversionResponse{UID: req.UID, Result: *failure(500, "InternalError", "the webhook gave no answer", nil)}
		}
		if resp.Result.Status != statusSuccess || resp.ConvertedObjects == nil {
			// A failure holds no objects, and the list is [] not null.
			c := *resp
			if c.Result.Status != statusSuccess || c.ConvertedObjects == nil {
				c.ConvertedObjects = []json.RawMessage{}
			}
			resp = &c
		}
		return review.Respond(resp)
	})
}

// handler reads, schedules and answers one review.
func (rv *Reviews) handler(limit int64, answer func(ctx context.Context, body []byte) ([]byte, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				rv.log.Error("internal error", "path", r.URL.Path, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				httpError(w, http.StatusInternalServerError, fmt.Sprintf("internal error: %v", p))
			}
		}()
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			httpError(w, http.StatusMethodNotAllowed, fmt.Sprintf("%s needs POST, not %s", r.URL.Path, r.Method))
			return
		}
		timeout := DefaultReviewTimeout
		if t := r.URL.Query().Get("timeout"); t != "" {
			d, err := time.ParseDuration(t)
			if err != nil || d <= 0 {
				httpError(w, http.StatusBadRequest, fmt.Sprintf("?timeout=%s is not a positive duration such as 30s", shorten(t, maxQuoted)))
				return
			}
			timeout = min(d, maxReviewTimeout)
		}
		// The deadline counts from here: the headers are in, the body is
		// not.
		ctx, cancel := context.WithTimeout(r.Context(), timeout)
		defer cancel()
		if r.ContentLength > limit {
			bodyError(w, http.StatusRequestEntityTooLarge, tooLarge(r.URL.Path, limit))
			return
		}
		// The body must arrive by the review's deadline, and within the
		// budget's read timeout and the server's own (which a read
		// deadline of ours would replace).
		readFor := rv.Budget.timeout()
		if srv, ok := r.Context().Value(http.ServerContextKey).(*http.Server); ok && srv.ReadTimeout > 0 {
			readFor = min(readFor, srv.ReadTimeout)
		}
		deadline, _ := ctx.Deadline()
		reviewFirst := !time.Now().Add(readFor).Before(deadline)
		deadline = earlier(deadline, time.Now().Add(readFor))
		body, held, pooled, err := rv.Budget.read(w, r, limit, deadline)
		defer rv.Budget.used.Add(-held)
		defer putBuffer(pooled)
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				if r.ProtoMajor == 1 {
					w.Header().Set("Connection", "close")
				}
				rv.log.Info("refused a review whose body did not arrive in time", "path", r.URL.Path, "remote", r.RemoteAddr, "timeout", timeout)
				if reviewFirst {
					bodyError(w, http.StatusGatewayTimeout, fmt.Sprintf("the review's deadline (%s) passed before its body arrived", timeout))
				} else {
					bodyError(w, http.StatusRequestTimeout, fmt.Sprintf("the request body did not arrive within %s", readFor))
				}
				return
			}
			rv.log.Info("refused a review body", "path", r.URL.Path, "remote", r.RemoteAddr, "error", err)
			rv.Budget.refuse(w, r, limit, err)
			return
		}
		done, ok := rv.turns.take(ctx, int64(len(body)), int64(len(body)) > rv.small())
		if !ok {
			rv.log.Info("refused a review that found no turn before its deadline", "path", r.URL.Path, "remote", r.RemoteAddr, "bytes", len(body))
			w.Header().Set("Retry-After", "1")
			httpError(w, http.StatusServiceUnavailable, fmt.Sprintf("the server works on %d reviews at once and none was free before this review's deadline (%s): retry later", rv.turns.n, timeout))
			return
		}
		out, err := answer(ctx, body)
		done()
		if out == nil {
			code := http.StatusBadRequest
			if err == nil {
				err = errors.New("no answer")
				code = http.StatusInternalServerError
			} else if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				code = http.StatusGatewayTimeout // the review's deadline passed while reading it
			}
			rv.log.Info("refused a review", "path", r.URL.Path, "remote", r.RemoteAddr, "error", err)
			httpError(w, code, err.Error())
			return
		}
		if err != nil {
			// An answer too large became a failure that says so.
			rv.log.Error("answer replaced", "path", r.URL.Path, "error", err)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(out)))
		_, _ = w.Write(out)
	})
}

func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
