package kube_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

const admissionBody = `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u1",
 "kind":{"group":"example.paramkit.dev","version":"v2","kind":"Cache"},"operation":"CREATE",
 "object":{"spec":{"parameters":{"n":9007199254740993}}}}}`

const conversionBody = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"c1",
 "desiredAPIVersion":"example.paramkit.dev/v1","objects":[{"apiVersion":"example.paramkit.dev/v2"}]}}`

func TestDecodeAdmissionReview(t *testing.T) {
	cases := []struct {
		name, body, err string
	}{
		{"a review", admissionBody, ""},
		{"v1beta1", strings.Replace(admissionBody, "admission.k8s.io/v1", "admission.k8s.io/v1beta1", 1), ""},
		{"not JSON", `{"apiVersion":`, "the body is not JSON"},
		{"wrong type", `{"apiVersion":1}`, `field "apiVersion" must be string`},
		{"another kind", strings.Replace(admissionBody, `"AdmissionReview"`, `"ConversionReview"`, 1), "expected an AdmissionReview"},
		{"no request", `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}`, "has no request"},
		{"no uid", `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{}}`, "has no uid"},
		{"two uids", strings.Replace(admissionBody, `"uid":"u1"`, `"uid":"u1","uid":"u2"`, 1), `request repeats the key "uid"`},
		{"two objects", strings.Replace(admissionBody, `"operation"`, `"object":{},"operation"`, 1), `repeats the key "object"`},
		{"two oldObjects", strings.Replace(admissionBody, `"operation"`, `"oldObject":{},"oldObject":{},"operation"`, 1), `repeats the key "oldObject"`},
		{"uid in another case", strings.Replace(admissionBody, `"uid":"u1"`, `"uid":"u1","UID":"u2"`, 1), `repeats the key "UID"`},
		{"uid escaped", strings.Replace(admissionBody, `"uid":"u1"`, `"uid":"u1","\u0075id":"u2"`, 1), `repeats the key "uid"`},
		{"two requests", strings.Replace(admissionBody, `"kind":"AdmissionReview",`, `"kind":"AdmissionReview","request":{},`, 1), `the review repeats the key "request"`},
		{"a long repeated key is cut", `{"` + strings.Repeat("k", 1<<20) + `":1,"` + strings.Repeat("k", 1<<20) + `":2}`, "…"},
		{"duplicates inside the object are the object's business", strings.Replace(admissionBody, `"n":9007199254740993`, `"n":1,"n":2`, 1), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := kube.DecodeReview[kube.AdmissionReview](context.Background(), []byte(c.body))
			if c.err != "" {
				require.Error(t, err)
				assert.Nil(t, r)
				assert.Contains(t, err.Error(), c.err)
				assert.Less(t, len(err.Error()), 1024)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "u1", r.Request.UID)
			assert.Equal(t, "CREATE", r.Request.Operation)
		})
	}
}

func TestDecodeConversionReview(t *testing.T) {
	cases := []struct {
		name, body, err string
	}{
		{"a review", conversionBody, ""},
		{"no desired version", strings.Replace(conversionBody, `"desiredAPIVersion":"example.paramkit.dev/v1",`, "", 1), "no desiredAPIVersion"},
		{"two uids", strings.Replace(conversionBody, `"uid":"c1"`, `"uid":"c1","uid":"c2"`, 1), `repeats the key "uid"`},
		{"two object lists", strings.Replace(conversionBody, `"objects"`, `"objects":[],"objects"`, 1), `repeats the key "objects"`},
		{"an admission review", admissionBody, "expected a ConversionReview"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := kube.DecodeReview[kube.ConversionReview](context.Background(), []byte(c.body))
			if c.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.err)
				return
			}
			require.NoError(t, err)
			assert.Len(t, r.Request.Objects, 1)
		})
	}
}

func TestDecodeStopsAtTheDeadline(t *testing.T) {
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	_, err := kube.DecodeReview[kube.AdmissionReview](ctx, []byte(admissionBody))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "deadline")
}

func TestRespond(t *testing.T) {
	r, err := kube.DecodeReview[kube.AdmissionReview](context.Background(), []byte(admissionBody))
	require.NoError(t, err)
	out, err := r.Respond(&kube.AdmissionResponse{UID: "u1", Allowed: true, Patch: []byte(`[{"op":"add","path":"/a","value":1}]`), PatchType: "JSONPatch"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"u1","allowed":true,
		"patch":"W3sib3AiOiJhZGQiLCJwYXRoIjoiL2EiLCJ2YWx1ZSI6MX1d","patchType":"JSONPatch"}}`, string(out))

	// An answer too large for the apiserver becomes a small failure.
	out, err = r.Respond(&kube.AdmissionResponse{UID: "u1", Allowed: true, Patch: make([]byte, 300<<10), PatchType: "JSONPatch"})
	require.Error(t, err)
	assert.Less(t, len(out), 1024)
	assert.Contains(t, string(out), `"allowed":false`)

	_, err = r.Respond(nil)
	require.Error(t, err)

	cr, err := kube.DecodeReview[kube.ConversionReview](context.Background(), []byte(conversionBody))
	require.NoError(t, err)
	out, err = cr.Respond(&kube.ConversionResponse{UID: "c1", ConvertedObjects: []json.RawMessage{json.RawMessage(`{"n":9007199254740993}`)},
		Result: kube.Status{Status: "Success"}})
	require.NoError(t, err)
	assert.Equal(t, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":{"uid":"c1","convertedObjects":[{"n":9007199254740993}],"result":{"status":"Success"}}}`+"\n", string(out))
}

// FuzzDecodeAdmissionReview: no body makes decoding panic; what it
// accepts is a review with a uid, and a body it accepts stays accepted
// with its envelope keys in another order.
func FuzzDecodeAdmissionReview(f *testing.F) {
	for _, s := range []string{admissionBody, `{"request":{"uid":"a","uid":"b"}}`, `{"a":"\"}","b":[{"}":1}]}`, `{`, `[]`, `"x"`, `{"request":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := kube.DecodeReview[kube.AdmissionReview](context.Background(), body)
		if err != nil {
			assert.Nil(t, r)
			return
		}
		require.NotNil(t, r.Request)
		assert.NotEmpty(t, r.Request.UID)
		// encoding/json would have accepted it too.
		var plain kube.AdmissionReview
		require.NoError(t, json.Unmarshal(body, &plain))
		assert.Equal(t, r.Request.UID, plain.Request.UID)
	})
}

// FuzzDecodeConversionReview: as FuzzDecodeAdmissionReview.
func FuzzDecodeConversionReview(f *testing.F) {
	for _, s := range []string{conversionBody, `{"request":{"objects":[],"objects":[]}}`, `{"kind":"ConversionReview"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := kube.DecodeReview[kube.ConversionReview](context.Background(), body)
		if err != nil {
			assert.Nil(t, r)
			return
		}
		assert.NotEmpty(t, r.Request.UID)
		assert.NotEmpty(t, r.Request.DesiredAPIVersion)
	})
}

// FuzzAdmitPatch: for any parameters, Admit's patch applied to the
// object (by the json-patch library the apiserver uses) gives the
// parameters with the defaults filled in, numbers exactly as written;
// and there is no patch exactly when nothing is to fill in.
func FuzzAdmitPatch(f *testing.F) {
	s, err := schema.Parse([]byte(`{"type": "object", "properties": {
		"a": {"type": "object", "default": {}, "properties": {"b": {"default": 9007199254740993}, "": {"default": 1}}},
		"~/": {"default": "x"}, "list": {"type": "array", "items": {"type": "object", "properties": {"d": {"default": 1.50}}}}}}`))
	require.NoError(f, err)
	for _, seed := range []string{`{}`, `{"a":{"b":1}}`, `{"":{"d":null}}`, `{"list":[{},{"d":2}]}`, `{"a":{"b":9007199254740993,"":1},"~/":"x"}`, `null`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		pv, err := params.Decode(nil, raw)
		if err != nil {
			return
		}
		obj := mustBytes(params.MarshalJSON(nil, map[string]any{"apiVersion": "example.paramkit.dev/v1", "kind": "Cache", "spec": map[string]any{"parameters": pv}}, ""))
		resp, err := kube.Admit(context.Background(), s, &kube.AdmissionRequest{UID: "u", Operation: "CREATE", Object: obj})
		require.NoError(t, err)
		if !resp.Allowed {
			return // not an object, or a value the schema refuses
		}
		want, err := params.Default(s, pv)
		require.NoError(t, err)
		if pv == nil {
			want, err = params.Default(s, map[string]any{})
			require.NoError(t, err)
		}
		if len(resp.Patch) == 0 {
			assert.True(t, params.Identical(pv, want), "no patch, yet defaults to fill in")
			return
		}
		p, err := jsonpatch.DecodePatch(resp.Patch)
		require.NoError(t, err)
		out, err := p.Apply(obj)
		require.NoError(t, err)
		got, err := params.Decode(nil, out)
		require.NoError(t, err)
		gotParams := got.(map[string]any)["spec"].(map[string]any)["parameters"]
		assert.True(t, params.Identical(want, gotParams), "%s\n%s", mustBytes(params.MarshalJSON(nil, want, "")), out)
	})
}

// FuzzJSONPatch: for any two JSON values, the patch applied to the first
// (by the json-patch library the apiserver uses) gives the second,
// numbers exactly as written.
func FuzzJSONPatch(f *testing.F) {
	for _, s := range [][2]string{
		{`{"a":1}`, `{"a":9007199254740993}`},
		{`{"a":{"b":[1,2]},"c":3}`, `{"a":{"b":[1,2,3]},"d":"x"}`},
		{`{"":{"x":1},"~/":2}`, `{"":{"x":2},"~/":3}`},
		{`{"a":[{"b":1}]}`, `{"a":[{"b":1.0}]}`},
		{`{}`, `{"a":null}`},
	} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, from, to []byte) {
		fv, err := params.Decode(nil, from)
		if err != nil {
			return
		}
		tv, err := params.Decode(nil, to)
		if err != nil {
			return
		}
		fm, ok1 := fv.(map[string]any)
		tm, ok2 := tv.(map[string]any)
		if !ok1 || !ok2 {
			return
		}
		doc := mustBytes(params.MarshalJSON(nil, map[string]any{"spec": map[string]any{"parameters": fm}}, ""))
		ops := kube.JSONPatch("/spec/parameters", fm, tm)
		if len(ops) == 0 {
			assert.True(t, params.Identical(fm, tm))
			return
		}
		p, err := jsonpatch.DecodePatch(mustBytes(params.MarshalJSON(nil, ops, "")))
		require.NoError(t, err)
		out, err := p.Apply(doc)
		require.NoError(t, err)
		got, err := params.Decode(nil, out)
		require.NoError(t, err)
		want := map[string]any{"spec": map[string]any{"parameters": tm}}
		assert.True(t, params.Identical(want, got), "%s\n%s", mustBytes(params.MarshalJSON(nil, want, "")), out)
	})
}

// mustBytes is the bytes of an encoder that cannot fail on the plain
// values a test gives it.
func mustBytes(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
