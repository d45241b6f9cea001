package params_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// undeclaredSchema has every kind of object the rule tells apart: listed
// properties (nested, through $ref, in an array's items), pattern
// properties, an additionalProperties schema, additionalProperties false
// and free-form objects.
const undeclaredSchema = `
type: object
properties:
  replicas: {type: integer, default: 1}
  image: {type: string}
  resources:
    type: object
    properties:
      cpu: {type: string}
      memory: {type: string}
  backup: {$ref: "#/$defs/backup"}
  topology:
    type: array
    items:
      type: object
      properties:
        zone: {type: string}
        labels: {type: object}
  env:
    type: object
    patternProperties:
      "^[A-Z_]+$": {type: string}
  annotations:
    type: object
    additionalProperties: {type: string}
  extra: {type: object}
  anything: {}
  strict:
    type: object
    properties:
      enabled: {type: boolean}
    additionalProperties: false
$defs:
  backup:
    type: object
    properties:
      enabled: {type: boolean}
      schedule: {type: string}
`

func TestUpdateWarnsOfUndeclaredKeys(t *testing.T) {
	s, err := schema.Parse([]byte(undeclaredSchema))
	require.NoError(t, err)
	old := map[string]any{"topology": []any{map[string]any{"zone": "a"}}, "backup": map[string]any{}}
	tests := []struct {
		name string
		e    edits
		want map[string]string // pointer -> message
	}{
		{"typo at the top", edits{set: []string{"replicsa=4"}},
			map[string]string{"/replicsa": `"replicsa" is not declared by the schema; did you mean "replicas"?`}},
		{"nested, as a JSON pointer", edits{set: []string{"/resources/cpus=2"}},
			map[string]string{"/resources/cpus": `"cpus" is not declared by the schema; did you mean "cpu"?`}},
		{"through $ref", edits{set: []string{"backup.enable=true"}},
			map[string]string{"/backup/enable": `"enable" is not declared by the schema; did you mean "enabled"?`}},
		{"no near name", edits{set: []string{"zzzzzzzz=1"}},
			map[string]string{"/zzzzzzzz": `"zzzzzzzz" is not declared by the schema`}},
		{"in an array element", edits{set: []string{"topology.0.zones=b"}},
			map[string]string{"/topology/0/zones": `"zones" is not declared by the schema; did you mean "zone"?`}},
		{"in a flow value", edits{set: []string{`resources={cpu: "1", memroy: 2Gi}`}},
			map[string]string{"/resources/memroy": `"memroy" is not declared by the schema; did you mean "memory"?`}},
		{"only the first undeclared key of a path", edits{set: []string{"replicsa.x.y=1"}},
			map[string]string{"/replicsa": `"replicsa" is not declared by the schema; did you mean "replicas"?`}},
		{"merge patch, nested and in arrays", edits{patches: []string{"resources: {memroy: 1Gi}\ntopology: [{zone: a, zoen: b}]\n"}},
			map[string]string{
				"/resources/memroy": `"memroy" is not declared by the schema; did you mean "memory"?`,
				"/topology/0/zoen":  `"zoen" is not declared by the schema; did you mean "zone"?`,
			}},
		{"merge patch null deletes, names nothing", edits{patches: []string{"replicsa: null\n"}}, nil},
		{"patch add and replace", edits{ops: []string{"add backup.shedule=daily", "replace topology.0.zone=b", "add topology/-={zone: c, lables: {}}"}},
			map[string]string{
				"/backup/shedule":    `"shedule" is not declared by the schema; did you mean "schedule"?`,
				"/topology/1/lables": `"lables" is not declared by the schema; did you mean "labels"?`,
			}},
		{"patch remove names nothing", edits{ops: []string{"remove topology.0.zone"}}, nil},
		{"pattern properties match", edits{set: []string{"env.LOG_LEVEL=debug"}}, nil},
		{"pattern properties, no match", edits{set: []string{"env.log-level=debug"}},
			map[string]string{"/env/log-level": `"log-level" is not declared by the schema`}},
		{"additionalProperties schema declares every key", edits{set: []string{"annotations.team=x"}}, nil},
		{"free-form objects never warn", edits{set: []string{"extra.whatever=1", "anything.a.b=2", "topology.0.labels.tier=web"},
			patches: []string{"extra: {deep: {er: 1}}\n"}}, nil},
		{"declared keys never warn", edits{set: []string{"replicas=4", "resources.cpu=1", "backup.enabled=true"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := runUpdate(t, s, old, tt.e)
			require.NoError(t, err)
			got := map[string]string{}
			for _, w := range r.Warnings {
				assert.Equal(t, schema.KindUndeclared, w.Kind)
				got[w.Pointer] = w.Message
			}
			if tt.want == nil {
				tt.want = map[string]string{}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestUpdateStrictRefusesUndeclaredKeys(t *testing.T) {
	s, err := schema.Parse([]byte(undeclaredSchema))
	require.NoError(t, err)
	u := params.Update{Schema: s, Old: map[string]any{}, Set: []string{"replicsa=4"}, Strict: true}
	r, err := u.Run()
	require.Error(t, err)
	assert.Zero(t, r)
	var errs schema.ErrorList
	require.True(t, problem.As(err, &errs))
	require.Len(t, errs, 1)
	assert.Equal(t, "/replicsa", errs[0].Pointer)
	assert.Equal(t, "replicsa=4", errs[0].Detail.Input)
	assert.Contains(t, errs[0].Message, `did you mean "replicas"?`)

	// Strict with declared keys only is an ordinary update.
	u.Set = []string{"replicas=4"}
	r, err = u.Run()
	require.NoError(t, err)
	assert.Empty(t, r.Warnings)
}

// Where the schema forbids the key, the error is the one it always was,
// with the suggestion added.
func TestForbiddenKeyErrorSuggests(t *testing.T) {
	s, err := schema.Parse([]byte(undeclaredSchema))
	require.NoError(t, err)
	tests := []struct {
		name string
		e    edits
		ptr  string
		msg  string
	}{
		{"-p", edits{set: []string{"strict.enabeld=true"}}, "/strict/enabeld",
			`not allowed here: "enabeld" (the schema does not declare it); did you mean "enabled"?`},
		{"add", edits{ops: []string{"add strict.enabeld=true"}}, "/strict/enabeld",
			`not allowed here: "enabeld" (the schema does not declare it); did you mean "enabled"?`},
		{"-P", edits{patches: []string{"strict: {enabeld: true}\n"}}, "/strict/enabeld",
			`not allowed here: "enabeld" (the schema does not declare it); "enabeld": did you mean "enabled"?`},
		{"-P, nothing near", edits{patches: []string{"strict: {zzzzzzzz: true}\n"}}, "/strict/zzzzzzzz",
			`not allowed here: "zzzzzzzz" (the schema does not declare it)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := runUpdate(t, s, map[string]any{"strict": map[string]any{}}, tt.e)
			var errs schema.ErrorList
			require.True(t, problem.As(err, &errs), "%v", err)
			require.Len(t, errs, 1)
			assert.Equal(t, tt.ptr, errs[0].Pointer)
			assert.Equal(t, tt.msg, errs[0].Message)
		})
	}
}

func TestUndeclaredInWholeValues(t *testing.T) {
	s, err := schema.Parse([]byte(undeclaredSchema))
	require.NoError(t, err)
	v := map[string]any{
		"replicsa":  4,
		"replicas":  nil,
		"resources": map[string]any{"cpus": "1", "memory": "1Gi"},
		"topology":  []any{map[string]any{"zone": "a"}, map[string]any{"zoen": "b", "labels": map[string]any{"free": "x"}}},
		"extra":     map[string]any{"anything": map[string]any{"goes": true}},
		"env":       map[string]any{"LOG": "x", "log": "y"},
	}
	var got []string
	for _, w := range undeclared(s, v) {
		assert.Equal(t, schema.KindUndeclared, w.Kind)
		got = append(got, w.Error())
	}
	assert.Equal(t, []string{
		`/env/log: "log" is not declared by the schema`,
		`/replicsa: "replicsa" is not declared by the schema; did you mean "replicas"?`,
		`/resources/cpus: "cpus" is not declared by the schema; did you mean "cpu"?`,
		`/topology/1/zoen: "zoen" is not declared by the schema; did you mean "zone"?`,
	}, got)
	assert.Nil(t, undeclared(nil, v))
	assert.Empty(t, undeclared(s, map[string]any{"replicas": 1}))

	// Go data below plain values is looked at as Plain converts it.
	got = nil
	for _, w := range undeclared(s, map[string]any{
		"resources": map[string]string{"cpus": "1"},
		"topology":  []map[string]any{{"zoen": "b"}},
	}) {
		got = append(got, w.Pointer)
	}
	assert.Equal(t, []string{"/resources/cpus", "/topology/0/zoen"}, got)
}

// A failed update names the undeclared keys too: the misspelt key often
// explains the failure.
func TestFailedUpdateNamesUndeclaredKeys(t *testing.T) {
	s, err := schema.Parse([]byte(`
type: object
required: [replicas]
properties:
  replicas: {type: integer}
  image: {type: string, trigger: rollout}
`))
	require.NoError(t, err)
	_, err = runUpdate(t, s, nil, edits{set: []string{"replicsa=4"}})
	var errs schema.ErrorList
	require.True(t, problem.As(err, &errs), "%v", err)
	assert.Equal(t, `/replicas: missing required property: "replicas"`+"\n"+
		`/replicsa: "replicsa=4": "replicsa" is not declared by the schema; did you mean "replicas"?`, err.Error())

	// Two plans: the typo's (deploy) and the image's (rollout).
	_, err = runUpdate(t, s, map[string]any{"replicas": 1}, edits{set: []string{"imgae=x", "image=y"}})
	require.True(t, problem.As(err, &errs), "%v", err)
	require.Len(t, errs, 3)
	assert.Equal(t, `/imgae: "imgae=x": "imgae" is not declared by the schema; did you mean "image"?`, errs[2].Error())

	// Other failures stay as they were.
	_, err = runUpdate(t, s, map[string]any{"replicas": 1}, edits{set: []string{"replicsa=4", "replicas.x=1"}})
	require.True(t, problem.As(err, &errs), "%v", err)
	require.Len(t, errs, 1)
}

// TestUndeclaredKeyNearASecretHidesItsValue: "passwrd=…" is most likely
// the password mistyped; the error of a strict update names the
// assignment without its value, as it does below a secret object
// (issue 26). A plain one is still echoed.
func TestUndeclaredKeyNearASecretHidesItsValue(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type": "object", "properties": {
		"password": {"type": "string", "writeOnly": true},
		"replicas": {"type": "integer"},
		"db": {"type": "object", "format": "password", "properties": {"user": {"type": "string"}}}}}`))
	require.NoError(t, err)
	for a, want := range map[string]string{
		"passwrd=SECRETvalue1": `/passwrd: "passwrd=(value hidden)": "passwrd" is not declared by the schema; did you mean "password"? (strict: undeclared keys are refused)`,
		"db.usr=SECRETvalue2":  `/db/usr: "db.usr=(value hidden)": "usr" is not declared by the schema; did you mean "user"? (strict: undeclared keys are refused)`,
		"replicsa=4":           `/replicsa: "replicsa=4": "replicsa" is not declared by the schema; did you mean "replicas"? (strict: undeclared keys are refused)`,
	} {
		u := params.Update{Schema: s, Set: []string{a}, Strict: true}
		_, err := u.Run()
		require.Error(t, err, a)
		assert.Equal(t, want, err.Error())
	}
}

// undeclared is params.Undeclared of every key, without old values.
func undeclared(s *schema.Schema, v any) []*schema.Error {
	ws, _, err := params.Undeclared(context.Background(), s, v, nil, 0)
	if err != nil {
		panic(err)
	}
	return ws
}
