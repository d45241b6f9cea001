package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/kube"
)

// maxAnnotationBytes is the apiserver's limit on all annotations of an
// object together.
const maxAnnotationBytes = 256 << 10

// Convert answers a conversion request: every object to
// DesiredAPIVersion, in request order, with only apiVersion and the
// converted fields changed. Instance parameters are unwrapped (v1beta1 to
// v1beta2) or wrapped (v1beta2 to v1beta1) by the schema of the
// Instance's operator version; OperatorVersion parameters go from the
// v1beta1 list to a schema and back. The conversion is all or nothing: one
// object that cannot be converted fails the review with a message naming
// it. A panic becomes a failure.
func (h *Handler) Convert(ctx context.Context, req *kube.ConversionRequest) (resp *kube.ConversionResponse) {
	if req == nil {
		return &kube.ConversionResponse{Result: kube.Status{Status: kube.StatusFailure, Message: "the review has no request"}}
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
	out := make([]json.RawMessage, len(req.Objects))
	for i, raw := range req.Objects {
		if err := ctx.Err(); err != nil {
			return conversionFailure(req.UID, fmt.Sprintf("gave up after converting %d of %d objects to %s: %v", i, len(req.Objects), to, context.Cause(ctx)))
		}
		conv, err := h.convertObject(ctx, raw, to)
		if err != nil {
			msg := fmt.Sprintf("object %d of %d: %v", i, len(req.Objects), err)
			h.log.Warn("conversion failed", "uid", req.UID, "to", to, "reason", msg)
			return conversionFailure(req.UID, msg)
		}
		out[i] = conv
	}
	return &kube.ConversionResponse{UID: req.UID, ConvertedObjects: out, Result: kube.Status{Status: kube.StatusSuccess}}
}

func conversionFailure(uid, msg string) *kube.ConversionResponse {
	return &kube.ConversionResponse{UID: uid, ConvertedObjects: []json.RawMessage{}, Result: kube.Status{Status: kube.StatusFailure, Message: msg}}
}

func (h *Handler) convertObject(ctx context.Context, raw json.RawMessage, to string) (json.RawMessage, error) {
	o, err := decodeObject(raw)
	if err != nil {
		return nil, err
	}
	from := o.apiVersion()
	if from == to {
		return raw, nil
	}
	if from != V1beta1 && from != V1beta2 {
		return nil, fmt.Errorf("%s has apiVersion %q; this webhook converts between %s and %s", o.describe(), from, V1beta1, V1beta2)
	}
	switch o.kind() {
	case "Instance":
		err = h.convertInstance(ctx, o, to)
	case "OperatorVersion":
		out, err := convertOperatorVersion(raw, to)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o.describe(), err)
		}
		return out, nil
	}
	// Other kinds (Operator) have the same fields in both versions.
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.describe(), err)
	}
	o["apiVersion"] = to
	return params.MarshalJSON(nil, map[string]any(o), "")
}

// convertInstance converts spec.parameters of an Instance in place.
func (h *Handler) convertInstance(ctx context.Context, o object, to string) error {
	p, present := o.parameters()
	if !present {
		o.deleteAnnotation(ParametersAnnotation)
		return nil
	}
	m, ok := p.(map[string]any)
	if !ok {
		if to == V1beta1 {
			return fmt.Errorf("spec.parameters is %s; v1beta1 holds parameters as an object of strings", aType(p))
		}
		return fmt.Errorf("spec.parameters is %s, not an object of strings", aType(p))
	}
	c, err := h.codecFor(ctx, o)
	if err != nil {
		return err
	}
	if to == V1beta2 {
		bag, _ := decodeBag(o)
		o.spec()["parameters"] = unwrapParameters(m, bag, c)
		o.deleteAnnotation(ParametersAnnotation)
		return nil
	}
	texts, bag := wrapParameters(m, c)
	o.spec()["parameters"] = texts
	if bag == nil {
		o.deleteAnnotation(ParametersAnnotation)
		return nil
	}
	raw := string(mustBytes(params.MarshalJSON(nil, bag, "")))
	if len(raw) > maxAnnotationBytes {
		return fmt.Errorf("the parameters %v have no exact v1beta1 text and are too large (%d bytes) to keep in annotation %s (the apiserver allows %d bytes of annotations)", sortedKeys(bag), len(raw), ParametersAnnotation, maxAnnotationBytes)
	}
	o.setAnnotation(ParametersAnnotation, raw)
	return nil
}

// codecFor finds how to convert the parameters of an Instance: by its
// operator version's schema, else (only with GuessWithoutSchema) by safe
// guessing.
func (h *Handler) codecFor(ctx context.Context, o object) (codec, error) {
	name, err := o.operatorVersionName()
	if err != nil {
		if h.opts.GuessWithoutSchema {
			return guessCodec, nil
		}
		return codec{}, err
	}
	ver, err := h.opts.Resolver.Resolve(ctx, o.namespace(), name)
	if err == nil {
		return schemaCodec(ver.Schema()), nil
	}
	if errors.Is(err, ErrSchemaNotFound) {
		if h.opts.GuessWithoutSchema {
			return guessCodec, nil
		}
		return codec{}, fmt.Errorf("%w; the parameters cannot be converted without it (add the schema, or start the webhook with --guess-without-schema to unwrap by safe guessing)", err)
	}
	return codec{}, err
}
