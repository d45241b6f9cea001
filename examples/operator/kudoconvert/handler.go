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
	"log/slog"
	"net/http"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/kube"
)

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
	// Reviews serves ServeHTTP (a kube.Reviews of its own with the
	// defaults when nil). An operator shares one among its webhook paths
	// and may register Convert through it instead.
	Reviews *kube.Reviews
}

// Handler serves conversion reviews. It is safe for concurrent use.
type Handler struct {
	opts Options
	log  *slog.Logger
	http http.Handler
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
	h := &Handler{opts: opts, log: log}
	rv := opts.Reviews
	if rv == nil {
		rv = &kube.Reviews{Logger: log}
	}
	h.http = rv.Conversion(h.Convert)
	return h, nil
}

// ServeHTTP answers a ConversionReview posted to any path through
// kube.Reviews' Conversion: within a body budget and the apiserver's
// ?timeout= (counted from the first byte), with the reviews worked on at
// once bounded and served fairly.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.http.ServeHTTP(w, r)
}
