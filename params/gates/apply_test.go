package gates

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// gateObj decodes a YAML or JSON object (no schema); "" is nil (create).
func gateObj(t testing.TB, text string) any {
	t.Helper()
	if text == "" {
		return nil
	}
	v, err := params.Decode(nil, []byte(text))
	require.NoError(t, err)
	return v
}

func gateObjFile(t testing.TB, name string) any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return gateObj(t, string(data))
}

// gateOne builds a single alpha gate over paths, switched by on.
func gateOne(t testing.TB, on bool, paths ...string) *Set {
	t.Helper()
	g, err := New([]Gate{{Name: "G", PreRelease: stageAlpha, Enabled: &on, FieldPaths: paths}})
	require.NoError(t, err)
	return g
}

// The document's first table: one gate on .spec.replicas.
func TestGatesApplySingleGateTable(t *testing.T) {
	const sent = "spec: {image: new, replicas: 5}"
	for _, tc := range []struct {
		row      int
		stored   string // "" is a create
		enabled  bool
		want     string
		dropped  []string
		warnings []string
	}{
		{1, "", false, "spec: {image: new}", []string{"/spec/replicas"}, []string{"/spec/replicas: dropped: feature gate G is disabled"}},
		{1, "spec: {image: old}", false, "spec: {image: new}", []string{"/spec/replicas"}, []string{"/spec/replicas: dropped: feature gate G is disabled"}},
		{2, "", true, "spec: {image: new, replicas: 5}", []string{}, []string{}},
		{2, "spec: {image: old}", true, "spec: {image: new, replicas: 5}", []string{}, []string{}},
		{3, "spec: {image: old, replicas: 3}", false, "spec: {image: new, replicas: 3}", []string{"/spec/replicas"}, []string{"/spec/replicas: not updated, the stored value is kept: feature gate G is disabled"}},
		{4, "spec: {image: old, replicas: 3}", true, "spec: {image: new, replicas: 5}", []string{}, []string{}},
	} {
		t.Run(fmt.Sprintf("row %d stored=%q enabled=%v", tc.row, tc.stored, tc.enabled), func(t *testing.T) {
			res := gateOne(t, tc.enabled, ".spec.replicas").Apply(gateObj(t, sent), gateObj(t, tc.stored))
			assert.Equal(t, gateObj(t, tc.want), res.Object)
			assert.Equal(t, tc.dropped, res.Dropped)
			assert.Equal(t, tc.warnings, warningTexts(res.Warnings))
		})
	}
}

// The document's parent/child table, all eight rows, with its objects.
func TestGatesApplyParentChildTable(t *testing.T) {
	newObj := gateObjFile(t, "foo-qux-new.yaml")
	storedWith := gateObjFile(t, "foo-qux-stored.yaml")
	storedWithout := gateObj(t, "{apiVersion: example.com/v1, kind: Foo, metadata: {name: example}, spec: {}}")
	meta := "apiVersion: example.com/v1\nkind: Foo\nmetadata: {name: example}\n"
	for _, tc := range []struct {
		row      int
		stored   bool // the persisted object has .spec.foo.qux
		foo, qux bool
		action   string
		want     string
		dropped  []string
	}{
		{1, false, false, false, "drop foo & children", "spec: {}", []string{"/spec/foo"}},
		{2, false, false, true, "drop foo & children", "spec: {}", []string{"/spec/foo"}},
		{3, false, true, false, "update foo, drop qux", "spec: {foo: {baz: 2}}", []string{"/spec/foo/qux"}},
		{4, false, true, true, "update both foo and qux", "spec: {foo: {baz: 2, qux: 3}}", []string{}},
		{5, true, false, false, "do nothing", "spec: {foo: {qux: 1}}", []string{"/spec/foo"}},
		{6, true, false, true, "do nothing", "spec: {foo: {qux: 1}}", []string{"/spec/foo"}},
		{7, true, true, false, "update foo, don't update qux", "spec: {foo: {baz: 2, qux: 1}}", []string{"/spec/foo/qux"}},
		{8, true, true, true, "update both foo and qux", "spec: {foo: {baz: 2, qux: 3}}", []string{}},
	} {
		t.Run(fmt.Sprintf("row %d: %s", tc.row, tc.action), func(t *testing.T) {
			g := gatesFrom(t, fmt.Sprintf(`
- {name: FooFeatureGate, preRelease: beta, default: true, enabled: %v, fieldPaths: [.spec.foo]}
- {name: QuxFeatureGate, preRelease: beta, default: true, enabled: %v, fieldPaths: [.spec.foo.qux]}
`, tc.foo, tc.qux))
			stored := []any{storedWithout, nil} // rows 1-4: update and create
			if tc.stored {
				stored = []any{storedWith}
			}
			for _, s := range stored {
				res := g.Apply(newObj, s)
				assert.Equal(t, gateObj(t, meta+tc.want), res.Object, "stored: %v", s)
				assert.Equal(t, tc.dropped, res.Dropped, "stored: %v", s)
				assert.Len(t, res.Warnings, len(tc.dropped))
			}
		})
	}
}

// The same table driven by the file form of the gates and the stage
// defaults rather than `enabled`.
func TestGatesApplyParentChildFromFiles(t *testing.T) {
	g := gatesFile(t, "foo-qux-gates.yaml") // both on by default
	res := g.Apply(gateObjFile(t, "foo-qux-new.yaml"), gateObjFile(t, "foo-qux-stored.yaml"))
	assert.Equal(t, gateObjFile(t, "foo-qux-new.yaml"), res.Object)
	assert.Empty(t, res.Dropped)
}

// The document's examples, each as it is told.
func TestGatesApplyDocumentExamples(t *testing.T) {
	t.Run("CronTab create with ReplicasFeatureGate disabled drops .spec.replicas", func(t *testing.T) {
		res := gatesFile(t, "crontab-gates.yaml").Apply(gateObjFile(t, "crontab-cr.yaml"), nil)
		assert.Equal(t, gateObj(t, `
apiVersion: "stable.example.com/v1"
kind: CronTab
metadata: {name: my-new-cron-object}
spec: {cronSpec: "* * * * */5", image: my-awesome-cron-image}
`), res.Object)
		assert.Equal(t, []string{"/spec/replicas"}, res.Dropped)
		assert.Equal(t, []string{"/spec/replicas: dropped: feature gate ReplicasFeatureGate is disabled"}, warningTexts(res.Warnings))
		assert.False(t, res.SpecUnchanged, "a create is never unchanged")
	})
	t.Run("v1beta1: alpha, default false: replicas dropped", func(t *testing.T) {
		g := gatesFrom(t, "- {name: ReplicasFeatureGate, preRelease: alpha, default: false, fieldPaths: [.spec.replicas]}")
		res := g.Apply(gateObj(t, "spec: {replicas: 3}"), nil)
		assert.Equal(t, gateObj(t, "spec: {}"), res.Object)
	})
	t.Run("v1: beta, default true: replicas kept", func(t *testing.T) {
		g := gatesFrom(t, "- {name: ReplicasFeatureGate, preRelease: beta, default: true, fieldPaths: [.spec.replicas]}")
		res := g.Apply(gateObj(t, "spec: {replicas: 3}"), nil)
		assert.Equal(t, gateObj(t, "spec: {replicas: 3}"), res.Object)
		assert.Empty(t, res.Dropped)
	})
	t.Run("common paths: MaxAvailableFeatureGate is considered disabled", func(t *testing.T) {
		res := gatesFile(t, "replicas-gates.yaml").Apply(gateObjFile(t, "replicas-cr.yaml"), nil)
		got, ok := gateGet(res.Object, []string{"spec", "replicas"})
		require.True(t, ok)
		assert.Equal(t, gateObj(t, "maxUnavailable: 5"), got)
		assert.Equal(t, []string{"/spec/replicas/maxAvailable"}, res.Dropped)
	})
	t.Run("an arbitrary path the object lacks changes nothing", func(t *testing.T) {
		g := gatesFrom(t, "- {name: G, preRelease: alpha, fieldPaths: [.spec.nothing, .status.deep.nothing]}")
		obj := gateObjFile(t, "crontab-cr.yaml")
		res := g.Apply(obj, obj)
		assert.Equal(t, obj, res.Object)
		assert.Empty(t, res.Dropped)
		assert.Empty(t, res.Warnings)
		assert.True(t, res.SpecUnchanged)
	})
	t.Run("generation: an update that only sets a disabled field leaves the spec unchanged", func(t *testing.T) {
		stored := gateObjFile(t, "crontab-cr.yaml")
		gateDelete(stored, []string{"spec", "replicas"})
		sent := gateObjFile(t, "crontab-cr.yaml")
		res := gatesFile(t, "crontab-gates.yaml").Apply(sent, stored)
		assert.Equal(t, stored, res.Object)
		assert.True(t, res.SpecUnchanged)
	})
}

func TestGatesApplySpecUnchanged(t *testing.T) {
	g := gateOne(t, false, ".spec.replicas")
	kube := "apiVersion: v1\nkind: X\n"
	for _, tc := range []struct {
		name         string
		sent, stored string
		unchanged    bool
	}{
		{"create", kube + "spec: {a: 1}", "", false},
		{"same", kube + "spec: {a: 1}", kube + "spec: {a: 1}", true},
		{"same by value", kube + "spec: {a: 1.0}", kube + "spec: {a: 1}", true},
		{"only metadata changed", kube + "metadata: {labels: {x: y}}\nspec: {a: 1}", kube + "spec: {a: 1}", true},
		{"only status changed", kube + "spec: {a: 1}\nstatus: {ready: true}", kube + "spec: {a: 1}", true},
		{"spec changed", kube + "spec: {a: 2}", kube + "spec: {a: 1}", false},
		{"disabled change dropped", kube + "spec: {a: 1, replicas: 4}", kube + "spec: {a: 1, replicas: 3}", true},
		{"disabled field dropped", kube + "spec: {a: 1, replicas: 4}", kube + "spec: {a: 1}", true},
		{"spec added", kube + "spec: {}", kube, false},
		{"no spec either side", kube + "metadata: {name: x}", kube, true},
		{"values: whole document", "a: 1\nmetadata: 2", "a: 1\nmetadata: 1", false},
		{"values: same", "a: 1\nreplicas: 2", "a: 1", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "values: same" {
				g = gateOne(t, false, ".replicas")
			}
			res := g.Apply(gateObj(t, tc.sent), gateObj(t, tc.stored))
			assert.Equal(t, tc.unchanged, res.SpecUnchanged)
		})
	}
}

func TestGatesApplyDeprecatedWarnings(t *testing.T) {
	g := gatesFrom(t, `
- {name: Old, preRelease: deprecated, default: true, deprecatedWarning: "Old goes away in v2", fieldPaths: [.spec.old, .spec.older]}
- {name: Plain, preRelease: deprecated, default: false, fieldPaths: [.spec.plain]}
- {name: Beta, preRelease: beta, default: true, fieldPaths: [.spec.beta]}
`)
	for _, tc := range []struct {
		name, sent, stored string
		warnings           []string
	}{
		{"create that sets it", "spec: {old: 1}", "", []string{"/spec/old: Old goes away in v2"}},
		{"create without it", "spec: {beta: 1}", "", []string{}},
		{"update that changes it", "spec: {old: 2, older: 1}", "spec: {old: 1, older: 1}", []string{"/spec/old: Old goes away in v2"}},
		{"update that changes two fields", "spec: {old: 2, older: 2}", "spec: {old: 1, older: 1}", []string{"/spec/old: Old goes away in v2", "/spec/older: Old goes away in v2"}},
		{"update that removes it", "spec: {}", "spec: {old: 1}", []string{"/spec/old: Old goes away in v2"}},
		{"update below it", "spec: {old: {a: 2}}", "spec: {old: {a: 1}}", []string{"/spec/old: Old goes away in v2"}},
		{"update that leaves it", "spec: {old: 1, beta: 2}", "spec: {old: 1, beta: 1}", []string{}},
		{"standard warning, gate off: dropped and warned", "spec: {plain: 1}", "spec: {}", []string{
			"/spec/plain: dropped: feature gate Plain is disabled",
			"/spec/plain: feature gate Plain is deprecated",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := g.Apply(gateObj(t, tc.sent), gateObj(t, tc.stored))
			assert.Equal(t, tc.warnings, warningTexts(res.Warnings))
		})
	}
}

func TestGatesApplyShapes(t *testing.T) {
	for _, tc := range []struct {
		name             string
		paths            []string
		sent, stored     string
		want             string
		dropped, warning []string
	}{
		{
			name: "an array below a gated field is gated whole", paths: []string{".spec.items"},
			sent: "spec: {items: [1, 2, 3]}", stored: "spec: {items: [1, 2]}",
			want: "spec: {items: [1, 2]}", dropped: []string{"/spec/items"},
		},
		{
			name: "a map below a gated field is gated whole", paths: []string{".spec.labels"},
			sent: "spec: {labels: {a: x, b: y}}", stored: "spec: {labels: {a: x}}",
			want: "spec: {labels: {a: x}}", dropped: []string{"/spec/labels"},
		},
		{
			name: "a path through an array names nothing", paths: []string{"/spec/items/0"},
			sent: "spec: {items: [1, 2]}", stored: "spec: {items: [0]}",
			want: "spec: {items: [1, 2]}", dropped: []string{},
		},
		{
			name: "a path through a scalar names nothing", paths: []string{".spec.a.b"},
			sent: "spec: {a: 1}", want: "spec: {a: 1}", dropped: []string{},
		},
		{
			name: "a removal is not applied", paths: []string{".spec.replicas"},
			sent: "spec: {}", stored: "spec: {replicas: 3}",
			want: "spec: {replicas: 3}", dropped: []string{"/spec/replicas"},
			warning: []string{"/spec/replicas: not removed, the stored value is kept: feature gate G is disabled"},
		},
		{
			name: "a removed parent is recreated to keep the stored value", paths: []string{".spec.foo.qux"},
			sent: "metadata: {}", stored: "spec: {foo: {qux: 1, baz: 2}}",
			want: "metadata: {}\nspec: {foo: {qux: 1}}", dropped: []string{"/spec/foo/qux"},
		},
		{
			name: "a stored value with no object to hold it", paths: []string{".spec.foo.qux"},
			sent: "spec: {foo: text}", stored: "spec: {foo: {qux: 1}}",
			want: "spec: {foo: text}", dropped: []string{},
			warning: []string{"/spec/foo/qux: the stored value cannot be kept, the new object has no object to hold it: feature gate G is disabled"},
		},
		{
			name: "a new object that is no object", paths: []string{".spec"},
			sent: "[1]", stored: "spec: 1",
			want: "[1]", dropped: []string{},
			warning: []string{"/spec: the stored value cannot be kept, the new object has no object to hold it: feature gate G is disabled"},
		},
		{
			name: "a stored null is a stored value", paths: []string{".spec.x"},
			sent: "spec: {x: 1}", stored: "spec: {x: null}",
			want: "spec: {x: null}", dropped: []string{"/spec/x"},
		},
		{
			name: "an equal value by number is no change", paths: []string{".spec.x"},
			sent: "spec: {x: 1.0}", stored: "spec: {x: 1}",
			want: "spec: {x: 1.0}", dropped: []string{},
		},
		{
			name: "keys with escapes", paths: []string{`.metadata.annotations.example\.com/x`, "/metadata/annotations/a~0b"},
			sent: `{"metadata": {"annotations": {"example.com/x": "1", "a~b": "2", "c": "3"}}}`,
			want: `{"metadata": {"annotations": {"c": "3"}}}`, dropped: []string{"/metadata/annotations/a~0b", "/metadata/annotations/example.com~1x"},
		},
		{
			name: "exact numbers survive", paths: []string{".spec.x"},
			sent: `{"spec": {"x": 1, "big": 123456789012345678901234567890.000000000000000001}}`, stored: `{"spec": {"x": 9007199254740993}}`,
			want: `{"spec": {"x": 9007199254740993, "big": 123456789012345678901234567890.000000000000000001}}`, dropped: []string{"/spec/x"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := gateOne(t, false, tc.paths...).Apply(gateObj(t, tc.sent), gateObj(t, tc.stored))
			assert.Equal(t, gateObj(t, tc.want), res.Object)
			assert.Equal(t, tc.dropped, res.Dropped)
			if tc.warning != nil {
				assert.Equal(t, tc.warning, warningTexts(res.Warnings))
			}
		})
	}
}

func TestGatesApplyLeavesItsInputsAlone(t *testing.T) {
	g := gatesFrom(t, `
- {name: FooFeatureGate, preRelease: beta, default: true, fieldPaths: [.spec.foo]}
- {name: QuxFeatureGate, preRelease: beta, default: false, fieldPaths: [.spec.foo.qux]}
`)
	sent := gateObjFile(t, "foo-qux-new.yaml")
	stored := gateObjFile(t, "foo-qux-stored.yaml")
	sentCopy, storedCopy := value.DeepCopy(sent), value.DeepCopy(stored)
	res := g.Apply(sent, stored)
	assert.Equal(t, sentCopy, sent)
	assert.Equal(t, storedCopy, stored)
	// The result shares nothing: changing it changes neither input.
	foo := res.Object.(map[string]any)["spec"].(map[string]any)["foo"].(map[string]any)
	foo["qux"] = "changed"
	foo["baz"] = "changed"
	assert.Equal(t, sentCopy, sent)
	assert.Equal(t, storedCopy, stored)
}

func TestGatesApplyNil(t *testing.T) {
	var g *Set
	obj := gateObj(t, "spec: {a: 1}")
	res := g.Apply(obj, obj)
	assert.Equal(t, obj, res.Object)
	assert.Equal(t, []string{}, res.Dropped)
	assert.Equal(t, []string{}, warningTexts(res.Warnings))
	assert.True(t, res.SpecUnchanged)
	assert.Equal(t, []Status{}, g.Status())
}

// Applying again to the result changes nothing more: the object persisted
// is a fixed point of the gates against the same stored object.
func TestGatesApplyIsIdempotent(t *testing.T) {
	g := gatesFile(t, "all-stages.yaml")
	sent := gateObj(t, `
metadata: {annotations: {example.com/old: "yes"}}
spec:
  backup: {schedule: daily, target: s3}
  backupWindow: 2h
  replicas: {min: 1, maxSurge: 2}
  storage: {className: fast}
  legacyTLS: true
`)
	stored := gateObj(t, "spec: {backup: {target: gcs}, replicas: {maxSurge: 1}}")
	first := g.Apply(sent, stored)
	assert.Equal(t, []string{"/metadata/annotations/example.com~1old", "/spec/backup", "/spec/replicas/maxSurge"}, first.Dropped)
	second := g.Apply(first.Object, stored)
	assert.Equal(t, first.Object, second.Object)
	assert.Empty(t, second.Dropped)
}

// BenchmarkGatesApply measures one admission's worth of gating: eight
// gates with parents against a CR update.
func BenchmarkGatesApply(b *testing.B) {
	g := gatesFile(b, "all-stages.yaml")
	sent := gateObj(b, `
apiVersion: example.com/v1
kind: App
metadata: {name: a, annotations: {example.com/old: "yes"}}
spec:
  image: app:1.2.3
  backup: {schedule: daily, target: s3}
  backupWindow: 2h
  replicas: {min: 1, maxSurge: 2}
  storage: {className: fast, size: 10Gi}
  legacyTLS: true
`)
	stored := gateObj(b, "apiVersion: example.com/v1\nkind: App\nspec: {image: app:1.2.2, backup: {target: gcs}, replicas: {maxSurge: 1}}")
	b.ReportAllocs()
	for b.Loop() {
		g.Apply(sent, stored)
	}
}

// warningTexts is the warnings as the client reads them.
func warningTexts(ws []*schema.Error) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Error()
	}
	return out
}

// Every warning has the kind of what it says: a gated field, or a
// deprecated gate's.
func TestGatesApplyWarningKinds(t *testing.T) {
	g := gatesFrom(t, `
- {name: Plain, preRelease: deprecated, default: false, fieldPaths: [.spec.plain]}
`)
	res := g.Apply(gateObj(t, "spec: {plain: 1}"), gateObj(t, "spec: {}"))
	require.Len(t, res.Warnings, 2)
	assert.Equal(t, schema.KindGateEffect, res.Warnings[0].Kind)
	assert.Equal(t, "/spec/plain", res.Warnings[0].Pointer)
	assert.Equal(t, schema.KindDeprecated, res.Warnings[1].Kind)
	assert.Equal(t, "/spec/plain", res.Warnings[1].Pointer)
}
