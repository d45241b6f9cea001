package webhook

import (
	"encoding/json"
	"errors"
	"fmt"
)

// The wire formats are the project's own small structs: the fields of
// admission.k8s.io/v1 AdmissionReview and apiextensions.k8s.io/v1
// ConversionReview that a webhook reads or writes, with the JSON names the
// kube-apiserver uses. Nothing here imports k8s.io. The v1beta1 review
// versions have the same shape and are answered in the version they came in.

// API versions and kinds of the reviews.
const (
	AdmissionV1       = "admission.k8s.io/v1"
	AdmissionV1beta1  = "admission.k8s.io/v1beta1"
	ConversionV1      = "apiextensions.k8s.io/v1"
	ConversionV1beta1 = "apiextensions.k8s.io/v1beta1"

	admissionReviewKind  = "AdmissionReview"
	conversionReviewKind = "ConversionReview"
)

// AdmissionReview is an admission.k8s.io/v1 AdmissionReview: the apiserver
// sends Request, the webhook answers with Response.
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

// GroupVersionResource names a resource in a group and version.
type GroupVersionResource struct {
	Group    string `json:"group"`
	Version  string `json:"version"`
	Resource string `json:"resource"`
}

// Operation is what an admission request does to its object.
type Operation string

// Admission operations.
const (
	Create  Operation = "CREATE"
	Update  Operation = "UPDATE"
	Delete  Operation = "DELETE"
	Connect Operation = "CONNECT"
)

// AdmissionRequest is the request half of an AdmissionReview. Object and
// OldObject stay raw JSON: the webhook decodes them itself so that numbers
// stay exact and duplicate keys are refused.
type AdmissionRequest struct {
	// UID identifies this review; the response must echo it.
	UID                string                `json:"uid"`
	Kind               GroupVersionKind      `json:"kind"`
	Resource           GroupVersionResource  `json:"resource"`
	SubResource        string                `json:"subResource,omitempty"`
	RequestKind        *GroupVersionKind     `json:"requestKind,omitempty"`
	RequestResource    *GroupVersionResource `json:"requestResource,omitempty"`
	RequestSubResource string                `json:"requestSubResource,omitempty"`
	Name               string                `json:"name,omitempty"`
	Namespace          string                `json:"namespace,omitempty"`
	// Operation is CREATE, UPDATE, DELETE or CONNECT.
	Operation Operation       `json:"operation"`
	UserInfo  json.RawMessage `json:"userInfo,omitempty"`
	Object    json.RawMessage `json:"object,omitempty"`
	OldObject json.RawMessage `json:"oldObject,omitempty"`
	// DryRun is true when nothing may change outside the response.
	DryRun  *bool           `json:"dryRun,omitempty"`
	Options json.RawMessage `json:"options,omitempty"`
}

// PatchType is the encoding of an admission response's Patch.
type PatchType string

// JSONPatchType is the only patch type an admission response may carry.
const JSONPatchType PatchType = "JSONPatch"

// AdmissionResponse is the response half of an AdmissionReview.
type AdmissionResponse struct {
	// UID echoes the request's uid.
	UID     string `json:"uid"`
	Allowed bool   `json:"allowed"`
	// Result says why a request was denied.
	Result *Status `json:"status,omitempty"`
	// Patch is an RFC 6902 JSON patch; encoding/json writes it as base64,
	// as the apiserver expects.
	Patch     []byte     `json:"patch,omitempty"`
	PatchType *PatchType `json:"patchType,omitempty"`
	// AuditAnnotations end up in the audit log, keys prefixed by the
	// webhook's name.
	AuditAnnotations map[string]string `json:"auditAnnotations,omitempty"`
	// Warnings are shown to the client (kubectl prints them).
	Warnings []string `json:"warnings,omitempty"`
}

// Status is the part of a metav1.Status a webhook fills in.
type Status struct {
	// Status is StatusSuccess or StatusFailure.
	Status  StatusValue    `json:"status,omitempty"`
	Message string         `json:"message,omitempty"`
	Reason  string         `json:"reason,omitempty"`
	Details *StatusDetails `json:"details,omitempty"`
	Code    int32          `json:"code,omitempty"`
}

// StatusDetails carries the individual causes of a failure.
type StatusDetails struct {
	Causes []StatusCause `json:"causes,omitempty"`
}

// StatusCause is one reason for a failure, located by Field.
type StatusCause struct {
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
	Field   string `json:"field,omitempty"`
}

// StatusValue is the outcome a Status reports: StatusSuccess or
// StatusFailure.
type StatusValue string

// Status values.
const (
	StatusSuccess StatusValue = "Success"
	StatusFailure StatusValue = "Failure"
)

// ConversionReview is an apiextensions.k8s.io/v1 ConversionReview.
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

// errBadReview is a review that is not one: the HTTP layer answers 400.
type errBadReview struct{ msg string }

func (e *errBadReview) Error() string { return e.msg }

func badReview(format string, a ...any) error { return &errBadReview{fmt.Sprintf(format, a...)} }

// decodeAdmissionReview reads and checks the envelope of an admission review.
func decodeAdmissionReview(body []byte) (*AdmissionReview, error) {
	var r AdmissionReview
	if err := unmarshalEnvelope(body, &r); err != nil {
		return nil, err
	}
	if r.Kind != admissionReviewKind || (r.APIVersion != AdmissionV1 && r.APIVersion != AdmissionV1beta1) {
		return nil, badReview("expected an AdmissionReview of %s (or %s), got kind %q apiVersion %q", AdmissionV1, AdmissionV1beta1, r.Kind, r.APIVersion)
	}
	if r.Request == nil {
		return nil, badReview("the AdmissionReview has no request")
	}
	if r.Request.UID == "" {
		return nil, badReview("the AdmissionReview request has no uid")
	}
	return &r, nil
}

// decodeConversionReview reads and checks the envelope of a conversion review.
func decodeConversionReview(body []byte) (*ConversionReview, error) {
	var r ConversionReview
	if err := unmarshalEnvelope(body, &r); err != nil {
		return nil, err
	}
	if r.Kind != conversionReviewKind || (r.APIVersion != ConversionV1 && r.APIVersion != ConversionV1beta1) {
		return nil, badReview("expected a ConversionReview of %s (or %s), got kind %q apiVersion %q", ConversionV1, ConversionV1beta1, r.Kind, r.APIVersion)
	}
	if r.Request == nil {
		return nil, badReview("the ConversionReview has no request")
	}
	if r.Request.UID == "" {
		return nil, badReview("the ConversionReview request has no uid")
	}
	if r.Request.DesiredAPIVersion == "" {
		return nil, badReview("the ConversionReview request has no desiredAPIVersion")
	}
	return &r, nil
}

func unmarshalEnvelope(body []byte, into any) error {
	if err := json.Unmarshal(body, into); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return badReview("the body is not JSON: offset %d: %s", se.Offset, se.Error())
		case errors.As(err, &te):
			return badReview("the review is malformed: field %q must be %s, not a JSON %s", te.Field, te.Type, te.Value)
		}
		return badReview("the review is malformed: %v", err)
	}
	return nil
}
