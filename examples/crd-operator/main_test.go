package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/event"

	v2 "github.com/paramkit/paramkit/examples/crd-operator/api/v2"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/lint"
)

// TestCRDUpToDate: config/crd is what paramctl crd writes from schemas/
// (run the command in its first line's comment... see README.md), and
// the apiserver would accept it.
func TestCRDUpToDate(t *testing.T) {
	var vs []kube.CRDVersion
	for _, name := range []string{"v1", "v2"} {
		s, err := parseSchemaFile("schemas/" + name + ".yaml")
		require.NoError(t, err)
		vs = append(vs, kube.CRDVersion{Name: name, Schema: s, Served: true, Storage: name == "v2"})
	}
	want, err := kube.CRD{Group: "example.paramkit.dev", Kind: "Cache", Plural: "caches", Versions: vs,
		ConversionService: "crd-operator-system/crd-operator-webhook", ConversionPath: ConvertPath}.Manifest()
	require.NoError(t, err)
	have, err := os.ReadFile("config/crd/example.paramkit.dev_caches.yaml")
	require.NoError(t, err)
	_, body, _ := bytes.Cut(have, []byte("\n")) // paramctl's header line
	assert.Equal(t, string(want), string(body), "config/crd is stale: run the paramctl crd command of README.md")
	fs, err := lint.Document(have, lint.Structural())
	require.NoError(t, err)
	for _, f := range fs {
		assert.NotEqual(t, lint.Error, f.Severity, "%s", f)
	}
}

// mux serves the operator's webhooks as the manager's server would.
func mux(t testing.TB) http.Handler {
	t.Helper()
	set, err := Versions()
	require.NoError(t, err)
	return Handler(set, &kube.Reviews{})
}

func post(t *testing.T, h http.Handler, path string, body any) map[string]any {
	t.Helper()
	b, err := json.Marshal(body)
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, bytes.NewReader(b)))
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	var out map[string]any
	d := json.NewDecoder(rec.Body)
	d.UseNumber()
	require.NoError(t, d.Decode(&out))
	return out["response"].(map[string]any)
}

func review(op, version, obj, old string) map[string]any {
	req := map[string]any{"uid": "u1", "operation": op, "name": "c", "namespace": "default",
		"kind":     map[string]any{"group": "example.paramkit.dev", "version": version, "kind": "Cache"},
		"resource": map[string]any{"group": "example.paramkit.dev", "version": version, "resource": "caches"},
		"object":   json.RawMessage(`{"apiVersion":"example.paramkit.dev/` + version + `","kind":"Cache","metadata":{"name":"c"},"spec":{"parameters":` + obj + `}}`)}
	if old != "" {
		req["oldObject"] = json.RawMessage(`{"apiVersion":"example.paramkit.dev/` + version + `","kind":"Cache","metadata":{"name":"c"},"spec":{"parameters":` + old + `}}`)
	}
	return map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": req}
}

// TestAdmission: each request judged in its own version's names; defaults
// as an exact patch; immutability; unknown versions denied.
func TestAdmission(t *testing.T) {
	h := mux(t)
	tests := []struct {
		name, path, op, version, obj, old string
		allowed                           bool
		field, message, patch             string
	}{
		{"v1 defaults", MutatePath, "CREATE", "v1", `{"maxEntries":9007199254740993}`, "", true, "", "",
			`[{"op":"replace","path":"/spec/parameters","value":{"engine":"redis","maxEntries":9007199254740993,"maxMemoryMB":64}}]`},
		{"v2 defaults", MutatePath, "CREATE", "v2", `{}`, "", true, "", "", `ttlSeconds`},
		{"v1 typo named as written", ValidatePath, "CREATE", "v1", `{"maxMemoryMb":32}`, "", false, "spec.parameters.maxMemoryMb", "maxMemoryMB", ""},
		{"v1 out of range", MutatePath, "CREATE", "v1", `{"maxMemoryMB":8}`, "", false, "spec.parameters.maxMemoryMB", "16", ""},
		{"v1 fraction", ValidatePath, "CREATE", "v1", `{"maxEntries":1.5}`, "", false, "spec.parameters.maxEntries", "", ""},
		{"engine immutable", ValidatePath, "UPDATE", "v2", `{"engine":"memcached"}`, `{"engine":"redis"}`, false, "spec.parameters.engine", "", ""},
		{"unknown version", ValidatePath, "CREATE", "v3", `{}`, "", false, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := post(t, h, tt.path, review(tt.op, tt.version, tt.obj, tt.old))
			assert.Equal(t, tt.allowed, resp["allowed"], "%v", resp)
			b, _ := json.Marshal(resp)
			if tt.field != "" {
				assert.Contains(t, string(b), `"field":"`+tt.field+`"`)
			}
			assert.Contains(t, string(b), tt.message)
			if tt.patch != "" {
				p, ok := resp["patch"].(string)
				require.True(t, ok, "%v", resp)
				assert.Contains(t, decodeBase64(t, p), tt.patch)
			}
		})
	}
}

// TestAdmissionAsStored: a v1 write is judged as v2 will store it. The
// v1 view of a stored Cache carries ttlSeconds in the conversion
// annotation; a client that edits it to -5 (kubectl annotate) is
// refused, naming the annotation, and the unedited view is allowed.
func TestAdmissionAsStored(t *testing.T) {
	h := mux(t)
	set, err := Versions()
	require.NoError(t, err)
	view, err := kube.Convert(set, []byte(`{"apiVersion":"example.paramkit.dev/v2","kind":"Cache","metadata":{"name":"c"},"spec":{"parameters":{"engine":"redis","memoryLimitMB":64,"ttlSeconds":600}}}`),
		"/spec/parameters", "example.paramkit.dev/v1")
	require.NoError(t, err)
	require.Contains(t, string(view), `\"value\":600`)
	forged := strings.Replace(string(view), `\"value\":600`, `\"value\":-5`, 1)
	for _, path := range []string{MutatePath, ValidatePath} {
		req := review("UPDATE", "v1", `{}`, `{}`)
		r := req["request"].(map[string]any)
		r["object"], r["oldObject"] = json.RawMessage(forged), json.RawMessage(view)
		resp := post(t, h, path, req)
		assert.Equal(t, false, resp["allowed"], "%v", resp)
		b, _ := json.Marshal(resp)
		assert.Contains(t, string(b), `"field":"spec.parameters.ttlSeconds"`)
		assert.Contains(t, string(b), "conversion.paramkit.dev/kept")

		r["object"] = json.RawMessage(view)
		resp = post(t, h, path, req)
		assert.Equal(t, true, resp["allowed"], "%v", resp)
	}
}

// TestSpecChanged: the reconciler follows the stored spec, also when a
// write through v1 changed it without moving the generation.
func TestSpecChanged(t *testing.T) {
	c := func(gen int64, params string) *v2.Cache {
		return &v2.Cache{ObjectMeta: metav1.ObjectMeta{Name: "c", Generation: gen},
			Spec: v2.CacheSpec{Parameters: &runtime.RawExtension{Raw: []byte(params)}}}
	}
	assert.True(t, specChanged.Update(event.UpdateEvent{ObjectOld: c(1, `{"ttlSeconds":600}`), ObjectNew: c(1, `{"ttlSeconds":60}`)}))
	assert.True(t, specChanged.Update(event.UpdateEvent{ObjectOld: c(1, `{}`), ObjectNew: c(2, `{}`)}))
	assert.False(t, specChanged.Update(event.UpdateEvent{ObjectOld: c(1, `{}`), ObjectNew: c(1, `{}`)}), "a status write")
}

func decodeBase64(t *testing.T, s string) string {
	t.Helper()
	var b []byte
	require.NoError(t, json.Unmarshal([]byte(`"`+s+`"`), &b))
	return string(b)
}

// TestConversion: v2 → v1 keeps ttlSeconds in the annotation, v1 → v2
// restores it; an invalid value converts as it is.
func TestConversion(t *testing.T) {
	h := mux(t)
	convert := func(to string, obj string) string {
		resp := post(t, h, ConvertPath, map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
			"request": map[string]any{"uid": "c1", "desiredAPIVersion": "example.paramkit.dev/" + to, "objects": []json.RawMessage{json.RawMessage(obj)}}})
		require.Equal(t, "Success", resp["result"].(map[string]any)["status"], "%v", resp)
		b, err := json.Marshal(resp["convertedObjects"].([]any)[0])
		require.NoError(t, err)
		return string(b)
	}
	v1 := convert("v1", `{"apiVersion":"example.paramkit.dev/v2","kind":"Cache","metadata":{"name":"c"},"spec":{"parameters":{"memoryLimitMB":8,"ttlSeconds":600}}}`)
	assert.Contains(t, v1, `"parameters":{"maxMemoryMB":8}`)
	assert.Contains(t, v1, "conversion.paramkit.dev/kept")
	back := convert("v2", v1)
	assert.JSONEq(t, `{"apiVersion":"example.paramkit.dev/v2","kind":"Cache","metadata":{"name":"c"},"spec":{"parameters":{"memoryLimitMB":8,"ttlSeconds":600}}}`, back)

	// A forged annotation that changes the immutable engine where the v1
	// object still says redis is not applied (none of its layers is):
	// the apiserver stores the v1 object as written, even with no
	// admission webhook to compare it with the stored one.
	view := convert("v1", `{"apiVersion":"example.paramkit.dev/v2","kind":"Cache","metadata":{"name":"c"},"spec":{"parameters":{"engine":"redis","memoryLimitMB":64,"ttlSeconds":600}}}`)
	var obj map[string]any
	require.NoError(t, json.Unmarshal([]byte(view), &obj))
	ann := obj["metadata"].(map[string]any)["annotations"].(map[string]any)
	var kept map[string][]map[string]any
	require.NoError(t, json.Unmarshal([]byte(ann[kube.ConversionAnnotation].(string)), &kept))
	kept["/spec/parameters"][0]["patch"] = []any{map[string]any{"pointer": "/engine", "value": "memcached", "was": "redis"}}
	forged, err := json.Marshal(kept)
	require.NoError(t, err)
	ann[kube.ConversionAnnotation] = string(forged)
	b, err := json.Marshal(obj)
	require.NoError(t, err)
	assert.JSONEq(t, `{"apiVersion":"example.paramkit.dev/v2","kind":"Cache","metadata":{"name":"c"},"spec":{"parameters":{"engine":"redis","memoryLimitMB":64}}}`, convert("v2", string(b)))
}

// TestReconcile: the status says whether the parameters are valid, for
// the generation judged, and is written only when it changes.
func TestReconcile(t *testing.T) {
	set, err := Versions()
	require.NoError(t, err)
	good := &v2.Cache{ObjectMeta: metav1.ObjectMeta{Name: "good", Namespace: "default", Generation: 2},
		Spec: v2.CacheSpec{Parameters: &runtime.RawExtension{Raw: []byte(`{"engine":"redis","memoryLimitMB":64,"maxEntries":9007199254740993}`)}}}
	bad := &v2.Cache{ObjectMeta: metav1.ObjectMeta{Name: "bad", Namespace: "default", Generation: 1},
		Spec: v2.CacheSpec{Parameters: &runtime.RawExtension{Raw: []byte(`{"memoryLimitMB":8,"ttlSeconds":-1}`)}}}
	c := fake.NewClientBuilder().WithScheme(Scheme()).WithObjects(good, bad).WithStatusSubresource(&v2.Cache{}).Build()
	r := &CacheReconciler{Client: c, Set: set}
	for _, tt := range []struct {
		name   string
		status metav1.ConditionStatus
		msg    string
		gen    int64
	}{{"good", metav1.ConditionTrue, "valid", 2}, {"bad", metav1.ConditionFalse, "spec.parameters.memoryLimitMB: ", 1}} {
		key := types.NamespacedName{Namespace: "default", Name: tt.name}
		_, err := r.Reconcile(context.Background(), ctrl.Request{NamespacedName: key})
		require.NoError(t, err)
		var got v2.Cache
		require.NoError(t, c.Get(context.Background(), key, &got))
		assert.Equal(t, tt.gen, got.Status.ObservedGeneration)
		cond := meta.FindStatusCondition(got.Status.Conditions, v2.ConditionParametersValid)
		require.NotNil(t, cond)
		assert.Equal(t, tt.status, cond.Status)
		assert.Contains(t, cond.Message, tt.msg)
		assert.NotContains(t, cond.Message, ": /", "field paths, not JSON pointers")
		if tt.status == metav1.ConditionFalse {
			assert.Equal(t, "Invalid", cond.Reason, "the first problem's kind, as a reason")
		}
		rv := got.ResourceVersion
		_, err = r.Reconcile(context.Background(), ctrl.Request{NamespacedName: key})
		require.NoError(t, err)
		require.NoError(t, c.Get(context.Background(), key, &got))
		assert.Equal(t, rv, got.ResourceVersion, "an unchanged status is not written again")
	}
	_, err = r.Reconcile(context.Background(), ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "gone"}})
	assert.NoError(t, err)
}

// TestFlags: the flags of examples/operator, with its defaults.
func TestFlags(t *testing.T) {
	var o options
	fs := flag.NewFlagSet("crd-operator", flag.ContinueOnError)
	o.bind(fs)
	for _, name := range []string{"webhook-host", "webhook-port", "webhook-cert-dir", "webhook-client-ca", "metrics-bind-address",
		"health-probe-bind-address", "leader-elect", "leader-election-namespace", "leader-elect-lease-duration",
		"leader-elect-renew-deadline", "leader-elect-retry-period", "enable-http2", "max-concurrent-reconciles", "max-body-bytes-in-flight", "zap-log-level"} {
		assert.NotNil(t, fs.Lookup(name), name)
	}
	require.NoError(t, fs.Parse(strings.Fields("--leader-elect-lease-duration 30s --max-concurrent-reconciles 4")))
	assert.Equal(t, 4, o.maxConcurrentReconciles)
	assert.False(t, o.enableHTTP2)
	assert.GreaterOrEqual(t, o.maxConcurrentReconciles, 2)
}

// TestWebhookBounds: the operator's endpoints are kube.Reviews': an
// envelope with two objects is refused (last wins, before), and a body
// trickling past ?timeout= is not waited for.
func TestWebhookBounds(t *testing.T) {
	h := mux(t)
	twice := `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u","operation":"CREATE",` +
		`"kind":{"group":"example.paramkit.dev","version":"v2","kind":"Cache"},"object":{"spec":{"parameters":{"engine":"nope"}}},"object":{"spec":{"parameters":{}}}}}`
	for _, path := range []string{MutatePath, ValidatePath} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, strings.NewReader(twice)))
		assert.Equal(t, http.StatusBadRequest, rec.Code, path)
		assert.Contains(t, rec.Body.String(), `repeats the key "object"`, path)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	assert.Equal(t, "ok\n", rec.Body.String())
}
