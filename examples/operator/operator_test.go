package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const versions = "testdata/operator-versions"

func operatorRun(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(stdin), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestReconcileGolden reconciles each Instance in testdata/instances and
// compares what the operator prints (and its exit status) with NAME.golden.
func TestReconcileGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/instances/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := operatorRun(t, "", "--operator-versions", versions, f)
			got := fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", code, stdout, stderr)
			golden := strings.TrimSuffix(f, ".yaml") + ".golden"
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), got)
		})
	}
}

// TestReconcileAgainFindsNothing: the Instance written back with its last
// applied state reconciles to no plan.
func TestReconcileAgainFindsNothing(t *testing.T) {
	for _, f := range []string{"new", "backup-on", "upgrade"} {
		t.Run(f, func(t *testing.T) {
			code, written, stderr := operatorRun(t, "", "--operator-versions", versions, "--write", "testdata/instances/"+f+".yaml")
			require.Equal(t, 0, code, stderr)
			assert.Contains(t, written, LastAppliedAnnotation)
			code, out, stderr := operatorRun(t, written, "--operator-versions", versions, "-o", "json", "-")
			require.Equal(t, 0, code, stderr)
			var d decision
			require.NoError(t, json.Unmarshal([]byte(out), &d))
			assert.Equal(t, "", d.Plan)
			assert.Empty(t, d.Changed)
		})
	}
}

func TestUpgradeMovesValuesByOldName(t *testing.T) {
	code, out, stderr := operatorRun(t, "", "--operator-versions", versions, "-o", "json", "testdata/instances/upgrade.yaml")
	require.Equal(t, 0, code, stderr)
	assert.JSONEq(t, `{"instance":"default/my-instance","operatorVersion":"my-operator-0.2.0","plan":"upgrade","upgradeFrom":"my-operator-0.1.0",
		"changed":[],"dropped":[],
		"params":{"clusterName":"my-cluster","nodeCount":3,"backup":{"enabled":false,"credentials":{"name":"some value","password":"some password"}}}}`, out)
}

// TestManifestsIntoStructs: the Kubernetes parts of the manifests are read
// into Go types (sigs.k8s.io/yaml), the parameter values are not: numbers
// keep their text, which sigs.k8s.io/yaml would not (1.10 reads as 1.1,
// 99999999999999999999999 as 1e+23, and 1e400 becomes a string).
func TestManifestsIntoStructs(t *testing.T) {
	assert.Equal(t, []string{"backup", "deploy", "upgrade"}, planNames([]byte("kind: OperatorVersion\nspec:\n  plans: {deploy: {}, upgrade: {}, backup: {}}\n  parameters: {type: object, properties: {r: {type: number, default: 1.10}}}\n")))
	assert.Nil(t, planNames([]byte("type: object\n")))

	const inst = `apiVersion: kudo.dev/v1beta2
kind: Instance
metadata:
  name: big
  namespace: ns
  annotations:
    note: "5"
spec:
  operatorVersion:
    name: my-operator-0.2.0
  parameters:
    nodeCount: 9007199254740993
`
	in, err := readInstance([]byte(inst))
	require.NoError(t, err)
	assert.Equal(t, "ns/big", in.name)
	assert.Equal(t, "my-operator-0.2.0", in.version)
	assert.False(t, in.v1beta1)
	assert.Equal(t, map[string]any{"nodeCount": json.Number("9007199254740993")}, in.params)

	code, out, stderr := operatorRun(t, inst, "--operator-versions", versions, "-o", "json", "-")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, `"nodeCount": 9007199254740993`)

	_, err = readInstance([]byte("kind: Instance\nmetadata: {name: [x]}\nspec: {operatorVersion: {name: v}}\n"))
	assert.ErrorContains(t, err, "the Instance manifest")
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"testdata/instances/new.yaml"},
		{"--operator-versions", versions},
		{"--operator-versions", versions, "-o", "xml", "testdata/instances/new.yaml"},
		{"--operator-versions", versions, "nope.yaml"},
		{"--operator-versions", "nope", "testdata/instances/new.yaml"},
	} {
		code, _, stderr := operatorRun(t, "", args...)
		assert.Equal(t, 2, code, "%v: %s", args, stderr)
	}
	code, _, stderr := operatorRun(t, "kind: ConfigMap\n", "--operator-versions", versions, "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "expected an Instance manifest")
}

func TestMergePatch(t *testing.T) {
	from := map[string]any{"a": json.Number("1"), "b": map[string]any{"c": true, "d": "x"}, "e": []any{"1"}}
	to := map[string]any{"a": json.Number("1.0"), "b": map[string]any{"c": false}, "e": []any{"1", "2"}, "f": "new"}
	assert.Equal(t, map[string]any{"b": map[string]any{"c": false, "d": nil}, "e": []any{"1", "2"}, "f": "new"}, mergePatch(from, to))
}

func Example() {
	code := run([]string{"--operator-versions", "testdata/operator-versions", "testdata/instances/backup-on.yaml"}, os.Stdin, os.Stdout, os.Stderr)
	fmt.Println("exit", code)
	// Output:
	// instance: default/my-instance
	// operator version: my-operator-0.1.0
	// plan: backup
	// changed: /BACKUP_ENABLED
	// params:
	//   CLUSTER_NAME: my-cluster
	//   BACKUP_ENABLED: true
	//   BACKUP_CREDENTIALS_USERNAME: some value
	//   BACKUP_CREDENTIALS_PASSWORD: some password
	// exit 0
}
