package main

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const kepOperatorVersionV2 = `apiVersion: kudo.dev/v1beta2
kind: OperatorVersion
metadata:
  name: my-operator-0.1.0
spec:
  version: "0.1.0"
  parameters:
    title: Parameter Schema
    $schema: https://json-schema.org/draft/2019-09/schema
    type: object
    required:
      - CLUSTER_NAME
    properties:
      CLUSTER_NAME:
        type: string
        default: my-cluster
      BACKUP_ENABLED:
        type: boolean
        default: false
      BACKUP_CREDENTIALS_USERNAME:
        type: string
        description: AWS Credentials Username
      BACKUP_CREDENTIALS_PASSWORD:
        type: string
        description: AWS Credentials Password
`

func TestConvertCommand(t *testing.T) {
	upgraded, err := os.ReadFile("demo/kep-upgraded-schema.yaml")
	require.NoError(t, err)
	tests := []struct {
		name     string
		args     []string
		stdin    string
		code     int
		out      string // exact stdout when set
		contains []string
		err      []string
	}{
		{name: "KEP OperatorVersion", args: []string{"convert", "demo/kep-operatorversion-v1beta1.yaml"}, out: kepOperatorVersionV2},
		{name: "flags after the file", args: []string{"convert", "demo/kep-operatorversion-v1beta1.yaml", "-o", "yaml"}, out: kepOperatorVersionV2},
		{name: "v1beta2 comes back unchanged", args: []string{"convert", "demo/kep-upgraded-schema.yaml"}, out: string(upgraded)},
		{name: "converting twice equals once", args: []string{"convert", "-"}, stdin: kepOperatorVersionV2, out: kepOperatorVersionV2},
		{name: "params file from stdin", args: []string{"convert", "-"}, stdin: "parameters:\n  - name: COUNT\n    default: 3\n",
			out: "apiVersion: kudo.dev/v1beta2\ntitle: Parameter Schema\n$schema: https://json-schema.org/draft/2019-09/schema\ntype: object\nproperties:\n  COUNT:\n    type: integer\n    default: 3\n"},
		{name: "quoted default stays a string", args: []string{"convert", "-"}, stdin: "parameters:\n  - name: N\n    default: \"3\"\n",
			contains: []string{"type: string", `default: "3"`}},
		{name: "--infer-types narrows and reports", args: []string{"convert", "--infer-types", "-"}, stdin: "parameters:\n  - name: N\n    default: \"3\"\n",
			contains: []string{"type: integer", "default: 3"}, err: []string{`/parameters/0/default: parameter "N": type integer inferred from the string default "3"`}},
		{name: "KEP typo: converted object still saying v1beta1", args: []string{"convert", "-"},
			stdin:    "apiVersion: kudo.dev/v1beta1\nkind: OperatorVersion\nspec:\n  parameters: {type: object}\n",
			contains: []string{"apiVersion: kudo.dev/v1beta2"}, err: []string{"/apiVersion: spec.parameters already holds a schema"}},
		{name: "every conversion error with its pointer", args: []string{"convert", "-"}, code: 1,
			stdin: "parameters:\n  - name: A\n    type: integer\n    default: x\n  - name: B\n    type: int\n",
			err:   []string{`/parameters/0/default: parameter "A": default "x" is not an integer`, `/parameters/1/type: parameter "B": unknown type int`}},
		{name: "an Instance is refused", args: []string{"convert", "demo/kep-instance-v1beta1.yaml"}, code: 1, err: []string{"/kind: an Instance holds parameter values"}},
		{name: "malformed YAML", args: []string{"convert", "-"}, stdin: "parameters: [\n", code: 2, err: []string{"-: line"}},
		{name: "missing file", args: []string{"convert", "nope.yaml"}, code: 2, err: []string{"nope.yaml"}},
		{name: "no file", args: []string{"convert"}, code: 2, err: []string{"usage"}},
		{name: "two files", args: []string{"convert", "a", "b"}, code: 2},
		{name: "bad -o", args: []string{"convert", "-o", "xml", "demo/kep-params-v1beta1.yaml"}, code: 2},
		{name: "bad --to", args: []string{"convert", "--to", "v2", "demo/kep-params-v1beta1.yaml"}, code: 2},
		{name: "--to v1beta1 of a schema file", args: []string{"convert", "--to", "v1beta1", "demo/kep-upgraded-schema.yaml"}, code: 2, err: []string{"demo/kep-upgraded-schema.yaml: converting to v1beta1 needs an OperatorVersion manifest"}},
		{name: "--to v1beta1 of a params.yaml", args: []string{"convert", "--to", "v1beta1", "demo/kep-params-v1beta1.yaml"}, code: 2, err: []string{"needs an OperatorVersion manifest"}},
		{name: "--to v1beta1 of an Instance", args: []string{"convert", "--to", "v1beta1", "demo/kep-instance-v1beta1.yaml"}, code: 2, err: []string{"needs an OperatorVersion manifest: the input is of kind Instance"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := paramctl(t, tt.stdin, tt.args...)
			assert.Equal(t, tt.code, code, "stdout:\n%s\nstderr:\n%s", out, errs)
			if tt.out != "" {
				assert.Equal(t, tt.out, out)
			}
			for _, s := range tt.contains {
				assert.Contains(t, out, s)
			}
			for _, s := range tt.err {
				assert.Contains(t, errs, s)
			}
			if tt.err == nil && tt.code == 0 {
				assert.Empty(t, errs)
			}
		})
	}
}

func TestConvertJSONOutput(t *testing.T) {
	code, out, _ := paramctl(t, "", "convert", "-o", "json", "demo/kep-params-v1beta1.yaml")
	require.Equal(t, 0, code)
	var doc struct {
		Required   []string `json:"required"`
		Properties map[string]struct {
			Type    string          `json:"type"`
			Default json.RawMessage `json:"default"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, []string{"NODE_COUNT"}, doc.Required)
	assert.Equal(t, "integer", doc.Properties["NODE_COUNT"].Type)
	assert.Equal(t, "3", string(doc.Properties["NODE_COUNT"].Default))
	assert.Equal(t, "object", doc.Properties["MAP_PARAM"].Type)
	assert.Equal(t, `[`, string(doc.Properties["ARRAY_PARAM"].Default[:1]))

	// JSON in, JSON out, unchanged the second time
	code, again, _ := paramctl(t, out, "convert", "-o", "json", "-")
	require.Equal(t, 0, code)
	assert.Equal(t, out, again)
}

func TestConvertToV1beta1AndBack(t *testing.T) {
	code, down, errs := paramctl(t, kepOperatorVersionV2, "convert", "--to", "v1beta1", "-")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, down, "apiVersion: kudo.dev/v1beta1")
	assert.Contains(t, down, "paramkit.dev/v1beta2-parameters:")
	assert.Contains(t, down, "- name: BACKUP_ENABLED\n      default: \"false\"\n      value-type: boolean\n")

	code, up, errs := paramctl(t, down, "convert", "-")
	require.Equal(t, 0, code)
	assert.Equal(t, kepOperatorVersionV2, up)
	assert.Contains(t, errs, "restored the v1beta2 schema")
}

// Every command that reads --schema accepts v1beta1 files too.
func TestSchemaLoadingAcceptsV1beta1(t *testing.T) {
	code, out, errs := paramctl(t, "CLUSTER_NAME: x\nBACKUP_ENABLED: true\n", "validate", "--schema", "demo/kep-operatorversion-v1beta1.yaml", "-")
	assert.Equal(t, 0, code, errs)
	assert.Contains(t, out, "valid")

	code, _, errs = paramctl(t, "BACKUP_ENABLED: maybe\n", "validate", "--schema", "demo/kep-operatorversion-v1beta1.yaml", "-")
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "/BACKUP_ENABLED")

	code, out, _ = paramctl(t, "", "defaults", "--schema", "demo/kep-params-v1beta1.yaml")
	assert.Equal(t, 0, code)
	assert.Equal(t, "NODE_COUNT: 3\nBACKUP_ENABLED: false\nARRAY_PARAM:\n  - foo\n", out)

	// a v1beta2 OperatorVersion's schema, and a params file that cannot be converted (exit 2)
	code, _, errs = paramctl(t, kepOperatorVersionV2, "defaults", "--schema", "-")
	assert.Equal(t, 0, code, errs)
	code, _, errs = paramctl(t, "parameters:\n  - name: A\n    type: integer\n    default: x\n", "defaults", "--schema", "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, `/parameters/0/default: parameter "A": default "x" is not an integer`)
}
