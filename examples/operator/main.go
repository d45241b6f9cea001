// Command operator is a controller-runtime operator for KUDO-style
// Instances with structured parameters, built on paramkit: copy it.
//
// It watches Instances and OperatorVersions (kudo.dev), reads each
// Instance's parameter schema from its OperatorVersion object, serves
// admission (defaults, validation, immutability, one plan per change,
// oldName upgrades) and v1beta1 ↔ v1beta2 conversion on the manager's
// webhook server, and writes each Instance's status: observedGeneration,
// the plan the last accepted change triggered, and the ParametersValid
// condition, checked again whenever the OperatorVersion changes.
//
// Usage:
//
//	operator [--kubeconfig FILE] [--webhook-host H] [--webhook-port 9443]
//	    [--webhook-cert-dir DIR] [--webhook-client-ca FILE]
//	    [--metrics-bind-address :8080|0]
//	    [--health-probe-bind-address :8081] [--leader-elect]
//
// DIR holds tls.crt and tls.key (reloaded when they change). With
// --webhook-client-ca, the admission paths answer only callers whose
// client certificate the CA in FILE signed (the apiserver, configured to
// present one), FILE re-read when it changes; /convert answers any TLS
// caller, since kube-apiserver presents no client certificate to CRD
// conversion webhooks. The CRDs are
// in config/crd, the webhook configurations in config/webhook; README.md
// says how to run it against a cluster. SIGTERM or SIGINT stops it
// cleanly (exit 0).
package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"

	"github.com/go-logr/logr"

	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	ctrlwebhook "sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/paramkit/paramkit/examples/operator/api/v1beta1"
	"github.com/paramkit/paramkit/examples/operator/api/v1beta2"
	"github.com/paramkit/paramkit/examples/operator/controller"
	"github.com/paramkit/paramkit/examples/operator/instancewebhook"
	"github.com/paramkit/paramkit/examples/operator/kudoconvert"
	"github.com/paramkit/paramkit/examples/operator/opversion"
	"github.com/paramkit/paramkit/params/kube"
)

// options are the command line's.
type options struct {
	webhookHost, webhookCertDir string
	webhookClientCA             string
	webhookPort                 int
	metricsAddr, probeAddr      string
	leaderElect                 bool
	leaderElectionNamespace     string
	zap                         zap.Options
}

func main() {
	// First, so that a SIGTERM while flags and logging are set up still
	// ends the program with exit 0 (a signal before main, while packages
	// initialise, still gets the default 143).
	ctx := ctrl.SetupSignalHandler()
	var o options
	// --kubeconfig is controller-runtime's own flag (ctrl.GetConfig).
	flag.StringVar(&o.webhookHost, "webhook-host", "", "address the webhook server listens on (all when empty)")
	flag.IntVar(&o.webhookPort, "webhook-port", 9443, "port of the webhook server")
	flag.StringVar(&o.webhookCertDir, "webhook-cert-dir", "", "directory holding the webhook server's tls.crt and tls.key (default: controller-runtime's, under the temporary directory)")
	flag.StringVar(&o.webhookClientCA, "webhook-client-ca", "", "PEM file of the CA whose client certificates may call the admission webhooks (the apiserver's); re-read when it changes; empty: any TLS client")
	flag.StringVar(&o.metricsAddr, "metrics-bind-address", "0", `address of the metrics endpoint, such as ":8080"; "0" turns it off`)
	flag.StringVar(&o.probeAddr, "health-probe-bind-address", ":8081", "address of /healthz and /readyz")
	flag.BoolVar(&o.leaderElect, "leader-elect", false, "elect a leader, so that only one replica reconciles")
	flag.StringVar(&o.leaderElectionNamespace, "leader-election-namespace", "", "namespace of the leader election lease (default: the pod's, or \"default\" out of cluster)")
	o.zap.Development = true
	o.zap.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&o.zap)))

	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "operator:", err)
		os.Exit(1)
	}
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
	var clientCA *kube.ClientCA
	var tlsOpts []func(*tls.Config)
	if o.webhookClientCA != "" {
		log := slog.New(logr.ToSlogHandler(ctrl.Log.WithName("client-ca")))
		if clientCA, err = kube.NewClientCA(o.webhookClientCA, kube.Logger(log)); err != nil {
			return err
		}
		tlsOpts = append(tlsOpts, clientCA.ConfigureTLS)
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                  Scheme(),
		Metrics:                 metricsserver.Options{BindAddress: o.metricsAddr},
		HealthProbeBindAddress:  o.probeAddr,
		LeaderElection:          o.leaderElect,
		LeaderElectionID:        "paramkit-operator.kudo.dev",
		LeaderElectionNamespace: o.leaderElectionNamespace,
		// A replica that stops hands the lease over at once.
		LeaderElectionReleaseOnCancel: true,
		WebhookServer: ctrlwebhook.NewServer(ctrlwebhook.Options{
			Host:     o.webhookHost,
			Port:     o.webhookPort,
			CertDir:  o.webhookCertDir,
			CertName: "tls.crt",
			KeyName:  "tls.key",
			TLSOpts:  tlsOpts,
		}),
	})
	if err != nil {
		return err
	}
	if err := setup(ctx, mgr, clientCA); err != nil {
		return err
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return err
	}
	// Ready once the webhook server answers: the apiserver calls it for
	// every Instance write and for every conversion.
	if err := mgr.AddReadyzCheck("webhook", mgr.GetWebhookServer().StartedChecker()); err != nil {
		return err
	}
	return mgr.Start(ctx)
}

// setup wires paramkit into the manager: the operator-version cache, the
// two admission handlers and the conversion handler on the webhook
// server, and the reconciler. With clientCA, the admission handlers
// answer only callers with its client certificates.
func setup(ctx context.Context, mgr ctrl.Manager, clientCA *kube.ClientCA) error {
	versions := opversion.New(mgr.GetClient(), mgr.GetAPIReader())
	srv := mgr.GetWebhookServer()
	admit := func(h http.Handler) http.Handler {
		if clientCA == nil {
			return h
		}
		return clientCA.Require(h)
	}
	srv.Register(instancewebhook.MutatePath, admit(&admission.Webhook{Handler: instancewebhook.NewMutator(versions)}))
	srv.Register(instancewebhook.ValidatePath, admit(&admission.Webhook{Handler: instancewebhook.NewValidator(versions)}))
	conv, err := conversion(versions)
	if err != nil {
		return err
	}
	srv.Register(instancewebhook.ConvertPath, conv)
	return (&controller.InstanceReconciler{Client: mgr.GetClient(), Versions: versions}).SetupWithManager(ctx, mgr)
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
