// Command operator is a controller-runtime operator for KUDO-style
// Instances with structured parameters, built on paramkit: copy it.
//
// It watches Instances and OperatorVersions (kudo.dev), reads each
// Instance's parameter schema from its OperatorVersion object, serves
// admission (defaults, validation, immutability, one plan per change,
// oldName upgrades) and v1beta1 ↔ v1beta2 conversion on kube's webhook
// server (kube.Server, kube.Reviews) run by the manager, and writes each Instance's status: observedGeneration,
// the plan the last accepted change triggered, and the ParametersValid
// condition, checked again whenever the OperatorVersion changes.
//
// Usage:
//
//	operator [--kubeconfig FILE] [--webhook-host H] [--webhook-port 9443]
//	    [--webhook-cert-dir DIR] [--webhook-client-ca FILE]
//	    [--metrics-bind-address :8080|0]
//	    [--health-probe-bind-address :8081] [--leader-elect]
//	    [--leader-elect-lease-duration 15s] [--leader-elect-renew-deadline 10s]
//	    [--leader-elect-retry-period 2s] [--enable-http2]
//	    [--max-concurrent-reconciles N] [--max-body-bytes-in-flight N]
//
// DIR holds tls.crt and tls.key (reloaded when they change). With
// --webhook-client-ca, the admission paths answer only callers whose
// client certificate the CA in FILE signed (the apiserver, configured to
// present one), FILE re-read when it changes; /convert answers any TLS
// caller, since kube-apiserver presents no client certificate to CRD
// conversion webhooks. The webhook server (and the metrics server, when
// it serves TLS) speaks HTTP/1.1 only unless --enable-http2; it is
// kube.Server with kube.Reviews' handlers: the TLS handshake and headers
// within 10 s, a body budget, the review's ?timeout= from the first
// byte, reviews worked on at once bounded and served fairly (a small
// review is never queued behind costly ones), repeated envelope keys
// refused and warnings capped. The lease flags tune how fast another replica takes over
// from a leader that died (at most about the lease duration). The CRDs are
// in config/crd, the webhook configurations in config/webhook; README.md
// says how to run it against a cluster. SIGTERM or SIGINT stops it
// cleanly (exit 0).
package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
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

	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/paramkit/paramkit/examples/operator/api/v1beta1"
	"github.com/paramkit/paramkit/examples/operator/api/v1beta2"
	"github.com/paramkit/paramkit/examples/operator/controller"
	"github.com/paramkit/paramkit/examples/operator/instancewebhook"
	"github.com/paramkit/paramkit/examples/operator/kudoconvert"
	"github.com/paramkit/paramkit/examples/operator/opversion"
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

// Body limits of the webhook paths: an admission review is bounded by the
// apiserver's own request limit (3 MiB); a conversion review of a LIST
// carries many objects (paramctl webhook's limit).
const (
	maxReviewBytes     = kube.DefaultMaxReviewBytes
	maxConversionBytes = kube.DefaultMaxConversionBytes
	// defaultMaxBodyInFlight is paramctl webhook's budget of body bytes
	// held at once.
	defaultMaxBodyInFlight = 128 << 20
)

// defaultWorkers is --max-concurrent-reconciles' default: the CPUs the
// process may use (GOMAXPROCS, which follows a container's CPU limit),
// and at least 2, so that an Instance's event never waits behind a
// whole re-check wave.
func defaultWorkers() int { return max(2, goruntime.GOMAXPROCS(0)) }

func main() {
	// First, so that a SIGTERM while flags and logging are set up still
	// ends the program with exit 0 (a signal before main, while packages
	// initialise, still gets the default 143).
	ctx := ctrl.SetupSignalHandler()
	var o options
	o.bind(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&o.zap)))

	if err := o.check(); err != nil {
		fmt.Fprintln(os.Stderr, "operator:", err)
		os.Exit(2)
	}
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "operator:", err)
		os.Exit(1)
	}
}

// bind registers the command line's flags on fs.
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
	fs.Int64Var(&o.maxBodyInFlight, "max-body-bytes-in-flight", defaultMaxBodyInFlight, "request body bytes the webhook server holds at once across all requests (at least the largest body limit, 64 MiB); beyond it a request gets 429 with Retry-After")
	fs.IntVar(&o.maxConcurrentReconciles, "max-concurrent-reconciles", defaultWorkers(), "Instances reconciled at once (default: the CPUs the process may use, at least 2)")
	// Development's readable console lines, at info level: routine
	// status writes are debug lines (--zap-log-level=debug shows them).
	o.zap.Development = true
	o.zap.Level = zapcore.InfoLevel
	o.zap.BindFlags(fs)
}

// Scheme holds the built-in types and both kudo.dev versions.
func Scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, v1beta1.AddToScheme, v1beta2.AddToScheme} {
		if err := add(s); err != nil {
			panic(err) // only a programming error: the types are ours
		}
	}
	return s
}

// check refuses flag values the manager would misbehave with: client-go
// needs lease duration > renew deadline > retry period (times its jitter
// factor 1.2) and stops with an unclear error otherwise.
func (o options) check() error {
	switch {
	case o.maxBodyInFlight < max(maxReviewBytes, maxConversionBytes):
		return fmt.Errorf("--max-body-bytes-in-flight %d is less than the largest body limit %d: such a body could never be read", o.maxBodyInFlight, max(maxReviewBytes, maxConversionBytes))
	case o.maxConcurrentReconciles < 1:
		return fmt.Errorf("--max-concurrent-reconciles %d: at least 1", o.maxConcurrentReconciles)
	case o.retryPeriod <= 0:
		return fmt.Errorf("--leader-elect-retry-period %v: must be positive", o.retryPeriod)
	case o.renewDeadline <= time.Duration(1.2*float64(o.retryPeriod)):
		return fmt.Errorf("--leader-elect-renew-deadline %v must be more than 1.2 × --leader-elect-retry-period (%v)", o.renewDeadline, o.retryPeriod)
	case o.leaseDuration <= o.renewDeadline:
		return fmt.Errorf("--leader-elect-lease-duration %v must be more than --leader-elect-renew-deadline (%v)", o.leaseDuration, o.renewDeadline)
	}
	return nil
}

// webhookServer is the webhook server of the options, serving h: see
// kube.Server. The certificate is --webhook-cert-dir's tls.crt and
// tls.key (controller-runtime's directory by default), read again when
// they change; with --webhook-client-ca only callers with a client
// certificate that CA signed reach the admission paths (/convert and
// /healthz answer any TLS caller).
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
		PathsWithoutClientCert: []string{instancewebhook.ConvertPath},
		EnableHTTP2:            o.enableHTTP2,
		Logger:                 slog.New(logr.ToSlogHandler(ctrl.Log.WithName("webhook-server"))),
	}}
}

// reviews bounds the webhook paths: one body budget for the whole server
// (--max-body-bytes-in-flight), each path's body limit, fair turns.
func (o options) reviews() *kube.Reviews {
	return &kube.Reviews{
		Budget:             &kube.BodyBudget{Bytes: o.maxBodyInFlight},
		MaxReviewBytes:     maxReviewBytes,
		MaxConversionBytes: maxConversionBytes,
		Logger:             slog.New(logr.ToSlogHandler(ctrl.Log.WithName("webhook"))),
	}
}

// webhookServer runs the webhook server in the manager, on every replica
// (webhooks need no leader).
type webhookServer struct{ *kube.Server }

// Start serves until ctx is done.
func (s webhookServer) Start(ctx context.Context) error { return s.ListenAndServe(ctx) }

// NeedLeaderElection is false: every replica serves webhooks.
func (webhookServer) NeedLeaderElection() bool { return false }

// http1Only is kubebuilder's TLS option for the metrics server: ALPN
// offers HTTP/1.1 only.
func http1Only(c *tls.Config) { c.NextProtos = []string{"http/1.1"} }

func run(ctx context.Context, o options) error {
	cfg, err := ctrl.GetConfig()
	if err != nil {
		return err
	}
	if o.leaderElect && o.leaderElectionNamespace == "" {
		if _, err := os.Stat("/var/run/secrets/kubernetes.io/serviceaccount/namespace"); err != nil {
			o.leaderElectionNamespace = "default"
		}
	}
	if o.webhookClientCA != "" {
		// Checked before the manager starts, so that a bad file stops it
		// at once (the server reads it again when it starts).
		if _, err := kube.NewClientCA(o.webhookClientCA, nil); err != nil {
			return err
		}
	}
	metrics := metricsserver.Options{BindAddress: o.metricsAddr}
	if !o.enableHTTP2 {
		metrics.TLSOpts = []func(*tls.Config){http1Only}
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                  Scheme(),
		Metrics:                 metrics,
		HealthProbeBindAddress:  o.probeAddr,
		LeaderElection:          o.leaderElect,
		LeaderElectionID:        "paramkit-operator.kudo.dev",
		LeaderElectionNamespace: o.leaderElectionNamespace,
		// A replica that stops hands the lease over at once.
		LeaderElectionReleaseOnCancel: true,
		LeaseDuration:                 &o.leaseDuration,
		RenewDeadline:                 &o.renewDeadline,
		RetryPeriod:                   &o.retryPeriod,
	})
	if err != nil {
		return err
	}
	hooks, err := setup(ctx, mgr, o)
	if err != nil {
		return err
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return err
	}
	// Ready once the webhook server answers: the apiserver calls it for
	// every Instance write and for every conversion.
	if err := mgr.AddReadyzCheck("webhook", hooks.Ready); err != nil {
		return err
	}
	return mgr.Start(ctx)
}

// setup wires paramkit into the manager: the operator-version cache, the
// webhook server with the two admission handlers and the conversion
// handler (kube.Reviews' handlers, one set of bounds), and the
// reconciler, which reconciles o.maxConcurrentReconciles Instances at
// once. It returns the webhook server, added to the manager.
func setup(ctx context.Context, mgr ctrl.Manager, o options) (webhookServer, error) {
	versions := opversion.New(mgr.GetClient(), mgr.GetAPIReader())
	mux, err := webhooks(versions, o.reviews())
	if err != nil {
		return webhookServer{}, err
	}
	srv := o.webhookServer(mux)
	if err := mgr.Add(srv); err != nil {
		return webhookServer{}, err
	}
	return srv, (&controller.InstanceReconciler{Client: mgr.GetClient(), Versions: versions, MaxConcurrentReconciles: o.maxConcurrentReconciles}).SetupWithManager(ctx, mgr)
}

// webhooks serves the admission paths, the conversion path and /healthz
// through rv.
func webhooks(versions *opversion.Cache, rv *kube.Reviews) (http.Handler, error) {
	conv, err := conversion(versions)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle(instancewebhook.MutatePath, rv.Admission(instancewebhook.NewMutator(versions).Admit))
	mux.Handle(instancewebhook.ValidatePath, rv.Admission(instancewebhook.NewValidator(versions).Admit))
	mux.Handle(instancewebhook.ConvertPath, rv.Conversion(conv.Convert))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok\n") })
	return mux, nil
}

// conversion is the v1beta1 ↔ v1beta2 conversion handler. An Instance
// whose OperatorVersion is gone (deleted under it) converts by safe
// guessing instead of failing: the apiserver converts every object of a
// v1beta1 LIST and watch, so one refusal would fail every v1beta1 read of
// the namespace, and a v1beta1 create naming a missing version would
// fail with an internal error instead of reaching admission, which
// refuses it with spec.operatorVersion.name. Guessing does not decide
// what is stored: admission checks every change of the parameters
// against the schema, and refuses one without it.
func conversion(versions *opversion.Cache) (*kudoconvert.Handler, error) {
	return kudoconvert.NewHandler(kudoconvert.Options{Resolver: versions, GuessWithoutSchema: true})
}
