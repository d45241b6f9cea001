package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/gates"
)

// The feature-gate document's parent/child table, all eight rows, through
// /mutate over HTTPS: the object the apiserver would persist is the sent
// object with the answer's JSON patch applied.
func TestMutateAppliesGatesParentChildTableOverHTTPS(t *testing.T) {
	sent := `{"apiVersion":"example.com/v1","kind":"Foo","metadata":{"name":"example"},"spec":{"foo":{"baz":2,"qux":3}}}`
	storedWith := `{"apiVersion":"example.com/v1","kind":"Foo","metadata":{"name":"example"},"spec":{"foo":{"qux":1}}}`
	storedWithout := `{"apiVersion":"example.com/v1","kind":"Foo","metadata":{"name":"example"},"spec":{}}`
	for _, tc := range []struct {
		row      int
		stored   bool
		foo, qux bool
		wantSpec string
		dropped  int
	}{
		{1, false, false, false, `{}`, 1},
		{2, false, false, true, `{}`, 1},
		{3, false, true, false, `{"foo":{"baz":2}}`, 1},
		{4, false, true, true, `{"foo":{"baz":2,"qux":3}}`, 0},
		{5, true, false, false, `{"foo":{"qux":1}}`, 1},
		{6, true, false, true, `{"foo":{"qux":1}}`, 1},
		{7, true, true, false, `{"foo":{"baz":2,"qux":1}}`, 1},
		{8, true, true, true, `{"foo":{"baz":2,"qux":3}}`, 0},
	} {
		t.Run(fmt.Sprintf("row %d", tc.row), func(t *testing.T) {
			g, err := gates.Parse([]byte(fmt.Sprintf(`
- {name: FooFeatureGate, preRelease: beta, default: true, enabled: %v, fieldPaths: [.spec.foo]}
- {name: QuxFeatureGate, preRelease: beta, default: true, enabled: %v, fieldPaths: [.spec.foo.qux]}
`, tc.foo, tc.qux)))
			require.NoError(t, err)
			ts := startServer(t, testHandler(t, func(o *Options) { o.Gates = g }), nil)
			stored := storedWithout
			if tc.stored {
				stored = storedWith
			}
			req := &kube.AdmissionRequest{
				UID: fmt.Sprintf("row-%d", tc.row), Kind: kube.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Foo"},
				Resource: json.RawMessage(`{"group":"example.com","version":"v1","resource":"foos"}`),
				Name:     "example", Operation: "UPDATE", Object: json.RawMessage(sent), OldObject: json.RawMessage(stored),
			}
			code, body := ts.post(t, "/mutate", mustJSON(t, kube.AdmissionReview{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview", Request: req}))
			require.Equal(t, http.StatusOK, code, string(body))
			var review kube.AdmissionReview
			require.NoError(t, json.Unmarshal(body, &review))
			resp := review.Response
			require.NotNil(t, resp)
			assert.Equal(t, req.UID, resp.UID)
			require.True(t, resp.Allowed, "%+v", resp.Result)
			persisted := []byte(sent)
			if len(resp.Patch) > 0 {
				p, err := jsonpatch.DecodePatch(resp.Patch)
				require.NoError(t, err)
				persisted, err = p.Apply(persisted)
				require.NoError(t, err)
			}
			obj, err := params.Decode(nil, persisted)
			require.NoError(t, err)
			want, err := params.Decode(nil, []byte(tc.wantSpec))
			require.NoError(t, err)
			assert.Equal(t, want, obj.(map[string]any)["spec"])
			assert.Len(t, resp.Warnings, tc.dropped, "a warning per dropped field: %v", resp.Warnings)
			// The persisted spec equals the stored one in rows 1, 2, 5 and 6.
			unchanged := tc.row == 1 || tc.row == 2 || tc.row == 5 || tc.row == 6
			assert.Equal(t, fmt.Sprint(unchanged), resp.AuditAnnotations[SpecUnchangedAnnotation], "the signal not to bump generation")
		})
	}
}

func TestMutateWithGatesStillDefaultsInstances(t *testing.T) {
	raw, err := os.ReadFile("testdata/webhook/golden/mutate-create-defaults.request.json")
	require.NoError(t, err)
	wantPatched, err := os.ReadFile("testdata/webhook/golden/mutate-create-defaults.patched.json")
	require.NoError(t, err)
	var review kube.AdmissionReview
	require.NoError(t, json.Unmarshal(raw, &review))

	// A gate on a field the Instance does not use changes nothing: the
	// persisted object is exactly what /mutate without gates gives.
	g, err := gates.Parse([]byte("- {name: G, preRelease: alpha, fieldPaths: [.spec.experimental]}\n"))
	require.NoError(t, err)
	resp := testHandler(t, func(o *Options) { o.Gates = g }).Mutate(context.Background(), review.Request)
	require.True(t, resp.Allowed)
	p, err := jsonpatch.DecodePatch(resp.Patch)
	require.NoError(t, err)
	got, err := p.Apply(review.Request.Object)
	require.NoError(t, err)
	assert.JSONEq(t, string(wantPatched), string(got))

	// With the Instance's own field gated off (alpha, so off), the field
	// is dropped and the defaults are still applied to what remains.
	obj, err := params.Decode(nil, review.Request.Object)
	require.NoError(t, err)
	obj.(map[string]any)["spec"].(map[string]any)["experimental"] = "on"
	review.Request.Object = mustJSON(t, obj)
	resp = testHandler(t, func(o *Options) { o.Gates = g }).Mutate(context.Background(), review.Request)
	require.True(t, resp.Allowed)
	p, err = jsonpatch.DecodePatch(resp.Patch)
	require.NoError(t, err)
	got, err = p.Apply(review.Request.Object)
	require.NoError(t, err)
	assert.JSONEq(t, string(wantPatched), string(got), "the gated field is gone, the defaults are there")
	require.Len(t, resp.Warnings, 1)
	assert.Contains(t, resp.Warnings[0], "/spec/experimental")
}
