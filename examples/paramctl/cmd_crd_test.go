package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/examples/internal/testcert"
	"github.com/paramkit/paramkit/params"
)

const crdSet = "../../kube/testdata/cache"

var crdFlags = []string{"--versions", crdSet, "--group", "example.paramkit.dev", "--kind", "Cache", "--plural", "caches",
	"--conversion-service", "cache-system/cache-webhook"}

// TestCRD: a field's schema, a whole CRD (the golden file of kube),
// --output and --check for CI, usage errors.
func TestCRD(t *testing.T) {
	golden, err := os.ReadFile("../../kube/testdata/crd/caches.yaml")
	require.NoError(t, err)
	tests := []cliCase{
		{name: "field schema", args: []string{"crd", crdSet + "/v2.yaml"}, code: exitOK,
			out: []string{"rule: self == oldSelf", "format: int64", "ttlSeconds:"}, notOut: []string{"oldName", "immutable:"}},
		{name: "field schema json", args: []string{"crd", crdSet + "/v1.yaml", "-o", "json"}, code: exitOK, out: []string{`"maxMemoryMB": {`}},
		{name: "untranslatable", args: []string{"crd", "-"}, stdin: `{"type":"object","properties":{"a":{"if":{"type":"string"}}}}`, code: exitInvalid,
			err: []string{"/properties/a/if: kube: if has no equivalent in a CRD schema"}},
		{name: "whole CRD", args: append([]string{"crd"}, crdFlags...), code: exitOK, out: []string{crdHeader + string(golden)}},
		{name: "no group", args: []string{"crd", "--versions", crdSet, "--kind", "Cache", "--plural", "caches"}, code: exitUsage, err: []string{"group"}},
		{name: "no schema", args: []string{"crd"}, code: exitUsage, err: []string{"needs a SCHEMA"}},
		{name: "output and check", args: append([]string{"crd", "--output", "a", "--check", "b"}, crdFlags...), code: exitUsage, err: []string{"exclude each other"}},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}

	// -o json on a whole CRD prints the golden manifest as JSON: the same
	// values, no YAML (it printed YAML, the flag ignored).
	t.Run("whole CRD json", func(t *testing.T) {
		var out, errb bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}
		require.Equal(t, exitOK, e.dispatch(append([]string{"crd", "-o", "json"}, crdFlags...)), errb.String())
		require.True(t, json.Valid(out.Bytes()), "not JSON: %s", out.String())
		assert.True(t, strings.HasPrefix(out.String(), "{\n"), "%s", out.String())
		got, err := params.Decode(nil, out.Bytes())
		require.NoError(t, err)
		want, err := params.Decode(nil, golden)
		require.NoError(t, err)
		assert.Equal(t, want, got)

		file := filepath.Join(t.TempDir(), "caches.json")
		cliCase{args: append([]string{"crd", "-o", "json", "--output", file}, crdFlags...), code: exitOK}.run(t)
		written, err := os.ReadFile(file)
		require.NoError(t, err)
		assert.Equal(t, out.String(), string(written))
		cliCase{args: append([]string{"crd", "-o", "json", "--check", file}, crdFlags...), code: exitOK, err: []string{"up to date"}}.run(t)
		cliCase{args: append([]string{"crd", "--check", file}, crdFlags...), code: exitInvalid, err: []string{"stale"}}.run(t)
	})
	t.Run("bad format", func(t *testing.T) {
		cliCase{args: append([]string{"crd", "-o", "xml"}, crdFlags...), code: exitUsage, err: []string{"-o must be yaml or json"}}.run(t)
	})

	dir := t.TempDir()
	file := filepath.Join(dir, "caches.yaml")
	cliCase{args: append([]string{"crd", "--output", file}, crdFlags...), code: exitOK}.run(t)
	cliCase{args: append([]string{"crd", "--check", file}, crdFlags...), code: exitOK, err: []string{"up to date"}}.run(t)
	require.NoError(t, os.WriteFile(file, []byte("stale\n"), 0o644))
	cliCase{args: append([]string{"crd", "--check", file}, crdFlags...), code: exitInvalid, err: []string{"stale"}}.run(t)
	have, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, "stale\n", string(have), "--check changes nothing")
}

// TestCRDWebhookTrust: --url, --ca-bundle and --cert-manager reach the
// manifest; mistakes in them are usage errors.
func TestCRDWebhookTrust(t *testing.T) {
	base := []string{"crd", "--versions", crdSet, "--group", "example.paramkit.dev", "--kind", "Cache", "--plural", "caches"}
	code, out, errOut := paramctl(t, "", append(base, "--conversion-service", "ns/svc", "--cert-manager", "ns/serving-cert")...)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "annotations:\n    cert-manager.io/inject-ca-from: ns/serving-cert\n")
	caFile, _, _, err := testcert.Write(t.TempDir(), "webhook")
	require.NoError(t, err)
	code, out, errOut = paramctl(t, "", append(base, "--url", "https://hook.example.com:9443/convert", "--ca-bundle", caFile)...)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "url: https://hook.example.com:9443/convert")
	assert.Contains(t, out, "caBundle: ")
	for _, bad := range [][]string{
		{"--url", "http://hook/convert"},
		{"--url", "https://hook/convert", "--conversion-service", "ns/svc"},
		{"--cert-manager", "cert"},
		{"--conversion-service", "ns/svc", "--ca-bundle", "cmd_crd_test.go"},
	} {
		code, _, errOut = paramctl(t, "", append(base, bad...)...)
		assert.Equal(t, 2, code, "%v: %s", bad, errOut)
	}
}
