package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-openapi/jsonpointer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	updSchema = "demo/update-schema.yaml"
	updValues = "demo/update-values.yaml"
	updPatch  = "demo/update-patch.yaml"
)

// updRun runs paramctl in-process.
func updRun(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// updResult is the -o json output of update and patch.
type updResult struct {
	Values  any      `json:"values"`
	Plan    *string  `json:"plan"`
	Changed []string `json:"changed"`
}

func updDecode(t *testing.T, out string) updResult {
	t.Helper()
	var r updResult
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&r), out)
	require.NotNil(t, r.Changed, "changed is a list, never null: %s", out)
	return r
}

func updAt(t *testing.T, v any, ptr string) any {
	t.Helper()
	x, ok := valueAt(v, ptr)
	require.True(t, ok, "nothing at %s", ptr)
	return x
}

// valueAt returns the value at ptr in doc, and whether there is one.
func valueAt(doc any, ptr string) (any, bool) {
	p, err := jsonpointer.New(ptr)
	if err != nil {
		return nil, false
	}
	v, _, err := p.Get(doc)
	return v, err == nil
}

func updWrite(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
	return p
}

func TestUpdateCommandKEPExamples(t *testing.T) {
	tests := []struct {
		arg  string
		ptr  string
		want string // JSON
	}{
		{`clusterName="NewClusterName"`, "/clusterName", `"NewClusterName"`},
		{`topology/0/datacenterName="NewDC1"`, "/topology/0/datacenterName", `"NewDC1"`},
		{`topology/0/labels/0={ key: "Usage", value: "newValue" }`, "/topology/0/labels/0", `{"key":"Usage","value":"newValue"}`},
		{`topology/0/labels=[ { key: "DCLabel", value: "dc1" }, { key: "Usage", value: "additionalItem" } ]`, "/topology/0/labels",
			`[{"key":"DCLabel","value":"dc1"},{"key":"Usage","value":"additionalItem"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			code, out, errs := updRun(t, "", "update", "--schema", updSchema, "--values", updValues, "-p", tt.arg, "-o", "json")
			require.Equal(t, exitOK, code, errs)
			r := updDecode(t, out)
			var want any
			require.NoError(t, json.Unmarshal([]byte(tt.want), &want))
			got, _ := json.Marshal(updAt(t, r.Values, tt.ptr))
			wantJSON, _ := json.Marshal(want)
			assert.JSONEq(t, string(wantJSON), string(got))
			require.NotNil(t, r.Plan)
			assert.Equal(t, "deploy", *r.Plan)
		})
	}
}

func TestUpdateCommandYAML(t *testing.T) {
	code, out, errs := updRun(t, "", "update", "--schema", updSchema, "--values", updValues,
		"-p", "topology.1.datacenterName=dc9", "-p", "nodeCount=9007199254740993")
	require.Equal(t, exitOK, code, errs)
	assert.Equal(t, `clusterName: prod
nodeCount: 9007199254740993
topology:
  - datacenterName: dc1
    labels:
      - key: Usage
        value: primary
  - datacenterName: dc9
    labels: []
Authorization:
  ENABLED: false
  NAME: admin
storage:
  class: fast
  size: 10Gi
`, out)
	// Issue 16: the plan and the changed pointers go to standard error in
	// the default output (it was empty), the values alone to standard output.
	assert.Equal(t, "plan: deploy (changed /nodeCount, /topology/1/datacenterName)\n", errs)
}

func TestUpdateCommandPlans(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		plan    any // nil for JSON null
		changed []string
	}{
		{"a trigger", []string{"-p", "Authorization.ENABLED=true"}, "auth-update", []string{"/Authorization/ENABLED"}},
		{"the default plan", []string{"-p", "nodeCount=4"}, "deploy", []string{"/nodeCount"}},
		{"the configured default plan", []string{"-p", "nodeCount=4", "--default-plan", "reconcile"}, "reconcile", []string{"/nodeCount"}},
		{"KUDO's rule with an update plan", []string{"-p", "nodeCount=4", "--plans", "deploy,update"}, "update", []string{"/nodeCount"}},
		{"KUDO's rule without one", []string{"-p", "nodeCount=4", "--plans", "deploy,backup"}, "deploy", []string{"/nodeCount"}},
		{"nothing changed", []string{"-p", "nodeCount=3"}, nil, []string{}},
		{"nothing at all", nil, nil, []string{}},
		{"-P then -p, whatever the flag order", []string{"-p", "nodeCount=7", "-P", updPatch}, "deploy",
			[]string{"/nodeCount", "/topology/1/datacenterName", "/topology/1/labels"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"update", "--schema", updSchema, "--values", updValues, "-o", "json"}, tt.args...)
			code, out, errs := updRun(t, "", args...)
			require.Equal(t, exitOK, code, errs)
			r := updDecode(t, out)
			if tt.plan == nil {
				assert.Nil(t, r.Plan)
				assert.Contains(t, out, `"plan": null`)
				assert.Contains(t, out, `"changed": []`)
			} else {
				require.NotNil(t, r.Plan)
				assert.Equal(t, tt.plan, *r.Plan)
			}
			assert.Equal(t, tt.changed, r.Changed)
		})
	}
	// -p wins over -P.
	_, out, _ := updRun(t, "", "update", "--schema", updSchema, "--values", updValues, "-o", "json", "-p", "nodeCount=7", "-P", updPatch)
	assert.Equal(t, json.Number("7"), updAt(t, updDecode(t, out).Values, "/nodeCount"))
}

func TestUpdateCommandInstall(t *testing.T) {
	code, out, errs := updRun(t, "", "update", "--schema", updSchema, "-p", "storage.size=1Ti", "-p", "Authorization.NAME=x", "-o", "json")
	require.Equal(t, exitOK, code, errs)
	r := updDecode(t, out)
	require.NotNil(t, r.Plan)
	assert.Equal(t, "deploy", *r.Plan)
	assert.Equal(t, []string{""}, r.Changed)
	assert.Equal(t, "1Ti", updAt(t, r.Values, "/storage/size"))
	assert.Equal(t, "my-cluster", updAt(t, r.Values, "/clusterName"))

	// Empty current values are values, not an install.
	empty := updWrite(t, "empty.yaml", "# nothing set yet\n")
	code, out, errs = updRun(t, "", "update", "--schema", updSchema, "--values", empty, "-o", "json", "-p", "nodeCount=3")
	require.Equal(t, exitOK, code, errs)
	assert.Nil(t, updDecode(t, out).Plan)

	// Current values from standard input.
	code, out, errs = updRun(t, "nodeCount: 2\n", "update", "--schema", updSchema, "--values", "-", "-o", "json", "-p", "nodeCount=3")
	require.Equal(t, exitOK, code, errs)
	assert.Equal(t, []string{"/nodeCount"}, updDecode(t, out).Changed)
}

func TestUpdateCommandRefusals(t *testing.T) {
	conflicting := updWrite(t, "conflict.yaml", "type: object\nproperties:\n  a: {type: object, trigger: x, properties: {b: {type: string, trigger: y}}}\n")
	broken := updWrite(t, "broken.yaml", "type: [object\n")
	badValues := updWrite(t, "bad.yaml", "a: [\n")
	twoDocs := updWrite(t, "two.yaml", "a: 1\n---\na: 2\n")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"no --schema", []string{"-p", "a=1"}, exitUsage, []string{"needs --schema"}},
		{"missing schema file", []string{"--schema", "nope.yaml"}, exitUsage, []string{"nope.yaml"}},
		{"malformed schema", []string{"--schema", broken}, exitUsage, []string{broken}},
		{"conflicting triggers", []string{"--schema", conflicting, "-p", "a.b=x"}, exitUsage,
			[]string{`/properties/a/properties/b: trigger "y" differs from trigger "x" of its ancestor /properties/a`, "conflict"}},
		{"unknown output", []string{"--schema", updSchema, "-o", "xml"}, exitUsage, []string{"xml"}},
		{"positional argument", []string{"--schema", updSchema, "values.yaml"}, exitUsage, []string{"no positional"}},
		{"missing values file", []string{"--schema", updSchema, "--values", "nope.yaml"}, exitUsage, []string{"--values nope.yaml"}},
		{"malformed values", []string{"--schema", updSchema, "--values", badValues}, exitUsage, []string{"--values " + badValues}},
		{"two value documents", []string{"--schema", updSchema, "--values", twoDocs}, exitUsage, []string{"2 documents"}},
		{"missing -P file", []string{"--schema", updSchema, "-P", "nope.yaml"}, exitUsage, []string{"-P nope.yaml"}},
		{"malformed -P file", []string{"--schema", updSchema, "-P", badValues}, exitUsage, []string{"-P " + badValues}},
		{"-p without =", []string{"--schema", updSchema, "--values", updValues, "-p", "nodeCount"}, exitUsage, []string{`"nodeCount"`, "KEY=VALUE"}},
		{"-p with a bad escape", []string{"--schema", updSchema, "--values", updValues, "-p", "a/b~2=1"}, exitInvalid, []string{`"a/b~2=1"`, "~2"}},
		{"-p index past the end", []string{"--schema", updSchema, "--values", updValues, "-p", "topology/5/datacenterName=x"}, exitInvalid,
			[]string{`/topology/5: "topology/5/datacenterName=x": index 5 is out of range`}},
		{"-p append", []string{"--schema", updSchema, "--values", updValues, "-p", "topology/-={datacenterName: x}"}, exitInvalid,
			[]string{`/topology/-: "topology/-={datacenterName: x}"`}},
		{"-p below a scalar", []string{"--schema", updSchema, "--values", updValues, "-p", "clusterName.x=1"}, exitInvalid,
			[]string{`/clusterName: "clusterName.x=1": /clusterName is a string`}},
		{"invalid result, every error", []string{"--schema", updSchema, "--values", updValues, "-p", "nodeCount=0", "-p", "Authorization.ENABLED=maybe"}, exitInvalid,
			[]string{"/Authorization/ENABLED: ", "/nodeCount: "}},
		{"immutable", []string{"--schema", updSchema, "--values", updValues, "-p", "storage.size=20Gi"}, exitInvalid,
			[]string{"/storage/size: cannot be changed: /storage is immutable"}},
		{"two plans", []string{"--schema", updSchema, "--values", updValues, "-p", "Authorization.ENABLED=true", "-p", "nodeCount=4"}, exitInvalid,
			[]string{`/Authorization/ENABLED: triggers plan "auth-update"`, `/nodeCount: triggers plan "deploy"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := updRun(t, "", append([]string{"update"}, tt.args...)...)
			assert.Equal(t, tt.code, code, errs)
			assert.Empty(t, out, "nothing is written unless every step passed")
			for _, s := range tt.stderr {
				assert.Contains(t, errs, s)
			}
		})
	}
}

const (
	setSchema = "testdata/set/values.schema.json"
	setValues = "testdata/set/values.yaml"
)

// TestUpdateCommandHelmSet: `update -p` and `patch --add/--replace` as a
// chart user writes them: keys of any oneOf branch, Helm's {a,b} and
// name[i] where the schema says array, KEY=null removing the key.
func TestUpdateCommandHelmSet(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want map[string]string // pointer: JSON, or "absent"
	}{
		{"a key of the second oneOf branch (issue 23)", []string{"update", "-p", "nodePools.pool0.maxSize=7"},
			map[string]string{"/nodePools/pool0": `{"instanceType": "m5.xlarge", "minSize": 3, "maxSize": 7}`}},
		{"the first branch, number or string", []string{"update", "-p", "nodePools.karp1.type=karpenter", "-p", "nodePools.karp1.limits.cpu=500m"},
			map[string]string{"/nodePools/karp1": `{"type": "karpenter", "limits": {"cpu": "500m"}}`}},
		{"Helm list", []string{"update", "-p", "tags={a,b}", "-p", "nodePools.pool0.zones={eu-west-1a,eu-west-1b}"},
			map[string]string{"/tags": `["a", "b"]`, "/nodePools/pool0/zones": `["eu-west-1a", "eu-west-1b"]`}},
		{"a string keeps its braces", []string{"update", "-p", "title={a,b}"}, map[string]string{"/title": `"{a,b}"`}},
		{"Helm index, existing and next", []string{"update", "-p", "hosts[0].port=8080", "-p", "hosts[1].name=api"},
			map[string]string{"/hosts": `[{"name": "web", "port": 8080}, {"name": "api"}]`}},
		{"null removes", []string{"update", "-p", "proxy=null"}, map[string]string{"/proxy": "absent"}},
		{"null where null is allowed", []string{"update", "-p", "comment=null"}, map[string]string{"/comment": `null`}},
		{"patch: replace in a branch", []string{"patch", "--replace", "nodePools.pool0.minSize=1", "--add", "nodePools.pool0.maxSize=9"},
			map[string]string{"/nodePools/pool0/minSize": `1`, "/nodePools/pool0/maxSize": `9`}},
		{"patch: a Helm index names an element", []string{"patch", "--replace", "hosts[0].name=www"}, map[string]string{"/hosts/0/name": `"www"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{tt.args[0], "--schema", setSchema, "--values", setValues, "-o", "json"}, tt.args[1:]...)
			code, out, errs := updRun(t, "", args...)
			require.Equal(t, exitOK, code, errs)
			assert.NotContains(t, errs, "warning:", "every key is declared")
			r := updDecode(t, out)
			for ptr, want := range tt.want {
				got, ok := valueAt(r.Values, ptr)
				if want == "absent" {
					assert.False(t, ok, "%s holds %v", ptr, got)
					continue
				}
				require.True(t, ok, "nothing at %s", ptr)
				js, _ := json.Marshal(got)
				assert.JSONEq(t, want, string(js), ptr)
			}
		})
	}
}

func TestUpdateCommandHelmSetRefusals(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"no branch allows the key", []string{"-p", "nodePools.pool0.maxSze=7"}, exitInvalid,
			[]string{`/nodePools/pool0/maxSze: "nodePools.pool0.maxSze=7": not allowed here: "maxSze" (the schema does not declare it); did you mean "maxSize"?`}},
		{"the other branch's key fails validation", []string{"-p", "nodePools.pool0.limits.cpu=2"}, exitInvalid, []string{"/nodePools/pool0"}},
		{"not an index", []string{"-p", "hosts[x].name=a"}, exitInvalid, []string{`"[x]" is no index`, "write `\\[` for a literal bracket"}},
		{"index too large", []string{"-p", "tags[70000]=a"}, exitInvalid, []string{"larger than 65536"}},
		{"pointer index past the end", []string{"-p", "hosts/3/name=a"}, exitInvalid, []string{"index 3 is out of range"}},
		{"padding null refused", []string{"-p", "tags[1]=b"}, exitInvalid, []string{"/tags/0: ", `"tags[1]=b": Helm's index [1] fills the elements before it with null`}},
		{"items refuse an element", []string{"-p", "nodePools.pool0.zones={a,{b}}", "-p", "hosts={a}"}, exitInvalid, []string{"/hosts/0: "}},
		{"still a usage error without =", []string{"-p", "tags[0]"}, exitUsage, []string{"KEY=VALUE"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := updRun(t, "", append([]string{"update", "--schema", setSchema, "--values", setValues}, tt.args...)...)
			assert.Equal(t, tt.code, code, errs)
			assert.Empty(t, out, "nothing is written unless every step passed")
			for _, s := range tt.stderr {
				assert.Contains(t, errs, s)
			}
		})
	}
}

// TestUpdateCommandMergePatchThroughBranches: a -P file's keys of any
// branch are declared (no warning) and accepted.
func TestUpdateCommandMergePatchThroughBranches(t *testing.T) {
	patch := updWrite(t, "patch.yaml", "nodePools:\n  pool0:\n    maxSize: 7\n  karp1:\n    type: karpenter\n    limits: {cpu: 2}\n")
	code, out, errs := updRun(t, "", "update", "--schema", setSchema, "--values", setValues, "-P", patch, "--strict", "-o", "json")
	require.Equal(t, exitOK, code, errs)
	r := updDecode(t, out)
	js, _ := json.Marshal(updAt(t, r.Values, "/nodePools"))
	assert.JSONEq(t, `{"pool0": {"instanceType": "m5.xlarge", "minSize": 3, "maxSize": 7}, "karp1": {"type": "karpenter", "limits": {"cpu": 2}}}`, string(js))
}
