package kube

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// The review versions this package reads and answers.
const (
	admissionV1       = "admission.k8s.io/v1"
	admissionV1beta1  = "admission.k8s.io/v1beta1"
	conversionV1      = "apiextensions.k8s.io/v1"
	conversionV1beta1 = "apiextensions.k8s.io/v1beta1"

	admissionReviewKind  = "AdmissionReview"
	conversionReviewKind = "ConversionReview"
)

// AdmissionReview is an admission.k8s.io/v1 (or v1beta1) AdmissionReview:
// the apiserver sends Request, the webhook answers with Response.
type AdmissionReview struct {
	APIVersion string             `json:"apiVersion"`
	Kind       string             `json:"kind"`
	Request    *AdmissionRequest  `json:"request,omitempty"`
	Response   *AdmissionResponse `json:"response,omitempty"`
}

// GroupVersionKind names a kind in a group and version.
type GroupVersionKind struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// The admission operations Admit judges.
const (
	opCreate = "CREATE"
	opUpdate = "UPDATE"
)

// AdmissionRequest is the request half of an AdmissionReview. Object and
// OldObject stay raw JSON: they are decoded by the schema, so that
// numbers stay exact and duplicate keys are refused. What a webhook
// rarely reads (the resource, the user) stays raw JSON too.
type AdmissionRequest struct {
	// UID identifies this review; the response must echo it.
	UID  string           `json:"uid"`
	Kind GroupVersionKind `json:"kind"`
	// Resource and RequestResource are the group, version and resource
	// ({"group":"kudo.dev","version":"v1beta2","resource":"instances"}).
	Resource           json.RawMessage   `json:"resource,omitempty"`
	SubResource        string            `json:"subResource,omitempty"`
	RequestKind        *GroupVersionKind `json:"requestKind,omitempty"`
	RequestResource    json.RawMessage   `json:"requestResource,omitempty"`
	RequestSubResource string            `json:"requestSubResource,omitempty"`
	Name               string            `json:"name,omitempty"`
	Namespace          string            `json:"namespace,omitempty"`
	// Operation is "CREATE", "UPDATE", "DELETE" or "CONNECT".
	Operation string          `json:"operation"`
	UserInfo  json.RawMessage `json:"userInfo,omitempty"`
	Object    json.RawMessage `json:"object,omitempty"`
	OldObject json.RawMessage `json:"oldObject,omitempty"`
	// DryRun is true when nothing may change outside the response.
	DryRun  *bool           `json:"dryRun,omitempty"`
	Options json.RawMessage `json:"options,omitempty"`
}

// AdmissionResponse is the response half of an AdmissionReview.
type AdmissionResponse struct {
	// UID echoes the request's uid.
	UID     string `json:"uid"`
	Allowed bool   `json:"allowed"`
	// Result says why a request was denied.
	Result *Status `json:"status,omitempty"`
	// Patch is an RFC 6902 JSON patch; encoding/json writes it as base64,
	// as the apiserver expects.
	Patch []byte `json:"patch,omitempty"`
	// PatchType is "JSONPatch" when Patch is set (the only type an
	// admission response may carry), else empty.
	PatchType string `json:"patchType,omitempty"`
	// AuditAnnotations end up in the audit log, keys prefixed by the
	// webhook's name.
	AuditAnnotations map[string]string `json:"auditAnnotations,omitempty"`
	// Warnings are shown to the client (kubectl prints them). Respond
	// writes them as the apiserver keeps them: each cut to 256
	// characters, no more than fit in 4 KiB in total, the last then
	// saying how many were left out (the apiserver would drop the rest
	// silently).
	Warnings []string `json:"warnings,omitempty"`
}

// Status is the part of a metav1.Status a webhook fills in.
type Status struct {
	// Status is "Success" or "Failure".
	Status  string         `json:"status,omitempty"`
	Message string         `json:"message,omitempty"`
	Reason  string         `json:"reason,omitempty"`
	Details *StatusDetails `json:"details,omitempty"`
	Code    int32          `json:"code,omitempty"`
}

// Status values.
const (
	statusSuccess = "Success"
	statusFailure = "Failure"
)

// StatusDetails carries the individual causes of a failure.
type StatusDetails struct {
	Causes []StatusCause `json:"causes,omitempty"`
}

// StatusCause is one reason for a failure, located by Field, as
// metav1.StatusCause: Type is Kubernetes' CauseType (FieldValueRequired,
// FieldValueInvalid, FieldValueNotSupported, FieldValueForbidden,
// FieldValueDuplicate, FieldValueTooLong, FieldValueTypeInvalid, ...),
// written as "reason" in JSON; Field is the field path in the object
// (spec.parameters.engine).
type StatusCause struct {
	Type    string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
	Field   string `json:"field,omitempty"`
}

// ConversionReview is an apiextensions.k8s.io/v1 (or v1beta1)
// ConversionReview.
type ConversionReview struct {
	APIVersion string              `json:"apiVersion"`
	Kind       string              `json:"kind"`
	Request    *ConversionRequest  `json:"request,omitempty"`
	Response   *ConversionResponse `json:"response,omitempty"`
}

// ConversionRequest asks for Objects in DesiredAPIVersion. A LIST sends
// many objects in one request.
type ConversionRequest struct {
	UID               string            `json:"uid"`
	DesiredAPIVersion string            `json:"desiredAPIVersion"`
	Objects           []json.RawMessage `json:"objects"`
}

// ConversionResponse returns the converted objects in request order, or a
// Failure result and no objects.
type ConversionResponse struct {
	UID              string            `json:"uid"`
	ConvertedObjects []json.RawMessage `json:"convertedObjects"`
	Result           Status            `json:"result"`
}

// DecodeReview reads the body of a review, R being AdmissionReview or
// ConversionReview:
//
//   - an AdmissionReview of admission.k8s.io/v1 or v1beta1 with a request
//     that has a uid;
//   - a ConversionReview of apiextensions.k8s.io/v1 or v1beta1 with a
//     request that has a uid and a desiredAPIVersion.
//
// A body that is not one, or whose envelope repeats a key (the review's
// own keys, or the request's: two "uid", "object", "oldObject" or
// "objects"), is an error saying what is wrong (an HTTP server answers
// it with 400): encoding/json would keep the last of two keys, which is
// not what the apiserver meant. The context bounds the work: when it is
// done, decoding stops with an error wrapping the context's.
func DecodeReview[R AdmissionReview | ConversionReview](ctx context.Context, body []byte) (*R, error) {
	var r R
	var err error
	switch p := any(&r).(type) {
	case *AdmissionReview:
		err = decodeAdmissionReview(ctx, body, p)
	case *ConversionReview:
		err = decodeConversionReview(ctx, body, p)
	}
	if err != nil {
		return nil, err
	}
	return &r, nil
}

func decodeAdmissionReview(ctx context.Context, body []byte, r *AdmissionReview) error {
	if err := ctx.Err(); err != nil {
		return deadlineError(ctx, "before reading the review")
	}
	if !fastAdmissionReview(body, r) {
		*r = AdmissionReview{}
		if err := decodeEnvelope(ctx, body, r); err != nil {
			return err
		}
	} else if err := ctx.Err(); err != nil {
		return deadlineError(ctx, "while reading the review")
	}
	if r.Kind != admissionReviewKind || (r.APIVersion != admissionV1 && r.APIVersion != admissionV1beta1) {
		return fmt.Errorf("expected an AdmissionReview of %s (or %s), got kind %s apiVersion %s",
			admissionV1, admissionV1beta1, quoteShort(r.Kind), quoteShort(r.APIVersion))
	}
	if r.Request == nil {
		return errors.New("the AdmissionReview has no request")
	}
	if r.Request.UID == "" {
		return errors.New("the AdmissionReview request has no uid")
	}
	return nil
}

func decodeConversionReview(ctx context.Context, body []byte, r *ConversionReview) error {
	if err := decodeEnvelope(ctx, body, r); err != nil {
		return err
	}
	if r.Kind != conversionReviewKind || (r.APIVersion != conversionV1 && r.APIVersion != conversionV1beta1) {
		return fmt.Errorf("expected a ConversionReview of %s (or %s), got kind %s apiVersion %s",
			conversionV1, conversionV1beta1, quoteShort(r.Kind), quoteShort(r.APIVersion))
	}
	if r.Request == nil {
		return errors.New("the ConversionReview has no request")
	}
	if r.Request.UID == "" {
		return errors.New("the ConversionReview request has no uid")
	}
	if r.Request.DesiredAPIVersion == "" {
		return errors.New("the ConversionReview request has no desiredAPIVersion")
	}
	return nil
}

// decodeEnvelope checks the envelope for repeated keys, then unmarshals.
func decodeEnvelope(ctx context.Context, body []byte, into any) error {
	if err := ctx.Err(); err != nil {
		return deadlineError(ctx, "before reading the review")
	}
	if err := checkEnvelope(ctx, body); err != nil {
		return err
	}
	if err := json.Unmarshal(body, into); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return fmt.Errorf("the body is not JSON: offset %d: %s", se.Offset, se.Error())
		case errors.As(err, &te):
			return fmt.Errorf("the review is malformed: field %s must be %s, not a JSON %s", quoteShort(te.Field), te.Type, te.Value)
		}
		return fmt.Errorf("the review is malformed: %v", err)
	}
	if err := ctx.Err(); err != nil {
		return deadlineError(ctx, "while reading the review")
	}
	return nil
}

// deadlineError says the context ended and wraps its error.
func deadlineError(ctx context.Context, when string) error {
	return fmt.Errorf("the review's deadline passed %s: %w", when, context.Cause(ctx))
}

// Respond returns the answer to the review as JSON: an AdmissionReview
// in the review's version holding resp, its warnings capped as the
// apiserver keeps them (see AdmissionResponse.Warnings; resp itself is
// not changed). An answer larger than 256 KiB (a patch that large) is
// replaced by a failure saying so, so that the answer stays small
// whatever the request held; its error is then non-nil too. resp must
// not be nil.
func (r *AdmissionReview) Respond(resp *AdmissionResponse) ([]byte, error) {
	if resp == nil {
		return nil, errors.New("kube: Respond needs a response")
	}
	if capped := capWarnings(resp.Warnings, 0); !slices.Equal(capped, resp.Warnings) {
		c := *resp
		c.Warnings = capped
		resp = &c
	}
	apiVersion := r.APIVersion
	if apiVersion == "" {
		apiVersion = admissionV1
	}
	out, err := marshalJSON(&AdmissionReview{APIVersion: apiVersion, Kind: admissionReviewKind, Response: resp})
	if err != nil {
		return nil, err
	}
	if len(out) <= maxAnswerBytes {
		return out, nil
	}
	tooBig := fmt.Errorf("the answer would be %d bytes, more than the %d an admission answer may hold", len(out), maxAnswerBytes)
	small := &AdmissionResponse{UID: resp.UID, Result: failure(500, "InternalError", tooBig.Error()+"; the request is denied", nil)}
	out, err = marshalJSON(&AdmissionReview{APIVersion: apiVersion, Kind: admissionReviewKind, Response: small})
	if err != nil {
		return nil, err
	}
	return out, tooBig
}

// Respond returns the answer to the review as JSON: a ConversionReview
// in the review's version holding resp. The converted objects are
// written as they are (they are JSON already; a LIST may hold tens of
// megabytes), so each must be valid JSON. resp must not be nil.
func (r *ConversionReview) Respond(resp *ConversionResponse) ([]byte, error) {
	if resp == nil {
		return nil, errors.New("kube: Respond needs a response")
	}
	apiVersion := r.APIVersion
	if apiVersion == "" {
		apiVersion = conversionV1
	}
	res, err := json.Marshal(resp.Result)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	size := 256 + len(res) + len(resp.UID)
	for _, o := range resp.ConvertedObjects {
		size += len(o) + 1
	}
	buf.Grow(size)
	buf.WriteString(`{"apiVersion":`)
	writeString(&buf, apiVersion)
	buf.WriteString(`,"kind":"ConversionReview","response":{"uid":`)
	writeString(&buf, resp.UID)
	buf.WriteString(`,"convertedObjects":[`)
	for i, o := range resp.ConvertedObjects {
		if i > 0 {
			buf.WriteByte(',')
		}
		if len(o) == 0 {
			return nil, fmt.Errorf("kube: converted object %d is empty", i)
		}
		buf.Write(o)
	}
	buf.WriteString(`],"result":`)
	buf.Write(res)
	buf.WriteString("}}\n")
	return buf.Bytes(), nil
}

func writeString(buf *bytes.Buffer, s string) {
	b, _ := json.Marshal(s) // a string always marshals
	buf.Write(b)
}

func marshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// quoteShort quotes s for a message, cut to a short prefix.
func quoteShort(s string) string { return strconv.Quote(shorten(s, maxQuoted)) }
