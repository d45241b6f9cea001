package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const kepValuesV2 = `NODE_COUNT: 3
BACKUP_ENABLED: false
ARRAY_PARAM:
  - foo
  - bar
  - bazz
MAP_PARAM:
  foo: bar
`

func TestUnwrapCommand(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		stdin    string
		code     int
		out      string
		contains []string
		err      []string // lines expected on stderr
	}{
		{name: "KEP values by a v1beta1 params file", args: []string{"unwrap", "--schema", "demo/kep-params-v1beta1.yaml", "demo/kep-values-v1beta1.yaml"}, out: kepValuesV2},
		{name: "flags after the file", args: []string{"unwrap", "demo/kep-values-v1beta1.yaml", "--schema", "demo/kep-params-v1beta1.yaml"}, out: kepValuesV2},
		{name: "KEP Instance by its v1beta1 OperatorVersion", args: []string{"unwrap", "--schema", "demo/kep-operatorversion-v1beta1.yaml", "demo/kep-instance-v1beta1.yaml"},
			out: "apiVersion: kudo.dev/v1beta2\nkind: Instance\nmetadata:\n  name: my-instance\nspec:\n  operatorVersion:\n    name: my-operator-0.1.0\n  parameters:\n    CLUSTER_NAME: my-cluster\n    BACKUP_ENABLED: false\n    BACKUP_CREDENTIALS_USERNAME: some value\n    BACKUP_CREDENTIALS_PASSWORD: some password\n"},
		{name: "guess reports every guess on stderr", args: []string{"unwrap", "--guess", "demo/kep-values-v1beta1.yaml"}, out: kepValuesV2,
			err: []string{`/ARRAY_PARAM: guessed an array from "[foo,bar,bazz]"`, `/BACKUP_ENABLED: guessed a boolean from "false"`, `/MAP_PARAM: guessed an object from "{foo:\"bar\"}"`, `/NODE_COUNT: guessed an integer from "3"`}},
		{name: "guess keeps what is not safe to guess", args: []string{"unwrap", "--guess", "-"}, stdin: "A: \"007\"\nB: \"yes\"\nC: \"1.10\"\n",
			out: "A: \"007\"\nB: \"yes\"\nC: 1.10\n", err: []string{`/C: guessed a number from "1.10"`}},
		{name: "the schema decides", args: []string{"unwrap", "--schema", "-", "demo/kep-values-v1beta1.yaml"},
			stdin:    "parameters:\n  - {name: NODE_COUNT, type: string}\n  - {name: ARRAY_PARAM, type: string}\n",
			contains: []string{`NODE_COUNT: "3"`, `ARRAY_PARAM: "[foo,bar,bazz]"`}},
		{name: "every type error with its pointer", args: []string{"unwrap", "--schema", "demo/kep-params-v1beta1.yaml", "-"}, code: 1,
			stdin: "NODE_COUNT: three\nBACKUP_ENABLED: maybe\nARRAY_PARAM: '[a'\n",
			err:   []string{`/ARRAY_PARAM: "[a" is not an array`, `/BACKUP_ENABLED: "maybe" is not a boolean`, `/NODE_COUNT: "three" is not an integer`}},
		{name: "an empty value is left out and said so", args: []string{"unwrap", "--schema", "demo/kep-params-v1beta1.yaml", "-"}, stdin: "NODE_COUNT: \"\"\n",
			out: "{}\n", err: []string{`/NODE_COUNT: empty: v1beta1's "not set"`}},
		{name: "errors under an Instance", args: []string{"unwrap", "--schema", "demo/kep-params-v1beta1.yaml", "-"}, code: 1,
			stdin: "kind: Instance\nspec:\n  parameters:\n    NODE_COUNT: x\n", err: []string{`/spec/parameters/NODE_COUNT: "x" is not an integer`}},
		{name: "a list in the string map", args: []string{"unwrap", "--guess", "-"}, stdin: "A: [1]\n", code: 1, err: []string{"/A: a v1beta1 parameter value is text, not a list"}},
		{name: "neither --schema nor --guess", args: []string{"unwrap", "demo/kep-values-v1beta1.yaml"}, code: 2, err: []string{"usage"}},
		{name: "both --schema and --guess", args: []string{"unwrap", "--guess", "--schema", "demo/kep-params-v1beta1.yaml", "demo/kep-values-v1beta1.yaml"}, code: 2},
		{name: "unusable schema", args: []string{"unwrap", "--schema", "-", "demo/kep-values-v1beta1.yaml"}, stdin: "type: int\n", code: 2, err: []string{"/type"}},
		{name: "malformed input", args: []string{"unwrap", "--guess", "-"}, stdin: "a: [\n", code: 2},
		{name: "missing file", args: []string{"unwrap", "--guess", "nope.yaml"}, code: 2},
		{name: "bad -o", args: []string{"unwrap", "--guess", "-o", "toml", "demo/kep-values-v1beta1.yaml"}, code: 2},
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

func TestUnwrapJSONOutput(t *testing.T) {
	code, out, _ := paramctl(t, "", "unwrap", "--schema", "demo/kep-params-v1beta1.yaml", "-o", "json", "demo/kep-values-v1beta1.yaml")
	require.Equal(t, 0, code)
	assert.Equal(t, `{
  "NODE_COUNT": 3,
  "BACKUP_ENABLED": false,
  "ARRAY_PARAM": [
    "foo",
    "bar",
    "bazz"
  ],
  "MAP_PARAM": {
    "foo": "bar"
  }
}
`, out)
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &v))
}
