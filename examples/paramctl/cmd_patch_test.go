package main

import (
	"encoding/json"

	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPatchCommandKEPExamples(t *testing.T) {
	// Add a new label entry to the first topology element.
	code, out, errs := updRun(t, "", "patch", "--schema", updSchema, "--values", updValues, "-o", "json",
		"--add", `topology/0/labels={ key: "NewKey", value: "NewValue" }`)
	require.Equal(t, exitOK, code, errs)
	r := updDecode(t, out)
	assert.Equal(t, []any{
		map[string]any{"key": "Usage", "value": "primary"},
		map[string]any{"key": "NewKey", "value": "NewValue"},
	}, updAt(t, r.Values, "/topology/0/labels"))
	assert.Equal(t, []string{"/topology/0/labels"}, r.Changed)

	// Remove the second label entry of the first topology element.
	code, out, errs = updRun(t, "", "patch", "--schema", updSchema, "--values", updValues, "-o", "json",
		"--add", `topology/0/labels={ key: "NewKey", value: "NewValue" }`, "--remove", "topology/0/labels/1")
	require.Equal(t, exitOK, code, errs)
	r = updDecode(t, out)
	assert.Equal(t, []any{map[string]any{"key": "Usage", "value": "primary"}}, updAt(t, r.Values, "/topology/0/labels"))
	assert.Nil(t, r.Plan, "adding and removing the same label is no change")
}

func TestPatchCommandOrder(t *testing.T) {
	// Operations apply in command-line order across the three flags.
	code, out, errs := updRun(t, "", "patch", "--schema", updSchema, "--values", updValues, "-o", "json",
		"--replace", "topology/1/datacenterName=west",
		"--add", "topology.1.labels={key: a, value: b}",
		"--replace", "topology/1/labels/0/value=c",
		"--add", "topology/1/labels/0={key: z, value: y}",
		"--remove", "topology.1.labels.1",
		"--add", "topology/-={datacenterName: dc4}")
	require.Equal(t, exitOK, code, errs)
	r := updDecode(t, out)
	assert.Equal(t, "west", updAt(t, r.Values, "/topology/1/datacenterName"))
	assert.Equal(t, []any{map[string]any{"key": "z", "value": "y"}}, updAt(t, r.Values, "/topology/1/labels"))
	assert.Equal(t, "dc4", updAt(t, r.Values, "/topology/2/datacenterName"))
	assert.Equal(t, "deploy", *r.Plan)

	// The same operations in another order fail: the label is not there yet.
	code, _, errs = updRun(t, "", "patch", "--schema", updSchema, "--values", updValues,
		"--replace", "topology/1/labels/0/value=c",
		"--add", "topology.1.labels={key: a, value: b}")
	assert.Equal(t, exitInvalid, code)
	assert.Contains(t, errs, `/topology/1/labels/0: "replace topology/1/labels/0/value=c": index 0 is out of range`)
}

func TestPatchCommandRefusals(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no --values", []string{"--schema", updSchema, "--add", "nodeCount=1"}, exitUsage, "needs --values"},
		{"--add without =", []string{"--schema", updSchema, "--values", updValues, "--add", "nodeCount"}, exitUsage, "KEY=VALUE"},
		{"--remove without a path", []string{"--schema", updSchema, "--values", updValues, "--remove", ""}, exitUsage, "remove needs a path"},
		{"bad escape", []string{"--schema", updSchema, "--values", updValues, "--remove", "a/~"}, exitInvalid, "invalid escape"},
		{"remove what is not there", []string{"--schema", updSchema, "--values", updValues, "--remove", "Authorization/ENABLED"}, exitInvalid,
			`/Authorization/ENABLED: "remove Authorization/ENABLED": /Authorization/ENABLED does not exist`},
		{"immutable", []string{"--schema", updSchema, "--values", updValues, "--replace", "storage/class=slow"}, exitInvalid,
			"/storage/class: cannot be changed: /storage is immutable"},
		{"invalid result", []string{"--schema", updSchema, "--values", updValues, "--remove", "topology/0/datacenterName"}, exitInvalid,
			"/topology/0/datacenterName: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := updRun(t, "", append([]string{"patch"}, tt.args...)...)
			assert.Equal(t, tt.code, code, errs)
			assert.Empty(t, out)
			assert.Contains(t, errs, tt.stderr)
		})
	}
}

// TestPatchCommandJSONPatch: --json-patch applies an RFC 6902 document
// (values exactly as JSON gives them, test and move included), then the
// checks of update; its failures keep update's exit codes.
func TestPatchCommandJSONPatch(t *testing.T) {
	patch := `[
		{"op": "test", "path": "/clusterName", "value": "prod"},
		{"op": "add", "path": "/topology/1/labels/-", "value": {"key": "a", "value": "b"}},
		{"op": "copy", "from": "/topology/1/labels/0", "path": "/topology/0/labels/-"},
		{"op": "add", "path": "/nodeCount", "value": 9007199254740993}
	]`
	code, out, errs := updRun(t, patch, "patch", "--schema", updSchema, "--values", updValues, "-o", "json", "--json-patch", "-")
	require.Equal(t, exitOK, code, errs)
	r := updDecode(t, out)
	assert.Equal(t, []any{map[string]any{"key": "a", "value": "b"}}, updAt(t, r.Values, "/topology/1/labels"))
	assert.Len(t, updAt(t, r.Values, "/topology/0/labels"), 2)
	assert.Equal(t, json.Number("9007199254740993"), updAt(t, r.Values, "/nodeCount"), "numbers stay exact")
	assert.Equal(t, []string{"/nodeCount", "/topology/0/labels", "/topology/1/labels"}, r.Changed)

	tests := []struct {
		name, patch string
		args        []string
		code        int
		stderr      string
	}{
		{"a string stays a string", `[{"op": "add", "path": "/nodeCount", "value": "5"}]`, nil, exitInvalid, "/nodeCount: "},
		{"a failed test", `[{"op": "test", "path": "/clusterName", "value": "dev"}]`, nil, exitInvalid, "/0/value: "},
		{"immutable", `[{"op": "replace", "path": "/storage/class", "value": "slow"}]`, nil, exitInvalid, "/storage/class: cannot be changed"},
		{"not JSON", `[`, nil, exitUsage, ""},
		{"no operation", `[{"path": "/a"}]`, nil, exitUsage, "/0"},
		{"with --add", `[]`, []string{"--add", "nodeCount=1"}, exitUsage, "cannot be combined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"patch", "--schema", updSchema, "--values", updValues, "--json-patch", "-"}, tt.args...)
			code, out, errs := updRun(t, tt.patch, args...)
			assert.Equal(t, tt.code, code, errs)
			assert.Empty(t, out)
			assert.Contains(t, errs, tt.stderr)
		})
	}
}
