package main

import (
	"context"
	"fmt"
	"strconv"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/gates"
)

// SpecUnchangedAnnotation is the audit annotation /mutate sets when field
// gates are applied to an update: "true" when the spec is the same as the
// stored one after the gates (the feature-gate document's signal not to
// bump metadata.generation), else "false".
const SpecUnchangedAnnotation = "spec-unchanged"

// mutateWithGates runs /mutate on the object after the field gates: the
// gates decide first (the same code as `paramctl gates`), then the
// Instance's parameters are migrated and defaulted, and the answer is one
// JSON patch from what the client sent to the final object.
func (h *Handler) mutateWithGates(ctx context.Context, req *kube.AdmissionRequest) *kube.AdmissionResponse {
	if req.Operation != "CREATE" && req.Operation != "UPDATE" {
		return h.admit(ctx, req, true)
	}
	sent, err := decodeObject(req.Object)
	if err != nil {
		return h.admit(ctx, req, true) // admit reports the bad object
	}
	var stored any
	if req.Operation == "UPDATE" {
		old, err := decodeObject(req.OldObject)
		if err != nil {
			return h.admit(ctx, req, true)
		}
		stored = map[string]any(old)
	}
	res := h.opts.Gates.Apply(map[string]any(sent), stored)
	gatedJSON := mustBytes(params.MarshalJSON(nil, res.Object, ""))

	gatedReq := *req
	gatedReq.Object = gatedJSON
	resp := h.admit(ctx, &gatedReq, true)
	if !resp.Allowed {
		return resp
	}
	final := gatedJSON
	if len(resp.Patch) > 0 {
		p, err := jsonpatch.DecodePatch(resp.Patch)
		if err == nil {
			final, err = p.Apply(gatedJSON)
		}
		if err != nil {
			return &kube.AdmissionResponse{UID: req.UID, Result: failure(500, "InternalError",
				fmt.Sprintf("internal error applying the mutation after the field gates: %v (the request is denied; please report this)", err), nil)}
		}
	}
	finalObj, err := params.Decode(nil, final)
	if err != nil {
		return &kube.AdmissionResponse{UID: req.UID, Result: failure(500, "InternalError", err.Error(), nil)}
	}
	resp.Patch, resp.PatchType = nil, ""
	if patch := encodePatch(kube.JSONPatch("", map[string]any(sent), finalObj)); patch != nil {
		resp.Patch, resp.PatchType = patch, "JSONPatch"
	}
	for _, w := range res.Warnings {
		resp.Warnings = append(resp.Warnings, "paramkit: feature gate: "+w.Error())
	}
	if req.Operation == "UPDATE" {
		if resp.AuditAnnotations == nil {
			resp.AuditAnnotations = map[string]string{}
		}
		resp.AuditAnnotations[SpecUnchangedAnnotation] = strconv.FormatBool(res.SpecUnchanged)
	}
	return resp
}

// Gates returns the field gates the handler applies in /mutate (nil: none).
func (h *Handler) Gates() *gates.Set { return h.opts.Gates }
