package params_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// absent is the want of a pointer that must hold nothing.
const absent = "absent"

// setCase is one update of testdata/set/schema.yaml: the old values
// (YAML, "" for an install), the -p assignments, and what must hold
// after: JSON at each pointer (or absent), or errors containing each
// text.
type setCase struct {
	name string
	old  string
	set  []string
	want map[string]string
	errs []string
}

func runSetCases(t *testing.T, s *schema.Schema, tests []setCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var old any
			if tt.old != "" {
				old = yamlValue(t, s, tt.old)
			}
			before := value.DeepCopy(old)
			r, err := (&params.Update{Schema: s, Old: old, Set: tt.set}).Run()
			assert.True(t, value.Equal(before, old), "the old values are not changed")
			if tt.errs != nil {
				require.Error(t, err)
				assert.Zero(t, r)
				var list schema.ErrorList
				require.True(t, problem.As(err, &list), "%T", err)
				for _, want := range tt.errs {
					assert.Contains(t, err.Error(), want)
				}
				return
			}
			require.NoError(t, err)
			for ptr, want := range tt.want {
				got, ok := pointer.Get(r.Values, ptr)
				if want == absent {
					assert.False(t, ok, "%s holds %v", ptr, got)
					continue
				}
				require.True(t, ok, "nothing at %s in %v", ptr, r.Values)
				js, _ := json.Marshal(got)
				assert.JSONEq(t, want, string(js), "at %s", ptr)
			}
			// Idempotent: the same assignments on the result change nothing.
			again, err := (&params.Update{Schema: s, Old: r.Values, Set: tt.set}).Run()
			require.NoError(t, err)
			assert.True(t, value.Equal(r.Values, again.Values), "again: %v", again.Values)
			assert.Empty(t, again.Changed)
		})
	}
}

// TestSetThroughBranches: a key is declared when any branch declares it,
// and its text is typed by the branch that the final validation accepts
// (cluster-aws's nodePools.pool0.maxSize, issue 23).
func TestSetThroughBranches(t *testing.T) {
	s := mustSchemaFile(t, "testdata/set/schema.yaml")
	runSetCases(t, s, []setCase{
		{name: "second oneOf branch behind a closed first", old: "pools: {pool0: {minSize: 1}}",
			set: []string{"pools.pool0.maxSize=7"}, want: map[string]string{"/pools/pool0": `{"minSize": 1, "maxSize": 7}`}},
		{name: "new pattern property, branch key", set: []string{"pools.pool1.maxSize=3", "pools.pool1.labels={a,b}"},
			want: map[string]string{"/pools/pool1": `{"maxSize": 3, "labels": ["a", "b"]}`}},
		{name: "first branch: number or string", old: "pools: {kpool: {type: karpenter}}",
			set: []string{"pools.kpool.cpu=2", "pools.kpool.expireAfter=720h"}, want: map[string]string{"/pools/kpool/cpu": `2`, "/pools/kpool/expireAfter": `"720h"`}},
		{name: "first branch: string of a number or string", old: "pools: {kpool: {type: karpenter}}",
			set: []string{"pools.kpool.cpu=500m"}, want: map[string]string{"/pools/kpool/cpu": `"500m"`}},
		{name: "anyOf: integer branch", set: []string{"service.port=8080"}, want: map[string]string{"/service/port": `8080`}},
		{name: "anyOf: string branch", set: []string{"service.port=http"}, want: map[string]string{"/service/port": `"http"`}},
		{name: "then: integer", old: "storage: {kind: disk}", set: []string{"storage.size=10"}, want: map[string]string{"/storage/size": `10`}},
		{name: "else: the same text is a string", old: "storage: {kind: bucket}", set: []string{"storage.size=10"},
			want: map[string]string{"/storage/size": `"10"`}},
		{name: "else, chosen by an earlier assignment", old: "storage: {kind: disk, size: 5}", set: []string{"storage.kind=bucket", "storage.size=10"},
			want: map[string]string{"/storage": `{"kind": "bucket", "size": "10"}`}},
		{name: "oneOf objects: integer branch", set: []string{"shape.circle=3"}, want: map[string]string{"/shape": `{"circle": 3}`}},
		{name: "oneOf objects: string branch keeps 007", set: []string{"shape.name=007"}, want: map[string]string{"/shape": `{"name": "007"}`}},
		{name: "patternProperties through $ref", old: "pools: {abc: {}}", set: []string{"/pools/abc/minSize=2"}, want: map[string]string{"/pools/abc/minSize": `2`}},
		{name: "no branch allows the key", old: "pools: {pool0: {}}", set: []string{"pools.pool0.nope=1"},
			errs: []string{`/pools/pool0/nope: "pools.pool0.nope=1": not allowed here: "nope" (the schema does not declare it)`}},
		{name: "no branch allows it, with the closest names", old: "pools: {pool0: {}}", set: []string{"pools.pool0.maxSze=1"},
			errs: []string{`not allowed here: "maxSze" (the schema does not declare it); did you mean "maxSize"?`}},
		{name: "no pattern matches", set: []string{"pools.Bad_Name.maxSize=1"}, errs: []string{`not allowed here: "Bad_Name" (the schema does not declare it)`}},
		{name: "a text no branch takes", old: "storage: {kind: disk}", set: []string{"storage.size=abc"}, errs: []string{"/storage/size"}},
	})
}

// TestSetHelmLists: where the schema says array, Helm's `{a,b}` is a list
// typed by the items; where it says string, the text stays.
func TestSetHelmLists(t *testing.T) {
	s := mustSchemaFile(t, "testdata/set/schema.yaml")
	runSetCases(t, s, []setCase{
		{name: "strings", set: []string{"tags={a,b}"}, want: map[string]string{"/tags": `["a", "b"]`}},
		{name: "typed by items", set: []string{"ports={80,443}"}, want: map[string]string{"/ports": `[80, 443]`}},
		{name: "strings stay strings", set: []string{"tags={yes,007,1.10,null}"}, want: map[string]string{"/tags": `["yes", "007", "1.10", "null"]`}},
		{name: "escaped comma", set: []string{`tags={a\,b,c}`}, want: map[string]string{"/tags": `["a,b", "c"]`}},
		{name: "empty list", old: "tags: [x]", set: []string{"tags={}"}, want: map[string]string{"/tags": `[]`}},
		{name: "empty elements", set: []string{"tags={a,}"}, want: map[string]string{"/tags": `["a", ""]`}},
		{name: "booleans and null", set: []string{"flags={true,null,false}"}, want: map[string]string{"/flags": `[true, null, false]`}},
		{name: "array or string: a list", set: []string{"command={redis-server,--port,6380}"}, want: map[string]string{"/command": `["redis-server", "--port", "6380"]`}},
		{name: "array or string: a string", set: []string{"command=redis-server"}, want: map[string]string{"/command": `"redis-server"`}},
		{name: "YAML flow lists still work", set: []string{"tags=[a, b]"}, want: map[string]string{"/tags": `["a", "b"]`}},
		{name: "a string node keeps the braces", set: []string{"title={a,b}"}, want: map[string]string{"/title": `"{a,b}"`}},
		{name: "array or object: YAML's mapping first", set: []string{"mixed={a: 1}"}, want: map[string]string{"/mixed": `{"a": 1}`}},
		{name: "items refuse the element", set: []string{"ports={80,http}"}, errs: []string{"/ports/1"}},
		{name: "text after the brace is no list", set: []string{"tags={a,b}c"}, errs: []string{"/tags"}},
	})
}

// TestSetHelmIndexes: `name[i]` sets element i; a missing list is created
// and a short one grown, as Helm does; the other index forms must exist.
func TestSetHelmIndexes(t *testing.T) {
	s := mustSchemaFile(t, "testdata/set/schema.yaml")
	runSetCases(t, s, []setCase{
		{name: "existing element", old: "tags: [a, b]", set: []string{"tags[1]=z"}, want: map[string]string{"/tags": `["a", "z"]`}},
		{name: "typed by items", old: "ports: [1, 2]", set: []string{"ports[0]=80"}, want: map[string]string{"/ports": `[80, 2]`}},
		{name: "inside a dotted path", old: "hosts: [{name: a}, {name: b}]", set: []string{"hosts[1].port=8080"},
			want: map[string]string{"/hosts/1": `{"name": "b", "port": 8080}`}},
		{name: "missing list created", set: []string{"hosts[0].name=web", "hosts[0].paths[0]=/api"},
			want: map[string]string{"/hosts": `[{"name": "web", "paths": ["/api"]}]`}},
		{name: "grown one at a time", old: "tags: [a]", set: []string{"tags[1]=b", "tags[2]=c"}, want: map[string]string{"/tags": `["a", "b", "c"]`}},
		{name: "grown with null where items allow it", set: []string{"flags[2]=true"}, want: map[string]string{"/flags": `[null, null, true]`}},
		{name: "nested indexes", set: []string{"free.list[0][1]=x"}, want: map[string]string{"/free/list": `[[null, "x"]]`}},
		{name: "leading zeros as Helm reads them", old: "tags: [a, b]", set: []string{"tags[01]=z"}, want: map[string]string{"/tags": `["a", "z"]`}},
		{name: "escaped bracket is a key", set: []string{`labels.a\[0\]=x`}, want: map[string]string{"/labels/a[0]": `"x"`}},
		{name: "a pointer's brackets are a key", set: []string{"/labels/b[1]=x"}, want: map[string]string{"/labels/b[1]": `"x"`}},
		{name: "pointer index must exist", old: "tags: [a]", set: []string{"tags/1=b"}, errs: []string{"an array index must already exist"}},
		{name: "dotted index must exist", set: []string{"tags.0=b"}, errs: []string{"/tags is not set and is an array", "Helm's tags[0]"}},
		{name: "padding null refused by the items", set: []string{"tags[1]=b"},
			errs: []string{"/tags/0", `"tags[1]=b": Helm's index [1] fills the elements before it with null`}},
		{name: "an object is no array", set: []string{"labels[0]=x"}, errs: []string{"/labels is not set and the schema makes it an object: [0] indexes an array"}},
		{name: "existing object", old: "labels: {a: b}", set: []string{"labels[0]=x"}, errs: []string{"the values at /labels are an object, not an array"}},
		{name: "past prefixItems and items: false", set: []string{"tuple[2]=x"}, errs: []string{"/tuple/2"}},
	})
}

// TestSetNull: the text null removes the key, as Helm does, unless the
// node allows null; nothing is created to remove nothing.
func TestSetNull(t *testing.T) {
	s := mustSchemaFile(t, "testdata/set/schema.yaml")
	runSetCases(t, s, []setCase{
		{name: "removes a string", old: "title: x", set: []string{"title=null"}, want: map[string]string{"/title": absent}},
		{name: "Null and NULL too", old: "title: x\ntags: [a]", set: []string{"title=Null", "tags=NULL"}, want: map[string]string{"/title": absent, "/tags": absent}},
		{name: "quoted, it is the text", set: []string{`title="null"`}, want: map[string]string{"/title": `"null"`}},
		{name: "tilde stays text on a string node", set: []string{"title=~"}, want: map[string]string{"/title": `"~"`}},
		{name: "a default fills the removed key", old: "replicas: 3", set: []string{"replicas=null"}, want: map[string]string{"/replicas": `1`}},
		{name: "type with null: null is set", old: "comment: x", set: []string{"comment=null"}, want: map[string]string{"/comment": `null`}},
		{name: "enum with null: null is set", set: []string{"choice=null"}, want: map[string]string{"/choice": `null`}},
		{name: "nullable, which validation does not read: removed", old: "note: x", set: []string{"note=null"}, want: map[string]string{"/note": absent}},
		{name: "nothing created on the way", set: []string{"service.port=null", "pools.pool0.maxSize=null"}, want: map[string]string{"/service": absent, "/pools": absent}},
		{name: "in a branch", old: "pools: {pool0: {minSize: 1, maxSize: 2}}", set: []string{"pools.pool0.maxSize=null"},
			want: map[string]string{"/pools/pool0": `{"minSize": 1}`}},
		{name: "a key the schema forbids can be removed", old: "pools: {pool0: {minSize: 1}}", set: []string{"pools.pool0.minSize=null", "pools.pool0.maxSize=4"},
			want: map[string]string{"/pools/pool0": `{"maxSize": 4}`}},
		{name: "an element is set to null", old: "flags: [true, false]", set: []string{"flags[1]=null"}, want: map[string]string{"/flags": `[true, null]`}},
		{name: "an element past the end where items allow null: grown", old: "flags: [true]", set: []string{"flags[3]=null"},
			want: map[string]string{"/flags": `[true, null, null, null]`}},
		{name: "an element past the end: nothing to remove", old: "tags: [a]", set: []string{"tags[3]=null", "ports[0]=null"},
			want: map[string]string{"/tags": `["a"]`, "/ports": absent}},
		{name: "null refused by the items", old: "tags: [a, b]", set: []string{"tags[1]=null"}, errs: []string{"/tags/1"}},
	})
}

// TestParseAssignmentHelmIndexes: `name[i]` in a dotted path is an index
// token, marked in Brackets; anything else in brackets is an error of the
// KEY, not a literal.
func TestParseAssignmentHelmIndexes(t *testing.T) {
	tests := []struct {
		in       string
		path     []string
		brackets []bool
		err      string
	}{
		{in: "hosts[1]=z", path: []string{"hosts", "1"}, brackets: []bool{false, true}},
		{in: "a.b[0].c=1", path: []string{"a", "b", "0", "c"}, brackets: []bool{false, false, true, false}},
		{in: "a[0][2]=x", path: []string{"a", "0", "2"}, brackets: []bool{false, true, true}},
		{in: "a[007]=x", path: []string{"a", "7"}, brackets: []bool{false, true}},
		{in: `a\[0\]=x`, path: []string{"a[0]"}},
		{in: `a\.b[3]=x`, path: []string{"a.b", "3"}, brackets: []bool{false, true}},
		{in: "a/b[0]=x", path: []string{"a", "b[0]"}},
		{in: "a.0=x", path: []string{"a", "0"}},
		{in: "a[65536]=x", path: []string{"a", "65536"}, brackets: []bool{false, true}},
		{in: "a[65537]=x", err: "larger than 65536"},
		{in: "a[99999999999999999999]=x", err: "larger than 65536"},
		{in: "a[x]=1", err: `"[x]" is no index (want digits)`},
		{in: "a[-1]=1", err: "want digits"},
		{in: "a[]=1", err: "want digits"},
		{in: "a[0=1", err: "no closing ]"},
		{in: "a[0]b=1", err: `"b" after an index`},
		{in: "[0]=1", err: "an index needs a name before it"},
		{in: "a.[0]=1", err: "an index needs a name before it"},
		{in: "a[0]..b=1", err: "empty name"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			a, err := params.ParseAssignment(tt.in)
			if tt.err != "" {
				require.Error(t, err)
				assert.NotErrorIs(t, err, params.ErrMalformed, "a bad path is not a usage error")
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.path, a.Path)
			assert.Equal(t, tt.brackets, a.Brackets)
		})
	}
}

// TestSetWarnsOnlyWhereNoBranchDeclares: a key any branch declares (oneOf,
// then/else, a pattern) is no undeclared key; one none declares is, with
// the closest names of every branch.
func TestSetWarnsOnlyWhereNoBranchDeclares(t *testing.T) {
	s := mustSchemaFile(t, "testdata/set/schema.yaml")
	old := yamlValue(t, s, "pools: {pool0: {minSize: 1}}\nstorage: {kind: disk}\n")
	r, err := (&params.Update{Schema: s, Old: old, Set: []string{"pools.pool0.maxSize=7", "storage.size=3", "shape.name=x"}, Strict: true}).Run()
	require.NoError(t, err)
	assert.Empty(t, r.Warnings)

	r, err = (&params.Update{Schema: s, Old: old, Set: []string{"service.prot=80", "storage.sizee=3"}}).Run()
	require.NoError(t, err)
	var msgs []string
	for _, w := range r.Warnings {
		msgs = append(msgs, w.Error())
	}
	assert.Equal(t, []string{
		`/service/prot: "prot" is not declared by the schema; did you mean "port"?`,
		`/storage/sizee: "sizee" is not declared by the schema; did you mean "size"?`,
	}, msgs)
}
