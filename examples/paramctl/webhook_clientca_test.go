package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/examples/internal/testcert"
	"github.com/paramkit/paramkit/kube"
)

// lockedBuffer collects log output written from several goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// caRecheck is how long a ClientCA (package kube) waits before it
// looks at its file again: a test that rewrites the file waits so long.
const caRecheck = 1100 * time.Millisecond

// fastRecheck makes the server's certificate files be looked at on every
// handshake and request for the rest of the test (the CA file: caRecheck).
func fastRecheck(t *testing.T) {
	old := certRecheckInterval
	certRecheckInterval = 0
	t.Cleanup(func() { certRecheckInterval = old })
}

// clientPKI is a client CA with a certificate of each kind a caller may
// present.
type clientPKI struct {
	ca, other                       *testcert.Authority
	valid, foreign, expired, notYet tls.Certificate
}

func newClientPKI(t *testing.T) *clientPKI {
	t.Helper()
	var p clientPKI
	var err error
	p.ca, err = testcert.NewAuthority("apiserver-clients")
	require.NoError(t, err)
	p.other, err = testcert.NewAuthority("someone-else")
	require.NoError(t, err)
	now := time.Now()
	p.valid, _, _, err = p.ca.ClientCert("kube-apiserver", now.Add(-time.Hour), now.Add(time.Hour))
	require.NoError(t, err)
	p.foreign, _, _, err = p.other.ClientCert("kube-apiserver", now.Add(-time.Hour), now.Add(time.Hour))
	require.NoError(t, err)
	p.expired, _, _, err = p.ca.ClientCert("kube-apiserver", now.Add(-2*time.Hour), now.Add(-time.Hour))
	require.NoError(t, err)
	p.notYet, _, _, err = p.ca.ClientCert("kube-apiserver", now.Add(time.Hour), now.Add(2*time.Hour))
	require.NoError(t, err)
	return &p
}

// writeCA writes the PEM texts to dir/client-ca.pem and returns its path.
func writeCA(t *testing.T, dir string, pems ...[]byte) string {
	t.Helper()
	f := filepath.Join(dir, "client-ca.pem")
	// Replaced, as a mounted Secret is: a new file renamed over the old.
	tmp := f + ".tmp"
	require.NoError(t, os.WriteFile(tmp, bytes.Join(pems, nil), 0o600))
	require.NoError(t, os.Rename(tmp, f))
	return f
}

// callerClient is an HTTPS client that trusts the test server and
// presents cert (none when nil).
func callerClient(pool *x509.CertPool, cert *tls.Certificate) *http.Client {
	cfg := &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	if cert != nil {
		cfg.Certificates = []tls.Certificate{*cert}
	}
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: cfg, ForceAttemptHTTP2: true}}
}

// call sends the golden review for path (GET for /healthz) and returns the
// status and body, or the error of a refused handshake.
func call(t *testing.T, c *http.Client, base, path string) (int, string, error) {
	t.Helper()
	var resp *http.Response
	var err error
	if path == "/healthz" {
		resp, err = c.Get(base + path)
	} else {
		resp, err = c.Post(base+path, "application/json", bytes.NewReader(readGolden(t, goldenFor[path])))
	}
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b), nil
}

var goldenFor = map[string]string{
	"/validate": "validate-create-valid",
	"/mutate":   "mutate-create-defaults",
	"/convert":  "convert-instance-up",
}

// answered checks that a 200 is the review's real answer, not an error.
func answered(t *testing.T, path, body string) {
	t.Helper()
	switch path {
	case "/healthz":
		assert.Equal(t, "ok\n", body)
	case "/convert":
		var r kube.ConversionReview
		require.NoError(t, json.Unmarshal([]byte(body), &r))
		assert.Equal(t, "Success", r.Response.Result.Status, r.Response.Result.Message)
		assert.NotEmpty(t, r.Response.ConvertedObjects)
	default:
		var r kube.AdmissionReview
		require.NoError(t, json.Unmarshal([]byte(body), &r))
		assert.True(t, r.Response.Allowed, body)
	}
}

// refusedHandshake: the server ended the handshake over the certificate
// (with TLS 1.3 the client learns it on its first read).
const refusedHandshake = "tls: bad certificate"

// assertHandshakeRefused shakes hands as a client presenting cert and
// checks that the server ends the handshake over the certificate. With TLS
// 1.3 the client's side of the handshake completes first; the server's
// alert is what the first read returns.
func assertHandshakeRefused(t *testing.T, ts *testServer, cert *tls.Certificate) {
	t.Helper()
	cfg := &tls.Config{RootCAs: ts.Pool, MinVersion: tls.VersionTLS12}
	if cert != nil {
		cfg.Certificates = []tls.Certificate{*cert}
	}
	for _, v := range []uint16{tls.VersionTLS12, tls.VersionTLS13} {
		cfg.MaxVersion = v
		conn, err := tls.Dial("tcp", strings.TrimPrefix(ts.URL, "https://"), cfg)
		if err == nil {
			require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
			_, err = conn.Read(make([]byte, 1))
			conn.Close()
		}
		require.Error(t, err)
		assert.Contains(t, err.Error(), refusedHandshake, "TLS version %x", v)
	}
}

var webhookPaths = []string{"/healthz", "/validate", "/mutate", "/convert"}

func TestClientCertificates(t *testing.T) {
	p := newClientPKI(t)
	caFile := writeCA(t, t.TempDir(), p.ca.PEM)
	ts := startServer(t, testHandler(t, nil), func(s *Server) { s.ClientCAFile = caFile; s.EnableHTTP2 = true })

	const ok, noCert, handshake = 200, 401, -1
	callers := []struct {
		name string
		cert *tls.Certificate
		want map[string]int // path -> status, or handshake
	}{
		{"no certificate", nil, map[string]int{"/healthz": ok, "/validate": noCert, "/mutate": noCert, "/convert": noCert}},
		{"certificate of another CA", &p.foreign, map[string]int{"/healthz": handshake, "/validate": handshake, "/mutate": handshake, "/convert": handshake}},
		{"expired certificate", &p.expired, map[string]int{"/healthz": handshake, "/validate": handshake, "/mutate": handshake, "/convert": handshake}},
		{"certificate not valid yet", &p.notYet, map[string]int{"/healthz": handshake, "/validate": handshake, "/mutate": handshake, "/convert": handshake}},
		{"valid certificate", &p.valid, map[string]int{"/healthz": ok, "/validate": ok, "/mutate": ok, "/convert": ok}},
	}
	for _, c := range callers {
		for _, path := range webhookPaths {
			t.Run(c.name+" "+path, func(t *testing.T) {
				client := callerClient(ts.Pool, c.cert)
				defer client.CloseIdleConnections()
				code, body, err := call(t, client, ts.URL, path)
				switch want := c.want[path]; want {
				case handshake:
					require.Error(t, err, "status %d", code)
				default:
					require.NoError(t, err)
					require.Equal(t, want, code, body)
					if want == ok {
						answered(t, path, body)
					} else {
						assert.Equal(t, path+" needs a client certificate signed by the webhook's client CA\n", body)
					}
				}
			})
		}
	}

	for _, c := range callers {
		if c.want["/healthz"] != handshake {
			continue
		}
		t.Run(c.name+" ends the handshake", func(t *testing.T) {
			assertHandshakeRefused(t, ts, c.cert)
		})
	}

	t.Run("HTTP/2 still", func(t *testing.T) {
		client := callerClient(ts.Pool, &p.valid)
		defer client.CloseIdleConnections()
		resp, err := client.Get(ts.URL + "/healthz")
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, "HTTP/2.0", resp.Proto)
	})
}

func TestPathsWithoutClientCert(t *testing.T) {
	p := newClientPKI(t)
	caFile := writeCA(t, t.TempDir(), p.ca.PEM)
	ts := startServer(t, testHandler(t, nil), func(s *Server) {
		s.ClientCAFile = caFile
		s.PathsWithoutClientCert = []string{"/convert"}
	})
	client := callerClient(ts.Pool, nil)
	defer client.CloseIdleConnections()
	for path, want := range map[string]int{"/healthz": 200, "/convert": 200, "/validate": 401, "/mutate": 401} {
		code, body, err := call(t, client, ts.URL, path)
		require.NoError(t, err)
		assert.Equal(t, want, code, "%s: %s", path, body)
		if want == 200 {
			answered(t, path, body)
		}
	}
	resp, err := client.Get(ts.URL + "/unknown")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 401, resp.StatusCode, "a path not named open is closed, known or not")
}

func TestClientCARotation(t *testing.T) {
	fastRecheck(t)
	p := newClientPKI(t)
	dir := t.TempDir()
	caFile := writeCA(t, dir, p.ca.PEM)
	var logs lockedBuffer
	ts := startServer(t, testHandler(t, nil), func(s *Server) {
		s.ClientCAFile = caFile
		s.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	})
	reused := func(t *testing.T, c *http.Client) (bool, int, error) {
		t.Helper()
		var got httptrace.GotConnInfo
		ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) { got = i }})
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/validate", bytes.NewReader(readGolden(t, "validate-create-valid")))
		resp, err := c.Do(req)
		if err != nil {
			return got.Reused, 0, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return got.Reused, resp.StatusCode, nil
	}

	// A caller of the first CA keeps its connection open across the rotation.
	oldCaller := callerClient(ts.Pool, &p.valid)
	defer oldCaller.CloseIdleConnections()
	_, code, err := reused(t, oldCaller)
	require.NoError(t, err)
	require.Equal(t, 200, code)

	next, err := testcert.NewAuthority("apiserver-clients-2")
	require.NoError(t, err)
	now := time.Now()
	nextCert, _, _, err := next.ClientCert("kube-apiserver", now.Add(-time.Hour), now.Add(time.Hour))
	require.NoError(t, err)
	writeCA(t, dir, next.PEM)
	time.Sleep(caRecheck)

	t.Run("the kept-alive connection is refused and closed", func(t *testing.T) {
		wasReused, code, err := reused(t, oldCaller)
		require.NoError(t, err)
		assert.True(t, wasReused, "the request went over the connection made before the rotation")
		assert.Equal(t, http.StatusForbidden, code)
		_, _, err = reused(t, oldCaller)
		require.Error(t, err, "a new handshake with the old CA's certificate fails")
	})
	t.Run("a new caller of the old CA is refused at the handshake", func(t *testing.T) {
		c := callerClient(ts.Pool, &p.valid)
		defer c.CloseIdleConnections()
		_, _, err := call(t, c, ts.URL, "/mutate")
		require.Error(t, err)
		assertHandshakeRefused(t, ts, &p.valid)
	})
	newCaller := callerClient(ts.Pool, &nextCert)
	defer newCaller.CloseIdleConnections()
	t.Run("the new CA's certificate is accepted", func(t *testing.T) {
		for _, path := range webhookPaths {
			code, body, err := call(t, newCaller, ts.URL, path)
			require.NoError(t, err)
			require.Equal(t, 200, code, body)
			answered(t, path, body)
		}
	})
	t.Run("a broken file keeps the previous CA and is logged once", func(t *testing.T) {
		writeCA(t, dir, []byte("-----BEGIN CERTIFICATE-----\nhalf written"))
		time.Sleep(caRecheck)
		for range 3 {
			c := callerClient(ts.Pool, &nextCert)
			code, body, err := call(t, c, ts.URL, "/validate")
			c.CloseIdleConnections()
			require.NoError(t, err)
			require.Equal(t, 200, code, body)
		}
		assertHandshakeRefused(t, ts, &p.valid) // the first CA stays out
		assert.Equal(t, 1, strings.Count(logs.String(), "keeping the previous client CA"), logs.String())
		assert.Contains(t, logs.String(), "no PEM certificate in the file")
	})
	t.Run("a removed file keeps the previous CA", func(t *testing.T) {
		require.NoError(t, os.Remove(caFile))
		time.Sleep(caRecheck)
		code, body, err := call(t, newCaller, ts.URL, "/convert")
		require.NoError(t, err)
		require.Equal(t, 200, code, body)
		assert.Contains(t, logs.String(), "no such file or directory")
	})
	t.Run("a bundle of both CAs accepts both", func(t *testing.T) {
		writeCA(t, dir, p.ca.PEM, next.PEM)
		time.Sleep(caRecheck)
		for _, cert := range []*tls.Certificate{&p.valid, &nextCert} {
			c := callerClient(ts.Pool, cert)
			code, body, err := call(t, c, ts.URL, "/validate")
			c.CloseIdleConnections()
			require.NoError(t, err)
			require.Equal(t, 200, code, body)
		}
		assert.Contains(t, logs.String(), "client CA reloaded")
	})
}

func TestClientCAWrapsAnyServer(t *testing.T) {
	// What controller-runtime does with TLSOpts: its own tls.Config, its own
	// listener, handlers wrapped one by one, a VerifyConnection of its own.
	p := newClientPKI(t)
	ca, err := kube.NewClientCA(writeCA(t, t.TempDir(), p.ca.PEM), nil)
	require.NoError(t, err)
	certFile, keyFile, pool, err := testcert.Write(t.TempDir(), "webhook-test")
	require.NoError(t, err)
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	require.NoError(t, err)
	var verified sync.Map
	cfg := &tls.Config{
		NextProtos:       []string{"h2"},
		ClientAuth:       tls.RequireAndVerifyClientCert, // stricter than asked: stays strict
		VerifyConnection: func(cs tls.ConnectionState) error { verified.Store(cs.ServerName, true); return nil },
	}
	ca.ConfigureTLS(cfg)
	cfg.GetCertificate = func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return &pair, nil } // set after the options, as controller-runtime does
	assert.Equal(t, tls.RequireAnyClientCert, cfg.ClientAuth)
	assert.Nil(t, cfg.ClientCAs)

	mux := http.NewServeMux()
	mux.Handle("/validate", ca.Require(testHandler(t, nil)))
	l, err := tls.Listen("tcp", "127.0.0.1:0", cfg)
	require.NoError(t, err)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { srv.Close() })
	base := "https://" + l.Addr().String()

	c := callerClient(pool, &p.valid)
	defer c.CloseIdleConnections()
	code, body, err := call(t, c, base, "/validate")
	require.NoError(t, err)
	require.Equal(t, 200, code, body)
	answered(t, "/validate", body)
	_, ran := verified.Load("localhost")
	_, ranIP := verified.Load("")
	assert.True(t, ran || ranIP, "the VerifyConnection set before runs too")

	for _, cert := range []*tls.Certificate{&p.foreign, nil} {
		c := callerClient(pool, cert)
		_, _, err := call(t, c, base, "/validate")
		c.CloseIdleConnections()
		require.Error(t, err)
	}
}

func TestClientCARequireWithoutConfigureTLS(t *testing.T) {
	// A server that requests certificates but verifies none itself: Require
	// is the gate on its own.
	p := newClientPKI(t)
	ca, err := kube.NewClientCA(writeCA(t, t.TempDir(), p.ca.PEM), nil)
	require.NoError(t, err)
	h := ca.Require(testHandler(t, nil), "/healthz")
	foreignLeaf, err := x509.ParseCertificate(p.foreign.Certificate[0])
	require.NoError(t, err)
	validLeaf, err := x509.ParseCertificate(p.valid.Certificate[0])
	require.NoError(t, err)
	cases := []struct {
		name  string
		state *tls.ConnectionState
		path  string
		code  int
	}{
		{"plain HTTP", nil, "/validate", 401},
		{"plain HTTP probe", nil, "/healthz", 200},
		{"no certificate", &tls.ConnectionState{}, "/convert", 401},
		{"another CA", &tls.ConnectionState{PeerCertificates: []*x509.Certificate{foreignLeaf}}, "/mutate", 403},
		{"valid", &tls.ConnectionState{PeerCertificates: []*x509.Certificate{validLeaf}}, "/validate", 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body io.Reader = http.NoBody
			if g, ok := goldenFor[c.path]; ok {
				body = bytes.NewReader(readGolden(t, g))
			}
			r, _ := http.NewRequest(http.MethodPost, "https://webhook"+c.path, body)
			if c.path == "/healthz" {
				r.Method = http.MethodGet
			}
			r.TLS = c.state
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			assert.Equal(t, c.code, w.Result().StatusCode, w.Body.String())
		})
	}
}

func TestNewClientCARefusesUnusableFiles(t *testing.T) {
	dir := t.TempDir()
	p := newClientPKI(t)
	_, keyPEM, _, err := testcert.Generate("x")
	require.NoError(t, err)
	cases := []struct {
		name, content, msg string
	}{
		{"empty", "", "no PEM certificate in the file"},
		{"not PEM", "hello", "no PEM certificate in the file"},
		{"a key", string(keyPEM), `block 1 is "EC PRIVATE KEY", not a CERTIFICATE`},
		{"a broken certificate", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", "certificate 1:"},
		{"a key after a certificate", string(p.ca.PEM) + string(keyPEM), `block 2 is "EC PRIVATE KEY"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".pem")
			require.NoError(t, os.WriteFile(f, []byte(c.content), 0o600))
			_, err := kube.NewClientCA(f, nil)
			require.Error(t, err)
			assert.Contains(t, err.Error(), f)
			assert.Contains(t, err.Error(), c.msg)
		})
	}
	_, err = kube.NewClientCA(filepath.Join(dir, "missing.pem"), nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "missing.pem")
	_, err = kube.NewClientCA("", nil)
	require.Error(t, err)

	t.Run("the server does not start", func(t *testing.T) {
		certFile, keyFile, _, err := testcert.Write(dir, "webhook-test")
		require.NoError(t, err)
		s := &Server{CertFile: certFile, KeyFile: keyFile, Handler: http.NotFoundHandler(), ClientCAFile: filepath.Join(dir, "missing.pem")}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		err = s.Serve(context.Background(), l)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "missing.pem")
	})
}
