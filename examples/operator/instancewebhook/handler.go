package instancewebhook

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/examples/operator/kudoconvert"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// The paths config/webhook registers.
const (
	MutatePath   = "/mutate-kudo-dev-v1beta2-instance"
	ValidatePath = "/validate-kudo-dev-v1beta2-instance"
	ConvertPath  = "/convert"
)

// ParametersField is the field path of an Instance's parameters, the
// prefix of every field path in a denial or warning about them.
const ParametersField = "spec.parameters"

// maxCauses bounds the causes listed in one denial; the message counts
// the rest.
const maxCauses = 50

// Resolver finds the compiled operator version an Instance names
// (opversion.Cache). An error wrapping kudoconvert.ErrSchemaNotFound means
// there is none.
type Resolver interface {
	Get(ctx context.Context, namespace, name string) (*kudo.OperatorVersion, error)
}

// Handler admits Instances; see the package doc. It is safe for
// concurrent use.
type Handler struct {
	versions Resolver
	mutate   bool
}

// NewMutator returns the handler of the mutating webhook.
func NewMutator(versions Resolver) *Handler { return &Handler{versions: versions, mutate: true} }

// NewValidator returns the handler of the validating webhook.
func NewValidator(versions Resolver) *Handler { return &Handler{versions: versions} }

var _ admission.Handler = (*Handler)(nil)

// Handle answers one admission request. Requests for anything but the
// CREATE or UPDATE of an Instance are allowed unchanged.
func (h *Handler) Handle(ctx context.Context, req admission.Request) admission.Response {
	if req.Kind.Group != "kudo.dev" || req.Kind.Kind != "Instance" || req.SubResource != "" ||
		(req.Operation != admissionv1.Create && req.Operation != admissionv1.Update) {
		return admission.Allowed("")
	}
	d := &decision{h: h, req: req}
	d.run(ctx)
	return d.resp
}

// decision is the work of one request.
type decision struct {
	h    *Handler
	req  admission.Request
	resp admission.Response

	obj, old map[string]any
}

func (d *decision) what() string {
	name := d.req.Name
	if name == "" {
		if md, _ := d.obj["metadata"].(map[string]any); md != nil {
			name, _ = md["generateName"].(string)
		}
	}
	return fmt.Sprintf("Instance.kudo.dev %q", name)
}

func (d *decision) run(ctx context.Context) {
	var err error
	if d.obj, err = decodeObject(d.req.Object.Raw); err != nil {
		d.resp = admission.Errored(http.StatusBadRequest, fmt.Errorf("the Instance cannot be read: %w", err))
		return
	}
	if d.req.Operation == admissionv1.Update {
		if d.old, err = decodeObject(d.req.OldObject.Raw); err != nil {
			d.resp = admission.Errored(http.StatusBadRequest, fmt.Errorf("the old Instance cannot be read: %w", err))
			return
		}
	}
	if d.h.mutate && apiVersion(d.obj) == kudoconvert.V1beta1 {
		d.resp = admission.Allowed("").WithWarnings("paramkit: defaults were not applied to a kudo.dev/v1beta1 Instance: register the mutating webhook for v1beta2 with matchPolicy: Equivalent")
		return
	}
	name := operatorVersionName(d.obj)
	if name == "" {
		d.deny([]metav1.StatusCause{{Type: metav1.CauseTypeFieldValueRequired, Field: "spec.operatorVersion.name", Message: "Required value: the OperatorVersion of the Instance"}})
		return
	}
	oldName := operatorVersionName(d.old)
	upgrade := d.old != nil && oldName != "" && oldName != name
	if d.old != nil && !upgrade && params.Identical(parametersOf(d.old), parametersOf(d.obj)) {
		// Nothing about the parameters changed (labels, finalizers, an
		// edit of something else): no schema is needed and no plan runs,
		// so a missing OperatorVersion never blocks deleting an Instance.
		if d.h.mutate {
			d.patch(nil, "", nil)
			return
		}
		if !params.Identical(planExecutionOf(d.old), planExecutionOf(d.obj)) {
			d.deny([]metav1.StatusCause{{Type: metav1.CauseTypeForbidden, Field: "spec.planExecution", Message: "Forbidden: the plan is decided at admission from a change of the parameters or the operator version, not set by hand"}})
			return
		}
		d.resp = admission.Allowed("")
		return
	}
	ns := d.req.Namespace
	ov, err := d.h.versions.Get(ctx, ns, name)
	if err != nil {
		d.denyVersion("spec.operatorVersion.name", name, err)
		return
	}
	desired, err := parametersTyped(d.obj, ov)
	if err != nil {
		d.denyErrors(err)
		return
	}
	var values any
	var plan string
	var warnings []string
	switch {
	case upgrade:
		from, err := d.h.versions.Get(ctx, ns, oldName)
		if err != nil {
			d.denyVersion("spec.operatorVersion.name", oldName, fmt.Errorf("the upgrade from %s needs it: %w", oldName, err))
			return
		}
		oldParams, _ := parametersTyped(d.old, from)
		u, err := ov.Upgrade(from, oldParams, desired)
		if err != nil {
			d.denyErrors(err)
			return
		}
		values, plan = u.Values, ov.UpgradePlan()
		for _, x := range u.Dropped {
			warnings = append(warnings, fmt.Sprintf("%s: dropped by the upgrade from %s to %s: %s declares no place for it", pointerField(x.Pointer), oldName, name, name))
		}
		for _, l := range u.Lossy {
			from, to := string(mustBytes(params.MarshalJSON(nil, l.From, ""))), string(mustBytes(params.MarshalJSON(nil, l.To, "")))
			if l.Hidden {
				from, to = schema.Hidden, schema.Hidden
			}
			warnings = append(warnings, fmt.Sprintf("%s: the upgrade from %s to %s changed %s to %s", pointerField(l.Pointer), oldName, name, from, to))
		}
	default:
		var oldParams any
		if d.old != nil {
			if oldParams, err = parametersTyped(d.old, ov); err != nil {
				oldParams = nil // an old object this version cannot read: judge the new one alone
			}
		}
		r, err := ov.Update(oldParams, desired)
		if err != nil {
			d.denyErrors(err)
			return
		}
		values, plan = r.Values, r.Plan
		for _, w := range r.Warnings {
			warnings = append(warnings, w.FieldPath(ParametersField)+": "+w.Message)
		}
	}
	if d.h.mutate {
		d.patch(d.parameterOps(desired, values), plan, warnings)
		return
	}
	d.checkPlan(plan)
}

// patch answers the mutating webhook: ops (the parameters' changes) and
// the plan in spec.planExecution, as one JSON patch whose numbers keep
// their text.
//
// A change that triggers no plan keeps the old spec.planExecution: a
// client that sends the whole object without it (kubectl replace of the
// manifest it applied, an old client's PUT) has not asked for anything
// to run, and the validating webhook would refuse the removal.
func (d *decision) patch(ops []any, plan string, warnings []string) {
	switch {
	case plan != "":
		ops = append(ops, map[string]any{"op": "add", "path": "/spec/planExecution", "value": map[string]any{"planName": plan, "uid": string(d.req.UID)}})
	case len(planExecutionOf(d.obj)) == 0 && len(planExecutionOf(d.old)) > 0:
		ops = append(ops, map[string]any{"op": "add", "path": "/spec/planExecution", "value": planExecutionOf(d.old)})
	}
	resp := admission.Allowed("")
	if len(ops) > 0 {
		pt := admissionv1.PatchTypeJSONPatch
		resp.Patch, resp.PatchType = mustBytes(params.MarshalJSON(nil, ops, "")), &pt
	}
	d.resp = resp.WithWarnings(warnings...)
}

// parameterOps are the JSON patch operations that turn the Instance's
// parameters (desired) into values.
func (d *decision) parameterOps(desired, values any) []any {
	if _, present := parametersPresent(d.obj); present {
		return kube.JSONPatch("/spec/parameters", desired, values)
	}
	if m, ok := values.(map[string]any); ok && len(m) == 0 {
		return nil
	}
	return []any{map[string]any{"op": "add", "path": "/spec/parameters", "value": values}}
}

// checkPlan refuses a spec.planExecution that does not say the plan the
// change triggers: the mutating webhook sets it, so a difference means it
// did not run or someone set the plan by hand.
func (d *decision) checkPlan(plan string) {
	got, _ := planExecutionOf(d.obj)["planName"].(string)
	switch {
	case plan == "" && d.old != nil:
		if !params.Identical(planExecutionOf(d.old), planExecutionOf(d.obj)) {
			d.deny([]metav1.StatusCause{{Type: metav1.CauseTypeForbidden, Field: "spec.planExecution", Message: "Forbidden: the change triggers no plan, so the plan may not change"}})
			return
		}
	case got != plan:
		d.deny([]metav1.StatusCause{{Type: metav1.CauseTypeFieldValueInvalid, Field: "spec.planExecution.planName",
			Message: fmt.Sprintf("Invalid value: %q: the change triggers plan %q, which the mutating webhook writes here (is it registered for kudo.dev/v1beta2 Instances?)", got, plan)}})
		return
	}
	d.resp = admission.Allowed("")
}

// denyVersion refuses an Instance whose operator version is missing or
// unusable.
func (d *decision) denyVersion(field, name string, err error) {
	typ := metav1.CauseTypeFieldValueInvalid
	msg := fmt.Sprintf("Invalid value: %q: %v", name, err)
	if errors.Is(err, kudoconvert.ErrSchemaNotFound) {
		typ = metav1.CauseTypeFieldValueNotFound
		msg = fmt.Sprintf("Not found: %q: %v", name, err)
	}
	d.deny([]metav1.StatusCause{{Type: typ, Field: field, Message: msg}})
}

// denyErrors refuses with one cause per paramkit error, each at its
// field path under spec.parameters.
func (d *decision) denyErrors(err error) {
	errs := schema.ErrorsOf(err)
	if len(errs) == 0 {
		errs = schema.ErrorList{{Kind: schema.KindInvalid, Message: err.Error()}}
	}
	causes := make([]metav1.StatusCause, 0, len(errs))
	for _, e := range errs {
		causes = append(causes, metav1.StatusCause{Type: causeType(e.Kind), Field: e.FieldPath(ParametersField), Message: e.Message})
	}
	d.deny(causes)
}

// deny answers 422 Invalid, as the apiserver's own validation does: the
// message lists "field: message" for each cause, and the causes carry
// the fields.
func (d *decision) deny(causes []metav1.StatusCause) {
	sort.SliceStable(causes, func(i, j int) bool { return causes[i].Field < causes[j].Field })
	msgs := make([]string, 0, len(causes))
	for i, c := range causes {
		if i == maxCauses {
			msgs = append(msgs, fmt.Sprintf("and %d more", len(causes)-maxCauses))
			causes = causes[:maxCauses]
			break
		}
		msgs = append(msgs, c.Field+": "+c.Message)
	}
	name := d.req.Name
	d.resp = admission.Response{AdmissionResponse: admissionv1.AdmissionResponse{
		Allowed: false,
		Result: &metav1.Status{
			Status:  metav1.StatusFailure,
			Code:    http.StatusUnprocessableEntity,
			Reason:  metav1.StatusReasonInvalid,
			Message: fmt.Sprintf("%s is invalid: %s", d.what(), strings.Join(msgs, "; ")),
			Details: &metav1.StatusDetails{Name: name, Group: "kudo.dev", Kind: "Instance", Causes: causes},
		},
	}}
}

// causeType maps a paramkit Kind to the Kubernetes cause type a client
// expects for it.
func causeType(k schema.Kind) metav1.CauseType {
	switch k {
	case schema.KindRequired:
		return metav1.CauseTypeFieldValueRequired
	case schema.KindImmutable, schema.KindConflict:
		return metav1.CauseTypeForbidden
	case schema.KindEnum, schema.KindUndeclared, schema.KindAdditional:
		return metav1.CauseTypeFieldValueNotSupported
	case schema.KindType:
		return metav1.CauseTypeTypeInvalid
	}
	return metav1.CauseTypeFieldValueInvalid
}

// pointerField is the field path of a parameter pointer.
func pointerField(ptr string) string {
	return (&schema.Error{Pointer: ptr}).FieldPath(ParametersField)
}

// mustBytes is the JSON of a value the operator decoded or built itself,
// a plain value params.MarshalJSON cannot fail on: a failure is a bug,
// never a half-written answer.
func mustBytes(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
