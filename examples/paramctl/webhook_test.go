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
		{"negative reviews at once", []string{"webhook", "--cert", cert, "--key", key, "--schemas", dir, "--max-reviews-at-once", "-1"}, "--max-reviews-at-once -1: give a number of reviews"},
		{"budget under a limit", []string{"webhook", "--cert", cert, "--key", key, "--schemas", dir, "--max-body-bytes-in-flight", "1000"}, "--max-body-bytes-in-flight 1000 is less than the largest body limit 67108864"},
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
		done <- run([]string{"webhook", "--cert", cert, "--key", key, "--schemas", "testdata/webhook/schemas", "--addr", "127.0.0.1:0"}, strings.NewReader(""), &stdout, &stderr)
	}()
	var addr net.Addr
	select {
	case addr = <-addrs:
	case code := <-done:
		t.Fatalf("webhook exited with %d: %s", code, stderr.String())
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	defer client.CloseIdleConnections()
	review, err := os.ReadFile("testdata/webhook/golden/convert-instance-up.request.json")
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
	const schemas = "testdata/webhook/schemas"
	const golden = "testdata/webhook/golden/"
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

// serveWebhook runs `paramctl webhook ARGS --addr 127.0.0.1:0` until the
// test ends and returns its base URL and standard error.
func serveWebhook(t *testing.T, args ...string) (string, *bytes.Buffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	oldCtx, oldListen := webhookContext, webhookListening
	webhookContext = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	webhookListening = func(a net.Addr) { addrs <- a }
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(append(append([]string{"webhook"}, args...), "--addr", "127.0.0.1:0"), strings.NewReader(""), &stdout, &stderr)
	}()
	var addr net.Addr
	select {
	case addr = <-addrs:
	case code := <-done:
		webhookContext, webhookListening = oldCtx, oldListen
		cancel()
		t.Fatalf("webhook exited with %d: %s", code, stderr.String())
	}
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			assert.Equal(t, exitOK, code, stderr.String())
		case <-time.After(15 * time.Second):
			t.Error("webhook did not stop")
		}
		webhookContext, webhookListening = oldCtx, oldListen
	})
	return "https://" + addr.String(), &stderr
}

func TestWebhookClientCA(t *testing.T) {
	dir := t.TempDir()
	cert, key, pool, err := testcert.Write(dir, "paramctl")
	require.NoError(t, err)
	ca, err := testcert.NewAuthority("apiserver-clients")
	require.NoError(t, err)
	caFile := filepath.Join(dir, "client-ca.crt")
	require.NoError(t, os.WriteFile(caFile, ca.PEM, 0o600))
	apiserver, _, _, err := ca.ClientCert("kube-apiserver", time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
	require.NoError(t, err)
	const schemas = "testdata/webhook/schemas"
	post := func(t *testing.T, base, path string, withCert bool) int {
		t.Helper()
		cfg := &tls.Config{RootCAs: pool}
		if withCert {
			cfg.Certificates = []tls.Certificate{apiserver}
		}
		client := &http.Client{Transport: &http.Transport{TLSClientConfig: cfg}}
		defer client.CloseIdleConnections()
		golden := map[string]string{"/validate": "validate-create-valid", "/mutate": "mutate-create-defaults", "/convert": "convert-instance-up"}[path]
		var resp *http.Response
		var err error
		if golden == "" {
			resp, err = client.Get(base + path)
		} else {
			review, rerr := os.ReadFile("testdata/webhook/golden/" + golden + ".request.json")
			require.NoError(t, rerr)
			resp, err = client.Post(base+path+"?timeout=30s", "application/json", bytes.NewReader(review))
		}
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}

	t.Run("every review path needs the certificate", func(t *testing.T) {
		base, stderr := serveWebhook(t, "--cert", cert, "--key", key, "--schemas", schemas, "--client-ca", caFile)
		want := map[string][2]int{ // without, with the certificate
			"/healthz": {200, 200}, "/validate": {401, 200}, "/mutate": {401, 200}, "/convert": {401, 200},
		}
		for path, w := range want {
			assert.Equal(t, w[0], post(t, base, path, false), "%s without a certificate", path)
			assert.Equal(t, w[1], post(t, base, path, true), "%s with the certificate", path)
		}
		assert.Contains(t, stderr.String(), "only callers with a client certificate signed by "+caFile+" reach /validate, /mutate and /convert; /healthz answers anyone")
		assert.Contains(t, stderr.String(), "kube-apiserver presents no client certificate to CRD conversion webhooks")
	})
	t.Run("--convert-without-client-cert opens /convert only", func(t *testing.T) {
		base, stderr := serveWebhook(t, "--cert", cert, "--key", key, "--schemas", schemas, "--client-ca", caFile, "--convert-without-client-cert")
		want := map[string]int{"/healthz": 200, "/validate": 401, "/mutate": 401, "/convert": 200}
		for path, w := range want {
			assert.Equal(t, w, post(t, base, path, false), "%s without a certificate", path)
		}
		assert.Contains(t, stderr.String(), "reach /validate and /mutate; /convert and /healthz answer anyone")
	})
	t.Run("usage", func(t *testing.T) {
		cases := []struct {
			name string
			args []string
			msg  string
		}{
			{"open /convert without a CA", []string{"--convert-without-client-cert"}, "--convert-without-client-cert needs --client-ca"},
			{"missing CA file", []string{"--client-ca", filepath.Join(dir, "nope.crt")}, "--client-ca: client CA: stat " + filepath.Join(dir, "nope.crt")},
			{"a key for a CA", []string{"--client-ca", key}, `--client-ca: client CA ` + key + `: block 1 is "EC PRIVATE KEY", not a CERTIFICATE`},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				args := append([]string{"webhook", "--cert", cert, "--key", key, "--schemas", schemas, "--addr", "127.0.0.1:0"}, c.args...)
				code := run(args, strings.NewReader(""), &stdout, &stderr)
				assert.Equal(t, exitUsage, code)
				assert.Contains(t, stderr.String(), c.msg)
			})
		}
	})
}

// --enable-http2 offers h2; without it the server speaks HTTP/1.1 only.
// --max-body-bytes-in-flight bounds the bodies held at once.
func TestWebhookServerFlags(t *testing.T) {
	dir := t.TempDir()
	cert, key, pool, err := testcert.Write(dir, "paramctl")
	require.NoError(t, err)
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "http/1.1"},
		{[]string{"--enable-http2"}, "h2"},
	} {
		url, _ := serveWebhook(t, append([]string{"--cert", cert, "--key", key, "--schemas", "testdata/webhook/schemas"}, c.args...)...)
		conn, err := tls.Dial("tcp", strings.TrimPrefix(url, "https://"), &tls.Config{RootCAs: pool, NextProtos: []string{"h2", "http/1.1"}})
		require.NoError(t, err)
		assert.Equal(t, c.want, conn.ConnectionState().NegotiatedProtocol, "%v", c.args)
		conn.Close()
	}

	// A budget of 64 KiB: a request that holds 60 KiB of body leaves too
	// little for a second one, which is answered at once.
	url, _ := serveWebhook(t, "--cert", cert, "--key", key, "--schemas", "testdata/webhook/schemas",
		"--max-review-bytes", "65536", "--max-conversion-bytes", "65536", "--max-body-bytes-in-flight", "65536")
	conn, err := tls.Dial("tcp", strings.TrimPrefix(url, "https://"), &tls.Config{RootCAs: pool, NextProtos: []string{"http/1.1"}})
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "POST /convert HTTP/1.1\r\nHost: x\r\nContent-Length: 65000\r\n\r\n")
	require.NoError(t, err)
	_, err = conn.Write(bytes.Repeat([]byte(" "), 60<<10))
	require.NoError(t, err)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	defer client.CloseIdleConnections()
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		resp, err := client.Post(url+"/validate", "application/json", bytes.NewReader(bytes.Repeat([]byte(" "), 20<<10)))
		require.NoError(c, err)
		resp.Body.Close()
		assert.Equal(c, http.StatusTooManyRequests, resp.StatusCode)
		assert.Equal(c, "1", resp.Header.Get("Retry-After"))
	}, 10*time.Second, 20*time.Millisecond)
	resp, err := client.Get(url + "/healthz")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode, "/healthz bypasses the budget")
}
