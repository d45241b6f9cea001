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
	cert, key, _ := testcert.Write(t, dir, "paramctl")
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
	cert, key, _ := testcert.Write(t, dir, "paramctl")
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
	cert, key, pool := testcert.Write(t, dir, "paramctl")
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
	assert.Contains(t, stderr.String(), "serving /validate, /mutate, /convert and /healthz on https://"+addr.String()+" with 3 operator version schemas")
}
