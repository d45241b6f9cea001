package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runMigrateCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(append([]string{"migrate"}, args...), strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

const kepUpgraded = `clusterName: my-cluster
backup:
  enabled: false
  credentials:
    name: some value
    password: some password
---
clusterName: staging
`

func TestMigrateKEPUpgrade(t *testing.T) {
	code, out, errOut := runMigrateCmd(t, "", "--schema", "demo/kep-upgraded-schema.yaml", "demo/migrate-instances.yaml")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, kepUpgraded, out)
	assert.Empty(t, errOut)

	// Flags after the file, the instances on standard input, and through
	// the KEP's v1beta1 OperatorVersion (converted on the fly) as the first step.
	data, err := os.ReadFile("demo/migrate-instances.yaml")
	require.NoError(t, err)
	code, out, errOut = runMigrateCmd(t, string(data), "-", "--via", "demo/kep-operatorversion-v1beta1.yaml", "--schema", "demo/kep-upgraded-schema.yaml")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, kepUpgraded, out)
}

func TestMigrateJSONLines(t *testing.T) {
	code, out, errOut := runMigrateCmd(t, "", "--schema", "demo/migrate-baremetal-v1alpha2.yaml", "--allow-lossy", "-o", "json", "demo/migrate-baremetal-hosts.yaml")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, unknownDropNote+"\n", errOut, "without the old schema, dropped values are not shown")
	assert.Equal(t, `{"values":{"online":true,"hardware":{"ramMebibytes":16384,"cpu":{"arch":"x86_64","model":"Intel(R) Xeon(R) Gold 6138 CPU @ 2.00GHz","clockMegahertz":2593,"count":80}}},"dropped":[{"pointer":"/hardwareProfile","hidden":true}],"lossy":[{"pointer":"/hardware/cpu/clockMegahertz","from":2593.75,"to":2593,"refused":false}],"errors":[]}
{"values":{"online":false,"hardware":{"cpu":{"clockMegahertz":2400}}},"dropped":[{"pointer":"/hardwareProfile","hidden":true}],"lossy":[],"errors":[]}
`, out)
}

func TestMigrateRefusesLossyChanges(t *testing.T) {
	code, out, errOut := runMigrateCmd(t, "", "--schema", "demo/migrate-baremetal-v1alpha2.yaml", "demo/migrate-baremetal-hosts.yaml")
	require.Equal(t, 1, code)
	assert.Empty(t, out, "a run with errors writes nothing")
	assert.Equal(t, `doc 0: /hardwareProfile: dropped (value not shown: its schema is unknown)
doc 0: /hardware/cpu/clockMegahertz: lossy 2593.75 -> 2593 (refused; --allow-lossy applies it)
doc 1: /hardwareProfile: dropped (value not shown: its schema is unknown)
`+unknownDropNote+`
nothing written: 1 document with errors (use --continue to write anyway)
`, errOut)

	// --continue writes anyway; the refused value stays as it was.
	code, out, _ = runMigrateCmd(t, "", "--schema", "demo/migrate-baremetal-v1alpha2.yaml", "--continue", "demo/migrate-baremetal-hosts.yaml")
	require.Equal(t, 1, code)
	assert.Contains(t, out, "clockMegahertz: 2593.75\n")
	assert.Contains(t, out, "---\nonline: false\n")

	// With -o json, each line carries the values as migrated (the refused
	// value as it was) and the report; --output gets nothing.
	outFile := filepath.Join(t.TempDir(), "out.json")
	code, out, errOut = runMigrateCmd(t, "", "--schema", "demo/migrate-baremetal-v1alpha2.yaml", "-o", "json", "--output", outFile, "demo/migrate-baremetal-hosts.yaml")
	require.Equal(t, 1, code)
	assert.Equal(t, unknownDropNote+"\n", errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2)
	assert.True(t, strings.HasPrefix(lines[0], `{"values":{"online":true,`), lines[0])
	assert.Contains(t, lines[0], `"clockMegahertz":2593.75`)
	assert.True(t, strings.HasPrefix(lines[1], `{"values":{"online":false,`), lines[1])
	assert.NoFileExists(t, outFile)
	assert.Contains(t, lines[0], `"refused":true`)
	assert.Contains(t, lines[0], `"errors":[{"pointer":"/hardware/cpu/clockMegahertz","message":"changing number 2593.75`)
	assert.Contains(t, lines[0], `(allow lossy changes to apply it)","kind":"type"}`, "each error says its kind")
}

func TestMigrateDryRun(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "out.yaml")
	code, out, errOut := runMigrateCmd(t, "", "--dry-run", "--output", target, "--schema", "demo/migrate-baremetal-v1alpha2.yaml", "--allow-lossy", "demo/migrate-baremetal-hosts.yaml")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, `doc 0: /hardwareProfile: dropped (value not shown: its schema is unknown)
doc 0: /hardware/cpu/clockMegahertz: lossy 2593.75 -> 2593
doc 1: /hardwareProfile: dropped (value not shown: its schema is unknown)
2 documents checked: 0 with errors, 2 values dropped, 1 lossy change
`, out)
	assert.NoFileExists(t, target, "a dry run writes nothing")

	code, out, _ = runMigrateCmd(t, "", "--dry-run", "-o", "json", "--schema", "demo/migrate-baremetal-v1alpha2.yaml", "demo/migrate-baremetal-hosts.yaml")
	require.Equal(t, 1, code, "the refused change is an error")
	assert.NotContains(t, out, `"values"`)
	assert.Equal(t, 2, strings.Count(out, "\n"))
}

func TestMigrateOutputFileIsWrittenWholeOrNotAtAll(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "out.yaml")
	require.NoError(t, os.WriteFile(target, []byte("previous\n"), 0o640))

	// Errors: the existing file is left alone.
	code, _, _ := runMigrateCmd(t, "", "--output", target, "--schema", "demo/migrate-baremetal-v1alpha2.yaml", "demo/migrate-baremetal-hosts.yaml")
	require.Equal(t, 1, code)
	got, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "previous\n", string(got))

	code, out, errOut := runMigrateCmd(t, "", "--output", target, "--schema", "demo/kep-upgraded-schema.yaml", "demo/migrate-instances.yaml")
	require.Equal(t, 0, code, errOut)
	assert.Empty(t, out)
	got, err = os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, kepUpgraded, string(got))
	fi, err := os.Stat(target)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm(), "the file keeps its mode")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left behind")

	// A directory that does not exist: exit 2, nothing written.
	code, _, errOut = runMigrateCmd(t, "", "--output", filepath.Join(dir, "missing", "x.yaml"), "--schema", "demo/kep-upgraded-schema.yaml", "demo/migrate-instances.yaml")
	assert.Equal(t, 2, code)
	assert.NotEmpty(t, errOut)
}

func TestMigrateUnreadableDocumentIsKeptWithContinue(t *testing.T) {
	in := "CLUSTER_NAME: a\n---\nCLUSTER_NAME: [unclosed\n---\nCLUSTER_NAME: c\n"
	code, out, errOut := runMigrateCmd(t, in, "--continue", "--schema", "demo/kep-upgraded-schema.yaml", "-")
	require.Equal(t, 1, code)
	assert.Equal(t, "clusterName: a\n---\nCLUSTER_NAME: [unclosed\n---\nclusterName: c\n", out)
	// The line is the stream's (the document starts on line 3).
	assert.Equal(t, "doc 1: line 3: the '[' here is never closed (expected ',' or ']')\n", errOut)
}

func TestMigrateRefusesASchemaWithConflictingOldNames(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte(`
properties:
  a: {type: string, oldName: X}
  b: {type: string, oldName: X}
`), 0o644))
	code, out, errOut := runMigrateCmd(t, "X: 1\n", "--schema", bad, "-")
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Equal(t, bad+": /properties/b/oldName: old value /X is claimed by both /a and /b\n", errOut)
}

func TestMigrateUsage(t *testing.T) {
	for _, args := range [][]string{
		{"demo/migrate-instances.yaml"},
		{"--schema", "demo/kep-upgraded-schema.yaml"},
		{"--schema", "demo/kep-upgraded-schema.yaml", "a", "b"},
		{"--schema", "demo/kep-upgraded-schema.yaml", "-o", "xml", "demo/migrate-instances.yaml"},
		{"--schema", "demo/missing.yaml", "demo/migrate-instances.yaml"},
		{"--schema", "demo/kep-upgraded-schema.yaml", "--via", "demo/missing.yaml", "demo/migrate-instances.yaml"},
		{"--schema", "demo/kep-upgraded-schema.yaml", "demo/missing.yaml"},
		{"--nope", "--schema", "demo/kep-upgraded-schema.yaml", "demo/migrate-instances.yaml"},
	} {
		code, _, errOut := runMigrateCmd(t, "", args...)
		assert.Equal(t, 2, code, "%v: %s", args, errOut)
		assert.NotEmpty(t, errOut, "%v", args)
	}
}

func TestMigrateEmptyStream(t *testing.T) {
	// As validate and defaults: no document is an unusable input.
	for _, in := range []string{"", "# nothing\n"} {
		for _, format := range []string{"yaml", "json"} {
			code, out, errOut := runMigrateCmd(t, in, "--schema", "demo/kep-upgraded-schema.yaml", "-o", format, "-")
			assert.Equal(t, 2, code, errOut)
			assert.Empty(t, out)
			assert.Equal(t, "-: the input holds no document\n", errOut)
		}
	}
	code, _, errOut := paramctl(t, "", "migrate", "--versions", "demo/bmh-set", "--from", "v1alpha1", "--to", "v1alpha2", "-")
	assert.Equal(t, 2, code, errOut)
	assert.Equal(t, "-: the input holds no document\n", errOut)
}

// TestMigrateProgressOnlyOnATerminal: long runs report progress on
// standard error when it is a terminal, never otherwise.
func TestMigrateProgressOnlyOnATerminal(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 5000; i++ {
		if i > 0 {
			b.WriteString("---\n")
		}
		b.WriteString("CLUSTER_NAME: c\n")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.yaml")
	require.NoError(t, os.WriteFile(in, []byte(b.String()), 0o644))
	for _, terminal := range []bool{false, true} {
		var out, errOut bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, stderrIsTerminal: terminal}
		code := e.dispatch([]string{"migrate", "--schema", "demo/kep-upgraded-schema.yaml", in})
		require.Equal(t, 0, code)
		assert.Equal(t, 5000, strings.Count(out.String(), "clusterName: c\n"))
		if terminal {
			assert.Contains(t, errOut.String(), "\rmigrated 5000 of 5000 documents")
		} else {
			assert.Empty(t, errOut.String())
		}
	}
}

// TestMigrateVersionChain: KEP-33's 0.1 → 0.2 → 0.3. Straight to 0.3,
// nothing maps (0.2 is "non-skippable"); through 0.2 with --via,
// everything arrives and 0.2 never has to be installed.
func TestMigrateVersionChain(t *testing.T) {
	code, out, errOut := runMigrateCmd(t, "", "--schema", "demo/migrate-0.3-schema.yaml", "demo/migrate-0.1-values.yaml")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "{}\n", out)
	assert.Equal(t, "/CLUSTER_NAME: dropped (value not shown: its schema is unknown)\n/NODE_COUNT: dropped (value not shown: its schema is unknown)\n"+unknownDropNote+"\n", errOut)

	code, out, errOut = runMigrateCmd(t, "", "--schema", "demo/migrate-0.3-schema.yaml", "--via", "demo/migrate-0.2-schema.yaml", "demo/migrate-0.1-values.yaml")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "Cluster:\n  Name: my-cluster\n  Nodes: 3\n", out)
	assert.Empty(t, errOut)
}

// writeMigrateSchema writes a schema for a test into a temporary directory.
func writeMigrateSchema(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "new.yaml")
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

// TestMigrateJSONMeansWhatItSays: a JSON boolean or number landing on a
// string node stays what it is and is an error at its pointer, never
// silently turned into a string; so is a quoted YAML string on an integer
// node. Plain YAML scalars are text, typed by their new node.
func TestMigrateJSONMeansWhatItSays(t *testing.T) {
	s := writeMigrateSchema(t, "properties:\n  kept: {type: string}\n  code: {type: string, oldName: CODE}\n  count: {type: integer}\n")
	code, _, errOut := runMigrateCmd(t, `{"kept": true, "CODE": 1.50}`+"\n", "--schema", s, "-")
	require.Equal(t, 1, code, errOut)
	assert.Contains(t, errOut, "/kept: boolean true does not fit here: expected string")
	assert.Contains(t, errOut, "/code: number 1.50 does not fit here: expected string")

	code, out, errOut := runMigrateCmd(t, "count: \"7\"\n", "--schema", s, "-")
	require.Equal(t, 1, code, errOut)
	assert.Contains(t, errOut, `/count: string "7" does not fit here: expected integer`)
	assert.Empty(t, out)

	code, out, errOut = runMigrateCmd(t, "kept: true\nCODE: 1.50\ncount: 7\n", "--schema", s, "-", "-o", "json")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, `{"values":{"kept":"true","code":"1.50","count":7},"dropped":[],"lossy":[],"errors":[]}`+"\n", out)
}

// TestMigrateDroppedValueOfUnknownSchema: without the schema of the
// input's version nothing says whether a dropped value is a secret, so it
// is not printed (text, JSON); given as the first --via, that schema
// shows the plain values and hides the secrets.
func TestMigrateDroppedValueOfUnknownSchema(t *testing.T) {
	dir := t.TempDir()
	newSchema := filepath.Join(dir, "new.yaml")
	oldSchema := filepath.Join(dir, "old.yaml")
	require.NoError(t, os.WriteFile(newSchema, []byte("properties: {user: {type: string}}\n"), 0o644))
	require.NoError(t, os.WriteFile(oldSchema, []byte("properties: {user: {type: string}, password: {type: string, writeOnly: true}, zone: {type: string}}\n"), 0o644))
	values := "user: a\npassword: SECRETm2\nzone: eu\n"

	for _, format := range []string{"yaml", "json"} {
		code, out, errOut := runMigrateCmd(t, values, "--schema", newSchema, "--dry-run", "-o", format, "-")
		require.Equal(t, 0, code, errOut)
		assert.NotContains(t, out+errOut, "SECRETm2")
		assert.NotContains(t, out+errOut, "eu")
		assert.Contains(t, errOut, unknownDropNote)
		if format == "json" {
			assert.Equal(t, `{"dropped":[{"pointer":"/password","hidden":true},{"pointer":"/zone","hidden":true}],"lossy":[],"errors":[]}`+"\n", out)
		} else {
			assert.Contains(t, out, "/password: dropped (value not shown: its schema is unknown)\n")
		}
	}

	code, out, errOut := runMigrateCmd(t, values, "--schema", newSchema, "--via", oldSchema, "--dry-run", "-")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "/password: dropped (value hidden)\n/zone: dropped \"eu\"\n1 document checked: 0 with errors, 2 values dropped, 0 lossy changes\n", out)
	assert.Empty(t, errOut)
}
