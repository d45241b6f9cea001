package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/examples/internal/testcert"
)

// testServer is a webhook Server on loopback with a generated certificate.
type testServer struct {
	URL    string
	Client *http.Client
	Server *Server
	Pool   *x509.CertPool
	dir    string
	stop   func()
}

// certRecheckInterval is how often a server startServer starts looks at
// its certificate files; 0 makes it look at every handshake.
var certRecheckInterval = time.Second

// startServer serves h over HTTPS on 127.0.0.1 until the test ends. mod
// may change the Server before it starts.
func startServer(tb testing.TB, h http.Handler, mod func(*Server)) *testServer {
	tb.Helper()
	dir := tb.TempDir()
	certFile, keyFile, pool, err := testcert.Write(dir, "webhook-test")
	require.NoError(tb, err)
	srv := &Server{CertFile: certFile, KeyFile: keyFile, Handler: h}
	if certRecheckInterval == 0 {
		srv.CertRecheck = -1 // every handshake
	}
	if mod != nil {
		mod(srv)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(tb, err)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ctx, l) }()
	ts := &testServer{
		URL:    "https://" + l.Addr().String(),
		Client: newClient(pool),
		Server: srv,
		Pool:   pool,
		dir:    dir,
	}
	ts.stop = func() {
		ts.Client.CloseIdleConnections()
		cancel()
		select {
		case err := <-errc:
			if err != nil {
				tb.Errorf("server: %v", err)
			}
		case <-time.After(15 * time.Second):
			tb.Errorf("server did not stop")
		}
		ts.Client.CloseIdleConnections()
	}
	tb.Cleanup(ts.stop)
	return ts
}

func newClient(pool *x509.CertPool) *http.Client {
	return &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{
			TLSClientConfig:     &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12},
			MaxIdleConnsPerHost: 64,
			ForceAttemptHTTP2:   true,
		},
	}
}

// post sends body to path and returns the status and the response body.
func (ts *testServer) post(tb testing.TB, path string, body []byte) (int, []byte) {
	tb.Helper()
	resp, err := ts.Client.Post(ts.URL+path, "application/json", bytes.NewReader(body))
	require.NoError(tb, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(tb, err)
	return resp.StatusCode, out
}

// testHandler is a Handler over testdata/webhook/schemas.
func testHandler(tb testing.TB, mod func(*Options)) *Handler {
	tb.Helper()
	opts := Options{Resolver: NewDirResolver("testdata/webhook/schemas")}
	if mod != nil {
		mod(&opts)
	}
	h, err := NewHandler(opts)
	require.NoError(tb, err)
	return h
}

// mustJSON marshals v or fails the test.
func mustJSON(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := json.Marshal(v)
	require.NoError(tb, err)
	return b
}
