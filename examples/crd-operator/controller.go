package main

import (
	"context"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	"github.com/paramkit/paramkit/convert/migrate"
	v2 "github.com/paramkit/paramkit/examples/crd-operator/api/v2"
	"github.com/paramkit/paramkit/params"
)

// CacheReconciler writes each Cache's status: the generation it judged
// and whether its parameters are valid by the v2 schema (the stored
// version), with the reason and message of the first problem. This is
// where an operator would run the cache.
type CacheReconciler struct {
	client.Client
	Set *migrate.VersionSet
}

// Reconcile judges one Cache; its status is patched only when it changes.
func (r *CacheReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var c v2.Cache
	if err := r.Get(ctx, req.NamespacedName, &c); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	cond := metav1.Condition{Type: v2.ConditionParametersValid, Status: metav1.ConditionTrue, Reason: "Valid",
		Message: "the parameters are valid", ObservedGeneration: c.Generation}
	if err := r.check(c.Spec); err != nil {
		cond.Status, cond.Reason, cond.Message = metav1.ConditionFalse, "Invalid", err.Error()
	}
	before := c.DeepCopy()
	c.Status.ObservedGeneration = c.Generation
	meta.SetStatusCondition(&c.Status.Conditions, cond)
	if equality.Semantic.DeepEqual(before.Status, c.Status) {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, r.Status().Patch(ctx, &c, client.MergeFrom(before))
}

// check validates the parameters, defaults filled in, by v2's schema.
func (r *CacheReconciler) check(spec v2.CacheSpec) error {
	v2s, _ := r.Set.Version("v2")
	raw := []byte("{}")
	if spec.Parameters != nil && len(spec.Parameters.Raw) > 0 {
		raw = spec.Parameters.Raw
	}
	values, err := params.Decode(v2s.Schema, raw)
	if err != nil {
		return err
	}
	defaulted, err := params.Default(v2s.Schema, values)
	if err != nil {
		return err
	}
	return params.Validate(v2s.Schema, defaulted)
}

// SetupWithManager reconciles on changes of the spec (generation), not
// on the operator's own status writes.
func (r *CacheReconciler) SetupWithManager(mgr ctrl.Manager, workers int) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&v2.Cache{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		WithOptions(controller.Options{MaxConcurrentReconciles: workers}).
		Complete(r)
}
