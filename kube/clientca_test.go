package kube

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// authority is a throwaway CA for the tests.
type authority struct {
	cert *x509.Certificate
	pem  []byte
	key  *ecdsa.PrivateKey
}

func newAuthority(t testing.TB, name string) *authority {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	return &authority{cert: cert, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), key: key}
}

// client signs a client certificate valid between the two times.
func (a *authority) client(t testing.TB, notBefore, notAfter time.Time) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: "kube-apiserver"}, NotBefore: notBefore, NotAfter: notAfter,
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, a.cert, &key.PublicKey, a.key)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	return cert
}

// writeCA replaces dir/client-ca.pem with the PEM texts, as a mounted
// Secret is replaced: a new file renamed over the old.
func writeCA(t *testing.T, dir string, pems ...[]byte) string {
	t.Helper()
	f := filepath.Join(dir, "client-ca.pem")
	require.NoError(t, os.WriteFile(f+".tmp", bytes.Join(pems, nil), 0o600))
	require.NoError(t, os.Rename(f+".tmp", f))
	return f
}

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

// served answers a request on path from a connection presenting cert
// (none when nil; plain HTTP when tlsOff).
func served(h http.Handler, path string, cert *x509.Certificate, tlsOff bool) *http.Response {
	r := httptest.NewRequest(http.MethodPost, "https://webhook"+path, nil)
	r.TLS = &tls.ConnectionState{}
	if cert != nil {
		r.TLS.PeerCertificates = []*x509.Certificate{cert}
	}
	if tlsOff {
		r.TLS = nil
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Result()
}

var ok = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "served") })

func TestClientCARequire(t *testing.T) {
	ca1, other := newAuthority(t, "apiserver-clients"), newAuthority(t, "someone-else")
	now := time.Now()
	valid, foreign := ca1.client(t, now.Add(-time.Hour), now.Add(time.Hour)), other.client(t, now.Add(-time.Hour), now.Add(time.Hour))
	expired, notYet := ca1.client(t, now.Add(-2*time.Hour), now.Add(-time.Hour)), ca1.client(t, now.Add(time.Hour), now.Add(2*time.Hour))
	ca, err := NewClientCA(writeCA(t, t.TempDir(), ca1.pem), nil)
	require.NoError(t, err)
	h := ca.Require(ok, "/healthz", "/convert")
	cases := []struct {
		name   string
		path   string
		cert   *x509.Certificate
		tlsOff bool
		code   int
	}{
		{"plain HTTP", "/validate", nil, true, 401},
		{"plain HTTP probe", "/healthz", nil, true, 200},
		{"no certificate", "/mutate", nil, false, 401},
		{"an open path without one", "/convert", nil, false, 200},
		{"another CA", "/mutate", foreign, false, 403},
		{"expired", "/validate", expired, false, 403},
		{"not yet valid", "/validate", notYet, false, 403},
		{"valid", "/validate", valid, false, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := served(h, c.path, c.cert, c.tlsOff)
			assert.Equal(t, c.code, resp.StatusCode)
			if c.code == 403 {
				assert.Equal(t, "close", resp.Header.Get("Connection"), "the client shakes hands again")
			}
		})
	}
}

func TestClientCARotation(t *testing.T) {
	old := caRecheckInterval
	caRecheckInterval = 0
	t.Cleanup(func() { caRecheckInterval = old })
	first, next := newAuthority(t, "first"), newAuthority(t, "next")
	now := time.Now()
	firstCert, nextCert := first.client(t, now.Add(-time.Hour), now.Add(time.Hour)), next.client(t, now.Add(-time.Hour), now.Add(time.Hour))
	dir := t.TempDir()
	var logs lockedBuffer
	ca, err := NewClientCA(writeCA(t, dir, first.pem), slog.New(slog.NewTextHandler(&logs, nil)))
	require.NoError(t, err)
	h := ca.Require(ok)
	require.Equal(t, 200, served(h, "/validate", firstCert, false).StatusCode)

	writeCA(t, dir, next.pem)
	assert.Equal(t, 403, served(h, "/validate", firstCert, false).StatusCode, "the old CA's certificate, after the rotation")
	assert.Equal(t, 200, served(h, "/validate", nextCert, false).StatusCode, "the new CA's")
	assert.Contains(t, logs.String(), "client CA reloaded")

	t.Run("a broken file keeps the previous CA and is logged once", func(t *testing.T) {
		writeCA(t, dir, []byte("-----BEGIN CERTIFICATE-----\nhalf written"))
		for range 3 {
			assert.Equal(t, 200, served(h, "/validate", nextCert, false).StatusCode)
		}
		assert.Equal(t, 403, served(h, "/validate", firstCert, false).StatusCode)
		assert.Equal(t, 1, strings.Count(logs.String(), "keeping the previous client CA"), logs.String())
	})
	t.Run("a removed file keeps the previous CA", func(t *testing.T) {
		require.NoError(t, os.Remove(filepath.Join(dir, "client-ca.pem")))
		assert.Equal(t, 200, served(h, "/validate", nextCert, false).StatusCode)
		assert.Contains(t, logs.String(), "no such file or directory")
	})
	t.Run("a bundle of both CAs accepts both", func(t *testing.T) {
		writeCA(t, dir, first.pem, next.pem)
		for _, c := range []*x509.Certificate{firstCert, nextCert} {
			assert.Equal(t, 200, served(h, "/validate", c, false).StatusCode)
		}
	})
}

func TestClientCertificateExpiresOnAnOpenConnection(t *testing.T) {
	a := newAuthority(t, "apiserver-clients")
	leaf := a.client(t, time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
	ca, err := NewClientCA(writeCA(t, t.TempDir(), a.pem), nil)
	require.NoError(t, err)
	h := ca.Require(ok)
	require.Equal(t, 200, served(h, "/validate", leaf, false).StatusCode)
	// The verdict is cached; it must end with the certificate.
	old := clientCAClock
	clientCAClock = func() time.Time { return leaf.NotAfter.Add(time.Second) }
	t.Cleanup(func() { clientCAClock = old })
	resp := served(h, "/validate", leaf, false)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	assert.Equal(t, "close", resp.Header.Get("Connection"))
}

func TestConfigureTLS(t *testing.T) {
	a := newAuthority(t, "apiserver-clients")
	now := time.Now()
	valid, foreign := a.client(t, now.Add(-time.Hour), now.Add(time.Hour)), newAuthority(t, "x").client(t, now.Add(-time.Hour), now.Add(time.Hour))
	ca, err := NewClientCA(writeCA(t, t.TempDir(), a.pem), nil)
	require.NoError(t, err)
	cases := []struct {
		in, want tls.ClientAuthType
	}{
		{tls.NoClientCert, tls.RequestClientCert},
		{tls.VerifyClientCertIfGiven, tls.RequestClientCert},
		{tls.RequireAndVerifyClientCert, tls.RequireAnyClientCert}, // stricter than asked: stays strict
		{tls.RequireAnyClientCert, tls.RequireAnyClientCert},
	}
	for _, c := range cases {
		ran := false
		cfg := &tls.Config{ClientAuth: c.in, ClientCAs: x509.NewCertPool(),
			VerifyConnection: func(tls.ConnectionState) error { ran = true; return nil }}
		ca.ConfigureTLS(cfg)
		assert.Equal(t, c.want, cfg.ClientAuth)
		assert.Nil(t, cfg.ClientCAs, "no stale list of authorities")
		require.NoError(t, cfg.VerifyConnection(tls.ConnectionState{PeerCertificates: []*x509.Certificate{valid}}))
		assert.True(t, ran, "the VerifyConnection set before runs too")
		require.Error(t, cfg.VerifyConnection(tls.ConnectionState{PeerCertificates: []*x509.Certificate{foreign}}))
		require.NoError(t, cfg.VerifyConnection(tls.ConnectionState{}), "no certificate: Require answers")
	}
}

func TestNewClientCARefusesUnusableFiles(t *testing.T) {
	dir := t.TempDir()
	a := newAuthority(t, "ca")
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	kder, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	keyPEM := string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}))
	cases := []struct {
		name, content, msg string
	}{
		{"empty", "", "no PEM certificate in the file"},
		{"not PEM", "hello", "no PEM certificate in the file"},
		{"a key", keyPEM, `block 1 is "EC PRIVATE KEY", not a CERTIFICATE`},
		{"a broken certificate", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", "certificate 1:"},
		{"a key after a certificate", string(a.pem) + keyPEM, `block 2 is "EC PRIVATE KEY"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".pem")
			require.NoError(t, os.WriteFile(f, []byte(c.content), 0o600))
			ca, err := NewClientCA(f, nil)
			require.Error(t, err)
			assert.Nil(t, ca)
			assert.Contains(t, err.Error(), f)
			assert.Contains(t, err.Error(), c.msg)
		})
	}
	_, err = NewClientCA(filepath.Join(dir, "missing.pem"), nil)
	require.ErrorContains(t, err, "missing.pem")
	_, err = NewClientCA("", nil)
	require.Error(t, err)
}

// FuzzParseClientCA: no file content makes reading a client CA panic; what
// it accepts holds at least one certificate and nothing else.
func FuzzParseClientCA(f *testing.F) {
	a := newAuthority(f, "seed")
	for _, s := range [][]byte{a.pem, append(append([]byte{}, a.pem...), a.pem...), []byte("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"), {}, []byte("junk")} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		pool, err := parseCAPool("ca.pem", data)
		if err != nil {
			assert.Nil(t, pool)
			assert.Contains(t, err.Error(), "ca.pem")
			return
		}
		require.NotNil(t, pool)
		block, _ := pem.Decode(data)
		require.NotNil(t, block)
		assert.Equal(t, "CERTIFICATE", block.Type)
	})
}

// TestClientCAConcurrentReload: many goroutines verify certificates
// while the file is replaced again and again (other authorities, a half
// written file, a bundle); run under -race. A certificate of an
// authority every version of the file holds is accepted on every
// request, one of an authority no version holds never is, the others
// get 200 or 403 and nothing else; once the file rests, its authorities
// are the ones in force.
func TestClientCAConcurrentReload(t *testing.T) {
	old := caRecheckInterval
	caRecheckInterval = 0
	t.Cleanup(func() { caRecheckInterval = old })
	stable, first, next, never := newAuthority(t, "stable"), newAuthority(t, "first"), newAuthority(t, "next"), newAuthority(t, "never")
	now := time.Now()
	cert := func(a *authority) *x509.Certificate { return a.client(t, now.Add(-time.Hour), now.Add(time.Hour)) }
	stableCert, firstCert, nextCert, neverCert := cert(stable), cert(first), cert(next), cert(never)
	dir := t.TempDir()
	ca, err := NewClientCA(writeCA(t, dir, stable.pem, first.pem), slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	h := ca.Require(ok, "/healthz")

	versions := [][][]byte{
		{stable.pem, next.pem},
		{[]byte("-----BEGIN CERTIFICATE-----\nhalf written")},
		{stable.pem, first.pem, next.pem},
		{stable.pem, first.pem},
	}
	const workers, rounds = 16, 200
	var wg sync.WaitGroup
	stop := make(chan struct{})
	rotated := make(chan int)
	go func() {
		n := 0
		defer func() { rotated <- n }()
		for {
			select {
			case <-stop:
				return
			default:
			}
			// Not writeCA: require may not stop the test from here.
			f := filepath.Join(dir, "client-ca.pem")
			if os.WriteFile(f+".tmp", bytes.Join(versions[n%len(versions)], nil), 0o600) != nil || os.Rename(f+".tmp", f) != nil {
				return
			}
			n++
		}
	}()
	type verdict struct {
		who  string
		code int
	}
	bad := make(chan verdict, workers*rounds*4)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				if c := served(h, "/validate", stableCert, false).StatusCode; c != 200 {
					bad <- verdict{"stable", c}
				}
				if c := served(h, "/validate", neverCert, false).StatusCode; c != 403 {
					bad <- verdict{"never", c}
				}
				for _, c := range []*x509.Certificate{firstCert, nextCert} {
					if code := served(h, "/mutate", c, false).StatusCode; code != 200 && code != 403 {
						bad <- verdict{c.Issuer.CommonName, code}
					}
				}
				if c := served(h, "/healthz", nil, false).StatusCode; c != 200 {
					bad <- verdict{"probe", c}
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	n := <-rotated
	close(bad)
	var got []verdict
	for v := range bad {
		got = append(got, v)
	}
	assert.Empty(t, got, "verdicts outside the rules while the file was replaced %d times", n)
	assert.Positive(t, n)

	// At rest: the file's authorities are the ones in force.
	writeCA(t, dir, stable.pem, next.pem)
	assert.Equal(t, 403, served(h, "/validate", firstCert, false).StatusCode)
	assert.Equal(t, 200, served(h, "/validate", nextCert, false).StatusCode)
	assert.Equal(t, 200, served(h, "/validate", stableCert, false).StatusCode)
}
