package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// copySchema puts a copy of the demo schema in a temporary directory.
func copySchema(t *testing.T) (path, original string) {
	t.Helper()
	data, err := os.ReadFile(demoSchema)
	require.NoError(t, err)
	path = filepath.Join(t.TempDir(), "params.yaml")
	require.NoError(t, os.WriteFile(path, data, 0o640))
	return path, string(data)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(data)
}

func TestAddParamWritesInPlace(t *testing.T) {
	path, original := copySchema(t)
	code, out, errs := paramctl(t, "", "add-param", "--schema", path, "--path", "/backup/retentionDays", "--type", "integer",
		"--default", "7", "--required", "--title", "Retention days", "--description", "Days a backup is kept.")
	require.Equal(t, 0, code, errs)
	assert.Empty(t, out)
	want := strings.Replace(original, "    - enabled    \n", "    - enabled    \n    - retentionDays\n", 1)
	want = strings.TrimSuffix(want, "\n") + `
      retentionDays:
        type: integer
        title: Retention days
        description: Days a backup is kept.
        default: 7
`
	assert.Equal(t, want, readFile(t, path))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm(), "the file keeps its mode")
	entries, _ := os.ReadDir(filepath.Dir(path))
	assert.Len(t, entries, 1, "no temporary file is left behind")

	// The result is a schema the other commands read.
	code, out, _ = paramctl(t, "", "list", "--schema", path, "-o", "json")
	require.Equal(t, 0, code)
	assert.Contains(t, out, `"pointer": "/backup/retentionDays"`)
}

func TestAddParamCommand(t *testing.T) {
	tests := []cliCase{
		{name: "dry run prints", args: []string{"--path", "backup.schedule", "--type", "string", "--enum", "daily", "--enum", "weekly", "--default", "daily", "--trigger", "backup-plan", "--dry-run"}, code: 0,
			out: []string{"      schedule:\n        type: string\n        default: daily\n        enum: [daily, weekly]\n        trigger: backup-plan\n"}},
		{name: "a number default stays exact", args: []string{"--path", "/ratio", "--type", "number", "--default", "0.10000000000000000001", "--dry-run"}, code: 0,
			out: []string{"default: 0.10000000000000000001"}},
		{name: "an array default from terse flow text", args: []string{"--path", "/zones", "--type", "array", "--default", "[a,b]", "--dry-run"}, code: 0,
			out: []string{"default: [a, b]"}},
		{name: "a string default that looks like a number", args: []string{"--path", "/version", "--type", "string", "--default", "1.10", "--dry-run"}, code: 0,
			out: []string{`default: "1.10"`}},
		{name: "existing parameter", args: []string{"--path", "/backup/enabled", "--type", "boolean"}, code: 1, err: []string{"already exists"}},
		{name: "default of the wrong type", args: []string{"--path", "/n", "--type", "integer", "--default", "seven"}, code: 1, err: []string{"/n", "does not satisfy"}},
		{name: "trigger conflict", args: []string{"--path", "/backup/x", "--type", "string", "--trigger", "a"}, code: 0},
		{name: "unknown type", args: []string{"--path", "/n", "--type", "int"}, code: 2, err: []string{`"int"`, "string, integer, number, boolean, object, array, null"}},
		{name: "missing path", args: []string{"--type", "string"}, code: 2, err: []string{"--path"}},
		{name: "bad pointer", args: []string{"--path", "/a~2", "--type", "string"}, code: 2, err: []string{"--path"}},
		{name: "positional argument", args: []string{"extra", "--path", "/n", "--type", "string"}, code: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, original := copySchema(t)
			code, _, _ := tt.run(t, "add-param", "--schema", path)
			if code != 0 || strings.Contains(strings.Join(tt.args, " "), "--dry-run") {
				assert.Equal(t, original, readFile(t, path), "nothing written")
			}
		})
	}
}

func TestAddParamStdin(t *testing.T) {
	code, out, errs := paramctl(t, `{"type": "object", "properties": {}}`, "add-param", "--schema", "-", "--path", "a.b", "--type", "boolean", "--required")
	require.Equal(t, 0, code, errs)
	assert.Equal(t, `{"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "boolean"}}, "required": ["b"]}}}`, out)

	code, _, errs = paramctl(t, "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: A\n", "add-param", "--schema", "-", "--path", "/b", "--type", "string")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "convert it to a v1beta2 schema first")
	code, _, errs = paramctl(t, "", "add-param", "--schema", "testdata/lint/operatorversion.yaml", "--path", "/b", "--type", "string", "--dry-run")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "OperatorVersion")

	code, _, _ = paramctl(t, "", "add-param", "--schema", "missing.yaml", "--path", "/a", "--type", "string")
	assert.Equal(t, 2, code)
	code, _, errs = paramctl(t, "type: int\n", "add-param", "--schema", "-", "--path", "/a", "--type", "string")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "/type")
}

func TestAddParamInteractive(t *testing.T) {
	path, original := copySchema(t)
	answers := strings.Join([]string{
		"/backup/enabled",  // exists: asked again
		"backup.retention", // dotted path
		"int",              // not a type: asked again
		"integer",          // type
		"",                 // title: take the suggestion
		"Days a backup is kept.",
		"seven", // not an integer: asked again
		"7",     // default
		"5,ten", // an enum value that is no integer: asked again
		"1, 2",  // the default is not among them: asked again
		"",      // no enum
		"y",     // required
		"",      // trigger: inherited
		"maybe", // asked again
		"n",     // not immutable
		"",      // write: yes
	}, "\n") + "\n"
	code, out, errs := paramctl(t, answers, "add-param", "--schema", path, "--interactive")
	require.Equal(t, 0, code, errs)
	assert.Empty(t, out)
	assert.Contains(t, errs, "/backup/enabled already exists")
	assert.Contains(t, errs, `type "int" is not a JSON Schema type`)
	assert.Contains(t, errs, "Title [Retention]")
	assert.Contains(t, errs, "Trigger (the plan a change runs) [deploy]")
	assert.Contains(t, errs, "please answer y or n")
	assert.Contains(t, errs, `allowed value "ten": expected integer, but got string "ten"`)
	assert.Contains(t, errs, `default "7": value must be one of 1, 2`)
	assert.Equal(t, 3, strings.Count(errs, "Allowed values, comma-separated"), "the enum is asked until it fits:\n%s", errs)
	assert.Contains(t, errs, "added /backup/retention")
	got := readFile(t, path)
	assert.Contains(t, got, "      retention:\n        type: integer\n        title: Retention\n        description: Days a backup is kept.\n        default: 7\n")
	assert.Contains(t, got, "    - retention\n")
	assert.NotContains(t, got, "trigger", "an inherited trigger is not repeated")
	assert.NotEqual(t, original, got)
}

func TestAddParamInteractiveStops(t *testing.T) {
	path, original := copySchema(t)
	// Input ends half-way: nothing is written.
	code, _, errs := paramctl(t, "/backup/x\nstring\n", "add-param", "--schema", path, "--interactive")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "standard input ended")
	assert.Equal(t, original, readFile(t, path))

	// Declining at the end: nothing is written.
	code, _, errs = paramctl(t, "/x\n\n\n\n\n\n\n\n\nn\n", "add-param", "--schema", path, "--interactive", "--type", "boolean")
	assert.Equal(t, 0, code, errs)
	assert.Contains(t, errs, "Type (string, integer, number, boolean, object, array) [boolean]")
	assert.Contains(t, errs, "nothing written")
	assert.Equal(t, original, readFile(t, path))

	code, _, _ = paramctl(t, "", "add-param", "--schema", "-", "--interactive")
	assert.Equal(t, 2, code)
}

func TestTitleFromName(t *testing.T) {
	for in, want := range map[string]string{
		"retentionDays": "Retention days", "BACKUP_ENABLED": "Backup enabled", "clusterName": "Cluster name",
		"apiServerURL": "Api server URL", "oidcIssuerURLPath": "Oidc issuer URL path", "x": "X", "node-count": "Node count",
	} {
		assert.Equal(t, want, titleFromName(in), in)
	}
}
