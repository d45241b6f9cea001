package instancewebhook_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
	"sigs.k8s.io/yaml"

	"github.com/paramkit/paramkit/examples/operator/api/v1beta2"
	"github.com/paramkit/paramkit/examples/operator/instancewebhook"
	"github.com/paramkit/paramkit/examples/operator/opversion"
	"github.com/paramkit/paramkit/params"
)

// operatorVersion reads an OperatorVersion of config/samples as stored.
func operatorVersion(t testing.TB, name string) *v1beta2.OperatorVersion {
	t.Helper()
	data, err := os.ReadFile("../config/samples/" + name + ".yaml")
	require.NoError(t, err)
	var ov v1beta2.OperatorVersion
	require.NoError(t, yaml.Unmarshal(data, &ov))
	return &ov
}

// versions is an operator-version cache over a fake client holding the
// samples and the extra objects.
func versions(t testing.TB, extra ...*v1beta2.OperatorVersion) *opversion.Cache {
	s := runtime.NewScheme()
	require.NoError(t, v1beta2.AddToScheme(s))
	b := fake.NewClientBuilder().WithScheme(s).WithObjects(operatorVersion(t, "my-operator-0.1.0"), operatorVersion(t, "my-operator-0.2.0"))
	for _, o := range extra {
		b = b.WithObjects(o)
	}
	return opversion.New(b.Build(), nil)
}

// instance is an Instance's JSON: the operator version and the
// parameters as JSON text, and the plan execution when not empty.
func instance(ov, parameters, plan string) []byte {
	s := `{"apiVersion":"kudo.dev/v1beta2","kind":"Instance","metadata":{"name":"i","namespace":"default"},"spec":{"operatorVersion":{"name":"` + ov + `"}`
	if parameters != "" {
		s += `,"parameters":` + parameters
	}
	if plan != "" {
		s += `,"planExecution":{"planName":"` + plan + `","uid":"earlier"}`
	}
	return []byte(s + "}}")
}

func request(op admissionv1.Operation, obj, old []byte) admission.Request {
	r := admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{
		UID:       "req-1",
		Kind:      metav1.GroupVersionKind{Group: "kudo.dev", Version: "v1beta2", Kind: "Instance"},
		Resource:  metav1.GroupVersionResource{Group: "kudo.dev", Version: "v1beta2", Resource: "instances"},
		Name:      "i",
		Namespace: "default",
		Operation: op,
		Object:    runtime.RawExtension{Raw: obj},
	}}
	if old != nil {
		r.OldObject = runtime.RawExtension{Raw: old}
	}
	return r
}

// patched applies a response's JSON patch to the object, as the
// apiserver does, and decodes the result with numbers exact.
func patched(t testing.TB, obj []byte, resp admission.Response) map[string]any {
	t.Helper()
	out := obj
	if resp.Patch != nil {
		require.Equal(t, admissionv1.PatchTypeJSONPatch, *resp.PatchType)
		p, err := jsonpatch.DecodePatch(resp.Patch)
		require.NoError(t, err)
		out, err = p.Apply(obj)
		require.NoError(t, err)
	}
	v, err := params.Decode(nil, out)
	require.NoError(t, err)
	return v.(map[string]any)
}

func specOf(o map[string]any) map[string]any { return o["spec"].(map[string]any) }

func TestMutateCreateDefaultsExactly(t *testing.T) {
	h := instancewebhook.NewMutator(versions(t))
	obj := instance("my-operator-0.2.0", `{"clusterName":"prod","nodeCount":5}`, "")
	resp := h.Handle(context.Background(), request(admissionv1.Create, obj, nil))
	require.True(t, resp.Allowed, "%v", resp.Result)
	out := patched(t, obj, resp)
	spec := specOf(out)
	p := spec["parameters"].(map[string]any)
	assert.Equal(t, json.Number("9007199254740993"), p["storageBytes"], "a default beyond float64 keeps its text")
	assert.Equal(t, json.Number("5"), p["nodeCount"])
	assert.Equal(t, map[string]any{"enabled": false}, p["backup"])
	assert.Equal(t, map[string]any{"planName": "deploy", "uid": "req-1"}, spec["planExecution"])
	assert.Contains(t, string(resp.Patch), "9007199254740993", "the patch itself carries the text")
	assert.Empty(t, resp.Warnings)
}

func TestMutateCreateWithoutParameters(t *testing.T) {
	h := instancewebhook.NewMutator(versions(t))
	obj := instance("my-operator-0.2.0", "", "")
	resp := h.Handle(context.Background(), request(admissionv1.Create, obj, nil))
	require.True(t, resp.Allowed, "%v", resp.Result)
	p := specOf(patched(t, obj, resp))["parameters"].(map[string]any)
	assert.Equal(t, "my-cluster", p["clusterName"])
}

func TestMutateWarnsUndeclaredKeysWithTheClosestName(t *testing.T) {
	h := instancewebhook.NewMutator(versions(t))
	obj := instance("my-operator-0.2.0", `{"clusterName":"prod","nodeCont":5}`, "")
	resp := h.Handle(context.Background(), request(admissionv1.Create, obj, nil))
	require.True(t, resp.Allowed, "%v", resp.Result)
	require.Len(t, resp.Warnings, 1)
	assert.Equal(t, `spec.parameters.nodeCont: "nodeCont" is not declared by the schema; did you mean "nodeCount"?`, resp.Warnings[0])

	// An update that keeps the key does not warn again.
	old := patched(t, obj, resp)
	oldRaw := mustBytes(params.MarshalJSON(nil, old, ""))
	newObj := strings.Replace(string(oldRaw), `"nodeCont":5`, `"nodeCont":6`, 1)
	resp = h.Handle(context.Background(), request(admissionv1.Update, []byte(newObj), oldRaw))
	require.True(t, resp.Allowed, "%v", resp.Result)
	assert.Empty(t, resp.Warnings)
}

func TestMutateUpdatePlans(t *testing.T) {
	h := instancewebhook.NewMutator(versions(t))
	old := instance("my-operator-0.2.0", `{"clusterName":"prod","nodeCount":3,"storageBytes":9007199254740993,"backup":{"enabled":true}}`, "deploy")
	for _, tc := range []struct {
		name, parameters, plan string
	}{
		{"a trigger's change", `{"clusterName":"prod","nodeCount":3,"storageBytes":9007199254740993,"backup":{"enabled":false}}`, "backup"},
		{"an uncovered change", `{"clusterName":"prod","nodeCount":4,"storageBytes":9007199254740993,"backup":{"enabled":true}}`, "deploy"},
		{"a removed parameter under a trigger", `{"clusterName":"prod","nodeCount":3,"storageBytes":9007199254740993}`, "backup"},
		{"a default spelled out", `{"clusterName":"prod","nodeCount":3,"storageBytes":9007199254740993,"backup":{"enabled":true}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj := instance("my-operator-0.2.0", tc.parameters, "deploy")
			resp := h.Handle(context.Background(), request(admissionv1.Update, obj, old))
			require.True(t, resp.Allowed, "%v", resp.Result)
			pe := specOf(patched(t, obj, resp))["planExecution"].(map[string]any)
			if tc.plan == "" {
				assert.Equal(t, "earlier", pe["uid"], "no change, no new plan")
				return
			}
			assert.Equal(t, map[string]any{"planName": tc.plan, "uid": "req-1"}, pe)
		})
	}
}

// TestMutateKeepsThePlanWhenNoneIsTriggered: a whole object sent without
// spec.planExecution (kubectl replace -f of the applied manifest, an old
// client's PUT) that triggers no plan gets the stored plan back, and the
// validating webhook then admits it; a change that triggers one still
// gets its own.
func TestMutateKeepsThePlanWhenNoneIsTriggered(t *testing.T) {
	ctx := context.Background()
	mutator, validator := instancewebhook.NewMutator(versions(t)), instancewebhook.NewValidator(versions(t))
	stored := `{"clusterName":"prod","nodeCount":3,"storageBytes":9007199254740993,"backup":{"enabled":true}}`
	old := instance("my-operator-0.2.0", stored, "backup")
	for _, tc := range []struct {
		name, parameters, plan, uid string
	}{
		{"the same parameters", stored, "backup", "earlier"},
		{"a defaulted parameter left out", `{"clusterName":"prod","storageBytes":9007199254740993,"backup":{"enabled":true}}`, "backup", "earlier"},
		{"a change", `{"clusterName":"prod","nodeCount":4,"storageBytes":9007199254740993,"backup":{"enabled":true}}`, "deploy", "req-1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj := instance("my-operator-0.2.0", tc.parameters, "")
			resp := mutator.Handle(ctx, request(admissionv1.Update, obj, old))
			require.True(t, resp.Allowed, "%v", resp.Result)
			out := patched(t, obj, resp)
			assert.Equal(t, map[string]any{"planName": tc.plan, "uid": tc.uid}, specOf(out)["planExecution"])
			final := mustBytes(params.MarshalJSON(nil, out, ""))
			resp = validator.Handle(ctx, request(admissionv1.Update, final, old))
			assert.True(t, resp.Allowed, "%v", resp.Result)
		})
	}
	// A plan set by hand is not the mutator's to repair: the validator
	// refuses it (TestValidateChecksThePlanExecution).
	byHand := instance("my-operator-0.2.0", stored, "deploy")
	resp := mutator.Handle(ctx, request(admissionv1.Update, byHand, old))
	require.True(t, resp.Allowed, "%v", resp.Result)
	assert.Nil(t, resp.Patch)
}

func TestMutateUpgradeMovesParametersByOldName(t *testing.T) {
	h := instancewebhook.NewMutator(versions(t))
	oldParams := `{"CLUSTER_NAME":"prod","BACKUP_ENABLED":true,"BACKUP_CREDENTIALS_USERNAME":"u","BACKUP_CREDENTIALS_PASSWORD":"p","DEBUG":"1"}`
	old := instance("my-operator-0.1.0", oldParams, "deploy")
	obj := instance("my-operator-0.2.0", oldParams, "deploy")
	resp := h.Handle(context.Background(), request(admissionv1.Update, obj, old))
	require.True(t, resp.Allowed, "%v", resp.Result)
	spec := specOf(patched(t, obj, resp))
	assert.Equal(t, map[string]any{
		"clusterName":  "prod",
		"nodeCount":    json.Number("3"),
		"storageBytes": json.Number("9007199254740993"),
		"backup":       map[string]any{"enabled": true, "credentials": map[string]any{"name": "u", "password": "p"}},
	}, spec["parameters"])
	assert.Equal(t, "upgrade", spec["planExecution"].(map[string]any)["planName"])
	assert.Equal(t, []string{"spec.parameters.DEBUG: dropped by the upgrade from my-operator-0.1.0 to my-operator-0.2.0: my-operator-0.2.0 declares no place for it"}, resp.Warnings)
}

// TestUpgradeHidesSecrets: a value the old version marks writeOnly is not
// quoted when the upgrade changes it lossily, in a warning or a denial.
func TestUpgradeHidesSecrets(t *testing.T) {
	sec1, sec2 := operatorVersion(t, "my-operator-0.2.0"), operatorVersion(t, "my-operator-0.2.0")
	sec1.Name, sec2.Name = "sec-1", "sec-2"
	sec1.Spec.Parameters = &runtime.RawExtension{Raw: []byte(`{"type":"object","properties":{"pin":{"type":"number","writeOnly":true},"size":{"type":"number"}}}`)}
	sec2.Spec.Parameters = &runtime.RawExtension{Raw: []byte(`{"type":"object","properties":{"pin":{"type":"integer"},"size":{"type":"integer"}}}`)}
	h := instancewebhook.NewMutator(versions(t, sec1, sec2))
	for _, tc := range []struct{ params, hidden, shown string }{
		{`{"pin":8675.309}`, "8675", "spec.parameters.pin"},
		{`{"size":2.5}`, "", "2.5"},
	} {
		resp := h.Handle(context.Background(), request(admissionv1.Update, instance("sec-2", tc.params, ""), instance("sec-1", tc.params, "")))
		text := strings.Join(resp.Warnings, "\n")
		if resp.Result != nil {
			text += resp.Result.Message
		}
		if tc.hidden != "" {
			assert.NotContains(t, text, tc.hidden)
		}
		assert.Contains(t, text, tc.shown)
	}
}

func TestDenialsCarryFieldPaths(t *testing.T) {
	ctx := context.Background()
	old := instance("my-operator-0.2.0", `{"clusterName":"prod","nodeCount":3,"backup":{"enabled":false}}`, "deploy")
	for _, tc := range []struct {
		name    string
		op      admissionv1.Operation
		obj     []byte
		fields  []string
		types   []metav1.CauseType
		message string
	}{
		{"invalid", admissionv1.Create, instance("my-operator-0.2.0", `{"clusterName":"prod","nodeCount":0,"backup":{"enabled":"yes"}}`, ""),
			[]string{"spec.parameters.backup.enabled", "spec.parameters.nodeCount"}, []metav1.CauseType{metav1.CauseTypeTypeInvalid, metav1.CauseTypeFieldValueInvalid}, "spec.parameters.nodeCount: "},
		{"immutable", admissionv1.Update, instance("my-operator-0.2.0", `{"clusterName":"test","nodeCount":3,"backup":{"enabled":false}}`, "deploy"),
			[]string{"spec.parameters.clusterName"}, []metav1.CauseType{metav1.CauseTypeForbidden}, "immutable"},
		{"two plans", admissionv1.Update, instance("my-operator-0.2.0", `{"clusterName":"prod","nodeCount":4,"backup":{"enabled":true}}`, "deploy"),
			[]string{"spec.parameters.backup.enabled", "spec.parameters.nodeCount"}, []metav1.CauseType{metav1.CauseTypeForbidden, metav1.CauseTypeForbidden}, "one plan"},
		{"no operator version", admissionv1.Create, instance("my-operator-9", `{}`, ""),
			[]string{"spec.operatorVersion.name"}, []metav1.CauseType{metav1.CauseTypeFieldValueNotFound}, `no OperatorVersion "my-operator-9" in namespace "default"`},
		{"no operator version named", admissionv1.Create, instance("", `{}`, ""),
			[]string{"spec.operatorVersion.name"}, []metav1.CauseType{metav1.CauseTypeFieldValueRequired}, "Required"},
	} {
		for _, h := range []*instancewebhook.Handler{instancewebhook.NewMutator(versions(t)), instancewebhook.NewValidator(versions(t))} {
			t.Run(tc.name, func(t *testing.T) {
				var oldObj []byte
				if tc.op == admissionv1.Update {
					oldObj = old
				}
				resp := h.Handle(ctx, request(tc.op, tc.obj, oldObj))
				require.False(t, resp.Allowed)
				st := resp.Result
				assert.Equal(t, int32(422), st.Code)
				assert.Equal(t, metav1.StatusReasonInvalid, st.Reason)
				assert.Contains(t, st.Message, `Instance.kudo.dev "i" is invalid: `)
				assert.Contains(t, st.Message, tc.message)
				require.NotNil(t, st.Details)
				var fields []string
				var types []metav1.CauseType
				for _, c := range st.Details.Causes {
					fields = append(fields, c.Field)
					types = append(types, c.Type)
					assert.Contains(t, st.Message, c.Field+": ", "each cause's field is in the message")
				}
				assert.Equal(t, tc.fields, fields)
				assert.Equal(t, tc.types, types)
				assert.NotContains(t, st.Message, "/spec/parameters", "field paths, not JSON pointers")
			})
		}
	}
}

func TestValidateChecksThePlanExecution(t *testing.T) {
	ctx := context.Background()
	h := instancewebhook.NewValidator(versions(t))
	old := instance("my-operator-0.2.0", `{"clusterName":"prod","nodeCount":3,"storageBytes":1,"backup":{"enabled":false}}`, "deploy")
	for _, tc := range []struct {
		name    string
		op      admissionv1.Operation
		obj     []byte
		allowed bool
		field   string
	}{
		{"create with the mutator's plan", admissionv1.Create, instance("my-operator-0.2.0", `{"clusterName":"prod"}`, "deploy"), true, ""},
		{"create without a plan (no mutator)", admissionv1.Create, instance("my-operator-0.2.0", `{"clusterName":"prod"}`, ""), false, "spec.planExecution.planName"},
		{"update with the right plan", admissionv1.Update, instance("my-operator-0.2.0", `{"clusterName":"prod","nodeCount":3,"storageBytes":1,"backup":{"enabled":true}}`, "backup"), true, ""},
		{"update with a wrong plan", admissionv1.Update, instance("my-operator-0.2.0", `{"clusterName":"prod","nodeCount":3,"storageBytes":1,"backup":{"enabled":true}}`, "deploy"), false, "spec.planExecution.planName"},
		{"a plan set by hand", admissionv1.Update, instance("my-operator-0.2.0", `{"clusterName":"prod","nodeCount":3,"storageBytes":1,"backup":{"enabled":false}}`, "backup"), false, "spec.planExecution"},
		{"nothing changed", admissionv1.Update, old, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var oldObj []byte
			if tc.op == admissionv1.Update {
				oldObj = old
			}
			resp := h.Handle(ctx, request(tc.op, tc.obj, oldObj))
			assert.Equal(t, tc.allowed, resp.Allowed, "%v", resp.Result)
			assert.Nil(t, resp.Patch, "the validator never patches")
			if !tc.allowed {
				require.Len(t, resp.Result.Details.Causes, 1)
				assert.Equal(t, tc.field, resp.Result.Details.Causes[0].Field)
			}
		})
	}
}

func TestOtherRequestsPass(t *testing.T) {
	h := instancewebhook.NewValidator(versions(t))
	ctx := context.Background()
	// Not an Instance, a DELETE, a status update, and an update of
	// something else of an Instance whose operator version is gone.
	r := request(admissionv1.Create, []byte(`{}`), nil)
	r.Kind.Kind = "OperatorVersion"
	assert.True(t, h.Handle(ctx, r).Allowed)
	r = request(admissionv1.Delete, nil, nil)
	assert.True(t, h.Handle(ctx, r).Allowed)
	r = request(admissionv1.Update, []byte(`garbage`), nil)
	r.SubResource = "status"
	assert.True(t, h.Handle(ctx, r).Allowed)
	gone := instance("gone-1.0", `{"a":1}`, "deploy")
	labelled := strings.Replace(string(gone), `"namespace":"default"`, `"namespace":"default","labels":{"x":"y"}`, 1)
	assert.True(t, h.Handle(ctx, request(admissionv1.Update, []byte(labelled), gone)).Allowed)
	// Unreadable objects are a bad request, not a panic.
	resp := h.Handle(ctx, request(admissionv1.Create, []byte(`{"spec":`), nil))
	assert.False(t, resp.Allowed)
	assert.Equal(t, int32(400), resp.Result.Code)
}

func metav1TypeMeta() metav1.TypeMeta {
	return metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"}
}
