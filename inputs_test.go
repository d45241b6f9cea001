package paramkit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/lint"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/gates"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/trigger"
)

// deepCopy copies a value through JSON text (numbers kept as
// json.Number), independently of the module's own copy functions, so
// that a bug in those cannot hide one here.
func deepCopy(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	var out any
	dec := json.NewDecoder(bytesReader(data))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&out))
	return out
}

// inputSchema has something for every function: defaults at several
// depths (objects, array items, additionalProperties), an immutable node,
// a trigger, an old name, a secret, a nullable structural property.
const inputSchema = `{
  "type": "object",
  "properties": {
    "replicas": {"type": "integer", "default": 3, "oldName": "REPLICAS"},
    "name": {"type": "string", "immutable": true},
    "password": {"type": "string", "writeOnly": true},
    "backup": {"type": "object", "trigger": "backup", "properties": {
      "enabled": {"type": "boolean", "default": false},
      "schedule": {"type": "string", "default": "@daily"}}},
    "nodes": {"type": "array", "items": {"type": "object", "properties": {
      "zone": {"type": "string", "default": "a"}}}},
    "labels": {"type": "object", "additionalProperties": {"type": "object", "properties": {
      "v": {"type": "string", "default": "x"}}}},
    "comment": {"type": "string"}
  }
}`

// inputValue is a value every function can work on; each call gets a
// fresh one.
func inputValue() map[string]any {
	return map[string]any{
		"replicas": json.Number("5"),
		"name":     "prod",
		"password": "secret",
		"backup":   map[string]any{"enabled": true},
		"nodes":    []any{map[string]any{}, map[string]any{"zone": "b"}},
		"labels":   map[string]any{"k": map[string]any{}},
		"comment":  nil,
		"extra":    map[string]any{"free": []any{json.Number("1.50")}},
	}
}

// TestFunctionsLeaveTheirInputsAlone: every exported function of the
// module that takes a value and returns one (values, a result, an error
// or findings about it) leaves its inputs as they were, so that no caller
// has to copy first. Each input is copied before the call and compared
// after it.
func TestFunctionsLeaveTheirInputsAlone(t *testing.T) {
	s, err := schema.Parse([]byte(inputSchema))
	require.NoError(t, err)
	old := func() map[string]any {
		v := inputValue()
		v["replicas"] = json.Number("4")
		delete(v, "backup")
		return v
	}
	resolver, err := trigger.New(s)
	require.NoError(t, err)
	previous, err := schema.Parse([]byte(`{"type": "object", "properties": {"REPLICAS": {"type": "integer"}, "password": {"type": "string"}}}`))
	require.NoError(t, err)
	mig, err := migrate.New(s, migrate.FromVersion(previous))
	require.NoError(t, err)
	vs, err := migrate.LoadVersionSet(os.DirFS("convert/migrate/testdata/versions/three"))
	require.NoError(t, err)
	gs, err := gates.New([]gates.Gate{{Name: "G", PreRelease: "alpha", FieldPaths: []string{".spec.extra"}}})
	require.NoError(t, err)
	ovData, err := os.ReadFile("convert/kudo/testdata/my-operator-0.2.0.yaml")
	require.NoError(t, err)
	ov2, err := kudo.Load("", ovData)
	require.NoError(t, err)
	ovData, err = os.ReadFile("convert/kudo/testdata/my-operator-0.1.0.yaml")
	require.NoError(t, err)
	ov1, err := kudo.Load("", ovData)
	require.NoError(t, err)

	// Each case makes its inputs, hands each to in (which keeps a copy as
	// it is before the call), calls one function on them and returns
	// them, so that the test can compare them with their copies.
	var kept []any
	in := func(v any) any { kept = append(kept, deepCopy(t, v)); return v }
	for name, call := range map[string]func() []any{
		"params.Default": func() []any {
			v := in(inputValue())
			_, _ = params.Default(s, v)
			return []any{v}
		},
		"params.Default/Structural": func() []any {
			v := in(inputValue())
			_, _ = params.Default(s, v, params.Structural())
			return []any{v}
		},
		"params.Plain": func() []any { v := in(inputValue()); _, _ = params.Plain(v); return []any{v} },
		"params.Diff": func() []any {
			a, b := in(old()), in(inputValue())
			params.Diff(a, b)
			return []any{a, b}
		},
		"params.Equal": func() []any {
			a, b := in(old()), in(inputValue())
			params.Equal(a, b)
			return []any{a, b}
		},
		"params.Identical": func() []any {
			a, b := in(old()), in(inputValue())
			params.Identical(a, b)
			return []any{a, b}
		},
		"params.CheckImmutable": func() []any {
			a, b := in(old()), in(inputValue())
			_ = params.CheckImmutable(s, a, b)
			return []any{a, b}
		},
		"params.Validate": func() []any { v := in(inputValue()); _ = params.Validate(s, v); return []any{v} },
		"params.Validate/Structural": func() []any {
			v := in(inputValue())
			_ = params.Validate(s, v, params.Structural())
			return []any{v}
		},
		"params.Undeclared": func() []any {
			v := in(inputValue())
			_, _, _ = params.Undeclared(context.Background(), s, v, nil, 0)
			return []any{v}
		},
		"params.MarshalJSON": func() []any { v := in(inputValue()); params.MarshalJSON(s, v, ""); return []any{v} },
		"params.MarshalYAML": func() []any { v := in(inputValue()); _, _ = params.MarshalYAML(s, v); return []any{v} },
		"params.Map":         func() []any { v := in(inputValue()); _, _ = params.Map(v, "/backup"); return []any{v} },
		"params.Slice":       func() []any { v := in(inputValue()); _, _ = params.Slice(v, "/nodes"); return []any{v} },
		"params.Update.Run/edits": func() []any {
			o := in(old())
			p := in(map[string]any{"backup": map[string]any{"enabled": false}, "comment": nil})
			ops := []string{"add labels/n={}"}
			in(ops)
			_, _ = (&params.Update{Schema: s, Old: o, Patches: []any{p}, Set: []string{"nodes/0/zone=c"}, Operations: ops, Triggers: resolver}).Run()
			return []any{o, p, ops}
		},
		"params.Update.Run/desired": func() []any {
			o, d := in(old()), in(inputValue())
			_, _ = (&params.Update{Schema: s, Old: o, Desired: d}).Run()
			return []any{o, d}
		},
		"gates.Set.Apply": func() []any {
			obj := in(map[string]any{"spec": inputValue()})
			stored := in(map[string]any{"spec": old()})
			gs.Apply(obj, stored)
			return []any{obj, stored}
		},
		"convert.UnwrapValues": func() []any {
			texts := map[string]string{"replicas": "7", "nodes": "[{zone: c}]"}
			in(texts)
			_, _ = convert.UnwrapValues(s, texts)
			return []any{texts}
		},
		"convert.WrapValues": func() []any {
			v := inputValue()
			in(v)
			_, _ = convert.WrapValues(s, v)
			return []any{v}
		},
		"convert.UnwrapValues(nil)": func() []any {
			texts := map[string]string{"a": "7", "b": "[1,2]"}
			in(texts)
			_, _ = convert.UnwrapValues(nil, texts)
			return []any{texts}
		},
		"migrate.Migration.Migrate": func() []any {
			v := in(map[string]any{"REPLICAS": json.Number("2"), "password": "p", "gone": map[string]any{"a": []any{}}})
			mig.Migrate(v)
			return []any{v}
		},
		"migrate.Migration.MigrateHiding": func() []any {
			v := in(map[string]any{"REPLICAS": json.Number("2"), "password": "p"})
			mig.MigrateHiding(v, previous)
			return []any{v}
		},
		"migrate.Migration.Down": func() []any { v := in(inputValue()); mig.Down(v); return []any{v} },
		"migrate.VersionSet.Convert": func() []any {
			v := in(map[string]any{"name": "a", "replicas": json.Number("2"), "size": json.Number("2.5"), "labels": map[string]any{"x": "y"}, "legacyMode": true})
			_, _ = vs.Convert(v, "v1", "v3", migrate.AllowLossy())
			return []any{v}
		},
		"migrate.VersionSet.ConvertObject": func() []any {
			obj := in(map[string]any{"apiVersion": "x/v1", "kind": "K", "metadata": map[string]any{"name": "n"}, "name": "a", "replicas": json.Number("2")})
			_, _ = vs.ConvertObject(obj, "v1", "v2", migrate.ObjectTarget{APIVersion: "x/v2", Kind: "K"})
			return []any{obj}
		},
		"migrate.VersionSet.RewriteObjects": func() []any {
			objs := []any{map[string]any{"apiVersion": "x/v1", "kind": "K", "metadata": map[string]any{"name": "n"}, "replicas": json.Number("2")}}
			in(objs)
			_, _, _ = vs.RewriteObjects(objs, "v1", "v2", "x/v2", "K")
			return []any{objs}
		},
		"trigger.Resolver.Resolve": func() []any {
			changed := []string{"/replicas", "/backup/enabled"}
			in(changed)
			_, _ = resolver.Resolve(changed)
			return []any{changed}
		},
		"schema.FromValue": func() []any {
			var doc any
			require.NoError(t, json.Unmarshal([]byte(inputSchema), &doc))
			in(doc)
			_, _ = schema.FromValue(doc)
			return []any{doc}
		},
		"lint.Run": func() []any {
			var doc any
			require.NoError(t, json.Unmarshal([]byte(inputSchema), &doc))
			in(doc)
			lint.Run(s, doc, lint.ClusterApp(), lint.Kudo(), lint.Structural())
			return []any{doc}
		},
		"kudo.FromObject": func() []any {
			obj := map[string]any{"kind": "OperatorVersion", "metadata": map[string]any{"name": "x"},
				"spec": map[string]any{"plans": map[string]any{"deploy": map[string]any{}}, "parameters": []any{map[string]any{"name": "A", "default": "1"}}}}
			in(obj)
			_, _ = kudo.FromObject(obj)
			return []any{obj}
		},
		"kudo.OperatorVersion.Update": func() []any {
			o := in(map[string]any{"clusterName": "c", "backup": map[string]any{"enabled": true}})
			d := in(map[string]any{"clusterName": "c", "nodeCount": json.Number("4")})
			_, _ = ov2.Update(o, d)
			return []any{o, d}
		},
		"kudo.OperatorVersion.Upgrade": func() []any {
			o := in(map[string]any{"CLUSTER_NAME": "c", "BACKUP_ENABLED": true, "X": []any{map[string]any{}}})
			d := in(map[string]any{"CLUSTER_NAME": "c", "BACKUP_ENABLED": false})
			_, _ = ov2.Upgrade(ov1, o, d)
			return []any{o, d}
		},
	} {
		t.Run(name, func(t *testing.T) {
			kept = nil
			after := call()
			require.Len(t, after, len(kept), "every input goes through in()")
			for i := range after {
				assert.Equal(t, kept[i], deepCopy(t, after[i]), "%s changed input %d", name, i)
			}
		})
	}
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
