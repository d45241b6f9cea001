package kube_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/schema"
)

func widgets(t testing.TB) *kube.Definition {
	t.Helper()
	data, err := os.ReadFile("testdata/verdict/widgets.crd.yaml")
	require.NoError(t, err)
	d, err := kube.ReadDefinition(data)
	require.NoError(t, err)
	return d
}

const widgetHead = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: default}\n"

// verdictLines are an error list as "FIELD: KIND: MESSAGE" lines.
func verdictLines(l schema.ErrorList) []string {
	out := []string{}
	for _, e := range l {
		out = append(out, e.FieldPath("")+": "+string(e.Kind)+": "+e.Message)
	}
	return out
}

// TestJudge: each step of the apiserver's order, one case or more each:
// the errors the verdict gives (field path, kind, message start), and
// the object it would store.
func TestJudge(t *testing.T) {
	d := widgets(t)
	assert.Equal(t, "example.com", d.Group())
	assert.Equal(t, "Widget", d.Kind())
	assert.True(t, d.Namespaced())
	assert.Equal(t, []string{"v1alpha1", "v1"}, d.Versions())
	for _, tc := range []struct {
		name   string
		object string
		mode   kube.FieldValidation
		errs   []string // each a prefix of one line of verdictLines, in order
		warns  []string
		stored string // a substring of the stored object's JSON, when it matters
	}{
		{name: "valid", object: widgetHead + "spec: {size: 2}\n"},
		{name: "kind of another CRD", object: "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: w}\nspec: {size: 2}\n",
			errs: []string{"kind: not-found: no Gadget in example.com/v1: the CustomResourceDefinition defines Widget in group example.com"}},
		{name: "another group", object: "apiVersion: other.io/v1\nkind: Widget\nmetadata: {name: w}\n",
			errs: []string{"kind: not-found: no Widget in other.io/v1"}},
		{name: "version not served", object: "apiVersion: example.com/v1alpha1\nkind: Widget\nmetadata: {name: w}\n",
			errs: []string{"apiVersion: not-found: the server could not find the requested resource: v1alpha1 is not a served version of Widget (served: v1)"}},
		{name: "no apiVersion", object: "kind: Widget\nmetadata: {name: w}\n", errs: []string{"apiVersion: required: Object 'apiVersion' is missing"}},
		{name: "name upper case", object: "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: My-App}\nspec: {size: 1}\n",
			errs: []string{`metadata.name: invalid: Invalid value: "My-App": a lowercase RFC 1123 subdomain`}},
		{name: "name with underscore", object: "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: my_app}\nspec: {size: 1}\n",
			errs: []string{`metadata.name: invalid: Invalid value: "my_app"`}},
		{name: "no name", object: "apiVersion: example.com/v1\nkind: Widget\nmetadata: {}\nspec: {size: 1}\n",
			errs: []string{"metadata.name: required: Required value: name or generateName is required"}},
		{name: "generateName", object: "apiVersion: example.com/v1\nkind: Widget\nmetadata: {generateName: web-}\nspec: {size: 1}\n"},
		{name: "namespace not a label", object: "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: Prod}\nspec: {size: 1}\n",
			errs: []string{`metadata.namespace: invalid: Invalid value: "Prod": a lowercase RFC 1123 label`}},
		{name: "label value with a space", object: "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, labels: {app: my app}}\nspec: {size: 1}\n",
			errs: []string{`metadata.labels: invalid: Invalid value: "my app": a valid label must be an empty string`}},
		{name: "label value a number", object: "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, labels: {tier: 1}}\nspec: {size: 1}\n",
			errs: []string{`metadata.labels.tier: type: must be of type string, not a number`}},
		{name: "label key", object: "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, labels: {-bad: x}}\nspec: {size: 1}\n",
			errs: []string{`metadata.labels: invalid: Invalid value: "-bad": name part must consist of`}},
		{name: "two controllers", object: "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  ownerReferences:\n  - {apiVersion: v1, kind: A, name: a, uid: '1', controller: true}\n  - {apiVersion: v1, kind: B, name: b, uid: '2', controller: true}\nspec: {size: 1}\n",
			errs: []string{`metadata.ownerReferences: invalid: Only one reference can have Controller set to true`}},
		{name: "owner reference without uid", object: "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  ownerReferences:\n  - {apiVersion: v1, kind: A, name: a}\nspec: {size: 1}\n",
			errs: []string{`metadata.ownerReferences[0].uid: required: Required value: must not be empty`}},
		{name: "unknown field, Strict", object: widgetHead + "spec: {size: 1, colour: red}\n",
			errs: []string{`spec.colour: undeclared: unknown field "spec.colour"`}, stored: `"spec":{"replicas":1,"size":1}`},
		{name: "unknown field, Warn", object: widgetHead + "spec: {size: 1, colour: red}\n", mode: kube.FieldValidationWarn,
			warns: []string{`spec.colour: undeclared: unknown field "spec.colour"`}},
		{name: "unknown field, Ignore", object: widgetHead + "spec: {size: 1, colour: red}\n", mode: kube.FieldValidationIgnore},
		{name: "unknown metadata field", object: "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, label: {a: b}}\nspec: {size: 1}\n",
			errs: []string{`metadata.label: undeclared: unknown field "metadata.label"`}},
		{name: "preserved and embedded fields kept", object: widgetHead + "spec:\n  size: 1\n  extra: {any: thing}\n  template: {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {image: x, other: y}}\n",
			errs: []string{`spec.template.spec.other: undeclared`}, stored: `"extra":{"any":"thing"}`},
		{name: "unquoted number on a string field", object: widgetHead + "spec: {size: 1, duration: 2160}\n",
			errs: []string{`spec.duration: type: `, `(kubectl reads the unquoted 2160 as a number: write "2160" to send a string)`}},
		{name: "yes on a string field", object: widgetHead + "spec: {size: 1, commonName: yes}\n",
			errs: []string{`spec.commonName: type: `, `(kubectl reads the unquoted yes as a boolean: write "yes" to send a string)`}},
		{name: "int-or-string: boolean", object: widgetHead + "spec: {size: 1, port: true}\n",
			errs: []string{`spec.port: type: must be of type integer or string, not a boolean`}},
		{name: "int-or-string: fraction", object: widgetHead + "spec: {size: 1, port: 8080.5}\n",
			errs: []string{`spec.port: type: must be of type integer or string, not a number`}},
		{name: "int-or-string: both kinds", object: widgetHead + "spec: {size: 1, port: 8080}\n---\n"},
		{name: "null without default is dropped", object: widgetHead + "spec: {size: 1, commonName: null}\n",
			stored: `"spec":{"replicas":1,"size":1}`},
		{name: "null with default is defaulted", object: widgetHead + "spec: {size: 1, replicas: null}\n", stored: `"replicas":1`},
		{name: "defaults below a given object", object: widgetHead + "spec: {size: 1, tls: {}}\n", stored: `"tls":{"mode":"Terminate"}`},
		{name: "status dropped on create", object: widgetHead + "spec: {size: 1}\nstatus: {ready: maybe}\n"},
		{name: "schema validation", object: widgetHead + "spec: {size: 0}\n", errs: []string{"spec.size: invalid: must be >= 1"}},
		{name: "required", object: widgetHead + "spec: {}\n", errs: []string{"spec.size: required"}},
		{name: "big number as kubectl sends it", object: widgetHead + "spec: {size: 99999999999999999999999}\n",
			errs: []string{"spec.size: type"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := d.Judge(context.Background(), []byte(strings.TrimSuffix(tc.object, "---\n")), &kube.JudgeOptions{FieldValidation: tc.mode})
			require.NoError(t, err)
			got := verdictLines(v.Errors)
			assertPrefixes(t, tc.errs, got)
			assertPrefixes(t, tc.warns, verdictLines(v.Warnings))
			assert.Equal(t, len(tc.errs) == 0, v.Valid())
			if tc.stored != "" {
				out, err := jsonOf(v.Object)
				require.NoError(t, err)
				assert.Contains(t, out, tc.stored)
			}
			if _, ok := v.Object["status"]; ok {
				t.Errorf("status stored on a create: %v", v.Object["status"])
			}
		})
	}
}

// assertPrefixes: each want is a prefix (or, past a ": ", a part) of the
// matching line of got, one for one, except that a want starting with
// "(" is a part of the line before it.
func assertPrefixes(t *testing.T, want, got []string) {
	t.Helper()
	i := -1
	for _, w := range want {
		if strings.HasPrefix(w, "(") && i >= 0 && i < len(got) {
			assert.Contains(t, got[i], w)
			continue
		}
		i++
		if !assert.Less(t, i, len(got), "missing %q in %q", w, got) {
			return
		}
		assert.True(t, strings.HasPrefix(got[i], w), "line %d:\n got %q\nwant %q…", i, got[i], w)
	}
	assert.Len(t, got, i+1, "%q", got)
}

func jsonOf(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// TestJudgeUpdate: an update keeps the stored status where the
// subresource is on and refuses a new name.
func TestJudgeUpdate(t *testing.T) {
	d := widgets(t)
	old := []byte(widgetHead + "spec: {size: 1}\nstatus: {ready: true}\n")
	v, err := d.Judge(context.Background(), []byte(widgetHead+"spec: {size: 3}\nstatus: {ready: false}\n"), &kube.JudgeOptions{Old: old})
	require.NoError(t, err)
	assert.Empty(t, v.Errors)
	assert.Equal(t, map[string]any{"ready": true}, v.Object["status"])

	// The stored status is kept as the apiserver stored it: pruned.
	stale := []byte(widgetHead + "spec: {size: 1}\nstatus: {ready: true, gone: 1}\n")
	v, err = d.Judge(context.Background(), []byte(widgetHead+"spec: {size: 3}\n"), &kube.JudgeOptions{Old: stale})
	require.NoError(t, err)
	assert.Empty(t, v.Errors)
	assert.Equal(t, map[string]any{"ready": true}, v.Object["status"])

	v, err = d.Judge(context.Background(), []byte(strings.Replace(widgetHead, "name: w", "name: w2", 1)+"spec: {size: 3}\n"), &kube.JudgeOptions{Old: old})
	require.NoError(t, err)
	assertPrefixes(t, []string{`metadata.name: immutable: Invalid value: "w2": field is immutable`}, verdictLines(v.Errors))
}

// TestJudgeLines: errors carry the line of their field in the text and
// come in document order.
func TestJudgeLines(t *testing.T) {
	d := widgets(t)
	v, err := d.Judge(context.Background(), []byte(widgetHead+"spec:\n  size: 0\n  colour: red\n"), nil)
	require.NoError(t, err)
	require.Len(t, v.Errors, 2)
	assert.Equal(t, "/spec/size", v.Errors[0].Pointer)
	assert.Equal(t, 5, v.Errors[0].Line)
	assert.Equal(t, "/spec/colour", v.Errors[1].Pointer)
	assert.Equal(t, 6, v.Errors[1].Line)
}

// TestJudgeRefusesWhatIsNoObject: text that is not an object is the
// error, not a verdict; so are usage mistakes.
func TestJudgeRefusesWhatIsNoObject(t *testing.T) {
	d := widgets(t)
	for _, in := range []string{"- a\n- b\n", "just text\n", "a: [\n", "null\n"} {
		_, err := d.Judge(context.Background(), []byte(in), nil)
		assert.Error(t, err, in)
	}
	_, err := (&kube.Definition{}).Judge(context.Background(), []byte(widgetHead), nil)
	assert.Equal(t, schema.KindUsage, schema.ErrorsOf(err)[0].Kind)
	_, err = d.Judge(context.Background(), []byte(widgetHead), &kube.JudgeOptions{FieldValidation: "Loose"})
	assert.Equal(t, schema.KindUsage, schema.ErrorsOf(err)[0].Kind)
}

// FuzzJudge: no input panics, and a verdict's errors all have a kind.
func FuzzJudge(f *testing.F) {
	d := widgets(f)
	for _, s := range []string{widgetHead + "spec: {size: 2}\n", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {labels: {a: 1}}\n", "{}", "a: &x [*x]\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := d.Judge(context.Background(), data, &kube.JudgeOptions{Old: data})
		if err != nil {
			return
		}
		for _, e := range v.Errors {
			if e.Kind == "" {
				t.Fatalf("an error without a kind: %v", e)
			}
		}
	})
}

// TestJudgeRootRules: rules at the object's root read apiVersion, kind,
// metadata.name and metadata.generateName, as the apiserver compiles a
// CRD's root; on a create with generateName only, they read the name
// the apiserver makes from it (the generateName and five characters).
func TestJudgeRootRules(t *testing.T) {
	data, err := os.ReadFile("testdata/verdict/roots/roots.crd.yaml")
	require.NoError(t, err)
	d, err := kube.ReadDefinition(data)
	require.NoError(t, err)
	const head = "apiVersion: example.com/v1\nkind: Root\n"
	for _, tc := range []struct {
		name, object, old string
		errs              []string
	}{
		{name: "the name starts with the prefix", object: head + "metadata: {name: r-a}\nspec: {prefix: r-}\n"},
		{name: "the name does not", object: head + "metadata: {name: a}\nspec: {prefix: r-}\n",
			errs: []string{": invalid: the name a must start with r-"}},
		{name: "generateName: the rule reads the name made from it", object: head + "metadata: {generateName: r-}\nspec: {prefix: r-}\n"},
		{name: "generateName without the prefix", object: head + "metadata: {generateName: g-}\nspec: {prefix: r-}\n",
			errs: []string{": invalid: the name g-xxxxx must start with r-", ": invalid: the generateName starts with spec.prefix"}},
		{name: "a transition rule at the root", object: head + "metadata: {name: r-a}\nspec: {prefix: r-, owner: bob}\n",
			old: head + "metadata: {name: r-a}\nspec: {prefix: r-, owner: ann}\n", errs: []string{": invalid: the owner is immutable"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var o *kube.JudgeOptions
			if tc.old != "" {
				o = &kube.JudgeOptions{Old: []byte(tc.old)}
			}
			v, err := d.Judge(context.Background(), []byte(tc.object), o)
			require.NoError(t, err)
			assert.Equal(t, tc.errs, nonNil(verdictLines(v.Errors)))
			if meta, ok := v.Object["metadata"].(map[string]any); ok {
				name, _ := meta["name"].(string)
				assert.NotContains(t, name, "xxxxx", "the stored object keeps no made-up name")
			}
		})
	}
}

func nonNil(l []string) []string {
	if len(l) == 0 {
		return nil
	}
	return l
}

// TestJudgeStatusUnknownFields: an unknown field under status is refused
// under Strict even where the status subresource then drops or replaces
// status: the apiserver finds unknown fields as it decodes the request,
// before the subresource has its say.
func TestJudgeStatusUnknownFields(t *testing.T) {
	d := widgets(t)
	old := []byte(widgetHead + "spec: {size: 1}\nstatus: {ready: true}\n")
	for _, tc := range []struct {
		name string
		old  []byte
	}{{name: "create"}, {name: "update", old: old}} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := d.Judge(context.Background(), []byte(widgetHead+"spec: {size: 1}\nstatus: {ready: false, extra: 1}\n"), &kube.JudgeOptions{Old: tc.old})
			require.NoError(t, err)
			assert.Equal(t, []string{`status.extra: undeclared: unknown field "status.extra"`}, verdictLines(v.Errors))
		})
	}
	// A status the subresource ignores is not judged otherwise.
	v, err := d.Judge(context.Background(), []byte(widgetHead+"spec: {size: 1}\nstatus: {ready: maybe}\n"), &kube.JudgeOptions{Old: old})
	require.NoError(t, err)
	assert.True(t, v.Valid(), verdictLines(v.Errors))
	assert.Equal(t, map[string]any{"ready": true}, v.Object["status"])
}
