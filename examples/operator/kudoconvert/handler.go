// Package kudoconvert is the operator's conversion webhook for kudo.dev
// Instances and OperatorVersions between v1beta1 and v1beta2: Instance
// parameters are unwrapped (v1beta1 text to v1beta2 values) or wrapped
// by the schema of the Instance's operator version, both ways and
// losslessly; OperatorVersions go from the v1beta1 parameter list to a
// schema and back. It is the same conversion `paramctl webhook` serves
// (examples/paramctl), on the wire shapes of kube.
package kudoconvert

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/kube"
)

// maxConversionBytes bounds the body of a conversion review: a LIST
// sends many objects in one review.
const maxConversionBytes = 64 << 20

// defaultReviewTimeout bounds one review without ?timeout=.
const defaultReviewTimeout = 30 * time.Second

// Resolver finds the compiled operator version an Instance names; an
// error wrapping ErrSchemaNotFound means there is none.
type Resolver interface {
	Resolve(ctx context.Context, namespace, name string) (*kudo.OperatorVersion, error)
}

// ErrSchemaNotFound is wrapped by resolver errors that mean "no schema
// for this operator version" (as opposed to a schema that is broken).
var ErrSchemaNotFound = errors.New("no schema for the operator version")

// NotFoundError says which operator version had no schema and why.
type NotFoundError struct {
	// Name is the operator version.
	Name string
	// Reason explains where it was looked for.
	Reason string
}

// Error says which operator version has no schema.
func (e *NotFoundError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("no schema for operator version %q: %s", e.Name, e.Reason)
	}
	return fmt.Sprintf("no schema for operator version %q", e.Name)
}

// Unwrap makes errors.Is(err, ErrSchemaNotFound) true.
func (e *NotFoundError) Unwrap() error { return ErrSchemaNotFound }

// Options configure a Handler.
type Options struct {
	// Resolver finds the schema of an operator version. Required.
	Resolver Resolver
	// GuessWithoutSchema converts an Instance whose operator version has
	// no schema by safe guessing instead of refusing it.
	GuessWithoutSchema bool
	// Logger receives refusals and internal errors (discarded when nil).
	Logger *slog.Logger
}

// Handler serves conversion reviews. It is safe for concurrent use.
type Handler struct {
	opts Options
	log  *slog.Logger
}

// NewHandler returns a Handler for the options.
func NewHandler(opts Options) (*Handler, error) {
	if opts.Resolver == nil {
		return nil, errors.New("kudoconvert: Options.Resolver is required")
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Handler{opts: opts, log: log}, nil
}

// ServeHTTP answers a ConversionReview posted to any path, within the
// apiserver's ?timeout=.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, r.URL.Path+" needs POST", http.StatusMethodNotAllowed)
		return
	}
	timeout := defaultReviewTimeout
	if t := r.URL.Query().Get("timeout"); t != "" {
		if d, err := time.ParseDuration(t); err == nil && d > 0 {
			timeout = min(d, 5*time.Minute)
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	// The buffer grows with the bytes received, never from a declared length.
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxConversionBytes))
	if err != nil {
		http.Error(w, "cannot read the request body: "+err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	review, err := kube.DecodeReview[kube.ConversionReview](ctx, body)
	if err != nil {
		code := http.StatusBadRequest
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			code = http.StatusGatewayTimeout // the deadline passed while reading
		}
		http.Error(w, err.Error(), code)
		return
	}
	out, err := review.Respond(h.Convert(ctx, review.Request))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	_, _ = w.Write(out)
}
