// Command crd-operator is a controller-runtime operator for a plain
// two-version CRD whose spec.parameters paramkit types: copy it.
//
// The Cache (example.paramkit.dev) is served as v1 and v2 and stored as
// v2; schemas/ holds the parameter schema of each version (v2 renames
// maxMemoryMB to memoryLimitMB by oldName and adds ttlSeconds). The
// operator serves admission for both versions, each request judged in
// its own version's names (defaults as an exact JSON patch, validation
// with "did you mean", immutability), conversion between them
// (kube.Convert: it never fails because a value is invalid, and keeps
// what v1 cannot hold in an annotation), and writes each Cache's status:
// observedGeneration and the ParametersValid condition.
//
// Usage:
//
//	crd-operator [--kubeconfig FILE] [--webhook-host H] [--webhook-port 9443]
//	    [--webhook-cert-dir DIR] [--webhook-client-ca FILE]
//	    [--metrics-bind-address :8080|0]
//	    [--health-probe-bind-address :8081] [--leader-elect]
//	    [--leader-elect-lease-duration 15s] [--leader-elect-renew-deadline 10s]
//	    [--leader-elect-retry-period 2s] [--enable-http2]
//	    [--max-concurrent-reconciles N] [--max-body-bytes-in-flight N]
//
// The flags are examples/operator's. config/crd holds the CRD, written
// by paramctl crd from schemas/ (TestCRDUpToDate fails when it is
// stale); config/webhook the webhook configurations. SIGTERM or SIGINT
// stops it cleanly (exit 0).
package main

import (
	"crypto/tls"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"time"

	"github.com/go-logr/logr"
	"go.uber.org/zap/zapcore"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/paramkit/paramkit/kube"
)

// options are the command line's.
type options struct {
	webhookHost, webhookCertDir               string
	webhookClientCA                           string
	webhookPort                               int
	metricsAddr, probeAddr                    string
	leaderElect                               bool
	leaderElectionNamespace                   string
	leaseDuration, renewDeadline, retryPeriod time.Duration
	enableHTTP2                               bool
	maxConcurrentReconciles                   int
	maxBodyInFlight                           int64
	zap                                       zap.Options
}

func main() {
	// First, so that a SIGTERM while flags and logging are set up still
	// ends the program with exit 0.
	ctx := ctrl.SetupSignalHandler()
	var o options
	o.bind(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&o.zap)))
	if o.maxConcurrentReconciles < 1 || o.renewDeadline >= o.leaseDuration || o.retryPeriod >= o.renewDeadline || o.maxBodyInFlight < maxConversionBytes {
		fmt.Fprintln(os.Stderr, "crd-operator: --max-concurrent-reconciles is at least 1, retry period < renew deadline < lease duration, and --max-body-bytes-in-flight at least 64 MiB")
		os.Exit(2)
	}
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "crd-operator:", err)
		os.Exit(1)
	}
}

// bind registers the command line's flags on fs (examples/operator's).
func (o *options) bind(fs *flag.FlagSet) {
	// --kubeconfig is controller-runtime's own flag (ctrl.GetConfig).
	fs.StringVar(&o.webhookHost, "webhook-host", "", "address the webhook server listens on (all when empty)")
	fs.IntVar(&o.webhookPort, "webhook-port", 9443, "port of the webhook server")
	fs.StringVar(&o.webhookCertDir, "webhook-cert-dir", "", "directory holding the webhook server's tls.crt and tls.key (default: controller-runtime's, under the temporary directory)")
	fs.StringVar(&o.webhookClientCA, "webhook-client-ca", "", "PEM file of the CA whose client certificates may call the admission webhooks (the apiserver's); re-read when it changes; empty: any TLS client")
	fs.StringVar(&o.metricsAddr, "metrics-bind-address", "0", `address of the metrics endpoint, such as ":8080"; "0" turns it off`)
	fs.StringVar(&o.probeAddr, "health-probe-bind-address", ":8081", "address of /healthz and /readyz")
	fs.BoolVar(&o.leaderElect, "leader-elect", false, "elect a leader, so that only one replica reconciles")
	fs.StringVar(&o.leaderElectionNamespace, "leader-election-namespace", "", "namespace of the leader election lease (default: the pod's, or \"default\" out of cluster)")
	fs.DurationVar(&o.leaseDuration, "leader-elect-lease-duration", 15*time.Second, "how long a leader's lease lasts without renewal: the longest another replica waits to take over from a leader that died")
	fs.DurationVar(&o.renewDeadline, "leader-elect-renew-deadline", 10*time.Second, "how long the leader keeps trying to renew its lease before it gives up leading (and exits); less than the lease duration")
	fs.DurationVar(&o.retryPeriod, "leader-elect-retry-period", 2*time.Second, "how often replicas try to acquire or renew the lease")
	fs.BoolVar(&o.enableHTTP2, "enable-http2", false, "offer HTTP/2 on the webhook and metrics servers (off: HTTP/2 rapid reset, CVE-2023-44487)")
	fs.Int64Var(&o.maxBodyInFlight, "max-body-bytes-in-flight", 128<<20, "request body bytes the webhook server holds at once across all requests (at least the largest body limit, 64 MiB); beyond it a request gets 429 with Retry-After")
	fs.IntVar(&o.maxConcurrentReconciles, "max-concurrent-reconciles", max(2, goruntime.GOMAXPROCS(0)), "Caches reconciled at once (default: the CPUs the process may use, at least 2)")
	o.zap.Development = true
	o.zap.Level = zapcore.InfoLevel
	o.zap.BindFlags(fs)
}

// manager turns the flags into the manager's options (as
// examples/operator does): leader election and its timing, the metrics
// and probe addresses, the metrics server speaking HTTP/1.1 unless
// --enable-http2. The webhook server is not controller-runtime's: see
// webhookServer.
func (o options) manager() (ctrl.Options, error) {
	var http1 []func(*tls.Config)
	if !o.enableHTTP2 {
		http1 = append(http1, func(c *tls.Config) { c.NextProtos = []string{"http/1.1"} })
	}
	if _, err := os.Stat("/var/run/secrets/kubernetes.io/serviceaccount/namespace"); err != nil && o.leaderElectionNamespace == "" {
		o.leaderElectionNamespace = "default" // out of a cluster
	}
	if o.webhookClientCA != "" {
		// Checked before the manager starts, so that a bad file stops it
		// at once (the server reads it again when it starts).
		if _, err := kube.NewClientCA(o.webhookClientCA, nil); err != nil {
			return ctrl.Options{}, err
		}
	}
	return ctrl.Options{
		Scheme:                        Scheme(),
		Metrics:                       metricsserver.Options{BindAddress: o.metricsAddr, TLSOpts: http1},
		HealthProbeBindAddress:        o.probeAddr,
		LeaderElection:                o.leaderElect,
		LeaderElectionID:              "crd-operator.example.paramkit.dev",
		LeaderElectionNamespace:       o.leaderElectionNamespace,
		LeaderElectionReleaseOnCancel: true, // a replica that stops hands the lease over at once
		LeaseDuration:                 &o.leaseDuration,
		RenewDeadline:                 &o.renewDeadline,
		RetryPeriod:                   &o.retryPeriod,
	}, nil
}

// webhookServer is the webhook server of the flags: kube.Server (TLS
// handshake and headers within 10 s, HTTP/1.1 unless --enable-http2, the
// certificate in --webhook-cert-dir read again when cert-manager rotates
// it, with --webhook-client-ca only the apiserver's client certificate on
// the admission paths; the conversion path stays open, as kube-apiserver
// presents no client certificate to CRD conversion webhooks).
func (o options) webhookServer(h http.Handler) webhookServer {
	dir := o.webhookCertDir
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "k8s-webhook-server", "serving-certs") // controller-runtime's default
	}
	return webhookServer{&kube.Server{
		Addr:                   net.JoinHostPort(o.webhookHost, strconv.Itoa(o.webhookPort)),
		CertFile:               filepath.Join(dir, "tls.crt"),
		KeyFile:                filepath.Join(dir, "tls.key"),
		Handler:                h,
		ClientCAFile:           o.webhookClientCA,
		PathsWithoutClientCert: []string{ConvertPath},
		EnableHTTP2:            o.enableHTTP2,
		Logger:                 o.log("webhook-server"),
	}}
}

// log is a logger of the manager's, named.
func (o options) log(name string) *slog.Logger {
	return slog.New(logr.ToSlogHandler(ctrl.Log.WithName(name)))
}
