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

// TestValidateOldRunsTransitionRulesAndRatchets: paramctl validate --old
// judges a manifest as kube-apiserver judges the update: a transition
// rule refuses a change (a map entry named as the apiserver names it),
// and a value the CRD has since tightened passes while it stays as it
// was (ratcheting), not once it changes.
func TestValidateOldRunsTransitionRulesAndRatchets(t *testing.T) {
	dir := t.TempDir()
	crd := filepath.Join(dir, "gadgets.yaml")
	require.NoError(t, os.WriteFile(crd, []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Gadget, plural: gadgets}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              engine:
                type: string
                x-kubernetes-validations: [{rule: self == oldSelf, message: engine is immutable}]
              owners:
                type: object
                additionalProperties:
                  type: string
                  x-kubernetes-validations: [{rule: self == oldSelf, message: an owner cannot change}]
              size: {type: integer, maximum: 10}
              note: {type: string}
`), 0o644))
	old := filepath.Join(dir, "old.yaml")
	require.NoError(t, os.WriteFile(old, []byte("apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g, namespace: default}\nspec: {engine: v8, owners: {alice: a}, size: 20, note: first}\n"), 0o644))
	const head = "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g, namespace: default}\n"
	for _, c := range []cliCase{
		{name: "the size kept while the note changes", args: []string{"validate", "--schema", crd, "--old", old, "-"},
			stdin: head + "spec: {engine: v8, owners: {alice: a}, size: 20, note: second}\n", out: []string{"valid"}},
		{name: "the size changed", args: []string{"validate", "--schema", crd, "--old", old, "-"}, code: 1,
			stdin: head + "spec: {engine: v8, owners: {alice: a}, size: 21}\n", err: []string{"/spec/size: must be <= 10 but found 21"}},
		{name: "the engine changed", args: []string{"validate", "--schema", crd, "--old", old, "-"}, code: 1,
			stdin: head + "spec: {engine: v9, owners: {alice: a}, size: 20}\n", err: []string{"/spec/engine: engine is immutable"}},
		{name: "an owner changed", args: []string{"validate", "--schema", crd, "--old", old, "-o", "json", "-"}, code: 1,
			stdin: head + "spec: {engine: v8, owners: {alice: b}, size: 20}\n", out: []string{`"field": "spec.owners[alice]"`, "an owner cannot change"}},
		{name: "as a create, the size is refused", args: []string{"validate", "--schema", crd, "-"}, code: 1,
			stdin: head + "spec: {engine: v8, size: 20}\n", err: []string{"/spec/size: must be <= 10 but found 20"}},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
}
