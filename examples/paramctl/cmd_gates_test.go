package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The gates documents live with the library's tests.
const gatesData = "../../params/gates/testdata/"

func init() {
	// -update regenerates golden files; other tests of this package may
	// declare the same flag first.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}

func gatesGoldenUpdate() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func runGatesCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return paramctl(t, stdin, append([]string{"gates"}, args...)...)
}

func assertGatesGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "gates", name)
	if gatesGoldenUpdate() {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create %s", path)
	assert.Equal(t, string(want), got)
}

func TestGatesList(t *testing.T) {
	for _, tc := range []struct{ gates, output, golden string }{
		{"all-stages.yaml", "", "all-stages.list.txt"},
		{"all-stages.yaml", "json", "all-stages.list.json"},
		{"replicas-gates.yaml", "text", "replicas-gates.list.txt"},
		{"replicas-gates.yaml", "json", "replicas-gates.list.json"},
		{"crontab-gates.yaml", "text", "crontab-gates.list.txt"},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			args := []string{"--list", "--gates", gatesData + tc.gates}
			if tc.output != "" {
				args = append(args, "-o", tc.output)
			}
			code, out, errs := runGatesCmd(t, "", args...)
			require.Equal(t, exitOK, code, errs)
			assert.Empty(t, errs)
			assertGatesGolden(t, tc.golden, out)
		})
	}
	t.Run("no gates", func(t *testing.T) {
		code, out, _ := runGatesCmd(t, "featureGates: []", "--list", "--gates", "-", "-o", "json")
		assert.Equal(t, exitOK, code)
		assert.Equal(t, "[]\n", out)
	})
}

func TestGatesApplyCommand(t *testing.T) {
	t.Run("create drops the disabled field", func(t *testing.T) {
		code, out, errs := runGatesCmd(t, "", "--gates", gatesData+"crontab-gates.yaml", gatesData+"crontab-cr.yaml")
		require.Equal(t, exitOK, code, errs)
		assert.Equal(t, `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-new-cron-object
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
`, out)
		assert.Equal(t, "warning: /spec/replicas: dropped: feature gate ReplicasFeatureGate is disabled\n", errs)
	})
	t.Run("update keeps the stored child (row 7), json", func(t *testing.T) {
		gates := `
- {name: FooFeatureGate, preRelease: beta, default: true, fieldPaths: [.spec.foo]}
- {name: QuxFeatureGate, preRelease: beta, default: false, fieldPaths: [.spec.foo.qux]}
`
		code, out, errs := runGatesCmd(t, gates, gatesData+"foo-qux-new.yaml", "--gates", "-", "--old", gatesData+"foo-qux-stored.yaml", "-o", "json")
		require.Equal(t, exitOK, code, errs)
		assertGatesGolden(t, "foo-qux-row7.json", out)
		assert.Equal(t, "warning: /spec/foo/qux: not updated, the stored value is kept: feature gate QuxFeatureGate is disabled\n", errs)
	})
	t.Run("an update that only touches a disabled field leaves the spec unchanged", func(t *testing.T) {
		stored := "apiVersion: v1\nkind: X\nspec: {image: a}\n"
		code, out, _ := runGatesCmd(t, stored, "--gates", gatesData+"crontab-gates.yaml", "--old", "-", "-o", "json",
			writeGatesTemp(t, "new.yaml", "apiVersion: v1\nkind: X\nspec: {image: a, replicas: 2}\n"))
		require.Equal(t, exitOK, code)
		assert.Contains(t, out, `"specUnchanged": true`)
		assert.Contains(t, out, `"dropped": [
    "/spec/replicas"
  ]`)
	})
	t.Run("a schema types scalars and orders keys", func(t *testing.T) {
		schemaFile := writeGatesTemp(t, "schema.yaml", `
type: object
properties:
  version: {type: string}
  replicas: {type: integer}
  beta: {type: object}
`)
		gates := writeGatesTemp(t, "gates.yaml", "- {name: Beta, preRelease: alpha, fieldPaths: [/beta]}")
		code, out, errs := runGatesCmd(t, "beta: {x: 1}\nreplicas: 3\nversion: 1.10\n", "-", "--gates", gates, "--schema", schemaFile)
		require.Equal(t, exitOK, code, errs)
		assert.Equal(t, "version: \"1.10\"\nreplicas: 3\n", out)
	})
	t.Run("json keeps strings and numbers as they are", func(t *testing.T) {
		code, out, _ := runGatesCmd(t, `{"spec": {"expr": "a<b && c>d", "n": 123456789012345678901234567890.10}}`, "-", "--gates", gatesData+"crontab-gates.yaml", "-o", "json")
		require.Equal(t, exitOK, code)
		assert.Contains(t, out, `"expr": "a<b && c>d"`)
		assert.Contains(t, out, `"n": 123456789012345678901234567890.10`)
	})
	t.Run("deprecated gate warns on stderr", func(t *testing.T) {
		code, _, errs := runGatesCmd(t, "spec: {legacyTLS: false}", "-", "--gates", gatesData+"all-stages.yaml")
		require.Equal(t, exitOK, code)
		assert.Equal(t, "warning: /spec/legacyTLS: LegacyTLS is deprecated and goes away in v2; use .spec.tls instead\n", errs)
	})
}

func TestGatesCommandRefusals(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.yaml")
	good := gatesData + "crontab-gates.yaml"
	obj := gatesData + "crontab-cr.yaml"
	malformed := writeGatesTemp(t, "bad.yaml", "spec: [")
	for _, tc := range []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stderr string // a line the error output must contain
	}{
		{"no --gates", "", []string{obj}, exitUsage, "--gates is required"},
		{"no FILE", "", []string{"--gates", good}, exitUsage, "exactly one FILE"},
		{"two FILEs", "", []string{"--gates", good, obj, obj}, exitUsage, "exactly one FILE"},
		{"--list with FILE", "", []string{"--list", "--gates", good, obj}, exitUsage, "--list takes only --gates and -o"},
		{"--list with --old", "", []string{"--list", "--gates", good, "--old", obj}, exitUsage, "--list takes only --gates and -o"},
		{"bad -o", "", []string{"--gates", good, obj, "-o", "table"}, exitUsage, "-o table"},
		{"bad -o for --list", "", []string{"--list", "--gates", good, "-o", "yaml"}, exitUsage, "-o yaml"},
		{"unknown flag", "", []string{"--gate", good, obj}, exitUsage, "unknown flag --gate: did you mean --gates?"},
		{"gates file missing", "", []string{"--gates", missing, obj}, exitUsage, "missing.yaml"},
		{"gates file malformed", "", []string{"--gates", malformed, obj}, exitUsage, "bad.yaml: line"},
		{"FILE missing", "", []string{"--gates", good, missing}, exitUsage, "missing.yaml"},
		{"FILE malformed", "", []string{"--gates", good, malformed}, exitUsage, "bad.yaml: line"},
		{"OLD missing", "", []string{"--gates", good, "--old", missing, obj}, exitUsage, "missing.yaml"},
		{"OLD malformed", "", []string{"--gates", good, "--old", malformed, obj}, exitUsage, "bad.yaml: line"},
		{"schema unreadable", "", []string{"--gates", good, "--schema", malformed, obj}, exitUsage, "bad.yaml"},
		{"invalid gates", "- {name: A, preRelease: beta, fieldPaths: [spec.x]}", []string{"--gates", "-", obj}, exitInvalid,
			"/0: a beta gate needs a default (true or false)\n" +
				`/0/fieldPaths/0: "spec.x" must start with "." (a field path such as .spec.replicas) or "/" (a JSON pointer such as /spec/replicas)` + "\n"},
		{"invalid gates, --list", "featureGates: [{name: A, preRelease: alpha, default: true, fieldPaths: [.a]}]", []string{"--list", "--gates", "-"}, exitInvalid,
			"/featureGates/0/default: an alpha gate must default to false\n"},
		{"invalid gates file shape", "42", []string{"--list", "--gates", "-"}, exitInvalid,
			`"": a gates file is a list of gates or an object with featureGates` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runGatesCmd(t, tc.stdin, tc.args...)
			assert.Equal(t, tc.code, code, errs)
			assert.Empty(t, out)
			assert.Contains(t, errs, tc.stderr)
			if tc.code == exitInvalid {
				assert.Equal(t, tc.stderr, errs, "exactly the POINTER: message lines")
			}
		})
	}
}

func writeGatesTemp(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}
