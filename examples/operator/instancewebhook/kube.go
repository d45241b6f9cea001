package instancewebhook

import (
	"context"
	"encoding/json"
	"fmt"

	admissionv1 "k8s.io/api/admission/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/paramkit/paramkit/kube"
)

// Admit answers a request decoded by kube (a kube.AdmitFunc): serve the
// Handler with kube.Reviews' Admission, which bounds what a hostile
// client can make the operator do (body budget, the review's deadline
// from the first byte, fair turns, repeated envelope keys refused,
// warnings capped), where controller-runtime's admission.Webhook reads
// a review as encoding/json does (the last of two objects wins) and
// writes every warning. An answer that cannot be written is an error,
// which kube.Reviews turns into a denial.
func (h *Handler) Admit(ctx context.Context, req *kube.AdmissionRequest) (*kube.AdmissionResponse, error) {
	areq, err := admissionRequest(req)
	if err != nil {
		return nil, err
	}
	resp := h.Handle(ctx, areq)
	if err := resp.Complete(areq); err != nil {
		return nil, fmt.Errorf("the answer cannot be written: %w", err)
	}
	out := &kube.AdmissionResponse{UID: string(resp.UID), Allowed: resp.Allowed, Patch: resp.Patch,
		Warnings: resp.Warnings, AuditAnnotations: resp.AuditAnnotations}
	if resp.PatchType != nil && len(resp.Patch) > 0 {
		out.PatchType = string(*resp.PatchType)
	}
	if r := resp.Result; r != nil {
		out.Result = &kube.Status{Status: r.Status, Message: r.Message, Reason: string(r.Reason), Code: r.Code}
		if r.Details != nil && len(r.Details.Causes) > 0 {
			out.Result.Details = &kube.StatusDetails{}
			for _, c := range r.Details.Causes {
				out.Result.Details.Causes = append(out.Result.Details.Causes, kube.StatusCause{Type: string(c.Type), Message: c.Message, Field: c.Field})
			}
		}
	}
	return out, nil
}

// admissionRequest is req in controller-runtime's shape; the objects
// stay the raw JSON they were.
func admissionRequest(req *kube.AdmissionRequest) (admission.Request, error) {
	r := admissionv1.AdmissionRequest{
		UID:                types.UID(req.UID),
		Kind:               metav1.GroupVersionKind(req.Kind),
		SubResource:        req.SubResource,
		RequestSubResource: req.RequestSubResource,
		Name:               req.Name,
		Namespace:          req.Namespace,
		Operation:          admissionv1.Operation(req.Operation),
		Object:             runtime.RawExtension{Raw: req.Object},
		OldObject:          runtime.RawExtension{Raw: req.OldObject},
		DryRun:             req.DryRun,
		Options:            runtime.RawExtension{Raw: req.Options},
	}
	if req.RequestKind != nil {
		k := metav1.GroupVersionKind(*req.RequestKind)
		r.RequestKind = &k
	}
	var rr metav1.GroupVersionResource
	var ui authenticationv1.UserInfo
	for _, f := range []struct {
		name string
		raw  []byte
		into any
	}{{"resource", req.Resource, &r.Resource}, {"requestResource", req.RequestResource, &rr}, {"userInfo", req.UserInfo, &ui}} {
		if len(f.raw) == 0 {
			continue
		}
		if err := json.Unmarshal(f.raw, f.into); err != nil {
			return admission.Request{}, fmt.Errorf("the review's request.%s cannot be read: %w", f.name, err)
		}
	}
	if len(req.RequestResource) > 0 {
		r.RequestResource = &rr
	}
	r.UserInfo = ui
	return admission.Request{AdmissionRequest: r}, nil
}
