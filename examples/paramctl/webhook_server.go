package main

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

	"github.com/paramkit/paramkit/kube"
)

// Server timeouts when the fields are zero. They bound what a slow or
// stalled client can hold: headers must arrive within 10s, the whole
// request (a conversion review may be 64 MiB) within 60s.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 60 * time.Second
	DefaultWriteTimeout      = 60 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
	DefaultMaxHeaderBytes    = 64 << 10
	// DefaultMaxBodyBytesInFlight bounds the request body bytes the
	// server holds at once, across all requests: two of the largest
	// conversion reviews, or forty-odd of the largest admission reviews.
	DefaultMaxBodyBytesInFlight = 128 << 20
)

// maxConcurrentStreams bounds the requests of one HTTP/2 connection (with
// EnableHTTP2).
const maxConcurrentStreams = 64

// certRecheckInterval is how often the certificate files are looked at
// (a variable so that tests can shorten it).
var certRecheckInterval = time.Second

// Server serves a Handler over HTTPS only, TLS 1.2 or later, with the
// certificate and key read from files and reloaded when either file
// changes on disk (as cert-manager rotates a mounted Secret). A pair that
// fails to load (half written, key not matching) is ignored and the
// previous one kept until a good pair appears.
//
// With ClientCAFile set, only callers with a client certificate that CA
// signed reach the Handler; /healthz (and PathsWithoutClientCert) answer
// anyone. See kube.ClientCA for how and why.
type Server struct {
	// Addr is the address to listen on, host:port.
	Addr string
	// CertFile and KeyFile are PEM files: the certificate chain and the key.
	CertFile, KeyFile string
	// Handler serves the requests, usually a *Handler.
	Handler http.Handler
	// ClientCAFile, when set, is a PEM file of certificate authorities:
	// every path but /healthz then needs a client certificate one of them
	// signed (401 without one; a certificate they did not sign ends the
	// handshake). The file is read again when it changes (see kube.ClientCA).
	ClientCAFile string
	// PathsWithoutClientCert are further paths that answer callers without
	// a client certificate when ClientCAFile is set, such as "/convert":
	// kube-apiserver presents no client certificate to CRD conversion
	// webhooks (see the README).
	PathsWithoutClientCert []string
	// Timeouts and header limit (see the Default constants when zero).
	// ReadTimeout bounds reading the whole request, its body included.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	MaxHeaderBytes                                            int
	// MaxBodyBytesInFlight bounds the request body bytes held at once
	// across all requests (DefaultMaxBodyBytesInFlight when zero): a
	// request whose body does not fit gets 429 with Retry-After at once.
	// Each body is read into memory as its bytes arrive, never sized from
	// the Content-Length a client declares, up to its path's limit
	// (Options.MaxReviewBytes and MaxConversionBytes when Handler is a
	// *Handler, else DefaultMaxReviewBytes and DefaultMaxConversionBytes).
	// See kube.BodyBudget.
	MaxBodyBytesInFlight int64
	// EnableHTTP2 offers HTTP/2 besides HTTP/1.1. It is off by default,
	// as in kubebuilder's scaffold since CVE-2023-44487 (rapid reset):
	// the apiserver calls webhooks over HTTP/1.1 as well. When on, an
	// HTTP/2 connection carries at most 64 requests at once.
	EnableHTTP2 bool
	// Logger receives server events (discarded when nil).
	Logger *slog.Logger

	mu   sync.Mutex
	addr net.Addr
}

// ListenAndServe listens on Addr and serves until ctx is done, then shuts
// down gracefully (in-flight reviews get up to 10 seconds).
func (s *Server) ListenAndServe(ctx context.Context) error {
	certs, ca, err := s.load()
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", s.Addr)
	if err != nil {
		return err
	}
	return s.serve(ctx, l, certs, ca)
}

// Serve serves on l until ctx is done; see ListenAndServe.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	certs, ca, err := s.load()
	if err != nil {
		l.Close()
		return err
	}
	return s.serve(ctx, l, certs, ca)
}

// load reads the serving certificate and the client CA (nil without
// ClientCAFile), so that a server with unusable files never listens.
func (s *Server) load() (*certReloader, *kube.ClientCA, error) {
	certs, err := newCertReloader(s.CertFile, s.KeyFile, s.logger())
	if err != nil {
		return nil, nil, err
	}
	if s.ClientCAFile == "" {
		return certs, nil, nil
	}
	ca, err := kube.NewClientCA(s.ClientCAFile, s.logger())
	if err != nil {
		return nil, nil, err
	}
	return certs, ca, nil
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

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

func (s *Server) serve(ctx context.Context, l net.Listener, certs *certReloader, ca *kube.ClientCA) error {
	if s.Handler == nil {
		l.Close()
		return errors.New("webhook: Server.Handler is nil")
	}
	s.mu.Lock()
	s.addr = l.Addr()
	s.mu.Unlock()
	maxHeader := s.MaxHeaderBytes
	if maxHeader <= 0 {
		maxHeader = DefaultMaxHeaderBytes
	}
	handler := s.limitBodies()
	tlsConfig := &tls.Config{
		MinVersion:     tls.VersionTLS12,
		GetCertificate: certs.get,
	}
	if ca != nil {
		ca.ConfigureTLS(tlsConfig)
		handler = ca.Require(handler, append([]string{"/healthz"}, s.PathsWithoutClientCert...)...)
	}
	srv := &http.Server{
		Handler:           handler,
		TLSConfig:         tlsConfig,
		ReadHeaderTimeout: orDefault(s.ReadHeaderTimeout, DefaultReadHeaderTimeout),
		ReadTimeout:       orDefault(s.ReadTimeout, DefaultReadTimeout),
		WriteTimeout:      orDefault(s.WriteTimeout, DefaultWriteTimeout),
		IdleTimeout:       orDefault(s.IdleTimeout, DefaultIdleTimeout),
		MaxHeaderBytes:    maxHeader,
		ErrorLog:          slog.NewLogLogger(s.logger().Handler(), slog.LevelDebug),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
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

// limitBodies wraps the handler's review paths in one body budget, each
// path with its own limit; other paths (/healthz) bypass it.
func (s *Server) limitBodies() http.Handler {
	review, conversion := int64(DefaultMaxReviewBytes), int64(DefaultMaxConversionBytes)
	if h, ok := s.Handler.(*Handler); ok {
		review, conversion = h.opts.MaxReviewBytes, h.opts.MaxConversionBytes
	}
	budget := &kube.BodyBudget{
		Bytes:       s.MaxBodyBytesInFlight,
		ReadTimeout: orDefault(s.ReadTimeout, DefaultReadTimeout),
	}
	if budget.Bytes <= 0 {
		budget.Bytes = DefaultMaxBodyBytesInFlight
	}
	next := s.Handler
	reviews, conversions := budget.Limit(review, next), budget.Limit(conversion, next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/validate", "/mutate":
			reviews.ServeHTTP(w, r)
		case "/convert":
			conversions.ServeHTTP(w, r)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// certReloader hands out the current certificate, looking at the files
// at most once per certRecheckInterval.
type certReloader struct {
	certFile, keyFile string
	log               *slog.Logger

	cert    atomic.Pointer[tls.Certificate]
	checked atomic.Int64 // unix nanoseconds of the last look

	mu                sync.Mutex
	certInfo, keyInfo os.FileInfo
}

func newCertReloader(certFile, keyFile string, log *slog.Logger) (*certReloader, error) {
	if certFile == "" || keyFile == "" {
		return nil, errors.New("webhook: a certificate file and a key file are required (HTTPS only)")
	}
	r := &certReloader{certFile: certFile, keyFile: keyFile, log: log}
	if err := r.reload(); err != nil {
		return nil, err
	}
	return r, nil
}

// reload loads the pair when either file changed since the last load.
func (r *certReloader) reload() error {
	ci, err := os.Stat(r.certFile)
	if err != nil {
		return fmt.Errorf("certificate: %w", err)
	}
	ki, err := os.Stat(r.keyFile)
	if err != nil {
		return fmt.Errorf("key: %w", err)
	}
	if r.certInfo != nil && sameFile(r.certInfo, ci) && sameFile(r.keyInfo, ki) {
		return nil
	}
	pair, err := tls.LoadX509KeyPair(r.certFile, r.keyFile)
	if err != nil {
		return fmt.Errorf("certificate %s and key %s: %w", r.certFile, r.keyFile, err)
	}
	r.cert.Store(&pair)
	r.certInfo, r.keyInfo = ci, ki
	return nil
}

func (r *certReloader) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	now := time.Now().UnixNano()
	if now-r.checked.Load() >= int64(certRecheckInterval) && r.mu.TryLock() {
		// One handshake looks; the others go on with the current pair.
		if err := r.reload(); err != nil {
			r.log.Warn("keeping the previous certificate", "error", err)
		}
		r.checked.Store(now)
		r.mu.Unlock()
	}
	return r.cert.Load(), nil
}
