package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const demoSchema = "demo/kep-upgraded-schema.yaml"

// paramctl runs the command in-process.
func paramctl(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// cliCase is one paramctl run of a table test: its arguments and
// standard input, the exit code it must end with, and text that must (or
// must not) appear on standard output and standard error.
type cliCase struct {
	name          string
	args          []string
	stdin         string
	code          int
	out, err      []string
	notOut, notEr []string
}

// run runs c (its arguments after prefix) and asserts what c says; it
// returns the run's code and output for the checks a test adds.
func (c cliCase) run(t *testing.T, prefix ...string) (code int, out, errs string) {
	t.Helper()
	code, out, errs = paramctl(t, c.stdin, append(prefix, c.args...)...)
	assert.Equal(t, c.code, code, "stdout:\n%s\nstderr:\n%s", out, errs)
	for _, s := range c.out {
		assert.Contains(t, out, s)
	}
	for _, s := range c.err {
		assert.Contains(t, errs, s)
	}
	for _, s := range c.notOut {
		assert.NotContains(t, out, s)
	}
	for _, s := range c.notEr {
		assert.NotContains(t, errs, s)
	}
	return code, out, errs
}

func TestValidateCommand(t *testing.T) {
	tests := []cliCase{
		{name: "valid", args: []string{"validate", "--schema", demoSchema, "demo/kep-upgraded-values.yaml"}, code: 0, out: []string{"valid"}},
		{name: "flags after file", args: []string{"validate", "demo/kep-upgraded-values.yaml", "--schema", demoSchema}, code: 0, out: []string{"valid"}},
		{name: "invalid lists every error", args: []string{"validate", "--schema", demoSchema, "demo/kep-upgraded-invalid.yaml"}, code: 1,
			err: []string{"/backup/credentials/password: missing required property: \"password\"", "/backup/enabled: expected boolean, but got string \"yes\"", "/clusterName: expected string"}},
		{name: "stdin", args: []string{"validate", "--schema", demoSchema, "-"}, stdin: "clusterName: x\n", code: 0, out: []string{"valid"}},
		{name: "stream prefixes doc N", args: []string{"validate", "--schema", demoSchema, "testdata/stream.yaml"}, code: 1,
			out: []string{"doc 0: valid"}, err: []string{"doc 1: /clusterName: expected string, but got number 5", "doc 2: /backup/enabled: expected boolean, but got string \"maybe\""}},
		{name: "missing file", args: []string{"validate", "--schema", demoSchema, "nope.yaml"}, code: 2, err: []string{"nope.yaml"}},
		{name: "malformed yaml", args: []string{"validate", "--schema", demoSchema, "-"}, stdin: "a: [1,\n", code: 2, err: []string{"line"}},
		{name: "an unreadable document hides no other verdict", args: []string{"validate", "--schema", demoSchema, "-"},
			stdin: "clusterName: [a]\n---\nclusterName: [unclosed\n---\nclusterName: x\n---\nclusterName: {b: 1}\n", code: 2,
			out: []string{"doc 2: valid"}, err: []string{"doc 0: /clusterName: expected string", "doc 1: \"\": cannot read standard input: line 3, column 14: the '[' here is never closed", "doc 3: /clusterName: expected string"}},
		{name: "bad schema", args: []string{"validate", "--schema", "-", "demo/kep-upgraded-values.yaml"}, stdin: "type: int\n", code: 2, err: []string{"/type"}},
		{name: "refused ref", args: []string{"validate", "--schema", "-", "demo/kep-upgraded-values.yaml"}, stdin: `{"$ref":"file:///etc/passwd"}`, code: 2, err: []string{"/$ref", "refused"}},
		{name: "no schema", args: []string{"validate", "demo/kep-upgraded-values.yaml"}, code: 2},
		{name: "bad -o", args: []string{"validate", "--schema", demoSchema, "-o", "xml", "demo/kep-upgraded-values.yaml"}, code: 2},
		{name: "unknown flag", args: []string{"validate", "--nope"}, code: 2},
		{name: "unknown command", args: []string{"frobnicate"}, code: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t) })
	}
}

func TestValidateJSONOutput(t *testing.T) {
	code, out, _ := paramctl(t, "", "validate", "--schema", demoSchema, "-o", "json", "testdata/stream.yaml")
	assert.Equal(t, 1, code)
	var got []struct {
		Document int  `json:"document"`
		Valid    bool `json:"valid"`
		Errors   []struct {
			Pointer string `json:"pointer"`
			Message string `json:"message"`
			Kind    string `json:"kind"`
		} `json:"errors"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.Len(t, got, 3)
	assert.True(t, got[0].Valid)
	assert.NotNil(t, got[0].Errors)
	assert.Contains(t, out, `"errors": []`, "a valid document has an empty list, not null")
	assert.False(t, got[1].Valid)
	assert.Equal(t, "/clusterName", got[1].Errors[0].Pointer)
	assert.Equal(t, "type", got[1].Errors[0].Kind, "each error says its kind")
	var ptrs []string
	for _, e := range got[2].Errors {
		ptrs = append(ptrs, e.Pointer)
		assert.NotEmpty(t, e.Kind)
	}
	assert.Equal(t, []string{"/clusterName", "/backup/enabled"}, ptrs, "a missing required property at its own pointer")
}

func TestDefaultsCommand(t *testing.T) {
	code, out, errs := paramctl(t, "", "defaults", "--schema", demoSchema)
	assert.Equal(t, 0, code, errs)
	assert.Equal(t, "clusterName: my-cluster\n", out)

	code, out, _ = paramctl(t, "backup: {enabled: true, credentials: {name: a, password: b}}\n", "defaults", "--schema", demoSchema, "-o", "json", "-")
	assert.Equal(t, 0, code)
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	assert.Equal(t, "my-cluster", v["clusterName"])
	assert.True(t, strings.Index(out, "clusterName") < strings.Index(out, "backup"), "keys in schema order")

	dir := t.TempDir()
	sp := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(sp, []byte("type: object\nproperties:\n  a:\n    type: object\n    properties:\n      b: {type: integer, default: 1}\n  c: {type: [string], default: x}\n"), 0o644))
	code, out, _ = paramctl(t, "", "defaults", "--schema", sp)
	assert.Equal(t, 0, code)
	assert.Equal(t, "a:\n  b: 1\nc: x\n", out)
	code, out, _ = paramctl(t, "", "defaults", "--schema", sp, "--structural")
	assert.Equal(t, 0, code)
	assert.Equal(t, "c: x\n", out, "structural mode creates no parent")
	code, out, errs = paramctl(t, `{"c": 5}`, "defaults", "--schema", sp, "-")
	assert.Equal(t, 1, code, "defaults then validates")
	assert.Empty(t, out, "nothing is written when a document is invalid")
	assert.Contains(t, errs, "/c:")
}

func TestDemoRunsClean(t *testing.T) {
	code, out, errs := paramctl(t, "", "demo")
	assert.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errs)
	// Issue 16: the demo no longer ends with a "Done" line; a step that
	// exits otherwise than shown is reported on standard error instead.
	assert.Empty(t, errs)
	assert.Contains(t, out, "## 1. ")
}

func TestHelp(t *testing.T) {
	code, out, _ := paramctl(t, "", "help")
	assert.Equal(t, 0, code)
	for _, c := range []string{"validate", "defaults", "demo"} {
		assert.Contains(t, out, c)
	}
	code, _, _ = paramctl(t, "")
	assert.Equal(t, 2, code, "no command is a usage error")
	code, out, _ = paramctl(t, "", "validate", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "-schema")
}

// FuzzValidateCommand: no input may make paramctl panic.
func FuzzValidateCommand(f *testing.F) {
	f.Add("type: object\n", "a: 1\n")
	f.Add(`{"properties":{"a":{"type":"integer"}}}`, "a: yes\n---\n{\"a\":1}")
	f.Add("properties: {a: {$ref: '#/x'}}", "a: [")
	f.Fuzz(func(t *testing.T, schemaText, values string) {
		dir := t.TempDir()
		sp := filepath.Join(dir, "s")
		require.NoError(t, os.WriteFile(sp, []byte(schemaText), 0o644))
		var out, errb bytes.Buffer
		code := run([]string{"validate", "--schema", sp, "-"}, strings.NewReader(values), &out, &errb)
		if strings.Contains(errb.String(), "internal error") {
			t.Fatalf("panic: %s", errb.String())
		}
		if code < 0 || code > 2 {
			t.Fatalf("exit %d", code)
		}
		out.Reset()
		errb.Reset()
		code = run([]string{"defaults", "--schema", sp, "-"}, strings.NewReader(values), &out, &errb)
		if strings.Contains(errb.String(), "internal error") {
			t.Fatalf("panic: %s", errb.String())
		}
		if code < 0 || code > 2 {
			t.Fatalf("defaults: exit %d", code)
		}
	})
}
