package migrate

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

func mustSchema(t testing.TB, text string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(text))
	require.NoError(t, err)
	return s
}

// TestClaimsAreCheckedBeforeAnyValue: a schema whose old names conflict is
// refused by New, each problem at the schema pointer of the
// oldName that causes it.
func TestClaimsAreCheckedBeforeAnyValue(t *testing.T) {
	cases := []struct {
		name, schema string
		want         map[string]string // schema pointer → message part
	}{
		{"two nodes claim one old value", `
properties:
  a: {type: string, oldName: X}
  b: {type: string, oldName: X}`,
			map[string]string{"/properties/b/oldName": "old value /X is claimed by both /a and /b"}},
		{"a claimed value is also carried over", `
properties:
  CLUSTER_NAME: {type: string}
  clusterName: {type: string, oldName: CLUSTER_NAME}`,
			map[string]string{"/properties/clusterName/oldName": "old value /CLUSTER_NAME is claimed by /clusterName but would also be carried over to /CLUSTER_NAME"}},
		{"a pointer and a name meaning the same value", `
properties:
  a: {type: string, oldName: [X, Y]}
  b: {type: string, oldName: /Y}`,
			map[string]string{"/properties/b/oldName": "old value /Y is claimed by both /a and /b"}},
		{"inside a value carried over whole", `
properties:
  extra: {type: object}
  k: {type: string, oldName: /extra/k}`,
			map[string]string{"/properties/k/oldName": "old value /extra/k is claimed by /k but lies inside /extra, which is carried over to /extra"}},
		{"inside a map carried over key by key", `
properties:
  labels: {type: object, additionalProperties: {type: string}}
  app: {type: string, oldName: /labels/app}`,
			map[string]string{"/properties/app/oldName": "lies inside /labels, which is carried over to /labels"}},
		{"inside an array carried over", `
properties:
  servers: {type: array, items: {type: object, properties: {host: {type: string}}}}
  primary: {type: string, oldName: /servers/0/host}`,
			map[string]string{"/properties/primary/oldName": "lies inside /servers, which is carried over to /servers"}},
		{"under items", `
properties:
  servers:
    type: array
    items:
      properties:
        host: {type: string, oldName: HOST}`,
			map[string]string{"/properties/servers/items/properties/host/oldName": "has no single place in the values"}},
		{"under additionalProperties", `
properties:
  m:
    additionalProperties: {type: string, oldName: X}`,
			map[string]string{"/properties/m/additionalProperties/oldName": "has no single place"}},
		{"on the root", `
oldName: X
properties:
  a: {type: string}`,
			map[string]string{"/oldName": "the root cannot have an old name"}},
		{"not a JSON pointer", `
properties:
  a: {type: string, oldName: "/a~2"}`,
			map[string]string{"/properties/a/oldName": `oldName "/a~2" is not a valid JSON pointer`}},
		{"a definition used at two places", `
$defs:
  cred:
    properties:
      user: {type: string, oldName: USER}
properties:
  primary: {$ref: "#/$defs/cred"}
  secondary: {$ref: "#/$defs/cred"}`,
			map[string]string{"/$defs/cred/properties/user/oldName": "old value /USER is claimed by both /primary/user and /secondary/user"}},
		{"a recursive schema", `
properties:
  a: {type: string, oldName: X}
  next: {$ref: "#"}`,
			map[string]string{"/properties/a/oldName": "old value /X is claimed by both /a and /next/a"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(mustSchema(t, c.schema))
			require.Error(t, err)
			var list schema.ErrorList
			require.True(t, problem.As(err, &list), "%T", err)
			got := map[string]string{}
			for _, e := range list {
				got[e.Pointer] += e.Message
			}
			for p, msg := range c.want {
				assert.Contains(t, got[p], msg, "all: %v", err)
			}
			assert.Len(t, got, len(c.want), "all: %v", err)
		})
	}
}

func TestClaimsThatDoNotConflict(t *testing.T) {
	for name, text := range map[string]string{
		"an unused definition": `
$defs:
  unused:
    properties:
      x: {type: string, oldName: X}
properties:
  a: {type: string}`,
		"a definition used once": `
$defs:
  cred:
    properties:
      user: {type: string, oldName: USER}
properties:
  backup: {$ref: "#/$defs/cred"}`,
		"a property in allOf": `
allOf:
- properties:
    a: {type: string, oldName: A}`,
		"a rename inside an object that stays": `
properties:
  cluster:
    properties:
      name: {type: string, oldName: /cluster/clusterName}`,
		"a removed key of a moved object taken elsewhere": `
properties:
  observability:
    oldName: /monitoring
    properties:
      interval: {type: string, oldName: /monitoring/scrapeInterval}`,
		"an oldName equal to the own path": `
properties:
  a: {type: string, oldName: a}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := New(mustSchema(t, text))
			require.NoError(t, err)
		})
	}
}

func TestDefinitionUsedOnceMigrates(t *testing.T) {
	m, err := New(mustSchema(t, `
$defs:
  cred:
    properties:
      user: {type: string, oldName: USER}
properties:
  backup: {$ref: "#/$defs/cred"}`))
	require.NoError(t, err)
	r := got(m.Migrate(map[string]any{"USER": "admin"}))
	require.Empty(t, r.Errors)
	require.Equal(t, map[string]any{"backup": map[string]any{"user": "admin"}}, r.Values)
}

func TestMigrateNeverModifiesItsInput(t *testing.T) {
	s := mustSchema(t, `
properties:
  a: {type: integer, oldName: A}
  m: {type: object}
  keep: {type: object, properties: {x: {type: string}}}`)
	m, err := New(s, AllowLossy())
	require.NoError(t, err)
	in := map[string]any{"A": json.Number("2.5"), "m": map[string]any{"k": []any{"v"}}, "keep": map[string]any{"x": json.Number("1"), "y": true}, "gone": "x"}
	before := value.DeepCopy(in)
	r := got(m.Migrate(in))
	require.Equal(t, before, in)
	// The output shares nothing with the input.
	r.Values.(map[string]any)["m"].(map[string]any)["k"].([]any)[0] = "changed"
	require.Equal(t, before, in)
}

// countScalars counts the values that are not collections.
func countScalars(v any) int {
	switch x := v.(type) {
	case map[string]any:
		n := 0
		for _, e := range x {
			n += countScalars(e)
		}
		return n
	case []any:
		n := 0
		for _, e := range x {
			n += countScalars(e)
		}
		return n
	}
	return 1
}

// nothingDisappears checks the accounting of a plain migration: every
// scalar of the input is in the output or in a dropped value.
func nothingDisappears(t testing.TB, in any, r outcome) {
	t.Helper()
	if m, ok := r.Values.(map[string]any); ok {
		require.NotContains(t, m, bagKey)
	}
	out := countScalars(r.Values)
	if r.Values == nil {
		out = 0
	}
	dropped := 0
	for _, d := range r.Dropped {
		dropped += countScalars(d.Value)
	}
	inCount := countScalars(in)
	if in == nil {
		inCount = 0
	}
	require.Equal(t, inCount, out+dropped, "in %s\nout %s\ndropped %v", show(in), show(r.Values), r.Dropped)
}

func TestNothingDisappearsOverGeneratedValues(t *testing.T) {
	for _, dir := range pairDirs(t) {
		old, new := loadPair(t, dir)
		m, err := New(new, AllowLossy())
		require.NoError(t, err)
		rnd := newTestRand(7)
		for i := 0; i < roundTrips()/4; i++ {
			x, err := randomValue(old, rnd)
			require.NoError(t, err)
			r := got(m.Migrate(x))
			nothingDisappears(t, x, r)
		}
	}
}

func TestDownNeedsFrom(t *testing.T) {
	m := kepUpgradeMigration(t)
	r := got(m.Down(map[string]any{"clusterName": "x"}))
	require.Len(t, r.Errors, 1)
	require.Contains(t, r.Errors[0].Message, "From")
}

func TestOptionsAreChecked(t *testing.T) {
	s := mustSchema(t, `type: object`)
	_, err := New(s, Lossless())
	require.ErrorContains(t, err, "Lossless needs")
	_, err = New(s, StepHooks(1, nil, nil))
	require.ErrorContains(t, err, "hooks for step 1")
	_, err = New(s, StepHooks(0, nil, nil), StepHooks(0, nil, nil))
	require.ErrorContains(t, err, "twice")
	_, err = New(nil)
	require.Error(t, err)
	_, err = New(s, ThroughVersions(nil))
	require.Error(t, err)
}

// TestKEPUpgradeExactly checks the KEP's own text: the old instance
// parameters become exactly the structure the KEP shows.
func TestKEPUpgradeExactly(t *testing.T) {
	m := kepUpgradeMigration(t)
	r := got(m.MigrateDocument([]byte(`CLUSTER_NAME: "my-cluster"
BACKUP_ENABLED: false
BACKUP_CREDENTIALS_USERNAME: "some value"
BACKUP_CREDENTIALS_PASSWORD: "some password"
`)))
	require.True(t, r.OK(), "%v", r.Errors)
	require.Empty(t, r.Dropped)
	require.Empty(t, r.Lossy)
	want, err := params.Decode(m.Target(), []byte(`clusterName: "my-cluster"
backup:
  enabled: false
  credentials:
    name: "some value"
    password: "some password"
`))
	require.NoError(t, err)
	require.Equal(t, want, r.Values)
	out, err := params.MarshalYAML(m.Target(), r.Values)
	require.NoError(t, err)
	require.Equal(t, `clusterName: my-cluster
backup:
  enabled: false
  credentials:
    name: some value
    password: some password
`, string(out))
}

// TestKEPConversionKeepsInstanceParameters: under the converted schema
// (no oldName) the instance's parameters stay unchanged, as the KEP says.
func TestKEPConversionKeepsInstanceParameters(t *testing.T) {
	s, err := parseSchemaFile("testdata/migrate/kep/converted.yaml")
	require.NoError(t, err)
	m, err := New(s)
	require.NoError(t, err)
	in := map[string]any{"CLUSTER_NAME": "my-cluster", "BACKUP_ENABLED": false,
		"BACKUP_CREDENTIALS_USERNAME": "some value", "BACKUP_CREDENTIALS_PASSWORD": "some password"}
	r := got(m.Migrate(in))
	require.True(t, r.OK())
	require.Equal(t, in, r.Values)
}

// TestValidationSkipsDefaultingOnlyWhenItChangesNothing: validation
// defaults a copy only when Default could change the values; where the
// shortcut says it cannot, it does not.
func TestValidationSkipsDefaultingOnlyWhenItChangesNothing(t *testing.T) {
	files := []string{"testdata/migrate/defaults.yaml", "testdata/migrate/kep/upgraded.yaml"}
	for _, dir := range pairDirs(t) {
		files = append(files, filepath.Join(dir, "old.yaml"), filepath.Join(dir, "new.yaml"))
	}
	skipped, defaulted := 0, 0
	for _, file := range files {
		s, err := parseSchemaFile(file)
		require.NoError(t, err)
		p, err := newUpPlan(s)
		require.NoError(t, err)
		rnd := newTestRand(11)
		for i := 0; i < roundTrips()/4; i++ {
			v, err := randomValue(s, rnd)
			require.NoError(t, err)
			thin(v, rnd)
			dv, err := params.Default(s, value.DeepCopy(v))
			require.NoError(t, err)
			changed := !identical(dv, v)
			may := p.mayDefault(s.Root(), v)
			if changed {
				require.True(t, may, "%s: Default changes %s", file, show(v))
				defaulted++
			} else if !may {
				skipped++
			}
		}
	}
	require.Greater(t, skipped, 100)
	require.Greater(t, defaulted, 100)
}

// thin deletes random keys, so that defaults have somewhere to go.
func thin(v any, rnd interface{ IntN(int) int }) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if rnd.IntN(3) == 0 {
				delete(x, k)
				continue
			}
			thin(e, rnd)
		}
	case []any:
		for _, e := range x {
			thin(e, rnd)
		}
	}
}

// TestValuesThatAreNotPlainDoNotPanic: values given to Migrate should be
// plain (json.Number for numbers); anything else is an error, not a panic.
func TestValuesThatAreNotPlainDoNotPanic(t *testing.T) {
	m := kepUpgradeMigration(t)
	r := got(m.Migrate(map[string]any{"CLUSTER_NAME": 3, "BACKUP_ENABLED": 1.5, "x": struct{}{}}))
	var msgs []string
	for _, e := range r.Errors {
		msgs = append(msgs, e.Error())
	}
	require.Contains(t, msgs, "/clusterName: a Go int (not a plain value) does not fit here: expected string")
	require.Contains(t, msgs, "/backup/enabled: a Go float64 (not a plain value) does not fit here: expected boolean")
}
