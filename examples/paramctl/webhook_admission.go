package main

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/trigger"
)

// maxCauses bounds the errors listed in one denial; the rest are counted.
const maxCauses = 50

// PlanAnnotation is the audit annotation (and the warning prefix) under
// which /validate returns the plan a change runs.
const PlanAnnotation = "plan"

// Validate answers an admission request for /validate: it denies
// Instances whose parameters are invalid (every error with its pointer),
// that change an immutable parameter, or whose update triggers more than
// one plan, and returns the plan the change runs as the warning
// "plan: NAME" and the audit annotation "plan". Requests for other kinds
// are allowed unchanged. A panic becomes a denial.
func (h *Handler) Validate(ctx context.Context, req *kube.AdmissionRequest) *kube.AdmissionResponse {
	return h.admit(ctx, req, false)
}

// Mutate answers an admission request for /mutate: it applies the
// schema's defaults to an Instance's parameters and returns them as a
// JSONPatch. On an UPDATE that changes spec.operatorVersion.name it first
// moves the parameters to their new places by oldName (values that map
// nowhere are dropped and named in warnings). A panic becomes a denial.
func (h *Handler) Mutate(ctx context.Context, req *kube.AdmissionRequest) *kube.AdmissionResponse {
	if h.opts.Gates != nil && req != nil {
		return h.mutateWithGates(ctx, req)
	}
	return h.admit(ctx, req, true)
}

// admission is the work of one admission request.
type admission struct {
	h      *Handler
	ctx    context.Context
	req    *kube.AdmissionRequest
	mutate bool
	resp   *kube.AdmissionResponse
	plan   string
	// generateName is the object's, for messages about an object
	// without a name yet (a CREATE with metadata.generateName).
	generateName string
}

func (h *Handler) admit(ctx context.Context, req *kube.AdmissionRequest, mutate bool) (resp *kube.AdmissionResponse) {
	if req == nil {
		return &kube.AdmissionResponse{Allowed: false, Result: failure(400, "BadRequest", "the review has no request", nil)}
	}
	a := &admission{h: h, ctx: ctx, req: req, mutate: mutate, resp: &kube.AdmissionResponse{UID: req.UID, Allowed: true}}
	defer func() {
		if p := recover(); p != nil {
			h.log.Error("internal error", "uid", req.UID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			resp = &kube.AdmissionResponse{UID: req.UID, Result: failure(500, "InternalError",
				fmt.Sprintf("internal error while checking %s: %v (the request is denied; please report this)", a.what(), p), nil)}
		}
	}()
	a.run()
	resp = a.resp
	if !resp.Allowed {
		h.log.Info("denied", "uid", req.UID, "endpoint", a.endpoint(), "object", a.what(), "reason", resp.Result.Message)
	}
	if h.opts.OnAdmission != nil && !isDryRun(req) {
		h.opts.OnAdmission(ctx, Decision{Mutating: mutate, Request: req, Response: resp, Plan: a.plan})
	}
	return resp
}

func isDryRun(req *kube.AdmissionRequest) bool { return req.DryRun != nil && *req.DryRun }

func (a *admission) endpoint() string {
	if a.mutate {
		return "/mutate"
	}
	return "/validate"
}

// what names the object as kube.Admit does: Instance demo/kafka, or
// Instance (generateName kafka-) in demo before the apiserver names it.
func (a *admission) what() string {
	kind := a.req.Kind.Kind
	if kind == "" {
		kind = "object"
	}
	if a.req.Name != "" {
		if a.req.Namespace != "" {
			return kind + " " + a.req.Namespace + "/" + a.req.Name
		}
		return kind + " " + a.req.Name
	}
	out := kind
	if a.generateName != "" {
		out += " (generateName " + a.generateName + ")"
	}
	if a.req.Namespace != "" {
		out += " in " + a.req.Namespace
	}
	return out
}

func failure(code int32, reason, msg string, causes []kube.StatusCause) *kube.Status {
	st := &kube.Status{Status: "Failure", Code: code, Reason: reason, Message: msg}
	if len(causes) > 0 {
		st.Details = &kube.StatusDetails{Causes: causes}
	}
	return st
}

// deny refuses the request. The answer is bounded whatever the request
// held: the message and each cause are cut to a short prefix (a key of
// megabytes is not echoed).
func (a *admission) deny(code int32, reason, msg string, causes []kube.StatusCause) {
	for i := range causes {
		causes[i].Field = clip(causes[i].Field, maxFieldBytes)
		causes[i].Message = clip(causes[i].Message, maxMessageBytes)
	}
	a.resp = &kube.AdmissionResponse{UID: a.req.UID, Allowed: false, Result: failure(code, reason, clip(msg, maxDenialBytes), causes)}
	a.plan = ""
}

// deadline denies the request when the review's deadline (the
// apiserver's ?timeout=) has passed, and reports whether it did.
func (a *admission) deadline(when string) bool {
	if a.ctx.Err() == nil {
		return false
	}
	a.deny(504, "Timeout", fmt.Sprintf("%s: the review's deadline passed %s; nothing was decided: %v", a.what(), when, context.Cause(a.ctx)), nil)
	return true
}

// denyResolve refuses because an operator version's schema is missing or
// unusable, naming which and why.
func (a *admission) denyResolve(err error) {
	// A lookup cut short by the review's deadline (a hanging schema
	// source) is a timeout, not a fault of the schema.
	if a.deadline("while looking up the schema") {
		return
	}
	if errors.Is(err, ErrSchemaNotFound) {
		a.deny(404, "NotFound", fmt.Sprintf("%s: %v", a.what(), err), nil)
		return
	}
	a.deny(500, "InternalError", fmt.Sprintf("%s: %v", a.what(), err), nil)
}

func (a *admission) warn(w string) { a.resp.Warnings = append(a.resp.Warnings, w) }

func (a *admission) run() {
	req := a.req
	if req.Kind.Group != Group || req.Kind.Kind != "Instance" || req.SubResource != "" {
		return // not ours: allowed unchanged
	}
	if req.Operation != "CREATE" && req.Operation != "UPDATE" {
		return
	}
	if a.deadline("before decoding the object") {
		return
	}
	obj, err := decodeObject(req.Object)
	if err != nil {
		a.deny(400, "BadRequest", fmt.Sprintf("%s: %v", a.what(), err), nil)
		return
	}
	a.generateName = obj.str("metadata", "generateName")
	var old object
	if req.Operation == "UPDATE" {
		if old, err = decodeObject(req.OldObject); err != nil {
			a.deny(400, "BadRequest", fmt.Sprintf("%s: oldObject: %v", a.what(), err), nil)
			return
		}
	}
	if a.deadline("while decoding the objects") {
		return
	}
	v1beta1 := obj.str("apiVersion") == V1beta1
	if v1beta1 && a.mutate {
		a.warn("paramkit: v1beta1 Instance: defaults are not applied here; register /mutate for kudo.dev/v1beta2 (matchPolicy: Equivalent)")
		return
	}
	name, err := obj.operatorVersionName()
	if err != nil {
		a.deny(422, "Invalid", err.Error(), nil)
		return
	}
	var oldName string
	if old != nil {
		oldName, _ = old.operatorVersionName()
	}
	upgrade := old != nil && oldName != "" && oldName != name
	if old != nil && !upgrade && params.Identical(old.at("spec", "parameters"), obj.at("spec", "parameters")) && !a.mutate {
		// Nothing of the parameters changed (a status, label or
		// finalizer update): no schema is needed and no plan runs, so a
		// missing schema never blocks deleting an Instance.
		return
	}
	ver, err := a.h.opts.Resolver.Resolve(a.ctx, obj.str("metadata", "namespace"), name)
	if err != nil {
		if old != nil && !upgrade && params.Identical(old.at("spec", "parameters"), obj.at("spec", "parameters")) {
			a.warn("paramkit: defaults not applied: " + err.Error())
			return
		}
		a.denyResolve(err)
		return
	}
	var oldVer *kudo.OperatorVersion
	if upgrade {
		if oldVer, err = a.h.opts.Resolver.Resolve(a.ctx, old.str("metadata", "namespace"), oldName); err != nil {
			a.denyResolve(fmt.Errorf("upgrade from %q: %w", oldName, err))
			return
		}
	}
	if a.mutate {
		a.mutateInstance(obj, ver, oldVer)
	} else {
		a.validateInstance(obj, old, ver, oldVer)
	}
}

func (a *admission) mutateInstance(obj object, ver, oldVer *kudo.OperatorVersion) {
	p := obj.at("spec", "parameters")
	present := p != nil
	var work any = map[string]any{}
	if present {
		work = p
	}
	if oldVer != nil {
		res, err := ver.Migration().MigrateHiding(work, oldVer.Schema()) // the old version's secrets stay out of messages too
		if err != nil {
			a.denyMigration(oldVer, ver, schema.ErrorsOf(err))
			return
		}
		work = res.Values
		if work == nil {
			work = map[string]any{}
		}
		var dropped []string
		for _, d := range res.Dropped {
			dropped = append(dropped, d.Pointer)
			a.warn(fmt.Sprintf("paramkit: upgrade from %s to %s: parameter %s has no place in the new schema and was dropped", oldVer.Name(), ver.Name(), d.Pointer))
		}
		for _, l := range res.Lossy {
			from, to := string(mustBytes(params.MarshalJSON(nil, l.From, ""))), string(mustBytes(params.MarshalJSON(nil, l.To, "")))
			if l.Hidden { // a secret (writeOnly, format: password): never quoted
				from, to = schema.Hidden, schema.Hidden
			}
			a.warn(fmt.Sprintf("paramkit: upgrade from %s to %s: %s changed from %s to %s", oldVer.Name(), ver.Name(), l.Pointer, from, to))
		}
		if len(dropped) > 0 {
			a.resp.AuditAnnotations = map[string]string{"dropped-parameters": strings.Join(dropped, ",")}
		}
	}
	if a.deadline("before filling in defaults") {
		return
	}
	work, err := params.Default(ver.Schema(), work)
	if err != nil {
		a.denyInvalid(err)
		return
	}
	var ops []any
	switch {
	case !present:
		if m, ok := work.(map[string]any); work != nil && !(ok && len(m) == 0) {
			ops = append(ops, map[string]any{"op": "add", "path": "/spec/parameters", "value": work})
		}
	default:
		ops = kube.JSONPatch("/spec/parameters", p, work)
	}
	if patch := encodePatch(ops); patch != nil {
		a.resp.Patch, a.resp.PatchType = patch, "JSONPatch"
	}
}

func (a *admission) validateInstance(obj, old object, ver, oldVer *kudo.OperatorVersion) {
	raw := ver.Parameters(obj)
	newV, err := params.Default(ver.Schema(), raw)
	if a.deadline("before validating") {
		return
	}
	if err == nil {
		err = params.Validate(ver.Schema(), newV)
	}
	if err != nil {
		a.denyInvalid(err)
		return
	}
	if a.deadline("while validating") {
		return
	}
	if a.warnUndeclared(ver, raw, old) {
		return
	}
	var plan string
	switch {
	case old == nil:
		plan = trigger.Deploy // an install
	case oldVer != nil:
		// An upgrade runs one plan whatever changed; immutable values are
		// compared after moving the old ones to their new places.
		// Old values that do not fit stay at their new place (the
		// Result is meaningful with the migration's errors).
		moved, _ := ver.Migration().Migrate(oldVer.Parameters(old))
		oldV := moved.Values
		if oldV == nil {
			oldV = map[string]any{}
		}
		if oldV, err = params.Default(ver.Schema(), oldV); err != nil {
			a.denyInvalid(err)
			return
		}
		if a.denyImmutable(ver.Schema(), oldV, newV) {
			return
		}
		plan = ver.UpgradePlan()
	default:
		oldV, err := params.Default(ver.Schema(), ver.Parameters(old))
		if err != nil {
			a.denyInvalid(err)
			return
		}
		if a.denyImmutable(ver.Schema(), oldV, newV) {
			return
		}
		changed := params.Diff(oldV, newV)
		if len(changed) == 0 {
			return // nothing changed: no plan
		}
		if plan, err = ver.Triggers().Resolve(changed); err != nil {
			var conflicts schema.ErrorList
			if !asList(err, &conflicts) || len(conflicts) == 0 || conflicts[0].Kind != schema.KindConflict {
				a.deny(422, "Invalid", fmt.Sprintf("%s: %v", a.what(), err), nil)
				return
			}
			a.denyPlans(conflicts)
			return
		}
	}
	a.plan = plan
	a.warn("plan: " + plan)
	a.resp.AuditAnnotations = map[string]string{PlanAnnotation: plan}
}

// warnUndeclared warns of the keys of the new parameters that the schema
// does not declare (a typo such as replicsa for replicas, which an open
// schema accepts); on an UPDATE only of those the old parameters did not
// already have, so that one typo is not repeated on every later change.
func (a *admission) warnUndeclared(ver *kudo.OperatorVersion, raw any, old object) (denied bool) {
	s := ver.Schema()
	var oldV any
	if old != nil {
		oldV = ver.Parameters(old)
	}
	// At most undeclaredBudget bytes of them, so that the plan's warning
	// still fits in what the apiserver keeps (4 KiB); the rest is
	// counted. A warning takes more than undeclaredMinBytes, so only so
	// many are built: a hostile object with many undeclared keys costs
	// one walk, which stops at the review's deadline.
	ws, more, err := params.Undeclared(a.ctx, s, raw, oldV, undeclaredBudget/undeclaredMinBytes)
	if err != nil {
		return a.deadline("while looking for undeclared keys")
	}
	used, full := 0, false
	for _, w := range ws {
		text := clip(fmt.Sprintf("paramkit: /spec/parameters%s: %s", clip(w.Pointer, maxFieldBytes), w.Message), maxWarningChars)
		if full || used+len(text) > undeclaredBudget {
			full = true
			more++
			continue
		}
		used += len(text)
		a.warn(text)
	}
	if more > 0 {
		a.warn(fmt.Sprintf("paramkit: %d more undeclared keys not listed", more))
	}
	return false
}

// undeclaredBudget bounds the warnings about undeclared keys; the
// warnings' cap (4 KiB, kube.AdmissionReview.Respond) leaves room for the rest.
const undeclaredBudget = 3 << 10

// undeclaredMinBytes is less than the shortest warning about an
// undeclared key (`paramkit: /spec/parameters/x: "x" is not declared by
// the schema` takes 62 bytes).
const undeclaredMinBytes = 48

// maxWarningChars is what the apiserver keeps of one warning (clip
// counts bytes, so a warning cut by it is at most so many characters).
const maxWarningChars = 256

func (a *admission) denyInvalid(err error) {
	var ves schema.ErrorList
	if !asList(err, &ves) {
		a.deny(422, "Invalid", fmt.Sprintf("%s: invalid parameters: %v", a.what(), err), nil)
		return
	}
	var msgs []string
	var causes []kube.StatusCause
	for i, e := range ves {
		if i == maxCauses {
			msgs = append(msgs, fmt.Sprintf("and %d more", len(ves)-maxCauses))
			break
		}
		p := paramPointer(e.Pointer)
		p, m := clip(p, maxFieldBytes), clip(e.Message, maxMessageBytes)
		msgs = append(msgs, p+": "+m)
		causes = append(causes, kube.StatusCause{Type: "FieldValueInvalid", Field: p, Message: m})
	}
	a.deny(422, "Invalid", fmt.Sprintf("%s: invalid parameters: %s", a.what(), strings.Join(msgs, "; ")), causes)
}

func (a *admission) denyImmutable(s *schema.Schema, oldV, newV any) bool {
	causes := immutableErrors(s, oldV, newV)
	if len(causes) == 0 {
		return false
	}
	var msgs []string
	for i, c := range causes {
		if i == maxCauses {
			msgs = append(msgs, fmt.Sprintf("and %d more", len(causes)-maxCauses))
			causes = causes[:maxCauses]
			break
		}
		msgs = append(msgs, clip(c.Field, maxFieldBytes)+": "+clip(c.Message, maxMessageBytes))
	}
	a.deny(422, "Invalid", fmt.Sprintf("%s: %s", a.what(), strings.Join(msgs, "; ")), causes)
	return true
}

func (a *admission) denyMigration(oldVer, ver *kudo.OperatorVersion, errs schema.ErrorList) {
	var msgs []string
	var causes []kube.StatusCause
	for i, e := range errs {
		if i == maxCauses {
			msgs = append(msgs, fmt.Sprintf("and %d more", len(errs)-maxCauses))
			break
		}
		p := paramPointer(e.Pointer)
		p, m := clip(p, maxFieldBytes), clip(e.Message, maxMessageBytes)
		msgs = append(msgs, p+": "+m)
		causes = append(causes, kube.StatusCause{Type: "FieldValueInvalid", Field: p, Message: m})
	}
	a.deny(422, "Invalid", fmt.Sprintf("%s: the upgrade from %s to %s cannot move the parameters: %s", a.what(), oldVer.Name(), ver.Name(), strings.Join(msgs, "; ")), causes)
}

// denyPlans refuses changes that trigger several plans: conflicts holds
// one entry of kind schema.KindConflict per change, its Detail.Plans
// the change's plan and then every plan of the update.
func (a *admission) denyPlans(conflicts schema.ErrorList) {
	byPlan := map[string][]string{}
	var causes []kube.StatusCause
	var plans []string
	for _, c := range conflicts {
		plan := c.Detail.Plans[0]
		plans = c.Detail.Plans[1:]
		byPlan[plan] = append(byPlan[plan], paramPointer(c.Pointer))
		causes = append(causes, kube.StatusCause{Type: "FieldValueForbidden", Field: paramPointer(c.Pointer), Message: "triggers plan " + plan})
	}
	var parts []string
	for _, plan := range plans {
		parts = append(parts, fmt.Sprintf("plan %q by %s", plan, strings.Join(byPlan[plan], ", ")))
	}
	if len(causes) > maxCauses {
		causes = causes[:maxCauses]
	}
	a.deny(422, "Invalid", fmt.Sprintf("%s: the update triggers more than one plan (%s); change these parameters in separate updates", a.what(), strings.Join(parts, "; ")), causes)
}
