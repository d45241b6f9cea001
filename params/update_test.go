package params_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/trigger"
)

// cluster loads the schema of the KEP's -p examples and current values.
func cluster(t testing.TB) (*schema.Schema, any) {
	t.Helper()
	s, err := parseSchemaFile("testdata/update/cluster-schema.yaml")
	require.NoError(t, err)
	data, err := os.ReadFile("testdata/update/cluster-values.yaml")
	require.NoError(t, err)
	old, err := params.Decode(s, data)
	require.NoError(t, err)
	return s, old
}

// edits is what an update applies, written as on the command line.
type edits struct {
	patches []string // -P file contents (YAML or JSON)
	set     []string // -p KEY=VALUE
	ops     []string // "add P=V", "remove P", "replace P=V"
}

func runUpdate(t testing.TB, s *schema.Schema, old any, e edits) (params.Result, error) {
	t.Helper()
	u := params.Update{Schema: s, Old: old}
	for _, p := range e.patches {
		v, err := params.DecodePatch(s, []byte(p))
		require.NoError(t, err)
		u.Patches = append(u.Patches, v)
	}
	u.Set = e.set
	u.Operations = e.ops
	return u.Run()
}

func get(t testing.TB, v any, ptr string) any {
	t.Helper()
	x, ok := pointer.Get(v, ptr)
	require.True(t, ok, "nothing at %s", ptr)
	return x
}

func yamlValue(t testing.TB, s *schema.Schema, text string) any {
	t.Helper()
	v, err := params.Decode(s, []byte(text))
	require.NoError(t, err)
	return v
}

func TestUpdateKEPExamples(t *testing.T) {
	s, old := cluster(t)
	tests := []struct {
		name    string
		e       edits
		ptr     string
		want    string // YAML of the value at ptr, read without a schema
		changed []string
		plan    string
	}{
		{
			name:    "top-level clusterName, as the KEP writes it",
			e:       edits{set: []string{`clusterName="NewClusterName"`}},
			ptr:     "/clusterName",
			want:    `NewClusterName`,
			changed: []string{"/clusterName"},
			plan:    "deploy",
		},
		{
			name:    "top-level clusterName, as a shell passes it",
			e:       edits{set: []string{`clusterName=NewClusterName`}},
			ptr:     "/clusterName",
			want:    `NewClusterName`,
			changed: []string{"/clusterName"},
			plan:    "deploy",
		},
		{
			name:    "datacenterName of the first topology item",
			e:       edits{set: []string{`topology/0/datacenterName="NewDC1"`}},
			ptr:     "/topology/0/datacenterName",
			want:    `NewDC1`,
			changed: []string{"/topology/0/datacenterName"},
			plan:    "deploy",
		},
		{
			name:    "replace the first label of the first topology item",
			e:       edits{set: []string{`topology/0/labels/0={ key: "Usage", value: "newValue" }`}},
			ptr:     "/topology/0/labels/0",
			want:    `{key: Usage, value: newValue}`,
			changed: []string{"/topology/0/labels/0/value"},
			plan:    "deploy",
		},
		{
			name: "replace the full labels array of the first topology item",
			e:    edits{set: []string{`topology/0/labels=[ { key: "DCLabel", value: "dc1" }, { key: "Usage", value: "additionalItem" } ]`}},
			ptr:  "/topology/0/labels",
			want: `[{key: DCLabel, value: dc1}, {key: Usage, value: additionalItem}]`,
			changed: []string{"/topology/0/labels/0/key", "/topology/0/labels/0/value",
				"/topology/0/labels/1/key", "/topology/0/labels/1/value"},
			plan: "deploy",
		},
		{
			name:    "patch: add a label to the first topology item (appends)",
			e:       edits{ops: []string{`add topology/0/labels={ key: "NewKey", value: "NewValue" }`}},
			ptr:     "/topology/0/labels",
			want:    `[{key: Usage, value: oldValue}, {key: Tier, value: gold}, {key: NewKey, value: NewValue}]`,
			changed: []string{"/topology/0/labels"},
			plan:    "deploy",
		},
		{
			name:    "patch: remove the second label of the first topology item",
			e:       edits{ops: []string{`remove topology/0/labels/1`}},
			ptr:     "/topology/0/labels",
			want:    `[{key: Usage, value: oldValue}]`,
			changed: []string{"/topology/0/labels"},
			plan:    "deploy",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := runUpdate(t, s, old, tt.e)
			require.NoError(t, err)
			assert.True(t, value.Equal(yamlValue(t, nil, tt.want), get(t, r.Values, tt.ptr)), "got %v", get(t, r.Values, tt.ptr))
			assert.Equal(t, tt.changed, r.Changed)
			assert.Equal(t, tt.plan, r.Plan)
		})
	}
}

func TestUpdateSucceeds(t *testing.T) {
	s, old := cluster(t)
	tests := []struct {
		name    string
		e       edits
		ptr     string
		want    any
		changed []string
		plan    string
	}{
		{name: "dotted path through an array index", e: edits{set: []string{"topology.1.datacenterName=west"}},
			ptr: "/topology/1/datacenterName", want: "west", changed: []string{"/topology/1/datacenterName"}, plan: "deploy"},
		{name: "dotted path under a trigger", e: edits{set: []string{"Authorization.NAME=bob"}},
			ptr: "/Authorization/NAME", want: "bob", changed: []string{"/Authorization/NAME"}, plan: "auth-update"},
		{name: "leading slash of a pointer", e: edits{set: []string{"/Authorization/ENABLED=true"}},
			ptr: "/Authorization/ENABLED", want: true, changed: []string{"/Authorization/ENABLED"}, plan: "auth-update"},
		{name: `\. is a literal dot`, e: edits{set: []string{`extra.app\.kubernetes\.io=1`}},
			ptr: "/extra/app.kubernetes.io", want: json.Number("1"), changed: []string{"/extra"}, plan: "extra"},
		{name: `\\ is a backslash`, e: edits{set: []string{`extra.a\\b=x`}},
			ptr: `/extra/a\b`, want: "x", changed: []string{"/extra"}, plan: "extra"},
		{name: "~1 escapes a slash", e: edits{set: []string{"extra/app.kubernetes.io~1name=web"}},
			ptr: "/extra/app.kubernetes.io~1name", want: "web", changed: []string{"/extra"}, plan: "extra"},
		{name: "~0 escapes a tilde", e: edits{set: []string{"/extra/a~0b=x"}},
			ptr: "/extra/a~0b", want: "x", changed: []string{"/extra"}, plan: "extra"},
		{name: "missing intermediate objects are created", e: edits{set: []string{"extra.a.b.c=true"}},
			ptr: "/extra/a/b/c", want: true, changed: []string{"/extra"}, plan: "extra"},
		{name: "a created parent is defaulted", e: edits{set: []string{"backup.bucket=s3://b"}},
			ptr: "/backup", want: map[string]any{"enabled": false, "bucket": "s3://b"}, changed: []string{"/backup/bucket"}, plan: "backup"},
		{name: "a null intermediate is replaced by an object", e: edits{patches: []string{"extra: {a: null}"}, set: []string{"extra.a.b=1"}},
			ptr: "/extra/a/b", want: json.Number("1"), changed: []string{"/extra"}, plan: "extra"},
		{name: "string node takes yes verbatim", e: edits{set: []string{"Authorization.NAME=yes"}},
			ptr: "/Authorization/NAME", want: "yes", changed: []string{"/Authorization/NAME"}, plan: "auth-update"},
		{name: "string node takes 007 verbatim", e: edits{set: []string{"Authorization.NAME=007"}},
			ptr: "/Authorization/NAME", want: "007", changed: []string{"/Authorization/NAME"}, plan: "auth-update"},
		{name: "string node takes 1.10 verbatim", e: edits{set: []string{"Authorization.NAME=1.10"}},
			ptr: "/Authorization/NAME", want: "1.10", changed: []string{"/Authorization/NAME"}, plan: "auth-update"},
		{name: "string node takes flow text verbatim", e: edits{set: []string{"Authorization.NAME=[a,b]"}},
			ptr: "/Authorization/NAME", want: "[a,b]", changed: []string{"/Authorization/NAME"}, plan: "auth-update"},
		{name: "quoted text on a string node is the text inside", e: edits{set: []string{`Authorization.NAME='it''s'`}},
			ptr: "/Authorization/NAME", want: "it's", changed: []string{"/Authorization/NAME"}, plan: "auth-update"},
		{name: "quoted text on an integer node is typed by the node", e: edits{set: []string{`nodeCount="5"`}},
			ptr: "/nodeCount", want: json.Number("5"), changed: []string{"/nodeCount"}, plan: "deploy"},
		{name: "integer stays exact", e: edits{set: []string{"nodeCount=9007199254740993"}},
			ptr: "/nodeCount", want: json.Number("9007199254740993"), changed: []string{"/nodeCount"}, plan: "deploy"},
		{name: "empty value on a string node is the empty string", e: edits{set: []string{"Authorization.NAME="}},
			ptr: "/Authorization/NAME", want: "", changed: []string{"/Authorization/NAME"}, plan: "auth-update"},
		{name: "block YAML for an object", e: edits{set: []string{"topology/1=datacenterName: dc9\nlabels:\n  - {key: a, value: b}\n"}},
			ptr: "/topology/1", want: map[string]any{"datacenterName": "dc9", "labels": []any{map[string]any{"key": "a", "value": "b"}}},
			changed: []string{"/topology/1/datacenterName", "/topology/1/labels"}, plan: "deploy"},
		{name: "later assignments win", e: edits{set: []string{"nodeCount=4", "nodeCount=5"}},
			ptr: "/nodeCount", want: json.Number("5"), changed: []string{"/nodeCount"}, plan: "deploy"},
		{name: "-P applies before -p", e: edits{patches: []string{"nodeCount: 7"}, set: []string{"nodeCount=5"}},
			ptr: "/nodeCount", want: json.Number("5"), changed: []string{"/nodeCount"}, plan: "deploy"},
		{name: "two assignments invalid alone, valid together", e: edits{set: []string{"scaling.min=1", "scaling.max=3"}},
			ptr: "/scaling", want: map[string]any{"min": json.Number("1"), "max": json.Number("3")}, changed: []string{"/scaling"}, plan: "deploy"},
		{name: "a default value set again is no change", e: edits{set: []string{"storage.class=standard"}},
			ptr: "/storage/class", want: "standard", changed: []string{}, plan: ""},
		{name: "several changes under one trigger", e: edits{set: []string{"Authorization.NAME=x", "Authorization.ENABLED=true"}},
			ptr: "/Authorization/NAME", want: "x", changed: []string{"/Authorization/ENABLED", "/Authorization/NAME"}, plan: "auth-update"},
		{name: "unchanged immutable values pass", e: edits{set: []string{"topology/0/rack=r1", "annotations.team=storage"}},
			ptr: "/topology/0/rack", want: "r1", changed: []string{}, plan: ""},
		{name: "patch: add on an index inserts", e: edits{ops: []string{"add topology/0/labels/0={key: a, value: b}"}},
			ptr: "/topology/0/labels/0", want: map[string]any{"key": "a", "value": "b"}, changed: []string{"/topology/0/labels"}, plan: "deploy"},
		{name: "patch: add at - appends", e: edits{ops: []string{"add topology/1/labels/-={key: a, value: b}"}},
			ptr: "/topology/1/labels/0", want: map[string]any{"key": "a", "value": "b"}, changed: []string{"/topology/1/labels"}, plan: "deploy"},
		{name: "patch: add on a member sets it", e: edits{ops: []string{"add Authorization/NAME=root"}},
			ptr: "/Authorization/NAME", want: "root", changed: []string{"/Authorization/NAME"}, plan: "auth-update"},
		{name: "patch: replace", e: edits{ops: []string{"replace nodeCount=4"}},
			ptr: "/nodeCount", want: json.Number("4"), changed: []string{"/nodeCount"}, plan: "deploy"},
		{name: "patch: operations apply in order", e: edits{ops: []string{"add topology/1/labels={key: a, value: b}", "replace topology/1/labels/0/value=c", "add topology/1/labels/0={key: z, value: y}", "remove topology/1/labels/1"}},
			ptr: "/topology/1/labels", want: []any{map[string]any{"key": "z", "value": "y"}}, changed: []string{"/topology/1/labels"}, plan: "deploy"},
		{name: "patch: remove then defaults", e: edits{ops: []string{"remove Authorization/ENABLED"}},
			ptr: "/Authorization/ENABLED", want: false, changed: []string{}, plan: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := value.DeepCopy(old)
			r, err := runUpdate(t, s, old, tt.e)
			require.NoError(t, err)
			assert.True(t, value.Equal(tt.want, get(t, r.Values, tt.ptr)), "got %#v", get(t, r.Values, tt.ptr))
			assert.Equal(t, tt.changed, r.Changed)
			assert.Equal(t, tt.plan, r.Plan)
			assert.NoError(t, params.Validate(s, r.Values))
			assert.True(t, value.Equal(before, old), "the old values were changed")
		})
	}
}

func TestUpdateRefused(t *testing.T) {
	s, old := cluster(t)
	type want struct{ ptr, input, msg string }
	tests := []struct {
		name    string
		install bool
		e       edits
		want    []want
	}{
		{name: "index past the end", e: edits{set: []string{"topology/5/datacenterName=x"}},
			want: []want{{"/topology/5", "topology/5/datacenterName=x", "out of range"}}},
		{name: "no append with -", e: edits{set: []string{"topology/-={datacenterName: x}"}},
			want: []want{{"/topology/-", "topology/-={datacenterName: x}", "append"}}},
		{name: "index equal to the length", e: edits{set: []string{"topology.2={datacenterName: x}"}},
			want: []want{{"/topology/2", "topology.2={datacenterName: x}", "out of range"}}},
		{name: "leading zero index", e: edits{set: []string{"topology/01/datacenterName=x"}},
			want: []want{{"/topology/01", "topology/01/datacenterName=x", "not an array index"}}},
		{name: "a missing array is not created", install: true, e: edits{set: []string{"topology/0/datacenterName=x"}},
			want: []want{{"/topology", "topology/0/datacenterName=x", "array index must already exist"}}},
		{name: "below a scalar value", e: edits{set: []string{"clusterName.first=x"}},
			want: []want{{"/clusterName", "clusterName.first=x", "is a string: nothing can be set below it"}}},
		{name: "below a scalar node", install: true, e: edits{set: []string{"nodeCount.x=1"}},
			want: []want{{"/nodeCount", "nodeCount.x=1", "the schema makes it an integer"}}},
		{name: "a key the schema forbids", e: edits{set: []string{"topology/0/color=red"}},
			want: []want{{"/topology/0/color", "topology/0/color=red", `not allowed here: "color" (the schema does not declare it)`}}},
		{name: "every bad assignment at once", e: edits{set: []string{"topology/9/x=1", "nodeCount=4", "clusterName.a=b"}},
			want: []want{{"/topology/9", "topology/9/x=1", "out of range"}, {"/clusterName", "clusterName.a=b", "string"}}},
		{name: "validation: below the minimum", e: edits{set: []string{"nodeCount=0"}},
			want: []want{{"/nodeCount", "", ">= 1"}}},
		{name: "validation: 1.5 on an integer node", e: edits{set: []string{"nodeCount=1.5"}},
			want: []want{{"/nodeCount", "", "integer"}}},
		{name: "validation: text that is not an object, with the reason", e: edits{set: []string{"topology/0/labels/0={key: a"}},
			want: []want{{"/topology/0/labels/0", "", "object"}, {"/topology/0/labels/0", "", `from "topology/0/labels/0={key: a"`}}},
		{name: "validation: one of two needed assignments", e: edits{set: []string{"scaling.min=1"}},
			want: []want{{"/scaling/max", "", "max"}}},
		{name: "validation: every error at once", e: edits{set: []string{"nodeCount=0", "Authorization.ENABLED=maybe"}},
			want: []want{{"/Authorization/ENABLED", "", "boolean"}, {"/nodeCount", "", ">= 1"}}},
		{name: "immutable: change below an immutable object", e: edits{set: []string{"storage.size=20Gi"}},
			want: []want{{"/storage/size", "", "cannot be changed: /storage is immutable"}}},
		{name: "immutable: change of a defaulted value", e: edits{set: []string{"storage.class=fast"}},
			want: []want{{"/storage/class", "", "cannot be changed: /storage is immutable"}}},
		{name: "immutable: removal of the whole object", e: edits{patches: []string{"storage: null"}},
			want: []want{{"/storage/size", "", "cannot be removed: /storage is immutable"}}},
		{name: "immutable: adding below an immutable object", e: edits{patches: []string{`{"storage": {"extra": 1}}`}},
			want: []want{{"/storage/extra", "", "cannot be added: /storage is immutable"}, {"/storage/extra", "", `"extra" is not declared by the schema`}}},
		{name: "immutable: under array items, changed", e: edits{set: []string{"topology/0/rack=r2"}},
			want: []want{{"/topology/0/rack", "", "cannot be changed: immutable (schema /properties/topology/items/properties/rack)"}}},
		{name: "immutable: under array items, added", e: edits{set: []string{"topology/1/rack=r2"}},
			want: []want{{"/topology/1/rack", "", "cannot be added"}}},
		{name: "immutable: under array items, removed with the whole array", e: edits{set: []string{"topology=[{datacenterName: dc1}]"}},
			want: []want{{"/topology/0/rack", "", "cannot be removed"}}},
		{name: "immutable: additionalProperties value changed", e: edits{set: []string{"annotations.team=web"}},
			want: []want{{"/annotations/team", "", "cannot be changed"}}},
		{name: "immutable: additionalProperties value added", e: edits{set: []string{"annotations.owner=me"}},
			want: []want{{"/annotations/owner", "", "cannot be added"}}},
		{name: "immutable: every violation at once", e: edits{set: []string{"annotations.team=web", "storage.size=1Gi"}},
			want: []want{{"/annotations/team", "", "cannot be changed"}, {"/storage/size", "", "cannot be changed"}}},
		{name: "two plans", e: edits{set: []string{"Authorization.NAME=x", "backup.enabled=true"}},
			want: []want{{"/Authorization/NAME", "", `triggers plan "auth-update"`}, {"/backup/enabled", "", `triggers plan "backup"`}}},
		{name: "two plans with the default one", e: edits{set: []string{"Authorization.NAME=x", "nodeCount=5"}},
			want: []want{{"/Authorization/NAME", "", `(these trigger auth-update, deploy)`}, {"/nodeCount", "", `triggers plan "deploy"`}}},
		{name: "patch: replace needs the target", e: edits{ops: []string{"replace backup/bucket=x"}},
			want: []want{{"/backup", "replace backup/bucket=x", "does not exist"}}},
		{name: "patch: remove needs the target", e: edits{ops: []string{"remove Authorization/missing"}},
			want: []want{{"/Authorization/missing", "remove Authorization/missing", "does not exist"}}},
		{name: "patch: add needs the parent", e: edits{ops: []string{"add backup/bucket=x"}},
			want: []want{{"/backup", "add backup/bucket=x", "does not exist"}}},
		{name: "patch: add past the end", e: edits{ops: []string{"add topology/3={datacenterName: x}"}},
			want: []want{{"/topology/3", "add topology/3={datacenterName: x}", "out of range"}}},
		{name: "patch: remove past the end", e: edits{ops: []string{"remove topology/2"}},
			want: []want{{"/topology/2", "remove topology/2", "out of range"}}},
		{name: "patch: a key the schema forbids", e: edits{ops: []string{"add topology/0/color=red"}},
			want: []want{{"/topology/0/color", "add topology/0/color=red", "not allowed here"}}},
		{name: "patch: below a scalar", e: edits{ops: []string{"add clusterName/x=1"}},
			want: []want{{"/clusterName", "add clusterName/x=1", "is a string"}}},
		{name: "patch: immutable", e: edits{ops: []string{"remove topology/0"}},
			want: []want{{"/topology/0/rack", "", "cannot be removed"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var o any = old
			if tt.install {
				o = nil
			}
			r, err := runUpdate(t, s, o, tt.e)
			require.Error(t, err)
			assert.Zero(t, r)
			var errs schema.ErrorList
			require.True(t, problem.As(err, &errs), "%T: %v", err, err)
			require.Len(t, errs, len(tt.want), "%v", err)
			for i, w := range tt.want {
				assert.Equal(t, w.ptr, errs[i].Pointer, "%v", errs[i])
				input := ""
				if errs[i].Detail != nil {
					input = errs[i].Detail.Input
				}
				assert.Equal(t, w.input, input, "%v", errs[i])
				assert.Contains(t, errs[i].Message, w.msg)
				if w.input != "" {
					assert.Contains(t, errs[i].Error(), w.input, "the error names the assignment as typed")
				}
			}
		})
	}
}

func TestUpdateInstall(t *testing.T) {
	s, _ := cluster(t)
	r, err := runUpdate(t, s, nil, edits{set: []string{"storage.size=5Gi", "Authorization.NAME=x", "backup.enabled=true"}})
	require.NoError(t, err, "an install sets immutable values and triggers no single-plan rule")
	assert.Equal(t, "deploy", r.Plan)
	assert.Equal(t, []string{""}, r.Changed)
	assert.Equal(t, "my-cluster", get(t, r.Values, "/clusterName"), "defaults apply")
	assert.Equal(t, "standard", get(t, r.Values, "/storage/class"))
}

func TestUpdateMergePatch(t *testing.T) {
	s, old := cluster(t)
	r, err := runUpdate(t, s, old, edits{patches: []string{"Authorization:\n  NAME: null\n"}})
	require.NoError(t, err)
	_, has := pointer.Get(r.Values, "/Authorization/NAME")
	assert.False(t, has, "null deletes, also on a string node")
	assert.Equal(t, []string{"/Authorization/NAME"}, r.Changed)

	r, err = runUpdate(t, s, old, edits{patches: []string{
		"ratio: 12345678901234567890.123456789\n",
		`{"topology": [{"datacenterName": "dc1", "rack": "r1"}], "nodeCount": 12}`,
	}})
	require.NoError(t, err)
	assert.Equal(t, json.Number("12345678901234567890.123456789"), get(t, r.Values, "/ratio"), "numbers stay exact")
	assert.Len(t, get(t, r.Values, "/topology"), 1, "arrays are replaced whole")
	assert.Equal(t, json.Number("12"), get(t, r.Values, "/nodeCount"))
}

func TestDecodePatchTypesByTheSchema(t *testing.T) {
	s, _ := cluster(t)
	v, err := params.DecodePatch(s, []byte("Authorization:\n  NAME: 007\n  ENABLED: true\nnodeCount: 5\nextra: {a: ~, b: yes}\n"))
	require.NoError(t, err)
	assert.True(t, value.Equal(map[string]any{
		"Authorization": map[string]any{"NAME": "007", "ENABLED": true},
		"nodeCount":     json.Number("5"),
		"extra":         map[string]any{"a": nil, "b": "yes"},
	}, v), "%#v", v)

	v, err = params.DecodePatch(s, []byte("  \n"))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{}, v, "an empty file is the empty patch")

	_, err = params.DecodePatch(s, []byte("a: [\n"))
	var de *schema.Error
	assert.ErrorAs(t, err, &de)
}

func TestMergePatchRFC7386(t *testing.T) {
	// The examples of RFC 7386, appendix A.
	tests := []struct{ target, patch, want string }{
		{`{"a":"b"}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"b"}`, `{"b":"c"}`, `{"a":"b","b":"c"}`},
		{`{"a":"b"}`, `{"a":null}`, `{}`},
		{`{"a":"b","b":"c"}`, `{"a":null}`, `{"b":"c"}`},
		{`{"a":["b"]}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"c"}`, `{"a":["b"]}`, `{"a":["b"]}`},
		{`{"a":{"b":"c"}}`, `{"a":{"b":"d","c":null}}`, `{"a":{"b":"d"}}`},
		{`{"a":[{"b":"c"}]}`, `{"a":[1]}`, `{"a":[1]}`},
		{`["a","b"]`, `["c","d"]`, `["c","d"]`},
		{`{"a":"b"}`, `["c"]`, `["c"]`},
		{`{"a":"foo"}`, `null`, `null`},
		{`{"a":"foo"}`, `"bar"`, `"bar"`},
		{`{"e":null}`, `{"a":1}`, `{"e":null,"a":1}`},
		{`[1,2]`, `{"a":"b","c":null}`, `{"a":"b"}`},
		{`{}`, `{"a":{"bb":{"ccc":null}}}`, `{"a":{"bb":{}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.target+"+"+tt.patch, func(t *testing.T) {
			target := yamlValue(t, nil, tt.target)
			patch := yamlValue(t, nil, tt.patch)
			tc, pc := value.DeepCopy(target), value.DeepCopy(patch)
			got := params.MergePatch(target, patch)
			assert.True(t, value.Equal(yamlValue(t, nil, tt.want), got), "got %#v", got)
			assert.True(t, value.Equal(tc, target) && value.Equal(pc, patch), "arguments unchanged")
		})
	}
}

func TestParseAssignment(t *testing.T) {
	tests := []struct {
		in        string
		path      []string
		value     string
		malformed bool
		err       string
	}{
		{in: "a=b", path: []string{"a"}, value: "b"},
		{in: "a.b.c=1", path: []string{"a", "b", "c"}, value: "1"},
		{in: "a=b=c", path: []string{"a"}, value: "b=c"},
		{in: "a=", path: []string{"a"}, value: ""},
		{in: `a\.b.c=1`, path: []string{"a.b", "c"}, value: "1"},
		{in: `a\\.b=1`, path: []string{`a\`, "b"}, value: "1"},
		{in: `a\b=1`, path: []string{`a\b`}, value: "1"},
		{in: "topology/0/labels=x", path: []string{"topology", "0", "labels"}, value: "x"},
		{in: "/topology/0=x", path: []string{"topology", "0"}, value: "x"},
		{in: "a.b/c=x", path: []string{"a.b", "c"}, value: "x"},
		{in: "a~1b/c~0d=x", path: []string{"a/b", "c~d"}, value: "x"},
		{in: "/=x", path: []string{""}, value: "x"},
		{in: "a//b=x", path: []string{"a", "", "b"}, value: "x"},
		{in: "noequals", malformed: true},
		{in: "", malformed: true},
		{in: "=value", malformed: true},
		{in: "a~2/b=x", err: "invalid escape"},
		{in: "a..b=x", err: "empty name"},
		{in: ".a=x", err: "empty name"},
		{in: "a.=x", err: "empty name"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			a, err := params.ParseAssignment(tt.in)
			switch {
			case tt.malformed:
				assert.ErrorIs(t, err, params.ErrMalformed)
			case tt.err != "":
				require.Error(t, err)
				assert.NotErrorIs(t, err, params.ErrMalformed, "a bad path is not a usage error")
				assert.Contains(t, err.Error(), tt.err)
				assert.Contains(t, err.Error(), tt.in, "the error names the assignment")
			default:
				require.NoError(t, err)
				assert.Equal(t, tt.path, a.Path)
				assert.Equal(t, tt.value, a.Value)
				assert.Equal(t, tt.in, a.Input)
			}
		})
	}
}

// TestUpdateOperationsRead: Update.Operations are read as typed, "OP
// ARG"; one that is no operation at all is a usage error wrapping
// ErrMalformed, given before anything else is looked at.
func TestUpdateOperationsRead(t *testing.T) {
	s := mustSchema(t, `{"properties": {"a": {"type": "object"}, "l": {"type": "array"}}}`)
	old := map[string]any{"a": map[string]any{"b": "x"}, "l": []any{}}
	r, err := (&params.Update{Schema: s, Old: old, Operations: []string{"remove a.b", "add l/-=1"}}).Run()
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": map[string]any{}, "l": []any{json.Number("1")}}, r.Values)
	for _, op := range []string{"add a", "add =1", "remove ", "remove", "move a=b", "", "replace"} {
		r, err := (&params.Update{Schema: s, Old: old, Set: []string{"a.b=y"}, Operations: []string{op}}).Run()
		assert.Zero(t, r, "%q", op)
		assert.ErrorIs(t, err, params.ErrMalformed, "%q", op)
		require.NotEmpty(t, schema.ErrorsOf(err), "%q", op)
		assert.Equal(t, schema.KindUsage, schema.ErrorsOf(err)[0].Kind, "%q", op)
	}
	_, err = (&params.Update{Schema: s, Old: old, Operations: []string{"remove a/~2"}}).Run()
	require.Error(t, err)
	assert.Equal(t, schema.KindUsage, schema.ErrorsOf(err)[0].Kind)
}

func TestCheckImmutable(t *testing.T) {
	s, old := cluster(t)
	assert.NoError(t, params.CheckImmutable(s, nil, old), "a first install is free")
	assert.NoError(t, params.CheckImmutable(s, old, old))

	// The stored values lack storage.class; the new ones spell out its
	// default: no change after defaulting.
	nv := value.DeepCopy(old)
	nv.(map[string]any)["storage"].(map[string]any)["class"] = "standard"
	assert.NoError(t, params.CheckImmutable(s, old, nv))

	nv.(map[string]any)["storage"].(map[string]any)["class"] = "fast"
	nv.(map[string]any)["annotations"] = map[string]any{}
	err := params.CheckImmutable(s, old, nv)
	var errs schema.ErrorList
	require.True(t, problem.As(err, &errs))
	require.Len(t, errs, 2)
	assert.Equal(t, "/annotations/team", errs[0].Pointer)
	assert.Contains(t, errs[0].Message, "removed")
	assert.Equal(t, "/storage/class", errs[1].Pointer)
}

func TestCheckImmutableThroughRefAndNesting(t *testing.T) {
	s, err := schema.Parse([]byte(`
type: object
$defs:
  frozen: {type: object, immutable: true}
properties:
  a: {$ref: "#/$defs/frozen"}
  m:
    type: object
    additionalProperties:
      type: array
      items: {type: object, properties: {id: {type: string, immutable: true}, n: {type: integer}}}
  root:
    immutable: true
`))
	require.NoError(t, err)
	old := map[string]any{
		"a":    map[string]any{"x": json.Number("1")},
		"m":    map[string]any{"k": []any{map[string]any{"id": "i1", "n": json.Number("1")}}},
		"root": json.Number("1"),
	}
	tests := []struct {
		name string
		new  string
		errs []string
	}{
		{"a number written differently is no change", `{"a": {"x": 1.0}, "m": {"k": [{"id": "i1", "n": 1}]}, "root": 1e0}`, nil},
		{"mutable sibling under items", `{"a": {"x": 1}, "m": {"k": [{"id": "i1", "n": 2}]}, "root": 1}`, nil},
		{"through $ref", `{"a": {"x": 2}, "m": {"k": [{"id": "i1", "n": 1}]}, "root": 1}`, []string{"/a/x"}},
		{"items under additionalProperties", `{"a": {"x": 1}, "m": {"k": [{"id": "i2", "n": 1}, {"n": 3}]}, "root": 1}`, []string{"/m/k/0/id"}},
		{"new map entry with an immutable id", `{"a": {"x": 1}, "m": {"k": [{"id": "i1", "n": 1}], "l": [{"id": "x"}]}, "root": 1}`, []string{"/m/l/0/id"}},
		{"scalar replaced", `{"a": {"x": 1}, "m": {"k": [{"id": "i1", "n": 1}]}, "root": "1"}`, []string{"/root"}},
		{"type changed above", `{"a": [], "m": {"k": [{"id": "i1", "n": 1}]}, "root": 1}`, []string{"/a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := params.CheckImmutable(s, old, yamlValue(t, nil, tt.new))
			if tt.errs == nil {
				assert.NoError(t, err)
				return
			}
			var errs schema.ErrorList
			require.True(t, problem.As(err, &errs))
			var got []string
			for _, e := range errs {
				got = append(got, e.Pointer)
			}
			assert.Equal(t, tt.errs, got)
		})
	}
}

func TestUpdateConflictingSchema(t *testing.T) {
	s, err := schema.Parse([]byte(`
type: object
properties:
  a: {type: object, trigger: x, properties: {b: {type: string, trigger: y}}}
`))
	require.NoError(t, err)
	_, err = (&params.Update{Schema: s, Old: map[string]any{}}).Run()
	var c schema.ErrorList
	require.True(t, problem.As(err, &c))
	assert.Equal(t, "/properties/a/properties/b", c[0].Pointer)
	assert.Equal(t, schema.KindConflict, c[0].Kind)
	_, err = (&params.Update{Schema: s}).Run()
	assert.True(t, problem.As(err, &c), "an install is refused too")
}

func TestUpdateKudoDefaultPlan(t *testing.T) {
	s, old := cluster(t)
	res, err := trigger.New(s, trigger.DefaultPlan("update"))
	require.NoError(t, err)
	r, err := (&params.Update{Schema: s, Old: old, Set: []string{"nodeCount=9"}, Triggers: res}).Run()
	require.NoError(t, err)
	assert.Equal(t, "update", r.Plan)
}

func TestDiff(t *testing.T) {
	tests := []struct {
		old, new string
		want     []string
	}{
		{`{}`, `{}`, []string{}},
		{`{"a": 1}`, `{"a": 1.0}`, []string{}},
		{`{"a": 1}`, `{"a": 2}`, []string{"/a"}},
		{`{"a": 1}`, `{"b": 1}`, []string{"/a", "/b"}},
		{`{"a": 1}`, `{"a": 1, "b": 2}`, []string{"/b"}},
		{`{"a": 1, "b": 2}`, `{"a": 1}`, []string{"/b"}},
		{`{"a": 1, "b": 2}`, `{"a": 1, "c": 2}`, []string{"/b", "/c"}},
		{`{"a": {"b": {"c": 1, "d": [1, 2]}}}`, `{"a": {"b": {"c": 1, "d": [1, 3]}}}`, []string{"/a/b/d/1"}},
		{`{"l": [1, 2]}`, `{"l": [1, 2, 3]}`, []string{"/l"}},
		{`{"l": [1]}`, `{"l": {"0": 1}}`, []string{"/l"}},
		{`{"a/b": {"c~d": 1}}`, `{"a/b": {"c~d": 2}}`, []string{"/a~1b/c~0d"}},
		{`{"a": null}`, `{}`, []string{"/a"}},
		{`1`, `"1"`, []string{""}},
		{`null`, `{}`, []string{""}},
	}
	for _, tt := range tests {
		got := params.Diff(yamlValue(t, nil, tt.old), yamlValue(t, nil, tt.new))
		assert.Equal(t, tt.want, got, "%s → %s", tt.old, tt.new)
	}
}

func TestUpdateDefaultOptions(t *testing.T) {
	s, err := schema.Parse([]byte(`
type: object
properties:
  backup:
    type: object
    properties:
      enabled: {type: boolean, default: false}
  name: {type: string}
`))
	require.NoError(t, err)
	set := []string{"name=x"}
	r, err := (&params.Update{Schema: s, Old: map[string]any{}, Set: set}).Run()
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"name": "x", "backup": map[string]any{"enabled": false}}, r.Values, "a parent is created for its defaults")
	assert.Equal(t, []string{"/name"}, r.Changed, "both sides are defaulted before the diff")

	r, err = (&params.Update{Schema: s, Old: map[string]any{}, Set: set, Defaults: []params.Option{params.Structural()}}).Run()
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"name": "x"}, r.Values, "structural defaulting creates no parent")
}

// TestUpdateOnArrays: a name where the values hold an array means the user
// took the array for an object, and the error says so at the array.
func TestUpdateOnArrays(t *testing.T) {
	s := mustSchema(t, "{}")
	type want struct{ ptr, msg string }
	tests := []struct {
		name string
		old  string
		e    edits
		want want
	}{
		{"a name on array values", `[1, 2, 3]`, edits{set: []string{"logLevel=INFO"}},
			want{"", `the values at "" are an array, not an object: "logLevel" is no array index`}},
		{"a name below an array", `{"topology": [{"dc": "a"}]}`, edits{set: []string{"topology.dc=x"}},
			want{"/topology", `the values at /topology are an array, not an object: "dc" is no array index`}},
		{"an empty name on an array", `{"l": []}`, edits{set: []string{"/l//x=1"}},
			want{"/l", `/l are an array, not an object: "" is no array index`}},
		{"an index out of range stays at the index", `[1, 2, 3]`, edits{set: []string{"5=1"}},
			want{"/5", "index 5 is out of range"}},
		{"a leading zero stays at the index", `[1, 2, 3]`, edits{set: []string{"01=1"}},
			want{"/01", `"01" is not an array index`}},
		{"add: a name on array values", `[1, 2, 3]`, edits{ops: []string{"add logLevel=INFO"}},
			want{"", `the values at "" are an array, not an object: "logLevel" is no array index`}},
		{"add: a name below an array", `{"a": []}`, edits{ops: []string{"add a/b/c=1"}},
			want{"/a", `the values at /a are an array, not an object: "b" is no array index`}},
		{"remove: a name on array values", `[1]`, edits{ops: []string{"remove x"}},
			want{"", `the values at "" are an array, not an object: "x" is no array index`}},
		{"replace: an index out of range stays at the index", `[1]`, edits{ops: []string{"replace 1=2"}},
			want{"/1", "index 1 is out of range"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := runUpdate(t, s, yamlValue(t, nil, tt.old), tt.e)
			assert.Zero(t, r)
			var errs schema.ErrorList
			require.True(t, problem.As(err, &errs))
			require.Len(t, errs, 1, "%v", err)
			assert.Equal(t, tt.want.ptr, errs[0].Pointer)
			assert.Contains(t, errs[0].Message, tt.want.msg)
		})
	}
}
