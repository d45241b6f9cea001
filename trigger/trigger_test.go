package trigger_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/trigger"
)

// conflict is what a trigger conflict carries: the node and its plan,
// the ancestor and its plan.
type conflict struct{ Pointer, Plan, AncestorPointer, AncestorPlan string }

// conflicts reads the trigger conflicts of a list, checking their kind.
func conflicts(t *testing.T, l schema.ErrorList) []conflict {
	t.Helper()
	if l == nil {
		return nil
	}
	out := make([]conflict, len(l))
	for i, e := range l {
		require.Equal(t, schema.KindConflict, e.Kind, "%v", e)
		require.NotNil(t, e.Detail)
		require.Len(t, e.Detail.Plans, 2)
		out[i] = conflict{Pointer: e.Pointer, Plan: e.Detail.Plans[0], AncestorPointer: e.Detail.Other, AncestorPlan: e.Detail.Plans[1]}
	}
	return out
}

// The KEP's invalid example: a child names another plan than its parent.
const kepInvalid = `
type: object
properties:
  Authorization:
    type: object
    trigger: "deploy" # <-- triggering "deploy"
    properties:
      ENABLED:
        type: "boolean"
        trigger: "update-instance" # <-- triggering "update-instance"
`

// The KEP's valid example (its "type: int" read as the integer it means).
const kepValid = `
type: object
properties:
  ClusterName:
    type: string
    trigger: "deploy"
  NodeCount:
    type: integer
  Authorization:
    type: object
    trigger: "auth-update" # <-- triggering "auth-update"
    properties:
      ENABLED:
        type: "boolean"
        trigger: "auth-update"
      NAME:
        type: "string"
`

func parse(t testing.TB, text string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(text))
	require.NoError(t, err)
	return s
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   []conflict
	}{
		{name: "KEP valid example", schema: kepValid},
		{name: "KEP invalid example", schema: kepInvalid, want: []conflict{{
			Pointer: "/properties/Authorization/properties/ENABLED", Plan: "update-instance",
			AncestorPointer: "/properties/Authorization", AncestorPlan: "deploy"}}},
		{name: "no triggers", schema: `{type: object, properties: {a: {type: string}}}`},
		{name: "nearest ancestor, grandchild", schema: `
properties:
  a:
    trigger: x
    properties:
      b:
        properties:
          c: {trigger: y}`, want: []conflict{{Pointer: "/properties/a/properties/b/properties/c", Plan: "y", AncestorPointer: "/properties/a", AncestorPlan: "x"}}},
		{name: "one finding per wrong node", schema: `
trigger: x
properties:
  a:
    trigger: y
    properties:
      b: {trigger: y}
      c: {trigger: z}`, want: []conflict{
			{Pointer: "/properties/a", Plan: "y", AncestorPointer: "", AncestorPlan: "x"},
			{Pointer: "/properties/a/properties/c", Plan: "z", AncestorPointer: "/properties/a", AncestorPlan: "y"}}},
		{name: "under items", schema: `
properties:
  list:
    type: array
    trigger: x
    items: {type: object, properties: {n: {trigger: y}}}`, want: []conflict{{Pointer: "/properties/list/items/properties/n", Plan: "y", AncestorPointer: "/properties/list", AncestorPlan: "x"}}},
		{name: "under additionalProperties", schema: `
properties:
  m:
    trigger: x
    additionalProperties: {trigger: y}`, want: []conflict{{Pointer: "/properties/m/additionalProperties", Plan: "y", AncestorPointer: "/properties/m", AncestorPlan: "x"}}},
		{name: "a definition used under a trigger", schema: `
$defs:
  creds: {type: object, properties: {user: {type: string, trigger: y}}}
properties:
  backup: {trigger: x, $ref: "#/$defs/creds"}
  other: {$ref: "#/$defs/creds"}`, want: []conflict{{Pointer: "/$defs/creds/properties/user", Plan: "y", AncestorPointer: "/properties/backup", AncestorPlan: "x"}}},
		{name: "a $ref target's trigger governs the properties beside it", schema: `
$defs:
  t: {trigger: x}
properties:
  a:
    $ref: "#/$defs/t"
    properties:
      b: {trigger: y}`, want: []conflict{{Pointer: "/properties/a/properties/b", Plan: "y", AncestorPointer: "/$defs/t", AncestorPlan: "x"}}},
		{name: "allOf members of one value disagree", schema: `
properties:
  a:
    allOf: [{trigger: x}, {trigger: y}]`, want: []conflict{{Pointer: "/properties/a/allOf/1", Plan: "y", AncestorPointer: "/properties/a/allOf/0", AncestorPlan: "x"}}},
		{name: "recursive definition terminates", schema: `
$defs:
  tree: {type: object, trigger: t, properties: {children: {type: array, items: {$ref: "#/$defs/tree"}}}}
properties:
  root: {$ref: "#/$defs/tree"}`},
		{name: "recursive definition under another trigger", schema: `
$defs:
  tree: {type: object, trigger: t, properties: {children: {type: array, items: {$ref: "#/$defs/tree"}}}}
properties:
  root: {trigger: u, $ref: "#/$defs/tree"}`, want: []conflict{{Pointer: "/$defs/tree", Plan: "t", AncestorPointer: "/properties/root", AncestorPlan: "u"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := parse(t, tt.schema)
			got := schema.ErrorsOf(check(s))
			assert.Equal(t, tt.want, conflicts(t, got))
			_, err := trigger.New(s)
			if tt.want == nil {
				assert.NoError(t, err)
				return
			}
			var c schema.ErrorList
			require.True(t, problem.As(err, &c))
			assert.Equal(t, tt.want, conflicts(t, c))
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w.Pointer)
				assert.Contains(t, err.Error(), `"`+w.Plan+`"`)
				assert.Contains(t, err.Error(), `"`+w.AncestorPlan+`"`)
			}
		})
	}
}

func TestConflictMessageNamesBoth(t *testing.T) {
	c := schema.ErrorsOf(check(parse(t, kepInvalid)))
	require.Len(t, c, 1)
	assert.Equal(t, `/properties/Authorization/properties/ENABLED: trigger "update-instance" differs from trigger "deploy" of its ancestor /properties/Authorization (a level below a trigger must name the same plan or none)`, c[0].Error())
}

const resolveSchema = `
type: object
properties:
  clusterName: {type: string, trigger: deploy}
  nodeCount: {type: integer}
  Authorization:
    type: object
    trigger: auth-update
    properties:
      ENABLED: {type: boolean, trigger: auth-update}
      NAME: {type: string}
  pools:
    type: array
    items:
      type: object
      properties:
        size: {type: integer, trigger: scale}
        name: {type: string}
  labels:
    type: object
    additionalProperties: {type: string, trigger: relabel}
  tuning:
    type: object
    patternProperties:
      "^jvm\\.": {type: string, trigger: restart}
  free:
    type: object
    trigger: reconfigure
  pair:
    type: array
    prefixItems: [{type: string, trigger: first}, {type: string}]
  "a/b": {type: string, trigger: escaped}
  viaRef: {$ref: "#/$defs/backup"}
$defs:
  backup:
    type: object
    properties:
      bucket: {type: string, trigger: backup}
`

func TestResolve(t *testing.T) {
	r, err := trigger.New(parse(t, resolveSchema))
	require.NoError(t, err)
	tests := []struct {
		changed []string
		plan    string
	}{
		{nil, ""},
		{[]string{"/clusterName"}, "deploy"},
		{[]string{"/nodeCount"}, "deploy"},
		{[]string{"/Authorization/ENABLED"}, "auth-update"},
		{[]string{"/Authorization/NAME"}, "auth-update"},
		{[]string{"/Authorization"}, "auth-update"},
		{[]string{"/Authorization/NAME", "/Authorization/ENABLED", "/Authorization/new"}, "auth-update"},
		{[]string{"/pools/3/size"}, "scale"},
		{[]string{"/pools/0/name"}, "deploy"},
		{[]string{"/pools/0"}, "deploy"},
		{[]string{"/labels/team"}, "relabel"},
		{[]string{"/labels/a~1b"}, "relabel"},
		{[]string{"/tuning/jvm.heap"}, "restart"},
		{[]string{"/tuning/other"}, "deploy"},
		{[]string{"/free/deep/inside/0/x"}, "reconfigure"},
		{[]string{"/pair/0"}, "first"},
		{[]string{"/pair/1"}, "deploy"},
		{[]string{"/a~1b"}, "escaped"},
		{[]string{"/viaRef/bucket"}, "backup"},
		{[]string{"/unknown/x"}, "deploy"},
		{[]string{""}, "deploy"},
		{[]string{"/pools/99999999999999999999999/size"}, "scale"},
		{[]string{"/labels/a~2"}, "deploy"},
	}
	for _, tt := range tests {
		plan, err := r.Resolve(tt.changed)
		require.NoError(t, err, "%v", tt.changed)
		assert.Equal(t, tt.plan, plan, "%v", tt.changed)
	}
}

func TestResolveRefusesTwoPlans(t *testing.T) {
	r, err := trigger.New(parse(t, resolveSchema))
	require.NoError(t, err)
	_, err = r.Resolve([]string{"/Authorization/NAME", "/nodeCount", "/pools/0/size", "/clusterName"})
	var mp schema.ErrorList
	require.True(t, problem.As(err, &mp))
	type change struct{ Pointer, Plan string }
	var changes []change
	for _, e := range mp {
		assert.Equal(t, schema.KindConflict, e.Kind)
		require.NotNil(t, e.Detail)
		changes = append(changes, change{e.Pointer, e.Detail.Plans[0]})
		assert.Equal(t, []string{"auth-update", "deploy", "scale"}, e.Detail.Plans[1:])
	}
	assert.Equal(t, []change{
		{Pointer: "/Authorization/NAME", Plan: "auth-update"},
		{Pointer: "/nodeCount", Plan: "deploy"},
		{Pointer: "/pools/0/size", Plan: "scale"},
		{Pointer: "/clusterName", Plan: "deploy"},
	}, changes)
	for _, c := range changes {
		assert.Contains(t, err.Error(), c.Pointer+": triggers "+c.Plan)
	}
}

func TestDefaultPlanOptions(t *testing.T) {
	s := parse(t, kepValid)
	for _, tt := range []struct {
		name string
		opts []trigger.Option
		want string
	}{
		{"deploy unless told", nil, "deploy"},
		{"configured", []trigger.Option{trigger.DefaultPlan("reconcile")}, "reconcile"},
		{"an update plan", []trigger.Option{trigger.DefaultPlan("update")}, "update"},
		{"a nil option", []trigger.Option{nil}, "deploy"},
		{"last option wins", []trigger.Option{trigger.DefaultPlan("update"), trigger.DefaultPlan("x")}, "x"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := trigger.New(s, tt.opts...)
			require.NoError(t, err)
			assert.Equal(t, tt.want, r.DefaultPlan())
			assert.Equal(t, tt.want, r.Effective("/NodeCount"))
			assert.Equal(t, "deploy", r.Effective("/ClusterName"), "a trigger naming deploy stays deploy")
			assert.Equal(t, "auth-update", r.Effective("/Authorization/NAME"))
		})
	}
}

func TestParameters(t *testing.T) {
	s := parse(t, resolveSchema)
	got := trigger.Parameters(s)
	type row struct{ ptr, plan, own string }
	var rows []row
	for _, p := range got {
		rows = append(rows, row{p.Pointer, p.Plan, p.Trigger})
	}
	assert.Equal(t, []row{
		{"/clusterName", "deploy", "deploy"},
		{"/nodeCount", "deploy", ""},
		{"/Authorization", "auth-update", "auth-update"},
		{"/Authorization/ENABLED", "auth-update", "auth-update"},
		{"/Authorization/NAME", "auth-update", ""},
		{"/pools", "deploy", ""},
		{"/pools/*", "deploy", ""},
		{"/pools/*/size", "scale", "scale"},
		{"/pools/*/name", "deploy", ""},
		{"/labels", "deploy", ""},
		{"/labels/*", "relabel", "relabel"},
		{"/tuning", "deploy", ""},
		{"/tuning/*", "restart", "restart"},
		{"/free", "reconfigure", "reconfigure"},
		{"/pair", "deploy", ""},
		{"/pair/0", "first", "first"},
		{"/pair/1", "deploy", ""},
		{"/a~1b", "escaped", "escaped"},
		{"/viaRef", "deploy", ""},
		{"/viaRef/bucket", "backup", "backup"},
	}, rows)
	assert.Equal(t, "/properties/pools/items/properties/size", got[7].SchemaPointer)
	assert.Equal(t, "/$defs/backup/properties/bucket", got[19].SchemaPointer)

	// Each row's plan is what the resolver says for that place.
	r, err := trigger.New(s)
	require.NoError(t, err)
	for _, p := range got {
		ptr := strings.ReplaceAll(p.Pointer, "/*", "/0")
		if ptr == "/tuning/0" {
			ptr = "/tuning/jvm.x"
		}
		assert.Equal(t, p.Plan, r.Effective(ptr), p.Pointer)
	}
}

func TestParametersRecursiveAndConflicting(t *testing.T) {
	s := parse(t, `
$defs:
  tree: {type: object, properties: {name: {type: string}, children: {type: array, items: {$ref: "#/$defs/tree"}}}}
properties:
  t: {$ref: "#/$defs/tree", trigger: x}
  c: {trigger: a, properties: {d: {trigger: b}}}
`)
	var ptrs []string
	for _, p := range trigger.Parameters(s, trigger.DefaultPlan("z")) {
		ptrs = append(ptrs, p.Pointer+" "+p.Plan)
	}
	assert.Equal(t, []string{"/t x", "/t/name x", "/t/children x", "/t/children/* x", "/c a", "/c/d b"}, ptrs)
	assert.Empty(t, trigger.Parameters(parse(t, `{type: string}`)))
	assert.NotNil(t, trigger.Parameters(parse(t, `{type: string}`)), "an empty list, not nil")
}

func TestCheckKEPFiles(t *testing.T) {
	valid, err := parseSchemaFile("../schema/testdata/kep/trigger-valid.yaml")
	require.NoError(t, err)
	assert.NoError(t, check(valid))
	r, err := trigger.New(valid)
	require.NoError(t, err)
	// The KEP's rules for its valid example, one by one.
	assert.Equal(t, "deploy", r.Effective("/ClusterName"), "directly specified")
	assert.Equal(t, "deploy", r.Effective("/NodeCount"), "no trigger up to the root: deploy")
	assert.Equal(t, "auth-update", r.Effective("/Authorization/ENABLED"), "directly specified")
	assert.Equal(t, "auth-update", r.Effective("/Authorization/NAME"), "the parent's trigger")

	invalid, err := parseSchemaFile("../schema/testdata/kep/trigger-invalid.yaml")
	require.NoError(t, err)
	assert.Equal(t, []conflict{{
		Pointer: "/properties/Authorization/properties/ENABLED", Plan: "update-instance",
		AncestorPointer: "/properties/Authorization", AncestorPlan: "deploy",
	}}, conflicts(t, schema.ErrorsOf(check(invalid))))
}

func TestNilSchema(t *testing.T) {
	assert.Empty(t, trigger.Parameters(nil))
	_, err := trigger.New(nil)
	require.Error(t, err)
	assert.Equal(t, schema.KindUsage, schema.ErrorsOf(err)[0].Kind)
}

// TestCheckErrorIsNilWhenClean: New's error is nil
// for a clean schema (not an empty list in a non-nil interface), and an
// ErrorList of the conflicts otherwise.
func TestCheckErrorIsNilWhenClean(t *testing.T) {
	var err error = check(parse(t, `{type: object, trigger: deploy, properties: {a: {trigger: deploy}}}`))
	assert.True(t, err == nil, "clean schema: got %#v", err)
	err = check(parse(t, kepInvalid))
	var list schema.ErrorList
	require.True(t, problem.As(err, &list))
	require.Len(t, list, 1)
	assert.Equal(t, schema.KindConflict, list[0].Kind)
}

// check is the check of a schema's triggers: New's error.
func check(s *schema.Schema) error {
	_, err := trigger.New(s)
	return err
}
