package kube

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Server timeouts and limits when its fields are zero. They bound what a
// slow or stalled client can hold: the TLS handshake and the headers
// within 10 s, the whole request (a conversion review may be 64 MiB)
// within 60 s.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 60 * time.Second
	DefaultWriteTimeout      = 60 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
	DefaultMaxHeaderBytes    = 64 << 10
	// defaultCertRecheck is how often the certificate files are looked at.
	defaultCertRecheck = time.Second
)

// maxConcurrentStreams bounds the requests of one HTTP/2 connection (with
// EnableHTTP2).
const maxConcurrentStreams = 64

// Server serves a webhook's Handler (usually a mux of Reviews' handlers)
// over HTTPS only, TLS 1.2 or later, as a server facing hostile clients
// should (the package doc's "Serving hostile clients"):
//
//   - the TLS handshake and the request headers must arrive within
//     ReadHeaderTimeout (net/http bounds a handshake by its smallest
//     timeout), the whole request within ReadTimeout, the answer within
//     WriteTimeout; headers are at most MaxHeaderBytes;
//   - HTTP/1.1 only unless EnableHTTP2 (CVE-2023-44487, HTTP/2 rapid
//     reset: kubebuilder's scaffold turns HTTP/2 off too; the apiserver
//     calls webhooks over HTTP/1.1 as well);
//   - the serving certificate is read from CertFile and KeyFile and read
//     again when either changes (cert-manager rotates a mounted Secret;
//     see Certificate);
//   - with ClientCAFile, only callers with a client certificate that CA
//     signed reach the Handler (see ClientCA); /healthz and OpenPaths
//     answer anyone.
//
// Set the fields before ListenAndServe or Serve and do not change them
// after.
type Server struct {
	// Addr is the address to listen on, host:port.
	Addr string
	// CertFile and KeyFile are PEM files: the certificate chain and the key.
	CertFile, KeyFile string
	// CertRecheck is how often the certificate files are looked at for a
	// change (1 second when zero; a negative value looks at every
	// handshake).
	CertRecheck time.Duration
	// Handler serves the requests.
	Handler http.Handler
	// ClientCAFile, when set, is a PEM file of certificate authorities:
	// every path but /healthz and OpenPaths then needs a client
	// certificate one of them signed (401 without one; a certificate they
	// did not sign ends the handshake). The file is read again when it
	// changes.
	ClientCAFile string
	// PathsWithoutClientCert are further paths that answer callers
	// without a client certificate when ClientCAFile is set, such as a
	// conversion path: kube-apiserver presents no client certificate to
	// CRD conversion webhooks.
	PathsWithoutClientCert []string
	// Timeouts and header limit (the Default constants when zero).
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	MaxHeaderBytes                                            int
	// EnableHTTP2 offers HTTP/2 besides HTTP/1.1; a connection then
	// carries at most 64 requests at once.
	EnableHTTP2 bool
	// Logger receives server events (discarded when nil).
	Logger *slog.Logger

	mu   sync.Mutex
	addr net.Addr
}

// ListenAndServe listens on Addr and serves until ctx is done, then shuts
// down gracefully (in-flight reviews get up to 10 seconds). Files that do
// not load end it before it listens.
func (s *Server) ListenAndServe(ctx context.Context) error {
	cert, ca, err := s.load()
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", s.Addr)
	if err != nil {
		return err
	}
	return s.serve(ctx, l, cert, ca)
}

// Serve serves on l until ctx is done; see ListenAndServe. It closes l.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	cert, ca, err := s.load()
	if err != nil {
		l.Close()
		return err
	}
	return s.serve(ctx, l, cert, ca)
}

// ListenAddr returns the address the server listens on once it does
// (useful with port 0), else nil.
func (s *Server) ListenAddr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

func (s *Server) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.New(slog.DiscardHandler)
}

// load reads the serving certificate and the client CA (nil without
// ClientCAFile), so that a server with unusable files never listens.
func (s *Server) load() (*Certificate, *ClientCA, error) {
	cert, err := NewCertificate(s.CertFile, s.KeyFile, s.logger())
	if err != nil {
		return nil, nil, err
	}
	if s.CertRecheck != 0 {
		cert.recheck = max(s.CertRecheck, 0)
	}
	if s.ClientCAFile == "" {
		return cert, nil, nil
	}
	ca, err := NewClientCA(s.ClientCAFile, s.logger())
	if err != nil {
		return nil, nil, err
	}
	return cert, ca, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// HTTPServer returns the http.Server Serve uses, for a program that runs
// its own: TLSConfig asks for TLS 1.2 or later and serves cert (nil: set
// GetCertificate yourself); the timeouts, header limit and protocols are
// the Server's.
func (s *Server) HTTPServer(cert *Certificate) *http.Server {
	maxHeader := s.MaxHeaderBytes
	if maxHeader <= 0 {
		maxHeader = DefaultMaxHeaderBytes
	}
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12}
	if cert != nil {
		tlsConfig.GetCertificate = cert.GetCertificate
	}
	srv := &http.Server{
		Handler:           s.Handler,
		TLSConfig:         tlsConfig,
		ReadHeaderTimeout: orDefault(s.ReadHeaderTimeout, DefaultReadHeaderTimeout),
		ReadTimeout:       orDefault(s.ReadTimeout, DefaultReadTimeout),
		WriteTimeout:      orDefault(s.WriteTimeout, DefaultWriteTimeout),
		IdleTimeout:       orDefault(s.IdleTimeout, DefaultIdleTimeout),
		MaxHeaderBytes:    maxHeader,
		ErrorLog:          slog.NewLogLogger(s.logger().Handler(), slog.LevelDebug),
		Protocols:         new(http.Protocols),
	}
	srv.Protocols.SetHTTP1(true)
	if s.EnableHTTP2 {
		srv.Protocols.SetHTTP2(true)
		srv.HTTP2 = &http.HTTP2Config{
			MaxConcurrentStreams: maxConcurrentStreams,
			// Data a client may send ahead of the handlers' reading: 1 MiB
			// a connection, 256 KiB a stream.
			MaxReceiveBufferPerConnection: 1 << 20,
			MaxReceiveBufferPerStream:     256 << 10,
		}
	}
	return srv
}

func (s *Server) serve(ctx context.Context, l net.Listener, cert *Certificate, ca *ClientCA) error {
	if s.Handler == nil {
		l.Close()
		return errors.New("kube: Server.Handler is nil")
	}
	s.mu.Lock()
	s.addr = l.Addr()
	s.mu.Unlock()
	srv := s.HTTPServer(cert)
	if ca != nil {
		ca.ConfigureTLS(srv.TLSConfig)
		srv.Handler = ca.Require(srv.Handler, append([]string{"/healthz"}, s.PathsWithoutClientCert...)...)
	}
	srv.BaseContext = func(net.Listener) context.Context { return context.WithoutCancel(ctx) }
	done := make(chan struct{})
	var shutdownErr error
	go func() {
		defer close(done)
		<-ctx.Done()
		// ctx is done: the shutdown gets a time of its own, and ctx's values.
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		shutdownErr = srv.Shutdown(sctx)
	}()
	err := srv.ServeTLS(l, "", "")
	if errors.Is(err, http.ErrServerClosed) {
		<-done
		return shutdownErr
	}
	return err
}

// Certificate is a serving certificate read from a certificate file and
// a key file, and read again when either changes on disk (as
// cert-manager rotates a mounted Secret): GetCertificate, for a
// tls.Config, looks at the files at most once a second. A pair that
// fails to load (half written, a key that does not match) is logged and
// the previous one kept until a good pair appears. A Certificate is safe
// for concurrent use.
type Certificate struct {
	certFile, keyFile string
	log               *slog.Logger
	recheck           time.Duration

	cert    atomic.Pointer[tls.Certificate]
	checked atomic.Int64 // unix nanoseconds of the last look

	mu                sync.Mutex
	certInfo, keyInfo os.FileInfo
}

// NewCertificate reads the pair of PEM files; log receives the reloads
// that fail (discarded when nil).
func NewCertificate(certFile, keyFile string, log *slog.Logger) (*Certificate, error) {
	if certFile == "" || keyFile == "" {
		return nil, errors.New("kube: a certificate file and a key file are required (HTTPS only)")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &Certificate{certFile: certFile, keyFile: keyFile, log: log, recheck: defaultCertRecheck}
	if err := c.reload(); err != nil {
		return nil, err
	}
	c.checked.Store(time.Now().UnixNano())
	return c, nil
}

// reload loads the pair when either file changed since the last load.
func (c *Certificate) reload() error {
	ci, err := os.Stat(c.certFile)
	if err != nil {
		return fmt.Errorf("certificate: %w", err)
	}
	ki, err := os.Stat(c.keyFile)
	if err != nil {
		return fmt.Errorf("key: %w", err)
	}
	if c.certInfo != nil && sameFile(c.certInfo, ci) && sameFile(c.keyInfo, ki) {
		return nil
	}
	pair, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		return fmt.Errorf("certificate %s and key %s: %w", c.certFile, c.keyFile, err)
	}
	c.cert.Store(&pair)
	c.certInfo, c.keyInfo = ci, ki
	return nil
}

// GetCertificate returns the current pair, first reading the files again
// when they changed and a second has passed since the last look. It is
// a tls.Config's GetCertificate.
func (c *Certificate) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	now := time.Now().UnixNano()
	if now-c.checked.Load() >= int64(c.recheck) && c.mu.TryLock() {
		// One handshake looks; the others go on with the current pair.
		if err := c.reload(); err != nil {
			c.log.Warn("keeping the previous certificate", "error", err)
		}
		c.checked.Store(now)
		c.mu.Unlock()
	}
	return c.cert.Load(), nil
}

// Ready returns nil once the server accepts TLS connections, else an
// error saying why not: a readiness check (controller-runtime's
// healthz.Checker takes it as is), as the apiserver calls the webhook
// for every write it guards.
func (s *Server) Ready(*http.Request) error {
	addr := s.ListenAddr()
	if addr == nil {
		return errors.New("the webhook server has not started yet")
	}
	d := &net.Dialer{Timeout: 10 * time.Second}
	conn, err := tls.DialWithDialer(d, "tcp", addr.String(), &tls.Config{InsecureSkipVerify: true}) //nolint:gosec // a readiness dial: no data is sent
	if err != nil {
		return fmt.Errorf("the webhook server is not reachable: %w", err)
	}
	return conn.Close()
}
