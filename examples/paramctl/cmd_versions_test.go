package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func assertVersionsGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "versions", name)
	if gatesGoldenUpdate() {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create %s", path)
	assert.Equal(t, string(want), got)
}

func TestVersionsCommand(t *testing.T) {
	for _, tc := range []struct{ dir, format, golden string }{
		{"demo/versions-set", "text", "three.txt"},
		{"demo/versions-set", "json", "three.json"},
		{"demo/bmh-set", "text", "bmh.txt"},
		{"demo/bmh-set", "json", "bmh.json"},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			code, out, errOut := paramctl(t, "", "versions", tc.dir, "-o", tc.format)
			require.Equal(t, 0, code, errOut)
			assertVersionsGolden(t, tc.golden, out)
		})
	}
	code, _, errOut := paramctl(t, "", "versions")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "exactly one DIR")
	code, _, errOut = paramctl(t, "", "versions", "demo/no-such-set")
	assert.Equal(t, 2, code)
	assert.NotEmpty(t, errOut)
}

func TestMigrateVersions(t *testing.T) {
	args := []string{"migrate", "--versions", "demo/bmh-set", "--from", "v1alpha1", "--to", "v1alpha2",
		"--api-version", "hardware.metal3.io/v1alpha2", "demo/bmh-hosts-v1alpha1.yaml"}

	// Refused without --allow-lossy: nothing written, the report says why.
	code, out, errOut := paramctl(t, "", args...)
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "doc 0: /status/hardware/cpu/clockMegahertz: lossy 2593.75 -> 2593 (refused; --allow-lossy applies it)")
	assert.NotContains(t, errOut, "loses information", "a refused change is reported once")

	code, out, errOut = paramctl(t, "", append(args, "--allow-lossy")...)
	require.Equal(t, 0, code, errOut)
	want, err := os.ReadFile("../../convert/migrate/testdata/bmh/hosts-v1alpha2.golden.yaml")
	require.NoError(t, err)
	assert.Equal(t, string(want), out, "the command gives what the library's golden test holds")
	wantReport, err := os.ReadFile("../../convert/migrate/testdata/bmh/hosts-v1alpha2.report.golden.txt")
	require.NoError(t, err)
	assert.Equal(t, string(wantReport), errOut)

	code, out, _ = paramctl(t, "", append(args, "--allow-lossy", "-o", "json", "--dry-run")...)
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2)
	assert.Equal(t, `{"dropped":[{"pointer":"/spec/hardwareProfile","value":"dell"},{"pointer":"/status/hardwareProfile","value":"dell"}],"lossy":[{"pointer":"/status/hardware/cpu/clockMegahertz","from":2593.75,"to":2593,"refused":false}],"errors":[]}`, lines[0])

	// An apiVersion that is none stops the run (exit 2): no document is to
	// blame, so none is reported as failed.
	code, out, errOut = paramctl(t, "", "migrate", "--versions", "demo/bmh-set", "--from", "v1alpha1", "--to", "v1alpha2",
		"--api-version", "a/b/c", "--allow-lossy", "demo/bmh-hosts-v1alpha1.yaml")
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "not an apiVersion")
	assert.NotContains(t, errOut, "doc 0:")

	// Upgrade only.
	code, _, errOut = paramctl(t, "", "migrate", "--versions", "demo/bmh-set", "--from", "v1alpha2", "--to", "v1alpha1", "demo/bmh-hosts-v1alpha1.yaml")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "refused: v1alpha2 is upgrade-only (downgrade: false)")

	// Values (not objects) through the hub, from the oldest to the preview.
	code, out, errOut = paramctl(t, "name: a\nreplicas: 3\nsize: 2.5\nlegacyMode: true\n",
		"migrate", "--versions", "demo/versions-set", "--from", "v1", "--to", "v3", "--allow-lossy", "-o", "json", "-")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `"scaling":{"replicas":3}`)
	assert.Contains(t, out, `"dropped":[{"pointer":"/legacyMode","value":true}]`)

	for _, bad := range [][]string{
		{"--versions", "demo/bmh-set", "--from", "v1alpha1", "-"},
		{"--from", "v1alpha1", "--to", "v1alpha2", "-"},
		{"--versions", "demo/bmh-set", "--from", "v9", "--to", "v1alpha2", "-"},
		{"--versions", "demo/bmh-set", "--schema", "x.yaml", "--from", "v1alpha1", "--to", "v1alpha2", "-"},
		{"--versions", "demo/bmh-set", "--from", "v1alpha1", "--to", "v1alpha2", "--kind", "Host", "-"},
	} {
		code, _, errOut := paramctl(t, "", append([]string{"migrate"}, bad...)...)
		assert.Equal(t, 2, code, "%v: %s", bad, errOut)
	}
}
