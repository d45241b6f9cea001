package gates

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/schema"
)

// gatesFrom parses gates from YAML text and fails the test on any error.
func gatesFrom(t testing.TB, text string) *Set {
	t.Helper()
	g, err := Parse([]byte(text))
	require.NoError(t, err)
	return g
}

func gatesFile(t testing.TB, name string) *Set {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	g, err := Parse(data)
	require.NoError(t, err)
	return g
}

// gateErrorLines parses text that must be refused and returns the errors
// as `POINTER: message` lines.
func gateErrorLines(t *testing.T, text string) []string {
	t.Helper()
	_, err := Parse([]byte(text))
	require.Error(t, err)
	var ve schema.ErrorList
	require.True(t, problem.As(err, &ve), "want validation errors, got %T: %v", err, err)
	out := make([]string, len(ve))
	for i, e := range ve {
		out[i] = e.Error()
	}
	return out
}

func TestParseGatesForms(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		gates      []string
	}{
		{"list", "- {name: A, preRelease: alpha, fieldPaths: [.a]}", []string{"A"}},
		{"object", "featureGates:\n- {name: A, preRelease: alpha, fieldPaths: [.a]}", []string{"A"}},
		{"object with component", "component: istio\nfeatureGates: [{name: A, preRelease: alpha, fieldPaths: [.a]}]", []string{"A"}},
		{"json", `{"featureGates":[{"name":"A","preRelease":"alpha","fieldPaths":["/a"]}]}`, []string{"A"}},
		{"empty list", "[]", nil},
		{"null featureGates", "featureGates: null", nil},
		{"null component", "component: null\nfeatureGates: []", nil},
		{"prerelease spelling", "- {name: A, prerelease: beta, default: true, fieldPaths: [.a]}", []string{"A"}},
		{"null optional fields", "- {name: A, preRelease: alpha, enabled: null, default: null, deprecatedWarning: null, fieldPaths: [.a]}", []string{"A"}},
		{"file order kept", "- {name: Z, preRelease: alpha, fieldPaths: [.z]}\n- {name: A, preRelease: alpha, fieldPaths: [.a]}", []string{"Z", "A"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gatesFrom(t, tc.text)
			var names []string
			for _, s := range g.Status() {
				names = append(names, s.Name)
			}
			assert.Equal(t, tc.gates, names)
		})
	}
}

func TestParseGatesReadsTheDocumentsExamples(t *testing.T) {
	crontab := gatesFile(t, "crontab-gates.yaml").Status()
	require.Len(t, crontab, 2)
	assert.Equal(t, Gate{Name: "ReplicasFeatureGate", PreRelease: stageAlpha, Enabled: gateBool(false), Default: gateBool(false), FieldPaths: []string{".spec.replicas"}}, crontab[0].Gate)
	assert.Equal(t, Gate{Name: "AnotherFeatureGate", PreRelease: stageBeta, Enabled: gateBool(true), Default: gateBool(true), FieldPaths: []string{".spec.foo", ".spec.bar"}}, crontab[1].Gate)
	assert.False(t, crontab[0].Effective)
	assert.True(t, crontab[1].Effective)

	replicas := gatesFile(t, "replicas-gates.yaml").Status()
	require.Len(t, replicas, 3)
	// "preRelease: alpha # should be considered disabled"
	assert.Equal(t, "MaxAvailableFeatureGate", replicas[1].Name)
	assert.False(t, replicas[1].Effective)
	assert.Equal(t, reasonStage, replicas[1].Reason)
	assert.Nil(t, replicas[1].Enabled)
	assert.Nil(t, replicas[1].Default)

	// The 17th Sept draft put component inside the list, which is not
	// YAML; the 8th Oct form (crontab-gates.yaml) replaced it.
	_, err := Parse([]byte(`featureGates:
  component: istio # optional
  - name: ReplicasFeatureGate
    enabled: false
    default: false
    prerelease: alpha
    fieldPaths:
      - .spec.replicas
`))
	var de *schema.Error
	assert.True(t, errors.As(err, &de), "got %T %v", err, err)
}

func gateBool(b bool) *bool { return &b }

func TestGateEffectiveState(t *testing.T) {
	for _, tc := range []struct {
		stage            string
		enabled, def     *bool
		effective        bool
		reason           string
		stableIgnoresOff bool
	}{
		{stageAlpha, nil, nil, false, reasonStage, false},
		{stageAlpha, nil, gateBool(false), false, reasonDefault, false},
		{stageAlpha, gateBool(true), gateBool(false), true, reasonExplicit, false},
		{stageAlpha, gateBool(true), nil, true, reasonExplicit, false},
		{stageAlpha, gateBool(false), nil, false, reasonExplicit, false},
		{stageBeta, nil, gateBool(true), true, reasonDefault, false},
		{stageBeta, nil, gateBool(false), false, reasonDefault, false},
		{stageBeta, gateBool(true), gateBool(false), true, reasonExplicit, false},
		{stageBeta, gateBool(false), gateBool(true), false, reasonExplicit, false},
		{stageStable, nil, nil, true, reasonStage, false},
		{stageStable, nil, gateBool(true), true, reasonStage, false},
		{stageStable, gateBool(true), gateBool(true), true, reasonStage, false},
		{stageStable, gateBool(false), nil, true, reasonStage, true},
		{stageStable, gateBool(false), gateBool(true), true, reasonStage, true},
		{stageDeprecated, nil, gateBool(false), false, reasonDefault, false},
		{stageDeprecated, nil, gateBool(true), true, reasonDefault, false},
		{stageDeprecated, gateBool(true), gateBool(false), true, reasonExplicit, false},
		{stageDeprecated, gateBool(false), gateBool(true), false, reasonExplicit, false},
	} {
		name := string(tc.stage) + "/enabled=" + gateBoolText(tc.enabled) + "/default=" + gateBoolText(tc.def)
		t.Run(name, func(t *testing.T) {
			g, err := New([]Gate{{Name: "G", PreRelease: tc.stage, Enabled: tc.enabled, Default: tc.def, FieldPaths: []string{".spec.g"}}})
			require.NoError(t, err)
			st := g.Status()[0]
			assert.Equal(t, tc.effective, st.Effective)
			assert.Equal(t, tc.reason, st.Reason)
			hasNote := false
			for _, w := range st.Warnings {
				hasNote = hasNote || strings.Contains(w.Message, "a stable gate is always on") && w.Kind == schema.KindGateEffect && w.Kind.Warning()
			}
			assert.Equal(t, tc.stableIgnoresOff, hasNote, "warnings: %q", st.Warnings)
		})
	}
}

func gateBoolText(b *bool) string {
	if b == nil {
		return "unset"
	}
	if *b {
		return "true"
	}
	return "false"
}

// Every refusal, one at a time, with its exact message.
func TestParseGatesRefusals(t *testing.T) {
	const ok = "name: A, preRelease: alpha, fieldPaths: [.a]"
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"scalar file", "42", []string{`"": a gates file is a list of gates or an object with featureGates`}},
		{"null file", "null", []string{`"": a gates file is a list of gates or an object with featureGates`}},
		{"object without featureGates", "{}", []string{`"": featureGates is missing`}},
		{"featureGates not a list", "featureGates: 3", []string{`/featureGates: must be a list of gates, not a number`}},
		{"unknown top-level field", "featureGates: []\nextra: 1", []string{`/extra: unknown field (a gates object has featureGates and component)`}},
		{"component not a string", "component: 3\nfeatureGates: []", []string{`/component: must be a string, not a number`}},
		{"gate not an object", "[3]", []string{`/0: a gate must be an object with name, preRelease and fieldPaths`}},
		{"unknown gate field", "- {" + ok + ", enable: true}", []string{`/0/enable: unknown field (a gate has name, preRelease, enabled, default, fieldPaths and deprecatedWarning)`}},
		{"name missing", "- {preRelease: alpha, fieldPaths: [.a]}", []string{`/0: name is missing`}},
		{"name empty", "- {name: '', preRelease: alpha, fieldPaths: [.a]}", []string{`/0/name: must not be empty`}},
		{"name not a string", "- {name: 3, preRelease: alpha, fieldPaths: [.a]}", []string{`/0/name: must be a string, not a number`}},
		{"name with space", "- {name: 'A B', preRelease: alpha, fieldPaths: [.a]}", []string{`/0/name: "A B" cannot name a gate: no spaces, "," or "=" (a gate is switched as NAME=true in a list)`}},
		{"name with equals", "- {name: 'A=B', preRelease: alpha, fieldPaths: [.a]}", []string{`/0/name: "A=B" cannot name a gate: no spaces, "," or "=" (a gate is switched as NAME=true in a list)`}},
		{"name twice", "- {" + ok + "}\n- {name: A, preRelease: alpha, fieldPaths: [.b]}", []string{`/1/name: gate "A" is already defined at /0`}},
		{"preRelease missing", "- {name: A, fieldPaths: [.a]}", []string{`/0: preRelease is missing (alpha, beta, stable or deprecated)`}},
		{"preRelease empty", "- {name: A, preRelease: '', fieldPaths: [.a]}", []string{`/0/preRelease: must be alpha, beta, stable or deprecated`}},
		{"preRelease unknown", "- {name: A, preRelease: gamma, fieldPaths: [.a]}", []string{`/0/preRelease: "gamma" is not a stage: use alpha, beta, stable or deprecated`}},
		{"prerelease upper case", "- {name: A, prerelease: ALPHA, fieldPaths: [.a]}", []string{`/0/prerelease: "ALPHA" is not a stage: use alpha, beta, stable or deprecated`}},
		{"preRelease not a string", "- {name: A, preRelease: true, fieldPaths: [.a]}", []string{`/0/preRelease: must be a string, not a boolean`}},
		{"stage given twice", "- {" + ok + ", prerelease: alpha}", []string{`/0/prerelease: the stage is given twice, as preRelease and prerelease`}},
		{"enabled not a boolean", "- {" + ok + ", enabled: yes}", []string{`/0/enabled: must be true or false, not "yes"`}},
		{"default not a boolean", "- {" + ok + ", default: 1}", []string{`/0/default: must be true or false, not 1`}},
		{"alpha defaults to true", "- {" + ok + ", default: true}", []string{`/0/default: an alpha gate must default to false`}},
		{"stable defaults to false", "- {name: A, preRelease: stable, default: false, fieldPaths: [.a]}", []string{`/0/default: a stable gate must default to true`}},
		{"beta without default", "- {name: A, preRelease: beta, enabled: true, fieldPaths: [.a]}", []string{`/0: a beta gate needs a default (true or false)`}},
		{"deprecated without default", "- {name: A, preRelease: deprecated, fieldPaths: [.a]}", []string{`/0: a deprecated gate needs a default (true or false)`}},
		{"deprecatedWarning on beta", "- {name: A, preRelease: beta, default: true, deprecatedWarning: old, fieldPaths: [.a]}", []string{`/0/deprecatedWarning: only a deprecated gate has a deprecatedWarning (this one is beta)`}},
		{"deprecatedWarning not a string", "- {name: A, preRelease: deprecated, default: true, deprecatedWarning: [x], fieldPaths: [.a]}", []string{`/0/deprecatedWarning: must be a string, not a list`}},
		{"fieldPaths missing", "- {name: A, preRelease: alpha}", []string{`/0: fieldPaths is missing (a gate needs at least one field path)`}},
		{"fieldPaths empty", "- {name: A, preRelease: alpha, fieldPaths: []}", []string{`/0/fieldPaths: a gate needs at least one field path`}},
		{"fieldPaths a string", "- {name: A, preRelease: alpha, fieldPaths: .a}", []string{`/0/fieldPaths: must be a list of field paths, not a string`}},
		{"field path not a string", "- {name: A, preRelease: alpha, fieldPaths: [3]}", []string{`/0/fieldPaths/0: a field path must be a string, not a number`}},
		{"field path empty", "- {name: A, preRelease: alpha, fieldPaths: ['']}", []string{`/0/fieldPaths/0: a field path must not be empty`}},
		{"field path without leading dot", "- {name: A, preRelease: alpha, fieldPaths: [spec.replicas]}", []string{`/0/fieldPaths/0: "spec.replicas" must start with "." (a field path such as .spec.replicas) or "/" (a JSON pointer such as /spec/replicas)`}},
		{"JSONPath root", "- {name: A, preRelease: alpha, fieldPaths: [$.spec.replicas]}", []string{`/0/fieldPaths/0: "$.spec.replicas" must start with "." (a field path such as .spec.replicas) or "/" (a JSON pointer such as /spec/replicas)`}},
		{"whole object dotted", "- {name: A, preRelease: alpha, fieldPaths: [.]}", []string{`/0/fieldPaths/0: "." names the whole object, which cannot be gated`}},
		{"whole object pointer", "- {name: A, preRelease: alpha, fieldPaths: [/]}", []string{`/0/fieldPaths/0: "/" names the whole object, which cannot be gated`}},
		{"empty segment", "- {name: A, preRelease: alpha, fieldPaths: [.spec..x]}", []string{`/0/fieldPaths/0: ".spec..x" has an empty field name`}},
		{"trailing dot", "- {name: A, preRelease: alpha, fieldPaths: [.spec.]}", []string{`/0/fieldPaths/0: ".spec." has an empty field name`}},
		{"empty pointer token", "- {name: A, preRelease: alpha, fieldPaths: [/spec//x]}", []string{`/0/fieldPaths/0: "/spec//x" has an empty field name`}},
		{"bad pointer escape", "- {name: A, preRelease: alpha, fieldPaths: [/spec/a~2]}", []string{`/0/fieldPaths/0: invalid escape "~2" in token "a~2" (use ~0 for ~ and ~1 for /)`}},
		{"index", "- {name: A, preRelease: alpha, fieldPaths: ['.spec.containers[0]']}", []string{`/0/fieldPaths/0: ".spec.containers[0]": indexes, brackets and wildcards are not supported (write \[ for the character itself, or use a JSON pointer)`}},
		{"wildcard", "- {name: A, preRelease: alpha, fieldPaths: ['.spec.*']}", []string{`/0/fieldPaths/0: ".spec.*": indexes, brackets and wildcards are not supported (write \* for the character itself, or use a JSON pointer)`}},
		{"bad backslash", `- {name: A, preRelease: alpha, fieldPaths: ['.a\x']}`, []string{`/0/fieldPaths/0: ".a\\x": a backslash escapes only . \ [ ] or *`}},
		{"trailing backslash", `- {name: A, preRelease: alpha, fieldPaths: ['.a\']}`, []string{`/0/fieldPaths/0: ".a\\": a backslash escapes only . \ [ ] or *`}},
		{"path twice in a gate", "- {name: A, preRelease: alpha, fieldPaths: [.spec.x, /spec/x]}", []string{`/0/fieldPaths/1: /spec/x is listed twice in this gate`}},
		{"path in two gates", "- {name: A, preRelease: alpha, fieldPaths: [.spec.x]}\n- {name: B, preRelease: alpha, fieldPaths: [/spec/x]}", []string{`/1/fieldPaths/0: /spec/x is already gated by A (at /0/fieldPaths/0): a field has one gate at most`}},
		{"escaped path in two gates", "- {name: A, preRelease: alpha, fieldPaths: ['.a\\.b']}\n- {name: B, preRelease: alpha, fieldPaths: ['/a.b']}", []string{`/1/fieldPaths/0: /a.b is already gated by A (at /0/fieldPaths/0): a field has one gate at most`}},
		{"pointers under featureGates", "featureGates:\n- {name: A}", []string{
			`/featureGates/0: preRelease is missing (alpha, beta, stable or deprecated)`,
			`/featureGates/0: fieldPaths is missing (a gate needs at least one field path)`,
		}},
		{"every error at once, in file order", "- {name: A, preRelease: beta, fieldPaths: [x]}\n- {name: A, preRelease: alpha, default: true, fieldPaths: [.x, .x]}", []string{
			`/0: a beta gate needs a default (true or false)`,
			`/0/fieldPaths/0: "x" must start with "." (a field path such as .spec.replicas) or "/" (a JSON pointer such as /spec/replicas)`,
			`/1/name: gate "A" is already defined at /0`,
			`/1/default: an alpha gate must default to false`,
			`/1/fieldPaths/1: .x is listed twice in this gate`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, gateErrorLines(t, tc.text))
		})
	}
}

func TestParseGatesUnreadable(t *testing.T) {
	for _, text := range []string{"", "# only a comment\n", "[", "a: [", "- a\n---\n- b\n", "{\"a\": 1, \"a\": 2}"} {
		_, err := Parse([]byte(text))
		var de *schema.Error
		assert.True(t, errors.As(err, &de), "%q: want *schema.Error, got %T %v", text, err, err)
	}
}

// How a written field path maps to the JSON pointer it names.
func TestGateFieldPathToPointer(t *testing.T) {
	for _, tc := range []struct{ path, pointer string }{
		{".spec.replicas", "/spec/replicas"},
		{"/spec/replicas", "/spec/replicas"},
		{".spec", "/spec"},
		{`.metadata.annotations.example\.com/x`, "/metadata/annotations/example.com~1x"},
		{"/metadata/annotations/example.com~1x", "/metadata/annotations/example.com~1x"},
		{".a~b", "/a~0b"},
		{"/a~0b", "/a~0b"},
		{`.a\\b`, `/a\b`},
		{`.list\[0\]`, "/list[0]"},
		{`.all\*`, "/all*"},
		{"/items/0", "/items/0"},
		{".with space", "/with space"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			g, err := New([]Gate{{Name: "G", PreRelease: stageAlpha, FieldPaths: []string{tc.path}}})
			require.NoError(t, err)
			require.Len(t, g.paths, 1)
			assert.Equal(t, tc.pointer, g.paths[0].ptr)
		})
	}
}

func TestNewGates(t *testing.T) {
	t.Run("errors index the list", func(t *testing.T) {
		_, err := New([]Gate{
			{Name: "A", PreRelease: stageAlpha, FieldPaths: []string{".a"}},
			{PreRelease: "ga", FieldPaths: []string{".a"}},
			{Name: "C", PreRelease: stageBeta},
		})
		require.Error(t, err)
		assert.Equal(t, strings.Join([]string{
			`/1: name is missing`,
			`/1/preRelease: "ga" is not a stage: use alpha, beta, stable or deprecated`,
			`/1/fieldPaths/0: .a is already gated by A (at /0/fieldPaths/0): a field has one gate at most`,
			`/2: a beta gate needs a default (true or false)`,
			`/2: fieldPaths is missing (a gate needs at least one field path)`,
		}, "\n"), err.Error())
	})
	t.Run("copies its input", func(t *testing.T) {
		on := true
		list := []Gate{{Name: "A", PreRelease: stageAlpha, Enabled: &on, FieldPaths: []string{".a"}}}
		g, err := New(list)
		require.NoError(t, err)
		on = false
		list[0].FieldPaths[0] = ".b"
		list[0].Name = "B"
		st := g.Status()
		assert.Equal(t, "A", st[0].Name)
		assert.True(t, st[0].Effective)
		assert.Equal(t, []string{".a"}, st[0].FieldPaths)
		// Nor can a caller change the gates through Status.
		st[0].FieldPaths[0] = ".c"
		*st[0].Enabled = false
		assert.Equal(t, []string{".a"}, g.Status()[0].FieldPaths)
		assert.True(t, *g.Status()[0].Enabled)
	})
	t.Run("empty", func(t *testing.T) {
		g, err := New(nil)
		require.NoError(t, err)
		assert.Equal(t, []Status{}, g.Status())
	})
}

func TestGateStatusParents(t *testing.T) {
	st := gatesFile(t, "all-stages.yaml").Status()
	byName := map[string]Status{}
	for _, s := range st {
		byName[s.Name] = s
	}
	for _, tc := range []struct {
		gate        string
		effective   bool
		reason      string
		ineffective []string
		warnings    []string
	}{
		{"Backup", false, reasonDefault, []string{}, []string{}},
		// one of its paths lies under Backup's, which is off
		{"BackupSchedule", true, reasonExplicit, []string{"Backup"}, []string{}},
		{"Replicas", true, reasonExplicit, []string{}, []string{}},
		// its parent is on; it is off itself, and that is not "ineffective"
		{"MaxSurge", false, reasonStage, []string{}, []string{}},
		{"Storage", true, reasonStage, []string{}, []string{"enabled: false has no effect: a stable gate is always on"}},
		{"StorageClass", true, reasonStage, []string{}, []string{}},
		{"LegacyTLS", true, reasonDefault, []string{}, []string{"LegacyTLS is deprecated and goes away in v2; use .spec.tls instead"}},
		{"OldAnnotation", false, reasonDefault, []string{}, []string{"feature gate OldAnnotation is deprecated"}},
	} {
		t.Run(tc.gate, func(t *testing.T) {
			s, ok := byName[tc.gate]
			require.True(t, ok)
			assert.Equal(t, tc.effective, s.Effective, "effective")
			assert.Equal(t, tc.reason, s.Reason, "reason")
			assert.Equal(t, tc.ineffective, s.IneffectiveBecause, "ineffectiveBecause")
			msgs := []string{}
			for _, w := range s.Warnings {
				msgs = append(msgs, w.Message)
			}
			assert.Equal(t, tc.warnings, msgs, "warnings")
		})
	}
}

func TestGateParentIsATokenPrefix(t *testing.T) {
	for _, tc := range []struct {
		name        string
		parent      string
		child       string
		ineffective bool
	}{
		{"child field", ".spec.foo", ".spec.foo.qux", true},
		{"grandchild", ".spec", ".spec.foo.qux", true},
		{"longer name is no child", ".spec.foo", ".spec.foobar", false},
		{"longer name, deeper", ".spec.foo", ".spec.foobar.x", false},
		{"sibling", ".spec.foo", ".spec.bar", false},
		{"child is no parent", ".spec.foo.qux", ".spec.foo", false},
		{"dotted parent of a pointer child", ".spec.foo", "/spec/foo/qux", true},
		{"escaped dot is one name", `.spec.foo\.qux`, ".spec.foo.qux", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := New([]Gate{
				{Name: "P", PreRelease: stageAlpha, FieldPaths: []string{tc.parent}},
				{Name: "C", PreRelease: stageAlpha, Enabled: gateBool(true), FieldPaths: []string{tc.child}},
			})
			require.NoError(t, err)
			got := g.Status()[1].IneffectiveBecause
			if tc.ineffective {
				assert.Equal(t, []string{"P"}, got)
			} else {
				assert.Empty(t, got)
			}
		})
	}
	t.Run("every parent that is off, in file order", func(t *testing.T) {
		g := gatesFrom(t, `
- {name: Child, preRelease: alpha, enabled: true, fieldPaths: [.a.b.c, .x.y]}
- {name: X, preRelease: alpha, fieldPaths: [.x]}
- {name: B, preRelease: alpha, enabled: true, fieldPaths: [.a.b]}
- {name: A, preRelease: alpha, fieldPaths: [.a]}
`)
		assert.Equal(t, []string{"X", "A"}, g.Status()[0].IneffectiveBecause)
		assert.Equal(t, []string{"A"}, g.Status()[2].IneffectiveBecause)
	})
	t.Run("a gate is no parent of itself", func(t *testing.T) {
		g := gatesFrom(t, "- {name: G, preRelease: alpha, fieldPaths: [.a, .a.b]}")
		assert.Empty(t, g.Status()[0].IneffectiveBecause)
		res := g.Apply(gateObj(t, "a: {b: 1, c: 2}"), gateObj(t, "a: {b: 0}"))
		assert.Equal(t, gateObj(t, "a: {b: 0}"), res.Object)
		assert.Equal(t, []string{"/a"}, res.Dropped)
	})
}
