package kudo_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/trigger"
)

func read(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	return data
}

func load(t testing.TB, name string) *kudo.OperatorVersion {
	t.Helper()
	ov, err := kudo.Load("", read(t, name))
	require.NoError(t, err)
	return ov
}

// typedJSON is the manifest as a typed client's object marshals it: the
// same fields, apiVersion and kind empty (Get strips TypeMeta).
func typedJSON(t testing.TB, name string) []byte {
	t.Helper()
	v, err := params.Decode(nil, read(t, name))
	require.NoError(t, err)
	m := v.(map[string]any)
	m["apiVersion"], m["kind"] = "", ""
	return mustBytes(params.MarshalJSON(nil, m, ""))
}

func TestLoad(t *testing.T) {
	for _, tc := range []struct {
		name   string
		data   []byte
		ovName string
		plans  []string
		param  string // a schema pointer the schema must have
	}{
		{"v1beta1 manifest", read(t, "my-operator-0.1.0.yaml"), "my-operator-0.1.0", []string{"backup", "deploy"}, "/properties/BACKUP_ENABLED"},
		{"v1beta2 manifest", read(t, "my-operator-0.2.0.yaml"), "my-operator-0.2.0", []string{"backup", "deploy", "upgrade"}, "/properties/backup/properties/enabled"},
		{"typed client JSON, v1beta2", typedJSON(t, "my-operator-0.2.0.yaml"), "my-operator-0.2.0", []string{"backup", "deploy", "upgrade"}, "/properties/nodeCount"},
		{"typed client JSON, v1beta1", typedJSON(t, "my-operator-0.1.0.yaml"), "my-operator-0.1.0", []string{"backup", "deploy"}, "/properties/CLUSTER_NAME"},
		{"kindless, no parameters", []byte(`{"metadata": {"name": "empty"}, "spec": {"plans": {"deploy": {}}}}`), "empty", []string{"deploy"}, ""},
		{"kind, no plans", []byte("kind: OperatorVersion\nmetadata: {name: np}\nspec:\n  parameters: {type: object}\n"), "np", []string{}, ""},
		{"bare schema", []byte(`{"type": "object", "properties": {"a": {"type": "string"}}}`), "", nil, "/properties/a"},
		{"v1beta1 params.yaml", []byte("apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: A\n    default: x\n"), "", nil, "/properties/A"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ov, err := kudo.Load("", tc.data)
			require.NoError(t, err)
			assert.Equal(t, tc.ovName, ov.Name())
			assert.Equal(t, tc.plans, ov.Plans())
			if tc.param != "" {
				assert.NotNil(t, ov.Schema().NodeAt(tc.param), "no schema node at %s", tc.param)
			}
			named, err := kudo.Load("given", tc.data)
			require.NoError(t, err)
			assert.Equal(t, "given", named.Name(), "a name given wins over metadata.name")
		})
	}
}

func TestLoadRefusesWhatItCannotIdentify(t *testing.T) {
	for _, tc := range []struct {
		name    string
		data    string
		kind    schema.Kind
		pointer string
		message string
	}{
		{"an Instance", "apiVersion: kudo.dev/v1beta2\nkind: Instance\nspec: {parameters: {a: 1}}\n", schema.KindNotSchema, "/kind", "Instance is not an OperatorVersion"},
		{"a flat map of values", "NODE_COUNT: 3\nBACKUP: on\n", schema.KindNotSchema, "", ""},
		{"kind not a string", "kind: [OperatorVersion]\nspec: {}\n", schema.KindNotSchema, "/kind", "not a string"},
		{"plans not a map", "kind: OperatorVersion\nspec:\n  plans: [deploy]\n  parameters: {type: object}\n", schema.KindSchema, "/spec/plans", "map from plan name"},
		{"a broken schema", "kind: OperatorVersion\nspec:\n  parameters: {type: 7}\n", schema.KindSchema, "/spec/parameters/type", ""},
		{"syntax", "kind: OperatorVersion\nspec: {\n", schema.KindSyntax, "", ""},
		{"trigger conflict", `{"kind": "OperatorVersion", "spec": {"parameters": {"type": "object", "properties": {"a": {"trigger": "x", "properties": {"b": {"trigger": "y"}}}}}}}`, schema.KindConflict, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ov, err := kudo.Load("x", []byte(tc.data))
			require.Error(t, err)
			assert.Nil(t, ov)
			errs := schema.ErrorsOf(err)
			require.NotEmpty(t, errs, "%T %v", err, err)
			assert.Equal(t, tc.kind, errs[0].Kind, "%v", err)
			if tc.pointer != "" {
				assert.Equal(t, tc.pointer, errs[0].Pointer)
			}
			assert.Contains(t, errs[0].Message, tc.message)
		})
	}
}

func TestFromObject(t *testing.T) {
	t.Run("unstructured, numbers as Go ints", func(t *testing.T) {
		obj := map[string]any{
			"apiVersion": "kudo.dev/v1beta2", "kind": "OperatorVersion",
			"metadata": map[string]any{"name": "u"},
			"spec": map[string]any{
				"plans":      map[string]any{"deploy": map[string]any{}, "update": map[string]any{}},
				"parameters": map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer", "maximum": int64(9007199254740993)}}},
			},
		}
		before := value.DeepCopy(obj)
		ov, err := kudo.FromObject(obj)
		require.NoError(t, err)
		assert.Equal(t, before, obj, "FromObject changed its input")
		assert.Equal(t, "u", ov.Name())
		assert.Equal(t, []string{"deploy", "update"}, ov.Plans())
		assert.Error(t, params.Validate(ov.Schema(), map[string]any{"n": json.Number("9007199254740994")}), "the maximum keeps its exact value")
		assert.NoError(t, params.Validate(ov.Schema(), map[string]any{"n": json.Number("9007199254740993")}))
	})
	t.Run("typed client object", func(t *testing.T) {
		v, err := params.Decode(nil, typedJSON(t, "my-operator-0.2.0.yaml"))
		require.NoError(t, err)
		ov, err := kudo.FromObject(v.(map[string]any))
		require.NoError(t, err)
		assert.Equal(t, []string{"backup", "deploy", "upgrade"}, ov.Plans())
		assert.Equal(t, "upgrade", ov.UpgradePlan(), "the wrong plan was announced when plans were lost")
	})
	for name, obj := range map[string]map[string]any{
		"a bare schema": {"type": "object"},
		"nothing":       {},
		"nil":           nil,
		"an Instance":   {"kind": "Instance", "spec": map[string]any{}},
	} {
		t.Run("refuses "+name, func(t *testing.T) {
			ov, err := kudo.FromObject(obj)
			assert.Nil(t, ov)
			errs := schema.ErrorsOf(err)
			require.Len(t, errs, 1, "%v", err)
			assert.Equal(t, schema.KindNotSchema, errs[0].Kind)
		})
	}
	t.Run("refuses Go data that is no value", func(t *testing.T) {
		_, err := kudo.FromObject(map[string]any{"kind": "OperatorVersion", "spec": map[string]any{"x": func() {}}})
		errs := schema.ErrorsOf(err)
		require.Len(t, errs, 1)
		assert.Equal(t, schema.KindUsage, errs[0].Kind)
	})
}

// TestPlanNames: KUDO's rule, in one place for the webhook and the
// operator.
func TestPlanNames(t *testing.T) {
	for _, tc := range []struct {
		plans            []string
		defaultP, upgrde string
	}{
		{nil, trigger.Deploy, trigger.Deploy},
		{[]string{}, trigger.Deploy, trigger.Deploy},
		{[]string{"deploy"}, trigger.Deploy, trigger.Deploy},
		{[]string{"update", "deploy"}, "update", trigger.Deploy},
		{[]string{"upgrade", "deploy"}, trigger.Deploy, "upgrade"},
		{[]string{"upgrade", "update", "deploy", "backup"}, "update", "upgrade"},
	} {
		s, err := schema.Parse([]byte(`{"type": "object", "properties": {"a": {"type": "string"}}}`))
		require.NoError(t, err)
		ov, err := kudo.New("x", s, tc.plans)
		require.NoError(t, err)
		assert.Equal(t, tc.defaultP, ov.DefaultPlan(), "%v", tc.plans)
		assert.Equal(t, tc.upgrde, ov.UpgradePlan(), "%v", tc.plans)
		assert.Equal(t, tc.defaultP, ov.Triggers().DefaultPlan(), "%v", tc.plans)
		plan, err := ov.Triggers().Resolve([]string{"/a"})
		require.NoError(t, err)
		assert.Equal(t, tc.defaultP, plan)
	}
	_, err := kudo.New("x", nil, nil)
	assert.Error(t, err)
	plans := []string{"b", "a"}
	ov, err := kudo.New("x", mustParse(t, `{}`), plans)
	require.NoError(t, err)
	assert.Equal(t, []string{"b", "a"}, plans, "New keeps the caller's slice as it was")
	got := ov.Plans()
	got[0] = "changed"
	assert.Equal(t, []string{"a", "b"}, ov.Plans(), "Plans is a copy")
}

func mustParse(t testing.TB, src string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(src))
	require.NoError(t, err)
	return s
}

func TestUpdate(t *testing.T) {
	v3 := load(t, "my-operator-0.3.0.yaml") // has an update plan
	v2 := load(t, "my-operator-0.2.0.yaml") // has none
	old := map[string]any{"clusterName": "prod", "nodeCount": json.Number("3"), "backup": map[string]any{"enabled": true}}
	for _, tc := range []struct {
		name    string
		ov      *kudo.OperatorVersion
		old     any
		desired any
		plan    string
		changed []string
		kind    schema.Kind
	}{
		{"install", v3, nil, map[string]any{"clusterName": "prod"}, trigger.Deploy, []string{""}, ""},
		{"install without parameters", v3, nil, nil, trigger.Deploy, []string{""}, ""},
		{"uncovered change runs update", v3, old, map[string]any{"clusterName": "prod", "nodeCount": json.Number("5"), "backup": map[string]any{"enabled": true}}, "update", []string{"/nodeCount"}, ""},
		{"uncovered change runs deploy without an update plan", v2, old, map[string]any{"clusterName": "prod", "nodeCount": json.Number("5"), "backup": map[string]any{"enabled": true}}, trigger.Deploy, []string{"/nodeCount"}, ""},
		{"a removal runs its trigger", v3, old, map[string]any{"clusterName": "prod", "nodeCount": json.Number("3")}, "backup", []string{"/backup/enabled"}, ""},
		{"nothing changed", v3, old, value.DeepCopy(old), "", []string{}, ""},
		{"two plans", v3, old, map[string]any{"clusterName": "prod", "nodeCount": json.Number("4")}, "", nil, schema.KindConflict},
		{"immutable", v3, old, map[string]any{"clusterName": "test", "nodeCount": json.Number("3"), "backup": map[string]any{"enabled": true}}, "", nil, schema.KindImmutable},
		{"invalid", v3, old, map[string]any{"clusterName": "prod", "nodeCount": json.Number("0"), "backup": map[string]any{"enabled": true}}, "", nil, schema.KindInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ob, db := value.DeepCopy(tc.old), value.DeepCopy(tc.desired)
			r, err := tc.ov.Update(tc.old, tc.desired)
			assert.Equal(t, ob, tc.old)
			assert.Equal(t, db, tc.desired)
			if tc.kind != "" {
				errs := schema.ErrorsOf(err)
				require.NotEmpty(t, errs, "%v", err)
				assert.Equal(t, tc.kind, errs[0].Kind, "%v", err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.plan, r.Plan)
			assert.Equal(t, tc.changed, r.Changed)
		})
	}
}

func TestUpgrade(t *testing.T) {
	v1 := load(t, "my-operator-0.1.0.yaml")
	v2 := load(t, "my-operator-0.2.0.yaml")
	v3 := load(t, "my-operator-0.3.0.yaml")
	old := map[string]any{"CLUSTER_NAME": "my-cluster", "BACKUP_ENABLED": true, "BACKUP_CREDENTIALS_USERNAME": "u", "BACKUP_CREDENTIALS_PASSWORD": "p", "GONE": "x"}
	want := map[string]any{"clusterName": "my-cluster", "nodeCount": json.Number("3"), "backup": map[string]any{"enabled": true, "credentials": map[string]any{"name": "u", "password": "p"}}}

	t.Run("the parameters move by oldName, plan upgrade", func(t *testing.T) {
		ob, db := value.DeepCopy(old), value.DeepCopy(old)
		desired := value.DeepCopy(old)
		u, err := v2.Upgrade(v1, old, desired)
		require.NoError(t, err)
		assert.Equal(t, ob, old, "old changed")
		assert.Equal(t, db, desired, "desired changed")
		assert.Equal(t, want, u.Values)
		assert.Equal(t, "upgrade", v2.UpgradePlan())
		assert.Empty(t, u.Lossy)
		require.Len(t, u.Dropped, 1)
		assert.Equal(t, "/GONE", u.Dropped[0].Pointer)
	})
	t.Run("desired already in the new shape", func(t *testing.T) {
		desired := map[string]any{"clusterName": "my-cluster", "nodeCount": json.Number("5"), "backup": map[string]any{"enabled": true}}
		u, err := v2.Upgrade(v1, old, desired)
		require.NoError(t, err)
		assert.Equal(t, json.Number("5"), u.Values.(map[string]any)["nodeCount"], "changes of two plans: one upgrade plan, no conflict")
		assert.Empty(t, u.Dropped)
	})
	t.Run("without an upgrade plan, deploy", func(t *testing.T) {
		_, err := v3.Upgrade(v1, old, old)
		require.NoError(t, err)
		assert.Equal(t, trigger.Deploy, v3.UpgradePlan())
	})
	t.Run("a new Instance at the new version", func(t *testing.T) {
		u, err := v2.Upgrade(v1, nil, map[string]any{"CLUSTER_NAME": "c"})
		require.NoError(t, err)
		assert.Equal(t, "c", u.Values.(map[string]any)["clusterName"])
	})
	t.Run("immutable, compared after moving", func(t *testing.T) {
		desired := value.DeepCopy(old).(map[string]any)
		desired["CLUSTER_NAME"] = "other"
		_, err := v2.Upgrade(v1, old, desired)
		errs := schema.ErrorsOf(err)
		require.Len(t, errs, 1, "%v", err)
		assert.Equal(t, schema.KindImmutable, errs[0].Kind)
		assert.Equal(t, "/clusterName", errs[0].Pointer)
	})
	t.Run("invalid after moving", func(t *testing.T) {
		_, err := v2.Upgrade(v1, nil, map[string]any{"CLUSTER_NAME": "c", "BACKUP_ENABLED": "yes please"})
		errs := schema.ErrorsOf(err)
		require.NotEmpty(t, errs, "%v", err)
		assert.True(t, strings.HasPrefix(errs[0].Pointer, "/backup/enabled"), errs[0].Pointer)
	})
	t.Run("an undeclared key is dropped", func(t *testing.T) {
		desired := map[string]any{"clusterName": "my-cluster", "nodeCont": json.Number("5")}
		u, err := v2.Upgrade(v1, map[string]any{"CLUSTER_NAME": "my-cluster"}, desired)
		require.NoError(t, err)
		require.Len(t, u.Dropped, 1)
		assert.Equal(t, "/nodeCont", u.Dropped[0].Pointer)
		assert.NotContains(t, u.Values, "nodeCont")
	})
	t.Run("zero values are refused, not a panic", func(t *testing.T) {
		_, err := v2.Upgrade(nil, old, old)
		assert.Error(t, err)
		_, err = (&kudo.OperatorVersion{}).Upgrade(v1, old, old)
		assert.Error(t, err)
		_, err = (&kudo.OperatorVersion{}).Update(old, old)
		assert.Error(t, err)
	})
}

func FuzzLoad(f *testing.F) {
	for _, name := range []string{"my-operator-0.1.0.yaml", "my-operator-0.2.0.yaml", "my-operator-0.3.0.yaml"} {
		f.Add(read(f, name))
		f.Add(typedJSON(f, name))
	}
	f.Add([]byte("apiVersion: kudo.dev/v1beta1\nkind: OperatorVersion\nspec:\n  plans: {deploy: {}}\n  parameters:\n  - name: A\n    default: 3\n    trigger: x\n"))
	f.Add([]byte(`{"kind":"OperatorVersion","spec":{"plans":[],"parameters":{"type":"object"}}}`))
	f.Add([]byte(`{"spec": {"plans": 1}}`))
	f.Add([]byte(`kind: Instance`))
	f.Add([]byte(`a: 1`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ov, err := kudo.Load("", data)
		if err != nil {
			assert.Nil(t, ov)
			return
		}
		require.NotNil(t, ov.Schema())
		require.NotNil(t, ov.Migration())
		_, _ = ov.Triggers().Resolve([]string{"/a", "/b/0"})
		_ = ov.UpgradePlan()
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
