package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUpdateRefusesWhatATransitionRuleRefuses: paramctl update and patch
// run x-kubernetes-validations transition rules against --values, and
// validate runs rules and list types on each document.
func TestUpdateRefusesWhatATransitionRuleRefuses(t *testing.T) {
	dir := t.TempDir()
	schemaFile := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(schemaFile, []byte(`type: object
properties:
  storageClass:
    type: string
    x-kubernetes-validations:
    - rule: self == oldSelf
      message: storageClass is immutable
  zones:
    type: array
    x-kubernetes-list-type: set
    items: {type: string}
`), 0o644))
	values := filepath.Join(dir, "v.yaml")
	require.NoError(t, os.WriteFile(values, []byte("storageClass: fast\n"), 0o644))

	tests := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stderr string
	}{
		{name: "update keeps it", args: []string{"update", "--schema", schemaFile, "--values", values, "-p", "zones=[a,b]"}},
		{name: "update changes it", args: []string{"update", "--schema", schemaFile, "--values", values, "-p", "storageClass=slow"},
			code: 1, stderr: "/storageClass: storageClass is immutable\n"},
		{name: "patch changes it", args: []string{"patch", "--schema", schemaFile, "--values", values, "--replace", "storageClass=slow"},
			code: 1, stderr: "/storageClass: storageClass is immutable\n"},
		{name: "install sets it", args: []string{"update", "--schema", schemaFile, "-p", "storageClass=slow"}},
		{name: "validate: a set with a repeat", args: []string{"validate", "--schema", schemaFile, "-"}, stdin: `{"zones": ["a", "a"]}`,
			code: 1, stderr: "/zones/1: Duplicate value: \"a\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := updRun(t, tt.stdin, tt.args...)
			assert.Equal(t, tt.code, code, stderr)
			if tt.stderr != "" {
				assert.Contains(t, stderr, tt.stderr)
			}
		})
	}
}
