package kudoconvert

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/kube"
)

// The kudo.dev group and the versions the webhook converts between.
const (
	Group   = "kudo.dev"
	V1beta1 = "kudo.dev/v1beta1"
	V1beta2 = "kudo.dev/v1beta2"
)

// Convert answers a conversion request: every object to
// DesiredAPIVersion, in request order, with only apiVersion and the
// converted fields changed. Instance parameters are unwrapped (v1beta1 to
// v1beta2) or wrapped (v1beta2 to v1beta1) by the schema of the
// Instance's operator version; OperatorVersion parameters go from the
// v1beta1 list to a schema and back. The conversion is all or nothing: one
// object that cannot be converted fails the review with a message naming
// it; the review's deadline passing (a schema lookup that hangs) fails it
// with code 504, reason Timeout (kube.ConvertReview). A panic becomes a
// failure.
func (h *Handler) Convert(ctx context.Context, req *kube.ConversionRequest) (resp *kube.ConversionResponse) {
	if req == nil {
		return kube.ConvertReview(ctx, nil, nil)
	}
	defer func() {
		if p := recover(); p != nil {
			h.log.Error("internal error", "uid", req.UID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			resp = conversionFailure(req.UID, fmt.Sprintf("internal error while converting to %s: %v (please report this)", req.DesiredAPIVersion, p))
		}
	}()
	to := req.DesiredAPIVersion
	if to != V1beta1 && to != V1beta2 {
		return conversionFailure(req.UID, fmt.Sprintf("cannot convert to %q: this webhook converts between %s and %s", to, V1beta1, V1beta2))
	}
	resp = kube.ConvertReview(ctx, req, h.convertObject)
	if resp.Result.Status != "Success" {
		h.log.Warn("conversion failed", "uid", req.UID, "to", to, "reason", resp.Result.Message)
	}
	return resp
}

func conversionFailure(uid, msg string) *kube.ConversionResponse {
	return &kube.ConversionResponse{UID: uid, ConvertedObjects: []json.RawMessage{}, Result: kube.Status{Status: "Failure", Message: msg}}
}

func (h *Handler) convertObject(ctx context.Context, raw []byte, to string) ([]byte, error) {
	return kudo.ConvertObject(ctx, raw, to, h.resolve, guessWithoutOperatorVersion(h.opts.GuessWithoutSchema))
}

// guessWithoutOperatorVersion is kudo.ConvertObject's option for the
// handler's GuessWithoutSchema: an Instance that names no operator
// version converts by safe guessing.
func guessWithoutOperatorVersion(guess bool) kudo.Option {
	if !guess {
		return nil
	}
	return kudo.GuessWithoutOperatorVersion()
}

// resolve finds the operator version an Instance names for
// kudo.ConvertObject: nil (guess) when it has no schema and the handler
// guesses, else a refusal saying how to fix it.
func (h *Handler) resolve(ctx context.Context, namespace, name string) (*kudo.OperatorVersion, error) {
	ver, err := h.opts.Resolver.Resolve(ctx, namespace, name)
	if err == nil {
		return ver, nil
	}
	if errors.Is(err, ErrSchemaNotFound) {
		if h.opts.GuessWithoutSchema {
			return nil, nil
		}
		return nil, fmt.Errorf("%w; the parameters cannot be converted without it (add the schema, or start the webhook with --guess-without-schema to unwrap by safe guessing)", err)
	}
	return nil, err
}
