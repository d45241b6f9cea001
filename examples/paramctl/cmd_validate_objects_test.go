package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestValidateObjects: with CRDs as --schema, each object is judged by
// the CRD of its kind as kube-apiserver judges it: text lines, exit codes,
// the -o json shape (field, type, warnings), --field-validation, --old,
// and a document no CRD defines.
func TestValidateObjects(t *testing.T) {
	const dir = "testdata/objects/"
	for _, c := range []cliCase{
		{name: "a folder of CRDs", args: []string{"validate", "--schema", dir + "crds", dir + "objects.yaml"}, code: 1,
			out: []string{"doc 1: valid"},
			err: []string{
				`doc 0: /spec/duration: expected string, but got number 2160 (kubectl reads the unquoted 2160 as a number: write "2160" to send a string)`,
				`doc 0: /spec/colour: unknown field "spec.colour"`,
				`doc 2: /kind: no CustomResourceDefinition given defines Gizmo in example.com/v1 (they define Gadget in example.com, Widget in example.com)`}},
		{name: "--schema twice", args: []string{"validate", "--schema", dir + "crds/widgets.yaml", "--schema", dir + "crds/gadgets.yaml", dir + "objects.yaml"}, code: 1,
			out: []string{"doc 1: valid"}},
		{name: "Warn", args: []string{"validate", "--schema", dir + "crds", "--field-validation", "Warn", dir + "objects.yaml"}, code: 1,
			err: []string{`doc 0: warning: /spec/colour: unknown field "spec.colour"`}},
		{name: "a bad mode", args: []string{"validate", "--schema", dir + "crds", "--field-validation", "Loose", dir + "objects.yaml"}, code: 2,
			err: []string{`--field-validation must be Strict, Warn or Ignore, not "Loose"`}},
		{name: "one CRD, another kind", args: []string{"validate", "--schema", dir + "crds/widgets.yaml", "-"}, code: 1,
			stdin: "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\n", err: []string{"/kind: no Gadget in example.com/v1: the CustomResourceDefinition defines Widget in group example.com"}},
		{name: "an update keeps the name", args: []string{"validate", "--schema", dir + "crds", "--old", dir + "old.yaml", "-"}, code: 1,
			stdin: "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w2, namespace: default}\nspec: {size: 2}\n", err: []string{`/metadata/name: Invalid value: "w2": field is immutable`}},
		{name: "an update", args: []string{"validate", "--schema", dir + "crds", "--old", dir + "old.yaml", "-"}, code: 0,
			stdin: "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: default}\nspec: {size: 3}\n", out: []string{"valid"}},
		{name: "--old without CRDs", args: []string{"validate", "--schema", demoSchema, "--old", dir + "old.yaml", "-"}, code: 2,
			err: []string{"--old needs CustomResourceDefinitions"}},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
}

// TestValidateObjectsJSON: the -o json entry of an object.
func TestValidateObjectsJSON(t *testing.T) {
	code, out, errOut := paramctl(t, "", "validate", "--schema", "testdata/objects/crds", "-o", "json", "--field-validation", "Warn", "testdata/objects/objects.yaml")
	require.Equal(t, 1, code, errOut)
	var got []struct {
		Document int  `json:"document"`
		Valid    bool `json:"valid"`
		Errors   []struct {
			Pointer, Field, Type, Message string
		} `json:"errors"`
		Warnings *[]struct{ Pointer, Field, Message string } `json:"warnings"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got), out)
	require.Len(t, got, 3)
	assert.False(t, got[0].Valid)
	require.Len(t, got[0].Errors, 1)
	assert.Equal(t, "spec.duration", got[0].Errors[0].Field)
	assert.Equal(t, "FieldValueTypeInvalid", got[0].Errors[0].Type)
	require.NotNil(t, got[0].Warnings)
	require.Len(t, *got[0].Warnings, 1)
	assert.Equal(t, "spec.colour", (*got[0].Warnings)[0].Field)
	assert.True(t, got[1].Valid)
	assert.NotNil(t, got[1].Warnings, "an object's entry always has warnings")
	assert.False(t, got[2].Valid)
	assert.True(t, strings.HasPrefix(got[2].Errors[0].Message, "no CustomResourceDefinition given defines Gizmo"))
}
