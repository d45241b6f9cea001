package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/examples/internal/testcert"
)

func TestWebhookUsage(t *testing.T) {
	dir := t.TempDir()
	cert, key, _, err := testcert.Write(dir, "paramctl")
	require.NoError(t, err)
	cases := []struct {
		name string
		args []string
		msg  string
	}{
		{"no flags", []string{"webhook"}, "webhook needs --cert and --key and --schemas (HTTPS only)"},
		{"no schemas", []string{"webhook", "--cert", cert, "--key", key}, "webhook needs --schemas"},
		{"schemas is not a directory", []string{"webhook", "--cert", cert, "--key", key, "--schemas", cert}, "not a directory"},
		{"bad certificate", []string{"webhook", "--cert", key, "--key", key, "--schemas", dir}, "--cert " + key},
		{"stray argument", []string{"webhook", "x", "--cert", cert, "--key", key, "--schemas", dir}, `webhook takes no arguments, got "x"`},
		{"bad limit", []string{"webhook", "--cert", cert, "--key", key, "--schemas", dir, "--max-review-bytes", "0"}, "must be positive"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(c.args, strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, exitUsage, code)
			assert.Contains(t, stderr.String(), c.msg)
		})
	}
}

func TestWebhookRefusesBrokenSchemas(t *testing.T) {
	dir := t.TempDir()
	cert, key, _, err := testcert.Write(dir, "paramctl")
	require.NoError(t, err)
	schemas := filepath.Join(dir, "schemas")
	require.NoError(t, os.Mkdir(schemas, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(schemas, "good-1.0.0.yaml"), []byte("type: object\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(schemas, "bad-1.0.0.yaml"), []byte("type: object\nproperties: {a: {type: 7}}\n"), 0o644))
	var stdout, stderr bytes.Buffer
	code := run([]string{"webhook", "--cert", cert, "--key", key, "--schemas", schemas, "--addr", "127.0.0.1:0"}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr.String(), `operator version "bad-1.0.0": schema file `+filepath.Join(schemas, "bad-1.0.0.yaml"))
	assert.NotContains(t, stderr.String(), "good-1.0.0")
}

func TestWebhookServes(t *testing.T) {
	dir := t.TempDir()
	cert, key, pool, err := testcert.Write(dir, "paramctl")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrs := make(chan net.Addr, 1)
	oldCtx, oldListen := webhookContext, webhookListening
	webhookContext = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	webhookListening = func(a net.Addr) { addrs <- a }
	t.Cleanup(func() { webhookContext, webhookListening = oldCtx, oldListen })

	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"webhook", "--cert", cert, "--key", key, "--schemas", "../webhook/testdata/schemas", "--addr", "127.0.0.1:0"}, strings.NewReader(""), &stdout, &stderr)
	}()
	var addr net.Addr
	select {
	case addr = <-addrs:
	case code := <-done:
		t.Fatalf("webhook exited with %d: %s", code, stderr.String())
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	defer client.CloseIdleConnections()
	review, err := os.ReadFile("../webhook/testdata/golden/convert-instance-up.request.json")
	require.NoError(t, err)
	resp, err := client.Post("https://"+addr.String()+"/convert?timeout=30s", "application/json", bytes.NewReader(review))
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode, string(body))
	var out struct {
		Response struct {
			Result struct{ Status string } `json:"result"`
		} `json:"response"`
	}
	require.NoError(t, json.Unmarshal(body, &out))
	assert.Equal(t, "Success", out.Response.Result.Status)

	client.CloseIdleConnections()
	cancel()
	select {
	case code := <-done:
		assert.Equal(t, exitOK, code, stderr.String())
	case <-time.After(15 * time.Second):
		t.Fatal("webhook did not stop")
	}
	assert.Contains(t, stderr.String(), "serving /validate, /mutate, /convert and /healthz on https://"+addr.String()+" with 4 operator version schemas")
}

func TestWebhookReview(t *testing.T) {
	const schemas = "../webhook/testdata/schemas"
	const golden = "../webhook/testdata/golden/"
	cases := []struct {
		name string
		args []string
		code int
		out  []string
		err  string
	}{
		{"validate", []string{"--review", golden + "validate-create-valid.request.json"}, exitOK, []string{`"plan: deploy"`, `"uid": "a1000000-0000-4000-8000-000000000001"`}, ""},
		{"denied is exit 1", []string{"--review", golden + "validate-update-immutable.request.json"}, exitInvalid, []string{`"allowed": false`}, ""},
		{"mutate", []string{"--review", golden + "mutate-create-defaults.request.json", "--endpoint", "mutate"}, exitOK, []string{`"patchType": "JSONPatch"`}, ""},
		{"convert", []string{"--review", golden + "convert-instance-up.request.json"}, exitOK, []string{`"NODE_COUNT": 3`}, ""},
		{"failed conversion is exit 1", []string{"--review", golden + "convert-missing-schema.request.json"}, exitInvalid, []string{`"status": "Failure"`}, ""},
		{"round trip", []string{"--review", golden + "convert-instance-down.request.json", "--round-trip"}, exitOK,
			[]string{"and back to kudo.dev/v1beta2:", "round trip: the kudo.dev/v1beta2 form of 1 object came back unchanged"}, ""},
		{"round trip from v1beta1", []string{"--review", golden + "convert-instance-up.request.json", "--round-trip"}, exitOK,
			[]string{"and back to kudo.dev/v1beta1:", `"ARRAY_PARAM": "[\"foo\",\"bar\",\"bazz\"]"`, "came back unchanged"}, ""},
		{"round trip of mixed versions", []string{"--review", golden + "convert-list.request.json", "--round-trip"}, exitUsage, nil, "--round-trip needs the objects in one apiVersion"},
		{"round trip of an admission review", []string{"--review", golden + "validate-create-valid.request.json", "--round-trip"}, exitUsage, nil, "--round-trip needs a ConversionReview"},
		{"not a review", []string{"--review", "-"}, exitUsage, nil, "-: the body is not JSON"},
		{"bad endpoint", []string{"--review", "-", "--endpoint", "convert"}, exitUsage, nil, `--endpoint must be validate or mutate, not "convert"`},
		{"missing file", []string{"--review", "nope.json"}, exitUsage, nil, "nope.json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"webhook", "--schemas", schemas}, c.args...)
			code := run(args, strings.NewReader("nope"), &stdout, &stderr)
			assert.Equal(t, c.code, code, stderr.String())
			for _, o := range c.out {
				assert.Contains(t, stdout.String(), o)
			}
			if c.err != "" {
				assert.Contains(t, stderr.String(), c.err)
			}
		})
	}
}
