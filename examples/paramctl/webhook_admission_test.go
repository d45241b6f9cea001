package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/kube"
)

func admissionRequest(op string, obj, old json.RawMessage) *kube.AdmissionRequest {
	return &kube.AdmissionRequest{
		UID:       "uid-1",
		Kind:      kube.GroupVersionKind{Group: Group, Version: "v1beta2", Kind: "Instance"},
		Resource:  json.RawMessage(`{"group":"kudo.dev","version":"v1beta2","resource":"instances"}`),
		Name:      "zk",
		Namespace: "default",
		Operation: op,
		Object:    obj,
		OldObject: old,
	}
}

func TestValidate(t *testing.T) {
	h := testHandler(t, nil)
	kep := func(params string) json.RawMessage { return instanceJSON(V1beta2, "kep-0.2.0", params, "") }
	zk := func(params string) json.RawMessage { return instanceJSON(V1beta2, "zookeeper-0.3.0", params, "") }
	base := `{"clusterName":"prod","backup":{"enabled":true}}`
	cases := []struct {
		name     string
		req      *kube.AdmissionRequest
		allowed  bool
		msg      string // in the denial
		warnings []string
	}{
		{"install", admissionRequest("CREATE", kep(base), nil), true, "", []string{"plan: deploy"}},
		{"install without parameters uses the defaults", admissionRequest("CREATE", kep(""), nil), true, "", []string{"plan: deploy"}},
		{"a missing required parameter with a default is fine", admissionRequest("CREATE", kep(`{}`), nil), true, "", []string{"plan: deploy"}},
		{"parameters must be an object", admissionRequest("CREATE", kep(`"x"`), nil), false, `/spec/parameters: expected object, but got string`, nil},
		{"change triggering deploy", admissionRequest("UPDATE", kep(`{"clusterName":"prod","backup":{"enabled":true},"nodeCount":4}`), kep(base)), true, "", []string{"plan: deploy"}},
		{"setting a value to its default changes nothing", admissionRequest("UPDATE", kep(`{"clusterName":"prod","backup":{"enabled":true},"nodeCount":3}`), kep(base)), true, "", nil},
		{"the trigger of an object counts for what is below", admissionRequest("UPDATE", kep(`{"clusterName":"prod","backup":{"enabled":true,"credentials":{"name":"a","password":"b"}}}`), kep(base)), true, "", []string{"plan: backup"}},
		{"immutable, added", admissionRequest("UPDATE", kep(`{"clusterName":"other","backup":{"enabled":true}}`), kep(`{"backup":{"enabled":true}}`)), false, "/spec/parameters/clusterName: cannot be changed: immutable (schema /properties/clusterName)", nil},
		{"immutable: the default counts as the old value", admissionRequest("UPDATE", kep(`{"clusterName":"my-cluster","backup":{"enabled":true}}`), kep(`{"backup":{"enabled":true}}`)), true, "", nil},
		{"update of status only", func() *kube.AdmissionRequest {
			r := admissionRequest("UPDATE", kep(`"garbage"`), kep(base))
			r.SubResource = "status"
			return r
		}(), true, "", nil},
		{"unchanged parameters need no schema", admissionRequest("UPDATE", instanceJSON(V1beta2, "gone-1.0.0", base, `{"new":"label"}`), instanceJSON(V1beta2, "gone-1.0.0", base, "")), true, "", nil},
		{"changed parameters need the schema", admissionRequest("UPDATE", instanceJSON(V1beta2, "gone-1.0.0", `{"a":1}`, ""), instanceJSON(V1beta2, "gone-1.0.0", base, "")), false, `no schema for operator version "gone-1.0.0"`, nil},
		{"delete is allowed", admissionRequest("DELETE", nil, kep(base)), true, "", nil},
		{"other kinds are not ours", func() *kube.AdmissionRequest {
			r := admissionRequest("CREATE", json.RawMessage(`{"kind":"ConfigMap"}`), nil)
			r.Kind = kube.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
			return r
		}(), true, "", nil},
		{"no operator version", admissionRequest("CREATE", json.RawMessage(`{"apiVersion":"kudo.dev/v1beta2","kind":"Instance","metadata":{"name":"zk"},"spec":{}}`), nil), false, "Instance zk has no spec.operatorVersion.name", nil},
		{"no spec", admissionRequest("CREATE", json.RawMessage(`{"apiVersion":"kudo.dev/v1beta2","kind":"Instance","metadata":{"name":"zk"}}`), nil), false, "Instance zk has no spec", nil},
		{"update without oldObject", admissionRequest("UPDATE", kep(base), nil), false, "oldObject: the object is missing", nil},
		{"unreadable object", admissionRequest("CREATE", json.RawMessage(`{"a":1,"a":2}`), nil), false, `duplicate key "a"`, nil},
		{"a v1beta1 Instance is unwrapped and checked", admissionRequest("CREATE", instanceJSON(V1beta1, "zookeeper-0.3.0", `{"NODE_COUNT":"three"}`, ""), nil), false, "/spec/parameters/NODE_COUNT: expected integer, but got string", nil},
		{"a valid v1beta1 Instance", admissionRequest("CREATE", instanceJSON(V1beta1, "zookeeper-0.3.0", `{"NODE_COUNT":"3","ARRAY_PARAM":"[a]"}`, ""), nil), true, "", []string{"plan: deploy"}},
		{"upgrade without an upgrade plan runs deploy", admissionRequest("UPDATE", zk(`{}`), instanceJSON(V1beta2, "kep-0.2.0", base, "")), true, "", []string{"plan: deploy"}},
		{"upgrade from a missing version", admissionRequest("UPDATE", kep(base), instanceJSON(V1beta2, "kep-0.0.1", base, "")), false, `upgrade from "kep-0.0.1": no schema for operator version "kep-0.0.1"`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := h.Validate(context.Background(), c.req)
			assert.Equal(t, "uid-1", resp.UID)
			if !c.allowed {
				require.False(t, resp.Allowed, "should be denied")
				assert.Contains(t, resp.Result.Message, c.msg)
				assert.Equal(t, "Failure", resp.Result.Status)
				return
			}
			require.True(t, resp.Allowed, "denied: %v", resp.Result)
			assert.Equal(t, c.warnings, resp.Warnings)
		})
	}
}

func TestValidateListsEveryError(t *testing.T) {
	h := testHandler(t, nil)
	resp := h.Validate(context.Background(), admissionRequest("CREATE", instanceJSON(V1beta2, "zookeeper-0.3.0", `{"NODE_COUNT":"x","BACKUP_ENABLED":1,"ARRAY_PARAM":[1,2],"MAP_PARAM":{"a":true}}`, ""), nil))
	require.False(t, resp.Allowed)
	var fields []string
	for _, c := range resp.Result.Details.Causes {
		fields = append(fields, c.Field)
		assert.Contains(t, resp.Result.Message, c.Field+": "+c.Message)
	}
	assert.Equal(t, []string{"/spec/parameters/ARRAY_PARAM/0", "/spec/parameters/ARRAY_PARAM/1", "/spec/parameters/BACKUP_ENABLED", "/spec/parameters/MAP_PARAM/a", "/spec/parameters/NODE_COUNT"}, fields)
}

func TestMutate(t *testing.T) {
	h := testHandler(t, nil)
	cases := []struct {
		name      string
		req       *kube.AdmissionRequest
		want      string // spec.parameters after the patch; "" means no patch
		warnings  []string
		allowed   bool
		denyMatch string
	}{
		{"defaults", admissionRequest("CREATE", instanceJSON(V1beta2, "zookeeper-0.3.0", `{"MAP_PARAM":{"a":"b"}}`, ""), nil),
			`{"MAP_PARAM":{"a":"b"},"NODE_COUNT":3,"BACKUP_ENABLED":false}`, nil, true, ""},
		{"nothing to add", admissionRequest("CREATE", instanceJSON(V1beta2, "zookeeper-0.3.0", `{"NODE_COUNT":5,"BACKUP_ENABLED":true}`, ""), nil), "", nil, true, ""},
		{"keys needing escapes", admissionRequest("CREATE", instanceJSON(V1beta2, "kep-0.2.0", `{"backup":{"enabled":true}}`, ""), nil),
			`{"backup":{"enabled":true},"clusterName":"my-cluster","nodeCount":3}`, nil, true, ""},
		{"upgrade moves values by oldName", admissionRequest("UPDATE",
			instanceJSON(V1beta2, "kep-0.2.0", `{"CLUSTER_NAME":"c","BACKUP_ENABLED":true}`, ""),
			instanceJSON(V1beta2, "kep-0.1.0", `{"CLUSTER_NAME":"c","BACKUP_ENABLED":true}`, "")),
			`{"clusterName":"c","backup":{"enabled":true},"nodeCount":3}`, nil, true, ""},
		{"an unchanged update whose schema is gone is let through", admissionRequest("UPDATE", instanceJSON(V1beta2, "gone-1.0.0", `{"a":1}`, ""), instanceJSON(V1beta2, "gone-1.0.0", `{"a":1}`, "")),
			"", []string{`paramkit: defaults not applied: no schema for operator version "gone-1.0.0": neither testdata/webhook/schemas/gone-1.0.0.yaml nor testdata/webhook/schemas/gone-1.0.0.json exists`}, true, ""},
		{"a new Instance whose schema is missing is denied", admissionRequest("CREATE", instanceJSON(V1beta2, "gone-1.0.0", `{"a":1}`, ""), nil), "", nil, false, `no schema for operator version "gone-1.0.0"`},
		{"v1beta1 is left alone", admissionRequest("CREATE", instanceJSON(V1beta1, "zookeeper-0.3.0", `{}`, ""), nil), "",
			[]string{"paramkit: v1beta1 Instance: defaults are not applied here; register /mutate for kudo.dev/v1beta2 (matchPolicy: Equivalent)"}, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := h.Mutate(context.Background(), c.req)
			assert.Equal(t, "uid-1", resp.UID)
			if !c.allowed {
				require.False(t, resp.Allowed)
				assert.Contains(t, resp.Result.Message, c.denyMatch)
				return
			}
			require.True(t, resp.Allowed, "denied: %v", resp.Result)
			assert.Equal(t, c.warnings, resp.Warnings)
			if c.want == "" {
				assert.Nil(t, resp.Patch)
				assert.Empty(t, resp.PatchType)
				return
			}
			assert.Equal(t, "JSONPatch", resp.PatchType)
			p, err := jsonpatch.DecodePatch(resp.Patch)
			require.NoError(t, err)
			out, err := p.Apply(c.req.Object)
			require.NoError(t, err)
			var got struct {
				Spec struct {
					Parameters json.RawMessage `json:"parameters"`
				} `json:"spec"`
			}
			require.NoError(t, json.Unmarshal(out, &got))
			assert.JSONEq(t, c.want, string(got.Spec.Parameters))
		})
	}
}

func TestMutatePatchEscapesPointers(t *testing.T) {
	h := testHandler(t, nil)
	req := admissionRequest("CREATE", instanceJSON(V1beta2, "zookeeper-0.3.0", `{"MAP_PARAM":{"a/b":"x","c~d":"y"},"NODE_COUNT":1,"BACKUP_ENABLED":true}`, ""), nil)
	resp := h.Mutate(context.Background(), req)
	require.True(t, resp.Allowed)
	assert.Nil(t, resp.Patch)
	// A long value that stays as it is: one operation per change is the
	// shorter patch, so the keys are in paths.
	long := strings.Repeat("unchanged ", 20)
	ops := kube.JSONPatch("/spec/parameters", map[string]any{"a/b": "x", "long": long}, map[string]any{"a/b": "y", "c~d": "z", "long": long})
	assert.Equal(t, `[{"op":"replace","path":"/spec/parameters/a~1b","value":"y"},{"op":"add","path":"/spec/parameters/c~0d","value":"z"}]`, string(encodePatch(ops)))
}

func TestMutateUpgradeRefusesALossyChange(t *testing.T) {
	versions := map[string]string{
		"op-1": `{"type":"object","properties":{"size":{"type":"number"},"name":{"type":"string"}}}`,
		"op-2": `{"type":"object","properties":{"size":{"type":"integer"},"label":{"type":"string","oldName":"name"}}}`,
	}
	h, err := NewHandler(Options{Resolver: ResolverFunc(func(_ context.Context, _, name string) (*kudo.OperatorVersion, error) {
		src, ok := versions[name]
		if !ok {
			return nil, &NotFoundError{Name: name}
		}
		return kudo.Load(name, []byte(src))
	})})
	require.NoError(t, err)
	upgrade := func(params string) *kube.AdmissionResponse {
		return h.Mutate(context.Background(), admissionRequest("UPDATE",
			instanceJSON(V1beta2, "op-2", params, ""), instanceJSON(V1beta2, "op-1", params, "")))
	}
	resp := upgrade(`{"size":2.5,"name":"a"}`)
	require.False(t, resp.Allowed)
	assert.Contains(t, resp.Result.Message, "the upgrade from op-1 to op-2 cannot move the parameters: /spec/parameters/size:")
	assert.Equal(t, "/spec/parameters/size", resp.Result.Details.Causes[0].Field)

	resp = upgrade(`{"size":2.0,"name":"a"}`)
	require.True(t, resp.Allowed, "%v", resp.Result)
	p, err := jsonpatch.DecodePatch(resp.Patch)
	require.NoError(t, err)
	out, err := p.Apply(instanceJSON(V1beta2, "op-2", `{"size":2.0,"name":"a"}`, ""))
	require.NoError(t, err)
	var got struct {
		Spec struct {
			Parameters json.RawMessage `json:"parameters"`
		} `json:"spec"`
	}
	require.NoError(t, json.Unmarshal(out, &got))
	assert.JSONEq(t, `{"label":"a","size":2}`, string(got.Spec.Parameters), "2.0 became the integer 2 (no loss), name moved to label")
}

func TestOperatorVersionWithAnOldNameClaimedTwiceIsRefused(t *testing.T) {
	_, err := kudo.Load("op-3", []byte(`{"type":"object","properties":{"a":{"type":"string","oldName":"x"},"b":{"type":"string","oldName":"x"}}}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "oldName")
}
