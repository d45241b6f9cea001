package kube_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params"
)

// The Workspace: v1alpha1 flat strings, v1beta1 nested, typed
// and stored, storage class immutable, a v1beta1-only backup block.
const wsGroup = "example.paramkit.dev"

func workspaceSet(t testing.TB) *migrate.VersionSet {
	t.Helper()
	set, err := migrate.LoadVersionSet(os.DirFS("testdata/workspace"))
	require.NoError(t, err)
	return set
}

// workspace is a Workspace of version v with params and metadata meta
// (JSON members, without braces, after the name).
func workspace(v, params, meta string) []byte {
	if meta != "" {
		meta = "," + meta
	}
	return []byte(`{"apiVersion":"` + wsGroup + `/` + v + `","kind":"Workspace","metadata":{"name":"w","namespace":"dev"` + meta +
		`},"spec":{"parameters":` + params + `}}`)
}

// wsReview is an AdmissionReview as the apiserver sends it for a
// request in version v.
func wsReview(t testing.TB, op, v string, obj, old []byte, options string) *kube.AdmissionRequest {
	t.Helper()
	req := map[string]any{
		"uid": "u1", "kind": map[string]any{"group": wsGroup, "version": v, "kind": "Workspace"},
		"resource": map[string]any{"group": wsGroup, "version": v, "resource": "workspaces"},
		"name":     "w", "namespace": "dev", "operation": op, "object": json.RawMessage(obj),
		"userInfo": map[string]any{"username": "mallory"},
	}
	if old != nil {
		req["oldObject"] = json.RawMessage(old)
	}
	if options != "" {
		req["options"] = json.RawMessage(options)
	}
	body, err := json.Marshal(map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": req})
	require.NoError(t, err)
	review, err := kube.DecodeReview[kube.AdmissionReview](context.Background(), body)
	require.NoError(t, err)
	return review.Request
}

// admitWS admits req with the schema of its version, judged as stored too.
func admitWS(t testing.TB, set *migrate.VersionSet, req *kube.AdmissionRequest, opts ...kube.Option) *kube.AdmissionResponse {
	t.Helper()
	v, ok := set.Version(req.Kind.Version)
	require.True(t, ok)
	resp, err := kube.Admit(context.Background(), v.Schema, req, append(opts, kube.Stored(set, ""))...)
	require.NoError(t, err)
	return resp
}

func causeFields(resp *kube.AdmissionResponse) []string {
	if resp.Result == nil || resp.Result.Details == nil {
		return nil
	}
	var out []string
	for _, c := range resp.Result.Details.Causes {
		out = append(out, c.Field)
	}
	return out
}

// A write through the older version is judged by the stored version's
// schema too, its errors named in the writer's names where they map.
func TestAdmitStoredLaxerSchema(t *testing.T) {
	set := workspaceSet(t)
	cases := []struct {
		name    string
		v       string
		params  string
		allowed bool
		fields  []string
		message string // in the first cause's message
	}{
		{name: "valid in both", v: "v1alpha1", params: `{"cpu":"64","memoryGi":"8"}`, allowed: true},
		{name: "cpu 65: v1alpha1 allows it, v1beta1 says at most 64", v: "v1alpha1", params: `{"cpu":"65"}`,
			fields: []string{"spec.parameters.cpu"}, message: "version v1beta1, the stored version"},
		{name: "an integer beyond int64 is refused, never stored rounded", v: "v1alpha1", params: `{"memoryGi":"99999999999999999999999"}`,
			fields: []string{"spec.parameters.memoryGi"}, message: "beyond int64"},
		{name: "what v1alpha1's own schema refuses is named as before", v: "v1alpha1", params: `{"cpu":"x"}`,
			fields: []string{"spec.parameters.cpu"}, message: "pattern"},
		{name: "a request in the stored version is judged once", v: "v1beta1", params: `{"resources":{"cpu":65}}`,
			fields: []string{"spec.parameters.resources.cpu"}},
		{name: "stored version: valid", v: "v1beta1", params: `{"resources":{"cpu":64},"backup":{"enabled":true}}`, allowed: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, validating := range []bool{false, true} {
				var opts []kube.Option
				if validating {
					opts = append(opts, kube.Validating())
				}
				resp := admitWS(t, set, wsReview(t, "CREATE", c.v, workspace(c.v, c.params, ""), nil, ""), opts...)
				require.Equal(t, c.allowed, resp.Allowed, "%+v", resp.Result)
				if c.allowed {
					continue
				}
				assert.Equal(t, int32(422), resp.Result.Code)
				assert.Equal(t, c.fields, causeFields(resp))
				assert.Contains(t, resp.Result.Details.Causes[0].Message, c.message)
			}
		})
	}
}

// The stored version's immutability holds for a field an older version
// reaches by another name, and a field only the stored version has is
// named in its names, saying which version.
func TestAdmitStoredNames(t *testing.T) {
	set := workspaceSet(t)
	old := workspace("v1alpha1", `{"cpu":"2","storageClass":"standard"}`, "")
	resp := admitWS(t, set, wsReview(t, "UPDATE", "v1alpha1", workspace("v1alpha1", `{"cpu":"2","storageClass":"premium"}`, ""), old, ""))
	require.False(t, resp.Allowed)
	assert.Equal(t, []string{"spec.parameters.storageClass"}, causeFields(resp)) // v1alpha1's own immutable

	// backup.enabled exists only in v1beta1: a forged layer sets it.
	stored := workspace("v1beta1", `{"resources":{"cpu":2},"storage":{"class":"standard"},"backup":{"enabled":false}}`, "")
	view, err := kube.Convert(set, stored, "/spec/parameters", wsGroup+"/v1alpha1")
	require.NoError(t, err)
	forged := forge(t, view, `[{"pointer":"/backup","value":{"enabled":"yes"}}]`)
	resp = admitWS(t, set, wsReview(t, "UPDATE", "v1alpha1", forged, view, ""))
	require.False(t, resp.Allowed)
	require.Equal(t, []string{"spec.parameters.backup.enabled"}, causeFields(resp))
	msg := resp.Result.Details.Causes[0].Message
	assert.Contains(t, msg, "in version v1beta1, the stored version")
	assert.Contains(t, msg, "conversion.paramkit.dev/kept")
}

// forge replaces the layers of the kept annotation of a v1alpha1 view
// with one layer of the given patch entries, under the genuine layer's
// step (which any reader of the object sees).
func forge(t testing.TB, view []byte, patch string) []byte {
	t.Helper()
	var obj map[string]any
	d := json.NewDecoder(strings.NewReader(string(view)))
	d.UseNumber()
	require.NoError(t, d.Decode(&obj))
	ann := obj["metadata"].(map[string]any)["annotations"].(map[string]any)
	var kept map[string][]map[string]any
	require.NoError(t, json.Unmarshal([]byte(ann["conversion.paramkit.dev/kept"].(string)), &kept))
	layer := kept["/spec/parameters"][0]
	var entries []any
	require.NoError(t, json.Unmarshal([]byte(patch), &entries))
	layer["patch"] = entries
	raw, err := json.Marshal(map[string]any{"/spec/parameters": []any{layer}})
	require.NoError(t, err)
	ann["conversion.paramkit.dev/kept"] = string(raw)
	out, err := json.Marshal(obj)
	require.NoError(t, err)
	return out
}

// The attack: the kept annotation edited through v1alpha1 to
// store storage.class premium (immutable, was standard), cpu 999
// (maximum 64) and backup.enabled "yes", by every way a client writes
// an annotation. Each arrives at admission as an UPDATE (or, for a put
// or an apply that creates, a CREATE) in v1alpha1 carrying the edited
// annotation; the shapes below are those the apiserver sends (options,
// managedFields). Each is refused, naming the annotation; the same
// write with the genuine annotation is allowed.
func TestAdmitStoredForgedAnnotation(t *testing.T) {
	set := workspaceSet(t)
	stored := workspace("v1beta1", `{"resources":{"cpu":4,"memoryGi":8},"storage":{"class":"standard"},"backup":{"enabled":false}}`, "")
	view, err := kube.Convert(set, stored, "/spec/parameters", wsGroup+"/v1alpha1")
	require.NoError(t, err)
	_, has := keptOf(t, view)
	require.True(t, has, "%s", view)
	forgedLayer := `[{"pointer":"/storage/class","value":"premium","was":"standard"},{"pointer":"/resources/cpu","value":999,"was":4},{"pointer":"/backup","value":{"enabled":"yes"}}]`
	forged := forge(t, view, forgedLayer)
	managed := func(obj []byte, op string) []byte {
		var m map[string]any
		require.NoError(t, json.Unmarshal(obj, &m))
		m["metadata"].(map[string]any)["managedFields"] = []any{map[string]any{
			"manager": "kubectl", "operation": op, "apiVersion": wsGroup + "/v1alpha1", "fieldsType": "FieldsV1",
			"fieldsV1": map[string]any{"f:metadata": map[string]any{"f:annotations": map[string]any{"f:conversion.paramkit.dev/kept": map[string]any{}}}},
		}}
		out, err := json.Marshal(m)
		require.NoError(t, err)
		return out
	}
	ways := []struct {
		name, op, options string
		obj, old          []byte
	}{
		{"kubectl annotate (merge patch)", "UPDATE", `{"kind":"PatchOptions","apiVersion":"meta.k8s.io/v1","fieldManager":"kubectl-annotate"}`, forged, view},
		{"kubectl patch --type json", "UPDATE", `{"kind":"PatchOptions","apiVersion":"meta.k8s.io/v1","fieldManager":"kubectl-patch"}`, forged, view},
		{"kubectl replace (put)", "UPDATE", `{"kind":"UpdateOptions","apiVersion":"meta.k8s.io/v1","fieldManager":"kubectl-replace"}`, forged, view},
		{"kubectl apply --server-side", "UPDATE", `{"kind":"PatchOptions","apiVersion":"meta.k8s.io/v1","fieldManager":"kubectl","force":true}`, managed(forged, "Apply"), managed(view, "Apply")},
		{"kubectl create with the annotation (post)", "CREATE", `{"kind":"CreateOptions","apiVersion":"meta.k8s.io/v1","fieldManager":"kubectl-create"}`, forged, nil},
		{"kubectl apply --server-side creating the object", "CREATE", `{"kind":"PatchOptions","apiVersion":"meta.k8s.io/v1","fieldManager":"kubectl"}`, managed(forged, "Apply"), nil},
	}
	for _, w := range ways {
		t.Run(w.name, func(t *testing.T) {
			for _, validating := range []bool{false, true} {
				var opts []kube.Option
				if validating {
					opts = append(opts, kube.Validating())
				}
				resp := admitWS(t, set, wsReview(t, w.op, "v1alpha1", w.obj, w.old, w.options), opts...)
				require.False(t, resp.Allowed, "forged annotation let through")
				assert.Equal(t, int32(422), resp.Result.Code)
				fields := causeFields(resp)
				assert.Contains(t, fields, "spec.parameters.resources.cpu")
				assert.Contains(t, fields, "spec.parameters.backup.enabled")
				assert.Contains(t, resp.Result.Message, "conversion.paramkit.dev/kept")
				if w.op == "UPDATE" {
					// The stored class is standard: premium is refused
					// whatever its own schema says, even once the
					// other values are fixed.
					fixed := forge(t, view, `[{"pointer":"/storage/class","value":"premium","was":"standard"}]`)
					if strings.Contains(w.name, "server-side") {
						fixed = managed(fixed, "Apply")
					}
					r2 := admitWS(t, set, wsReview(t, w.op, "v1alpha1", fixed, w.old, w.options), opts...)
					require.False(t, r2.Allowed)
					assert.Equal(t, []string{"spec.parameters.storageClass"}, causeFields(r2), "%+v", r2.Result)
					assert.Contains(t, r2.Result.Details.Causes[0].Message, "v1beta1")
					assert.Contains(t, r2.Result.Details.Causes[0].Message, "conversion.paramkit.dev/kept",
						"the object written shows standard: the annotation changed the class")
				}
			}
		})
	}
	// The genuine annotation (a v1alpha1 client's read-modify-write, a
	// label added) is allowed.
	labelled := strings.Replace(string(view), `"name":"w"`, `"labels":{"team":"a"},"name":"w"`, 1)
	resp := admitWS(t, set, wsReview(t, "UPDATE", "v1alpha1", []byte(labelled), view, `{"kind":"PatchOptions","apiVersion":"meta.k8s.io/v1"}`))
	assert.True(t, resp.Allowed, "%+v", resp.Result)
}

// Conversion stays total and exact: an integer beyond int64 made from
// v1alpha1's text stays text in v1beta1 (the apiserver would decode the
// number as a float64 and store 1e+23), and converts back unchanged.
func TestConvertKeepsBigIntegerText(t *testing.T) {
	set := workspaceSet(t)
	in := workspace("v1alpha1", `{"cpu":"65","memoryGi":"99999999999999999999999"}`, "")
	up, err := kube.Convert(set, in, "/spec/parameters", wsGroup+"/v1beta1")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"resources": map[string]any{"cpu": json.Number("65"), "memoryGi": "99999999999999999999999"}}, paramsOf(t, up))
	down, err := kube.Convert(set, up, "/spec/parameters", wsGroup+"/v1alpha1")
	require.NoError(t, err)
	assert.Equal(t, paramsOf(t, in), paramsOf(t, down))
	again, err := kube.Convert(set, down, "/spec/parameters", wsGroup+"/v1beta1")
	require.NoError(t, err)
	assert.Equal(t, paramsOf(t, up), paramsOf(t, again))
}

func TestAdmitStoredUnknownVersion(t *testing.T) {
	set := workspaceSet(t)
	v, _ := set.Version("v1alpha1")
	req := wsReview(t, "CREATE", "v1alpha1", workspace("v1alpha1", `{}`, ""), nil, "")
	resp, err := kube.Admit(context.Background(), v.Schema, req, kube.Stored(set, "v9"))
	require.Error(t, err)
	assert.False(t, resp.Allowed)
	assert.Equal(t, int32(500), resp.Result.Code)
	assert.Contains(t, resp.Result.Message, "v9")
}

// Messages name an object by what it has: its name, else (a CREATE with
// generateName, named by the apiserver after admission) the prefix.
func TestAdmitNamesTheObject(t *testing.T) {
	s := mustSchema(t, cacheSchema)
	for _, tt := range []struct {
		name, namespace, meta, want string
	}{
		{"c", "demo", `{"name":"c"}`, "Cache demo/c: invalid spec.parameters"},
		{"", "demo", `{"generateName":"cache-"}`, "Cache (generateName cache-) in demo: invalid spec.parameters"},
		{"", "", `{"generateName":"cache-"}`, "Cache (generateName cache-): invalid spec.parameters"},
		{"", "demo", `{}`, "Cache in demo: invalid spec.parameters"},
	} {
		req := request("CREATE", json.RawMessage(`{"apiVersion":"example.paramkit.dev/v2","kind":"Cache","metadata":`+tt.meta+`,"spec":{"parameters":{"engine":"valkey"}}}`), nil)
		req.Name, req.Namespace = tt.name, tt.namespace
		resp, err := kube.Admit(context.Background(), s, req)
		require.NoError(t, err)
		require.False(t, resp.Allowed)
		assert.True(t, strings.HasPrefix(resp.Result.Message, tt.want), resp.Result.Message)
		assert.NotContains(t, resp.Result.Message, "/:")
	}
}

// FuzzAdmitStored: whatever a client writes through v1alpha1 (its
// parameters, the kept annotation's text), Admit with Stored answers
// without error, and what it allows stores (after its patch and the
// conversion the apiserver asks for) what v1beta1's schema accepts.
func FuzzAdmitStored(f *testing.F) {
	set := workspaceSet(f)
	stored := workspace("v1beta1", `{"resources":{"cpu":4,"memoryGi":8},"storage":{"class":"standard"},"backup":{"enabled":true}}`, "")
	view, err := kube.Convert(set, stored, "/spec/parameters", wsGroup+"/v1alpha1")
	require.NoError(f, err)
	kept, _ := keptOf(f, view)
	for _, s := range []struct{ params, kept string }{
		{`{"cpu":"4","memoryGi":"8","storageClass":"standard"}`, kept},
		{`{"cpu":"65"}`, ""},
		{`{"memoryGi":"99999999999999999999999"}`, ""},
		{`{"cpu":"4"}`, strings.Replace(kept, "true", `"yes"`, 1)},
		{`{}`, `{"/spec/parameters":[{"step":"x","dir":"down","patch":[{"pointer":"/resources/cpu","value":999}]}]}`},
		{`{}`, `not json`},
		{`{"x-paramkit-bag":[]}`, kept},
	} {
		f.Add([]byte(s.params), s.kept, true)
		f.Add([]byte(s.params), s.kept, false)
	}
	v1alpha1, _ := set.Version("v1alpha1")
	v1beta1, _ := set.Version("v1beta1")
	f.Fuzz(func(t *testing.T, p []byte, kept string, update bool) {
		var probe any
		d := json.NewDecoder(strings.NewReader(string(p)))
		d.UseNumber()
		if d.Decode(&probe) != nil || d.More() {
			return
		}
		canon, err := json.Marshal(probe)
		if err != nil {
			return
		}
		meta := ""
		if kept != "" {
			k, _ := json.Marshal(kept)
			meta = `"annotations":{"conversion.paramkit.dev/kept":` + string(k) + `}`
		}
		obj := workspace("v1alpha1", string(canon), meta)
		var old []byte
		op := "CREATE"
		if update {
			op, old = "UPDATE", view
		}
		req := wsReview(t, op, "v1alpha1", obj, old, "")
		resp, err := kube.Admit(context.Background(), v1alpha1.Schema, req, kube.Stored(set, ""))
		require.NoError(t, err)
		require.NotNil(t, resp)
		if !resp.Allowed {
			return
		}
		patched := []byte(applyPatch(t, obj, resp))
		out, err := kube.Convert(set, patched, "/spec/parameters", wsGroup+"/v1beta1")
		require.NoError(t, err)
		values := paramsOf(t, out)
		defaulted, err := params.Default(v1beta1.Schema, values)
		require.NoError(t, err)
		require.NoError(t, params.Validate(v1beta1.Schema, defaulted), "allowed, yet stored invalid: %s", out)
		if update {
			require.NoError(t, params.CheckImmutable(v1beta1.Schema, paramsOf(t, stored), values), "%s", out)
		}
	})
}

// applyPatch applies an admission response's patch to obj.
func applyPatch(t *testing.T, obj []byte, resp *kube.AdmissionResponse) string {
	t.Helper()
	if len(resp.Patch) == 0 {
		return string(obj)
	}
	p, err := jsonpatch.DecodePatch(resp.Patch)
	require.NoError(t, err)
	out, err := p.Apply(obj)
	require.NoError(t, err)
	return string(out)
}

// The annotation is checked where it is read: with no admission webhook
// at all, the conversion the apiserver asks for on a v1alpha1 write
// restores nothing v1beta1's schema refuses (cpu 999, backup.enabled
// "yes"), and nothing that overrides what the object written shows
// (storage.class premium where v1alpha1's storageClass says standard:
// a value the schema accepts that immutability forbids, which only
// admission could judge against the old object). A forged layer makes
// the conversion keep none of the annotation's layers: the field
// converts as written, the genuine backup block lost with the forged
// class. The genuine annotation restores everything, also after an edit
// of what v1alpha1 shows.
func TestConvertChecksTheAnnotation(t *testing.T) {
	set := workspaceSet(t)
	stored := workspace("v1beta1", `{"resources":{"cpu":4,"memoryGi":8},"storage":{"class":"standard"},"backup":{"enabled":true,"schedule":"daily"}}`, "")
	view, err := kube.Convert(set, stored, "/spec/parameters", wsGroup+"/v1alpha1")
	require.NoError(t, err)
	asWritten := map[string]any{"resources": map[string]any{"cpu": json.Number("4"), "memoryGi": json.Number("8")}, "storage": map[string]any{"class": "standard"}}
	for _, tt := range []struct {
		name, layer string
		want        map[string]any
	}{
		{"refused by the schema", `[{"pointer":"/resources/cpu","value":999,"was":4},{"pointer":"/backup","value":{"enabled":"yes"}}]`, asWritten},
		{"an immutable value changed", `[{"pointer":"/storage/class","value":"premium","was":"standard"}]`, asWritten},
		{"an immutable value changed beside the genuine layer", `[{"pointer":"/backup","value":{"enabled":true,"schedule":"daily"}},{"pointer":"/storage/class","value":"premium","was":"standard"}]`, asWritten},
		{"a value the writer's version shows otherwise", `[{"pointer":"/resources/cpu","value":8,"was":4}]`, asWritten},
		{"a v1beta1-only value the schema accepts", `[{"pointer":"/backup","value":{"enabled":true,"schedule":"hourly"}}]`,
			map[string]any{"resources": map[string]any{"cpu": json.Number("4"), "memoryGi": json.Number("8")}, "storage": map[string]any{"class": "standard"},
				"backup": map[string]any{"enabled": true, "schedule": "hourly"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := kube.Convert(set, forge(t, view, tt.layer), "/spec/parameters", wsGroup+"/v1beta1")
			require.NoError(t, err)
			assert.Equal(t, tt.want, paramsOf(t, out))
		})
	}
	// The genuine annotation restores everything.
	back, err := kube.Convert(set, view, "/spec/parameters", wsGroup+"/v1beta1")
	require.NoError(t, err)
	assert.Equal(t, paramsOf(t, stored), paramsOf(t, back))
	// And after a v1alpha1 client's edit: its change, and the backup.
	edited := []byte(strings.Replace(string(view), `"cpu":"4"`, `"cpu":"8"`, 1))
	back, err = kube.Convert(set, edited, "/spec/parameters", wsGroup+"/v1beta1")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"resources": map[string]any{"cpu": json.Number("8"), "memoryGi": json.Number("8")}, "storage": map[string]any{"class": "standard"},
		"backup": map[string]any{"enabled": true, "schedule": "daily"}}, paramsOf(t, back))
}

// BenchmarkAdmitStored: a v1alpha1 UPDATE of a Workspace read through
// v1alpha1 (its annotation carries the v1beta1-only backup block),
// judged in v1alpha1 alone and then also as v1beta1 stores it: the cost
// of Stored (two conversions with the annotation checked, defaults,
// validation and immutability in the stored version).
func BenchmarkAdmitStored(b *testing.B) {
	set := workspaceSet(b)
	stored := workspace("v1beta1", `{"resources":{"cpu":4,"memoryGi":8},"storage":{"class":"standard"},"backup":{"enabled":true,"schedule":"daily"}}`, "")
	view, err := kube.Convert(set, stored, "/spec/parameters", wsGroup+"/v1alpha1")
	require.NoError(b, err)
	changed := []byte(strings.Replace(string(view), `"cpu":"4"`, `"cpu":"8"`, 1))
	req := wsReview(b, "UPDATE", "v1alpha1", changed, view, "")
	v, _ := set.Version("v1alpha1")
	for _, bc := range []struct {
		name string
		opts []kube.Option
	}{{"own-version", nil}, {"stored-too", []kube.Option{kube.Stored(set, "")}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				resp, err := kube.Admit(context.Background(), v.Schema, req, bc.opts...)
				if err != nil || !resp.Allowed {
					b.Fatal(err, resp.Result)
				}
			}
		})
	}
}

// An annotation written through the stored version itself is read when
// the object is converted to an older version: a layer that restores
// there what that version's schema refuses is refused at the write.
func TestAdmitStoredVersionAnnotation(t *testing.T) {
	set := workspaceSet(t)
	// A v1beta1 object read through v1alpha1 and written back leaves no
	// layer; one forged for the way down names v1alpha1's storageClass.
	bad := `{"/spec/parameters":[{"step":"STEP","dir":"up","patch":[{"pointer":"/storageClass","value":7}]}]}`
	view, err := kube.Convert(set, workspace("v1beta1", `{"backup":{"enabled":true}}`, ""), "/spec/parameters", wsGroup+"/v1alpha1")
	require.NoError(t, err)
	genuine, _ := keptOf(t, view)
	var layers map[string][]map[string]any
	require.NoError(t, json.Unmarshal([]byte(genuine), &layers))
	bad = strings.Replace(bad, "STEP", layers["/spec/parameters"][0]["step"].(string), 1)
	k, _ := json.Marshal(bad)
	obj := workspace("v1beta1", `{"resources":{"cpu":2}}`, `"annotations":{"conversion.paramkit.dev/kept":`+string(k)+`}`)
	resp := admitWS(t, set, wsReview(t, "CREATE", "v1beta1", obj, nil, ""))
	require.False(t, resp.Allowed, "%s", obj)
	assert.Equal(t, []string{"spec.parameters.storageClass"}, causeFields(resp))
	assert.Contains(t, resp.Result.Message, "in version v1alpha1, restored from the annotation conversion.paramkit.dev/kept")
	// Without the annotation, or with one that fits, it is allowed.
	resp = admitWS(t, set, wsReview(t, "CREATE", "v1beta1", workspace("v1beta1", `{"resources":{"cpu":2}}`, ""), nil, ""))
	assert.True(t, resp.Allowed, "%+v", resp.Result)
}
