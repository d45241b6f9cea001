package kube

import (
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
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// servingPair writes a serving certificate for 127.0.0.1 named cn,
// signed by a, and its key, into dir as a mounted Secret is replaced
// (new files renamed over the old); keyOnly and certOnly write one half.
func (a *authority) servingPair(t *testing.T, dir, cn string, write string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, a.cert, &key.PublicKey, a.key)
	require.NoError(t, err)
	kder, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	put := func(name string, data []byte) {
		f := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(f+".tmp", data, 0o600))
		require.NoError(t, os.Rename(f+".tmp", f))
	}
	if write != "key" {
		put("tls.crt", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	}
	if write != "cert" {
		put("tls.key", pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}))
	}
}

// startTestServer serves s on 127.0.0.1 until the test ends.
func startTestServer(t *testing.T, s *Server) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- s.Serve(ctx, l) }()
	t.Cleanup(func() {
		cancel()
		assert.NoError(t, <-errc)
	})
	return l.Addr().String()
}

// The serving certificate is read again when its files change, as
// cert-manager rotates them; a half-rotated pair is not served.
func TestServerReloadsTheCertificate(t *testing.T) {
	dir := t.TempDir()
	ca := newAuthority(t, "ca")
	ca.servingPair(t, dir, "first", "both")
	addr := startTestServer(t, &Server{CertFile: filepath.Join(dir, "tls.crt"), KeyFile: filepath.Join(dir, "tls.key"),
		CertRecheck: -1, Handler: http.NotFoundHandler()})
	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	served := func() string {
		conn, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: pool})
		require.NoError(t, err)
		defer conn.Close()
		return conn.ConnectionState().PeerCertificates[0].Subject.CommonName
	}
	assert.Equal(t, "first", served())
	ca.servingPair(t, dir, "half", "cert")
	assert.Equal(t, "first", served(), "a certificate without its key is not served")
	ca.servingPair(t, dir, "rotated", "both")
	assert.Equal(t, "rotated", served())
}

// A client that opens a connection and never finishes the TLS handshake
// is cut off after ReadHeaderTimeout (controller-runtime's server kept
// it 32 s).
func TestServerHandshakeTimeout(t *testing.T) {
	dir := t.TempDir()
	newAuthority(t, "ca").servingPair(t, dir, "s", "both")
	addr := startTestServer(t, &Server{CertFile: filepath.Join(dir, "tls.crt"), KeyFile: filepath.Join(dir, "tls.key"),
		ReadHeaderTimeout: 200 * time.Millisecond, Handler: http.NotFoundHandler()})
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.Write([]byte{0x16, 0x03, 0x01}) // the start of a ClientHello, then nothing
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(20*time.Second)))
	_, err = io.ReadAll(conn)
	var ne net.Error
	assert.False(t, errors.As(err, &ne) && ne.Timeout(), "the server kept a stalled handshake open: %v", err)
}

// HTTP/2 is off unless asked for.
func TestServerHTTP2(t *testing.T) {
	for _, on := range []bool{false, true} {
		dir := t.TempDir()
		newAuthority(t, "ca").servingPair(t, dir, "s", "both")
		addr := startTestServer(t, &Server{CertFile: filepath.Join(dir, "tls.crt"), KeyFile: filepath.Join(dir, "tls.key"),
			EnableHTTP2: on, Handler: http.NotFoundHandler()})
		conn, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true, NextProtos: []string{"h2", "http/1.1"}}) //nolint:gosec // the test reads the protocol only
		require.NoError(t, err)
		want := "http/1.1"
		if on {
			want = "h2"
		}
		assert.Equal(t, want, conn.ConnectionState().NegotiatedProtocol, "EnableHTTP2 %v", on)
		conn.Close()
	}
}

func TestServerNeedsItsFiles(t *testing.T) {
	s := &Server{Addr: "127.0.0.1:0", Handler: http.NotFoundHandler()}
	assert.ErrorContains(t, s.ListenAndServe(context.Background()), "HTTPS only")
	s = &Server{Addr: "127.0.0.1:0", Handler: http.NotFoundHandler(), CertFile: "nope.pem", KeyFile: "nope.key"}
	assert.ErrorContains(t, s.ListenAndServe(context.Background()), "nope.pem")
}

// Ready fails until the server listens, then passes.
func TestServerReady(t *testing.T) {
	dir := t.TempDir()
	newAuthority(t, "ca").servingPair(t, dir, "s", "both")
	s := &Server{CertFile: filepath.Join(dir, "tls.crt"), KeyFile: filepath.Join(dir, "tls.key"), Handler: http.NotFoundHandler()}
	assert.ErrorContains(t, s.Ready(nil), "not started")
	startTestServer(t, s)
	for s.ListenAddr() == nil {
		runtime.Gosched()
	}
	assert.NoError(t, s.Ready(nil))
}
