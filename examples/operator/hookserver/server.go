// Package hookserver is the operator's webhook server: a
// controller-runtime webhook.Server with the settings paramctl webhook
// has, which controller-runtime's DefaultServer does not let a caller
// choose.
//
//   - HTTP/1.1 only unless EnableHTTP2 (as kubebuilder's scaffold does
//     since CVE-2023-44487, HTTP/2 rapid reset).
//   - Headers within 10 s, the whole request within 60 s, the answer
//     within 60 s, idle connections closed after 120 s, headers of at most
//     64 KiB (DefaultServer: no read timeout, 32 s for headers, 1 MiB of
//     headers).
//   - A body limit per path, refused with 413 before any byte is read when
//     the declared Content-Length is above it, and enforced on the bytes
//     received otherwise. The handlers behind see no declared length
//     (ContentLength -1), so none of them sizes a buffer from what a
//     client declares: a buffer grows with the bytes that arrive. (Ten
//     connections declaring 64 MiB on /convert and sending nothing held
//     668 MB of the operator's memory before.)
//   - Budget, if set, reads every body before its handler runs, within
//     the path's limit: the place for a server-wide budget of body bytes
//     in flight, such as kube's (*BodyBudget).Limit.
//
// Registration goes through controller-runtime's DefaultServer, so the
// webhook metrics (controller_runtime_webhook_*) stay as they were.
package hookserver

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/certwatcher"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	ctrlwebhook "sigs.k8s.io/controller-runtime/pkg/webhook"
)

// Defaults of the zero Options fields: those of paramctl webhook's server.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 60 * time.Second
	DefaultWriteTimeout      = 60 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
	DefaultMaxHeaderBytes    = 64 << 10
	// DefaultBodyLimit is the limit of a path BodyLimits does not name:
	// an admission review, whose size the apiserver's own request limit
	// (3 MiB) bounds.
	DefaultBodyLimit int64 = 3 << 20
)

// Options configure a Server. Host, Port, CertDir, CertName, KeyName and
// TLSOpts mean what they mean in controller-runtime's webhook.Options.
type Options struct {
	Host     string
	Port     int
	CertDir  string
	CertName string
	KeyName  string
	TLSOpts  []func(*tls.Config)
	// EnableHTTP2 offers HTTP/2 (ALPN h2) besides HTTP/1.1.
	EnableHTTP2 bool
	// Timeouts and the header limit (the Default constants when zero).
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	MaxHeaderBytes                                            int
	// BodyLimits gives a path's body limit in bytes; DefaultBodyLimit for
	// a path it does not name.
	BodyLimits map[string]int64
	// Budget, when set, wraps every registered handler with the path's
	// body limit, in place of the server's own bounded reading: it must
	// refuse a body above limit and should read it as it arrives (as
	// kube's (*BodyBudget).Limit does).
	Budget func(limit int64, next http.Handler) http.Handler
}

// Server is a ctrlwebhook.Server; see the package documentation. Use New.
type Server struct {
	o     Options
	inner ctrlwebhook.Server
	mux   *http.ServeMux

	mu   sync.Mutex
	addr net.Addr
}

var _ ctrlwebhook.Server = (*Server)(nil)

// New returns a server with the options o.
func New(o Options) *Server {
	if o.Port == 0 {
		o.Port = ctrlwebhook.DefaultPort
	}
	if o.CertName == "" {
		o.CertName = "tls.crt"
	}
	if o.KeyName == "" {
		o.KeyName = "tls.key"
	}
	mux := http.NewServeMux()
	return &Server{o: o, mux: mux, inner: ctrlwebhook.NewServer(ctrlwebhook.Options{Host: o.Host, Port: o.Port, WebhookMux: mux})}
}

// NeedLeaderElection is false: every replica serves webhooks.
func (*Server) NeedLeaderElection() bool { return false }

// WebhookMux returns the server's multiplexer.
func (s *Server) WebhookMux() *http.ServeMux { return s.mux }

// Register serves hook at path, behind the path's body limit and the
// middleware. It panics if two hooks are registered on the same path, as
// controller-runtime's server does.
func (s *Server) Register(path string, hook http.Handler) {
	limit := s.o.BodyLimits[path]
	if limit <= 0 {
		limit = DefaultBodyLimit
	}
	// The body bounded by the bytes received, its declared length hidden;
	// or the budget's reading.
	inner := http.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		r.ContentLength = -1
		hook.ServeHTTP(w, r)
	}))
	if s.o.Budget != nil {
		inner = s.o.Budget(limit, hook)
	}
	s.inner.Register(path, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > limit {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.Header().Set("Connection", "close")
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			fmt.Fprintf(w, "the request body is larger than the %d bytes %s accepts\n", limit, path)
			return
		}
		inner.ServeHTTP(w, r)
	}))
}

// TLSConfig is the server's TLS configuration before the certificate:
// TLS 1.2 or later, ALPN http/1.1 (and h2 with EnableHTTP2), then
// TLSOpts.
func (s *Server) TLSConfig() *tls.Config {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, NextProtos: []string{"http/1.1"}}
	if s.o.EnableHTTP2 {
		cfg.NextProtos = []string{"h2", "http/1.1"}
	}
	for _, op := range s.o.TLSOpts {
		op(cfg)
	}
	return cfg
}

// HTTPServer is the http.Server Start serves with, before its context.
func (s *Server) HTTPServer() *http.Server {
	srv := &http.Server{
		Handler:           s.mux,
		ReadHeaderTimeout: or(s.o.ReadHeaderTimeout, DefaultReadHeaderTimeout),
		ReadTimeout:       or(s.o.ReadTimeout, DefaultReadTimeout),
		WriteTimeout:      or(s.o.WriteTimeout, DefaultWriteTimeout),
		IdleTimeout:       or(s.o.IdleTimeout, DefaultIdleTimeout),
		MaxHeaderBytes:    s.o.MaxHeaderBytes,
	}
	if srv.MaxHeaderBytes <= 0 {
		srv.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if !s.o.EnableHTTP2 {
		// Not even a client that skips ALPN gets HTTP/2.
		srv.TLSNextProto = map[string]func(*http.Server, *tls.Conn, http.Handler){}
	} else {
		srv.HTTP2 = &http.HTTP2Config{MaxConcurrentStreams: 100}
	}
	return srv
}

func or(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// Start listens and serves until ctx is done, then shuts down (in-flight
// requests get up to a minute, as controller-runtime's server gives them).
// The certificate is CertDir/CertName and CertDir/KeyName, reloaded when
// they change, unless a TLSOpts function set GetCertificate.
func (s *Server) Start(ctx context.Context) error {
	log := ctrl.Log.WithName("webhook-server")
	cfg := s.TLSConfig()
	if cfg.GetCertificate == nil {
		w, err := certwatcher.New(filepath.Join(s.o.CertDir, s.o.CertName), filepath.Join(s.o.CertDir, s.o.KeyName))
		if err != nil {
			return err
		}
		cfg.GetCertificate = w.GetCertificate
		go func() {
			if err := w.Start(ctx); err != nil {
				log.Error(err, "certificate watcher")
			}
		}()
	}
	l, err := tls.Listen("tcp", net.JoinHostPort(s.o.Host, strconv.Itoa(s.o.Port)), cfg)
	if err != nil {
		return err
	}
	srv := s.HTTPServer()
	srv.BaseContext = func(net.Listener) context.Context { return ctx }
	s.mu.Lock()
	s.addr = l.Addr()
	s.mu.Unlock()
	log.Info("serving webhooks", "address", l.Addr().String(), "http2", s.o.EnableHTTP2)
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			log.Error(err, "shutting down the webhook server")
		}
	}()
	if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	<-done
	return nil
}

// Addr is the address the server listens on once it does, else nil.
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// StartedChecker is healthy once the server accepts TLS connections.
func (s *Server) StartedChecker() healthz.Checker {
	return func(*http.Request) error {
		addr := s.Addr()
		if addr == nil {
			return errors.New("webhook server has not been started yet")
		}
		d := &net.Dialer{Timeout: 10 * time.Second}
		conn, err := tls.DialWithDialer(d, "tcp", addr.String(), &tls.Config{InsecureSkipVerify: true}) //nolint:gosec // a liveness dial, no data
		if err != nil {
			return fmt.Errorf("webhook server is not reachable: %w", err)
		}
		return conn.Close()
	}
}
