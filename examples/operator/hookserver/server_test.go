package hookserver_test

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/examples/operator/hookserver"
)

// certDir writes a self-signed tls.crt and tls.key for 127.0.0.1.
func certDir(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "hookserver-test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:    x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	kder, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tls.crt"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tls.key"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600))
	return dir
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// start runs a server with o (host, port and certificates filled in) and
// an echo of the body's length at /echo; it stops at the end of the test.
func start(t *testing.T, o hookserver.Options) string {
	t.Helper()
	o.Host, o.Port, o.CertDir = "127.0.0.1", freePort(t), certDir(t)
	s := hookserver.New(o)
	s.Register("/echo", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := io.Copy(io.Discard, r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
			return
		}
		_, _ = io.WriteString(w, strconv.FormatInt(n, 10)+" "+strconv.FormatInt(r.ContentLength, 10)+" "+r.Proto)
	}))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		assert.NoError(t, <-done)
	})
	require.Eventually(t, func() bool { return s.StartedChecker()(nil) == nil }, 10*time.Second, 10*time.Millisecond)
	return s.Addr().String()
}

func TestHTTP2OnlyWhenEnabled(t *testing.T) {
	for _, tc := range []struct {
		name  string
		h2    bool
		proto string
	}{{"default: HTTP/1.1 only", false, "http/1.1"}, {"--enable-http2", true, "h2"}} {
		t.Run(tc.name, func(t *testing.T) {
			addr := start(t, hookserver.Options{EnableHTTP2: tc.h2})
			conn, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true, NextProtos: []string{"h2", "http/1.1"}}) //nolint:gosec // test server
			require.NoError(t, err)
			defer conn.Close()
			assert.Equal(t, tc.proto, conn.ConnectionState().NegotiatedProtocol)

			// And a client that would take HTTP/2 gets what was agreed.
			c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, ForceAttemptHTTP2: true}, Timeout: 10 * time.Second} //nolint:gosec // test server
			resp, err := c.Post("https://"+addr+"/echo", "application/json", strings.NewReader("{}"))
			require.NoError(t, err)
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			want := map[string]string{"http/1.1": "HTTP/1.1", "h2": "HTTP/2.0"}[tc.proto]
			assert.Equal(t, "2 -1 "+want, string(b))
		})
	}
}

// TestBodyLimitPerPath: a declared length above the path's limit is
// refused before any byte is read; a body that exceeds it without
// declaring it is cut at the limit; the handler never sees the declared
// length.
func TestBodyLimitPerPath(t *testing.T) {
	addr := start(t, hookserver.Options{BodyLimits: map[string]int64{"/echo": 100}})
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}, Timeout: 10 * time.Second} //nolint:gosec // test server
	for _, tc := range []struct {
		name   string
		body   io.Reader
		length int64
		code   int
		answer string
	}{
		{"within the limit", strings.NewReader(strings.Repeat("x", 100)), 100, 200, "100 -1 HTTP/1.1"},
		{"declared above the limit", strings.NewReader(strings.Repeat("x", 101)), 101, 413, "larger than the 100 bytes /echo accepts"},
		{"undeclared above the limit", io.MultiReader(strings.NewReader(strings.Repeat("x", 101))), -1, 413, "request body too large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, "https://"+addr+"/echo", tc.body)
			require.NoError(t, err)
			req.ContentLength = tc.length
			resp, err := c.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			assert.Equal(t, tc.code, resp.StatusCode)
			assert.Contains(t, string(b), tc.answer)
		})
	}
}

// TestSlowClientsAreCutOff: headers that do not arrive within the
// read-header timeout, and a body that does not arrive within the read
// timeout, end the connection (the timeouts here are short; the
// defaults are 10 s and 60 s).
func TestSlowClientsAreCutOff(t *testing.T) {
	addr := start(t, hookserver.Options{ReadHeaderTimeout: 200 * time.Millisecond, ReadTimeout: 400 * time.Millisecond})
	for _, tc := range []struct{ name, sent string }{
		{"headers never finished", "POST /echo HTTP/1.1\r\nHost: x\r\n"},
		{"body never finished", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true}) //nolint:gosec // test server
			require.NoError(t, err)
			defer conn.Close()
			_, err = io.WriteString(conn, tc.sent)
			require.NoError(t, err)
			// Far beyond the timeouts: only a server without them
			// keeps the connection open this long.
			require.NoError(t, conn.SetReadDeadline(time.Now().Add(20*time.Second)))
			line, err := bufio.NewReader(conn).ReadString('\n')
			var ne net.Error
			if err != nil && assert.False(t, errors.As(err, &ne) && ne.Timeout(), "the server kept the connection: %v", err) {
				return // closed by the server
			}
			assert.NotContains(t, line, "200", "a request that never arrived whole was answered")
		})
	}
}

// TestBudgetReadsTheBody: with Budget set, every handler is wrapped by it
// with its path's limit (and the declared-length check stays in front).
func TestBudgetReadsTheBody(t *testing.T) {
	var limits []int64
	budget := func(limit int64, next http.Handler) http.Handler {
		limits = append(limits, limit)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Budget", strconv.FormatInt(limit, 10))
			next.ServeHTTP(w, r)
		})
	}
	addr := start(t, hookserver.Options{BodyLimits: map[string]int64{"/echo": 100}, Budget: budget})
	assert.Equal(t, []int64{100}, limits)
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}, Timeout: 10 * time.Second} //nolint:gosec // test server
	resp, err := c.Post("https://"+addr+"/echo", "application/json", strings.NewReader("{}"))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, "100", resp.Header.Get("X-Budget"))
	resp, err = c.Post("https://"+addr+"/echo", "application/json", strings.NewReader(strings.Repeat("x", 101)))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
	assert.Empty(t, resp.Header.Get("X-Budget"), "refused before the budget")
}
