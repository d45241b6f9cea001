package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert"
)

// runRecord is a run of paramctl written out for a golden file.
func runRecord(code int, stdout, stderr string) string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", code, stdout, stderr)
}

// TestUnwrapStreamGolden: unwrap and convert of a `---` stream, from a
// file and from standard input alike, write every document in input order
// as a `---` stream (JSON documents one after the other), notes and
// errors naming their document.
func TestUnwrapStreamGolden(t *testing.T) {
	values := "testdata/unwrap-stream/values.yaml"
	instances := "testdata/unwrap-stream/instances.yaml"
	tests := []struct {
		name, golden string
		args         []string // the input is the last argument
	}{
		{"unwrap values", "values.golden", []string{"unwrap", "--schema", "demo/kep-params-v1beta1.yaml", values}},
		{"unwrap values guessed, json", "values-guess-json.golden", []string{"unwrap", "--guess", "-o", "json", values}},
		{"unwrap instances", "instances-unwrap.golden", []string{"unwrap", "--schema", "demo/kep-operatorversion-v1beta1.yaml", instances}},
		{"convert instances", "instances.golden", []string{"convert", "--schema", "demo/kep-operatorversion-v1beta1.yaml", instances}},
		{"convert instances, json", "instances-json.golden", []string{"convert", "--schema", "demo/kep-operatorversion-v1beta1.yaml", "-o", "json", instances}},
		{"convert instances guessed", "instances-guess.golden", []string{"convert", "--guess", instances}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := paramctl(t, "", tt.args...)
			require.Equal(t, 0, code, errs)
			docs := strings.Count(out, "\n---\n") + 1
			if strings.HasPrefix(out, "{") {
				docs = strings.Count("\n"+out, "\n{\n") // JSON documents one after the other
			}
			require.Equal(t, 3, docs, "three documents:\n%s", out)
			golden(t, filepath.Join("testdata/unwrap-stream", tt.golden), runRecord(code, out, errs))

			// The same stream on standard input gives the same run.
			data, err := os.ReadFile(tt.args[len(tt.args)-1])
			require.NoError(t, err)
			args := append(append([]string(nil), tt.args[:len(tt.args)-1]...), "-")
			code2, out2, errs2 := paramctl(t, string(data), args...)
			assert.Equal(t, runRecord(code, out, errs), runRecord(code2, out2, errs2))
		})
	}
}

// TestUnwrapStreamDocumentByDocument: each document of a stream converts
// as it would alone, and a stream of one document converts exactly as the
// whole input did before streams (byte for byte, the input echoed where it
// is already v1beta2).
func TestUnwrapStreamDocumentByDocument(t *testing.T) {
	for _, file := range []string{"testdata/unwrap-stream/values.yaml", "testdata/unwrap-stream/instances.yaml"} {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		code, out, _ := paramctl(t, "", "unwrap", "--guess", file)
		require.Equal(t, 0, code)
		var want []string
		for _, doc := range strings.Split(string(data), "\n---\n") {
			c, err := convert.Unwrap(nil, []byte(doc))
			require.NoError(t, err)
			y, err := c.YAML()
			require.NoError(t, err)
			want = append(want, string(y))
		}
		assert.Equal(t, strings.Join(want, "---\n"), out, file)
	}

	v2 := "# kept as written\n---\napiVersion: kudo.dev/v1beta2   # already typed\nkind: Instance\nspec:\n  parameters: {A: 1}\n...\n"
	for _, cmd := range [][]string{{"unwrap", "--guess", "-"}, {"convert", "--guess", "-"}} {
		code, out, errs := paramctl(t, v2, cmd...)
		require.Equal(t, 0, code, errs)
		c, err := convert.Unwrap(nil, []byte(v2))
		require.NoError(t, err)
		y, err := c.YAML()
		require.NoError(t, err)
		assert.Equal(t, string(y), out, "one document: the whole input, as before")
		assert.Equal(t, v2, out, "an unchanged input comes back byte for byte")
	}

	// Two such documents: each comes back as its text.
	code, out, _ := paramctl(t, "apiVersion: kudo.dev/v1beta2\nkind: Instance\n---\napiVersion: kudo.dev/v1beta2 # two\nkind: Instance\n", "unwrap", "--guess", "-")
	require.Equal(t, 0, code)
	assert.Equal(t, "apiVersion: kudo.dev/v1beta2\nkind: Instance\n---\napiVersion: kudo.dev/v1beta2 # two\nkind: Instance\n", out)
}

// TestUnwrapStreamErrors: a document that fails is reported with its
// number and lines of the whole stream, the others are still converted
// (their notes and errors reported too), nothing is written unless every
// document passed, and the exit status is the worst of all documents.
func TestUnwrapStreamErrors(t *testing.T) {
	const schemaFile = "demo/kep-params-v1beta1.yaml"
	tests := []struct {
		name  string
		args  []string
		stdin string
		code  int
		err   []string // stderr, line by line
	}{
		{name: "a value that does not type in the middle", args: []string{"unwrap", "--schema", schemaFile, "-"}, code: 1,
			stdin: "NODE_COUNT: \"1\"\n---\nNODE_COUNT: x\nBACKUP_ENABLED: maybe\n---\nNODE_COUNT: \"\"\n",
			err: []string{
				`doc 1: /BACKUP_ENABLED: "maybe" is not a boolean`,
				`doc 1: /NODE_COUNT: "x" is not an integer`,
				`doc 2: /NODE_COUNT: empty: v1beta1's "not set"; left out so that the default applies`,
			}},
		{name: "errors in two documents", args: []string{"unwrap", "--guess", "-"}, code: 1,
			stdin: "A: [1]\n---\nB: \"2\"\n---\nC: {x: 1}\n",
			err: []string{
				"doc 0: /A: a v1beta1 parameter value is text, not a list",
				`doc 1: /B: guessed an integer from "2"`,
				"doc 2: /C: a v1beta1 parameter value is text, not a mapping",
			}},
		{name: "a document that cannot be read: line of the stream, exit 2", args: []string{"unwrap", "--guess", "-"}, code: 2,
			stdin: "A: \"1\"\n---\n# two\nB: [\n---\nC: x\n---\nD: [1]\n",
			err: []string{
				`doc 0: /A: guessed an integer from "1"`,
				"-: doc 1: line 4: the '[' here is never closed (expected ',' or ']')",
				"doc 3: /D: a v1beta1 parameter value is text, not a list",
			}},
		{name: "convert: an Instance that does not type in the middle", args: []string{"convert", "--schema", "demo/kep-operatorversion-v1beta1.yaml", "-"}, code: 1,
			stdin: "kind: Instance\nspec: {parameters: {CLUSTER_NAME: a}}\n---\nkind: Instance\nspec:\n  parameters:\n    BACKUP_ENABLED: perhaps\n---\nkind: Instance\nspec: {parameters: {CLUSTER_NAME: c}}\n",
			err:   []string{`doc 1: /spec/parameters/BACKUP_ENABLED: "perhaps" is not a boolean`}},
		{name: "convert: values that are no Instance in the middle", args: []string{"convert", "--guess", "-"}, code: 1,
			stdin: "kind: Instance\nspec: {parameters: {A: a}}\n---\nA: a\n---\nkind: Instance\nspec: {parameters: {B: \"2\"}}\n",
			err: []string{
				"doc 1: /kind: convert --schema and --guess convert Instances; unwrap converts a map of values",
				`doc 2: /spec/parameters/B: guessed an integer from "2"`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := paramctl(t, tt.stdin, tt.args...)
			assert.Equal(t, tt.code, code, errs)
			assert.Empty(t, out, "nothing is written unless every document passed")
			assert.Equal(t, strings.Join(tt.err, "\n")+"\n", errs)
		})
	}
}

// TestConvertInstancesFlags: --schema and --guess convert Instances only;
// without them convert is what it was (an Instance refused, pointing to
// unwrap).
func TestConvertInstancesFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"an Instance without a schema is still refused", []string{"convert", "demo/kep-instance-v1beta1.yaml"}, 1, "/kind: an Instance holds parameter values, not their definitions: unwrap it instead\n"},
		{"both", []string{"convert", "--guess", "--schema", "demo/kep-params-v1beta1.yaml", "demo/kep-instance-v1beta1.yaml"}, 2, "--schema and --guess exclude each other"},
		{"with --to v1beta1", []string{"convert", "--guess", "--to", "v1beta1", "demo/kep-instance-v1beta1.yaml"}, 2, "not with --to v1beta1"},
		{"with --infer-types", []string{"convert", "--guess", "--infer-types", "demo/kep-instance-v1beta1.yaml"}, 2, "or --infer-types"},
		{"an unusable schema", []string{"convert", "--schema", "nope.yaml", "demo/kep-instance-v1beta1.yaml"}, 2, "nope.yaml"},
		{"a params file is no Instance", []string{"convert", "--guess", "demo/kep-values-v1beta1.yaml"}, 1, "/kind: convert --schema and --guess convert Instances"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := paramctl(t, "", tt.args...)
			assert.Equal(t, tt.code, code, errs)
			assert.Empty(t, out)
			assert.Contains(t, errs, tt.err)
		})
	}
	// One Instance converts as unwrap converts it.
	code, out, errs := paramctl(t, "", "convert", "--schema", "demo/kep-operatorversion-v1beta1.yaml", "demo/kep-instance-v1beta1.yaml")
	require.Equal(t, 0, code, errs)
	code, want, _ := paramctl(t, "", "unwrap", "--schema", "demo/kep-operatorversion-v1beta1.yaml", "demo/kep-instance-v1beta1.yaml")
	require.Equal(t, 0, code)
	assert.Equal(t, want, out)
}
