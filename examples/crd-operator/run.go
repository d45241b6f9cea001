package main

import (
	"context"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"

	v1 "github.com/paramkit/paramkit/examples/crd-operator/api/v1"
	v2 "github.com/paramkit/paramkit/examples/crd-operator/api/v2"
	"github.com/paramkit/paramkit/kube"
)

// Scheme holds the built-in types and both versions of the Cache.
func Scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(v1.AddToScheme(s))
	utilruntime.Must(v2.AddToScheme(s))
	return s
}

// run wires paramkit into a manager built from the flags: the version
// set, the webhooks and the reconciler.
func run(ctx context.Context, o options) error {
	set, err := Versions()
	if err != nil {
		return err
	}
	opts, err := o.manager()
	if err != nil {
		return err
	}
	cfg, err := ctrl.GetConfig()
	if err != nil {
		return err
	}
	mgr, err := ctrl.NewManager(cfg, opts)
	if err != nil {
		return err
	}
	hooks := o.webhookServer(Handler(set, &kube.Reviews{Budget: &kube.BodyBudget{Bytes: o.maxBodyInFlight}, Logger: o.log("webhook")}))
	if err := mgr.Add(hooks); err != nil {
		return err
	}
	if err := (&CacheReconciler{Client: mgr.GetClient(), Set: set}).SetupWithManager(mgr, o.maxConcurrentReconciles); err != nil {
		return err
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return err
	}
	if err := mgr.AddReadyzCheck("webhook", hooks.Ready); err != nil {
		return err
	}
	return mgr.Start(ctx)
}
