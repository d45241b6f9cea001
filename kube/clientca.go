package kube

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// ClientCA admits only callers whose TLS client certificate a certificate
// authority signed: the kube-apiserver, configured to present one (see
// the README's "Only the apiserver may call"). The authorities are read
// from a PEM file and read again, at most once a second, when the file
// changes, as Server does with its own certificate: a rotated CA takes
// effect without a restart, and a file that does not load (half written,
// no certificate in it) is logged and the previous authorities kept.
//
// It works in two places, and a server uses both:
//
//   - ConfigureTLS makes a server's TLS handshake ask every client for a
//     certificate and verify the one it is given: a certificate the CA did
//     not sign, or an expired one, ends the handshake. A client without a
//     certificate is let through the handshake, so that a kubelet probe
//     can still reach /healthz.
//   - Require wraps an http.Handler so that every path except the ones
//     named open answers 401 to a request without a verified client
//     certificate, and 403 to one whose certificate the current
//     authorities do not accept (a connection kept alive across a CA
//     rotation, or a certificate that expired after the handshake; such a
//     connection is also closed, so that the client shakes hands again).
//
// Why not refuse clients without a certificate at the handshake
// (tls.RequireAndVerifyClientCert)? Probes carry none, and one listener
// serves both; controller-runtime's own readiness check dials the webhook
// server without a certificate too. The handler check is therefore the
// gate, and it verifies against the current authorities on every
// request, cached per certificate chain, so that it holds whatever the
// TLS configuration around it did.
//
// For a controller-runtime webhook server:
//
//	ca, err := kube.NewClientCA(*clientCAFile, logger)
//	srv := ctrlwebhook.NewServer(ctrlwebhook.Options{TLSOpts: []func(*tls.Config){ca.ConfigureTLS}})
//	srv.Register("/validate", ca.Require(validating))
//
// A ClientCA is safe for concurrent use. A nil ClientCA, or one not made
// by NewClientCA, accepts no certificate: Require refuses every caller of
// a path it guards.
type ClientCA struct {
	file string
	log  *slog.Logger

	state   atomic.Pointer[caState]
	checked atomic.Int64 // unix nanoseconds of the last look at the file

	mu         sync.Mutex // one look at the file at a time
	info       os.FileInfo
	failedInfo os.FileInfo // the file as it was when it last failed to load
	lastErr    string      // what that failure said, logged once

	cacheMu sync.Mutex
	cache   map[[sha256.Size]byte]caVerdict
}

// caState is one loaded version of the file.
type caState struct {
	pool       *x509.CertPool
	generation uint64
}

// caVerdict remembers that a chain verified against one generation of
// the authorities, and while when it stays valid.
type caVerdict struct {
	generation          uint64
	notBefore, notAfter time.Time
}

// caRecheckInterval is how often the CA file is looked at (a variable
// so that tests can shorten it).
var caRecheckInterval = time.Second

// clientCAClock tells the time certificates are checked at (a variable
// so that tests can move it).
var clientCAClock = time.Now

// maxCachedChains bounds the verdict cache; it is emptied when full.
const maxCachedChains = 1024

// NewClientCA reads the PEM certificates in file (one or more authorities;
// a client certificate verifies when it chains to any of them). log
// receives reloads, refusals and files that do not load (discarded when
// nil).
func NewClientCA(file string, log *slog.Logger) (*ClientCA, error) {
	if file == "" {
		return nil, errors.New("kube: a client CA file is required")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &ClientCA{file: file, log: log, cache: map[[sha256.Size]byte]caVerdict{}}
	info, err := os.Stat(file)
	if err != nil {
		return nil, fmt.Errorf("client CA: %w", err)
	}
	pool, err := loadCAPool(file)
	if err != nil {
		return nil, err
	}
	c.info = info
	c.state.Store(&caState{pool: pool, generation: 1})
	c.checked.Store(time.Now().UnixNano())
	return c, nil
}

// loadCAPool reads every CERTIFICATE block of a PEM file; any other
// content, a block that does not parse or a file without a certificate
// is an error naming the file.
func loadCAPool(file string) (*x509.CertPool, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("client CA: %w", err)
	}
	return parseCAPool(file, data)
}

// parseCAPool is loadCAPool on the file's contents.
func parseCAPool(file string, data []byte) (*x509.CertPool, error) {
	pool := x509.NewCertPool()
	n := 0
	for rest := data; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			return nil, fmt.Errorf("client CA %s: block %d is %q, not a CERTIFICATE", file, n+1, block.Type)
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("client CA %s: certificate %d: %w", file, n+1, err)
		}
		pool.AddCert(cert)
		n++
	}
	if n == 0 {
		return nil, fmt.Errorf("client CA %s: no PEM certificate in the file", file)
	}
	return pool, nil
}

// current returns the authorities, looking at the file first when the
// last look is older than the recheck interval.
func (c *ClientCA) current() *caState {
	now := time.Now().UnixNano()
	if now-c.checked.Load() >= int64(caRecheckInterval) && c.mu.TryLock() {
		// One caller looks; the others go on with the current pool.
		c.reload()
		c.checked.Store(now)
		c.mu.Unlock()
	}
	return c.state.Load()
}

// reload loads the file when it changed. A file that does not load keeps
// the previous authorities; it is logged once, and not read again until
// it changes.
func (c *ClientCA) reload() {
	info, err := os.Stat(c.file)
	if err == nil && sameFile(c.info, info) {
		c.failedInfo, c.lastErr = nil, ""
		return
	}
	if err == nil && c.failedInfo != nil && sameFile(c.failedInfo, info) {
		return
	}
	var pool *x509.CertPool
	if err != nil {
		err = fmt.Errorf("client CA: %w", err)
	} else {
		pool, err = loadCAPool(c.file)
	}
	if err != nil {
		if msg := err.Error(); msg != c.lastErr {
			c.log.Warn("keeping the previous client CA", "file", c.file, "error", msg)
			c.lastErr = msg
		}
		c.failedInfo = info // nil when the file could not be looked at
		return
	}
	c.info, c.failedInfo, c.lastErr = info, nil, ""
	next := c.state.Load().generation + 1
	c.state.Store(&caState{pool: pool, generation: next})
	c.log.Info("client CA reloaded", "file", c.file, "generation", next)
}

// ConfigureTLS makes cfg ask every client for a certificate and refuse a
// handshake whose certificate the current authorities do not accept (on
// resumed sessions too); a client that sends none gets through, for Require
// to answer. Its signature fits controller-runtime's
// webhook.Options.TLSOpts. It keeps a VerifyConnection already set,
// calling it after its own check, and leaves a stricter ClientAuth
// (RequireAnyClientCert or more) as it is; cfg.ClientCAs is cleared, so
// that the list of acceptable authorities a server sends cannot go stale
// across a rotation (clients send their certificate regardless).
func (c *ClientCA) ConfigureTLS(cfg *tls.Config) {
	if cfg == nil {
		return
	}
	switch cfg.ClientAuth {
	case tls.NoClientCert, tls.VerifyClientCertIfGiven:
		cfg.ClientAuth = tls.RequestClientCert
	case tls.RequireAndVerifyClientCert:
		cfg.ClientAuth = tls.RequireAnyClientCert
	}
	cfg.ClientCAs = nil
	next := cfg.VerifyConnection
	cfg.VerifyConnection = func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) > 0 {
			if err := c.verify(cs.PeerCertificates); err != nil {
				return err
			}
		}
		if next != nil {
			return next(cs)
		}
		return nil
	}
}

// errNotMade is the refusal of a ClientCA not made by NewClientCA.
var errNotMade = errors.New("the webhook's client CA was not made by kube.NewClientCA: no certificate is accepted")

// errNoClientCert is a request without a client certificate.
var errNoClientCert = errors.New("a client certificate is required")

// verify accepts a chain presented by a client when its first certificate
// chains to the current authorities for client authentication at this
// moment. A chain verified before is looked up, not verified again, until
// the authorities change or the chain leaves its validity window.
func (c *ClientCA) verify(chain []*x509.Certificate) error {
	if c == nil || c.state.Load() == nil {
		return errNotMade
	}
	if len(chain) == 0 {
		return errNoClientCert
	}
	st := c.current()
	now := clientCAClock()
	key := chainKey(chain)
	c.cacheMu.Lock()
	v, ok := c.cache[key]
	c.cacheMu.Unlock()
	if ok && v.generation == st.generation && !now.Before(v.notBefore) && !now.After(v.notAfter) {
		return nil
	}
	inter := x509.NewCertPool()
	for _, ic := range chain[1:] {
		inter.AddCert(ic)
	}
	chains, err := chain[0].Verify(x509.VerifyOptions{
		Roots:         st.pool,
		Intermediates: inter,
		CurrentTime:   now,
		KeyUsages:     []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	})
	if err != nil {
		return fmt.Errorf("client certificate %q: %w", chain[0].Subject.CommonName, err)
	}
	// The chain stays good while every certificate of the shortest
	// verified path is valid.
	v = caVerdict{generation: st.generation, notAfter: chain[0].NotAfter, notBefore: chain[0].NotBefore}
	for _, cert := range chains[0] {
		if cert.NotAfter.Before(v.notAfter) {
			v.notAfter = cert.NotAfter
		}
		if cert.NotBefore.After(v.notBefore) {
			v.notBefore = cert.NotBefore
		}
	}
	c.cacheMu.Lock()
	if len(c.cache) >= maxCachedChains {
		clear(c.cache)
	}
	c.cache[key] = v
	c.cacheMu.Unlock()
	return nil
}

func chainKey(chain []*x509.Certificate) [sha256.Size]byte {
	h := sha256.New()
	for _, cert := range chain {
		var n [4]byte
		l := len(cert.Raw)
		n[0], n[1], n[2], n[3] = byte(l>>24), byte(l>>16), byte(l>>8), byte(l)
		h.Write(n[:])
		h.Write(cert.Raw)
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// Require returns a handler that passes a request to next only when its
// connection carries a client certificate the current authorities accept,
// except on the paths named in open (such as "/healthz"), which answer
// anyone. Without a certificate (or without TLS) the answer is 401; with a
// certificate they do not accept (any more) it is 403 and the connection
// is closed after the answer. Refusals are logged at Info level with the
// path and the caller's address. The TLS server must ask for client
// certificates (ConfigureTLS), or no client sends one.
func (c *ClientCA) Require(next http.Handler, open ...string) http.Handler {
	open = slices.Clone(open)
	if next == nil {
		next = http.NotFoundHandler()
	}
	if c == nil || c.state.Load() == nil {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if slices.Contains(open, r.URL.Path) {
				next.ServeHTTP(w, r)
				return
			}
			httpError(w, http.StatusForbidden, fmt.Sprintf("%s: %v", r.URL.Path, errNotMade))
		})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if slices.Contains(open, r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 {
			c.log.Info("refused a caller without a client certificate", "path", r.URL.Path, "remote", r.RemoteAddr)
			httpError(w, http.StatusUnauthorized, fmt.Sprintf("%s needs a client certificate signed by the webhook's client CA", r.URL.Path))
			return
		}
		if err := c.verify(r.TLS.PeerCertificates); err != nil {
			c.log.Info("refused a client certificate", "path", r.URL.Path, "remote", r.RemoteAddr, "error", err)
			w.Header().Set("Connection", "close")
			httpError(w, http.StatusForbidden, fmt.Sprintf("%s: the client certificate is not accepted by the webhook's client CA: %v", r.URL.Path, err))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sameFile reports whether two looks at a file saw the same content:
// same file, size and modification time.
func sameFile(a, b os.FileInfo) bool {
	return a != nil && b != nil && os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_, _ = io.WriteString(w, msg+"\n")
}
