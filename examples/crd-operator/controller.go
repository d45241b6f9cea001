package main

import (
	"context"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	"github.com/paramkit/paramkit/convert/migrate"
	v2 "github.com/paramkit/paramkit/examples/crd-operator/api/v2"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
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
		cond.Status, cond.Reason, cond.Message = metav1.ConditionFalse, "Invalid", conditionMessage(err)
		if es := schema.ErrorsOf(err); len(es) > 0 {
			cond.Reason = es[0].Kind.Reason() // Invalid, Required, Type, ...
		}
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

// conditionMessage says what is wrong as the user reads it: each
// problem at its field path (spec.parameters.memoryLimitMB), not a JSON
// pointer into the parameters, cut to what a condition holds.
func conditionMessage(err error) string {
	var b strings.Builder
	for i, e := range schema.ErrorsOf(err) {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(e.FieldPath("spec.parameters"))
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	msg := b.String()
	if len(msg) > maxConditionMessage {
		msg = msg[:maxConditionMessage-3] + "..."
	}
	return strings.ToValidUTF8(msg, "")
}

// maxConditionMessage is what metav1.Condition's message may hold.
const maxConditionMessage = 32768

// specChanged passes the updates whose stored spec changed, whether or
// not the generation moved: the apiserver bumps the generation by
// comparing the objects in the version of the request, so a write
// through an older version that changes only what that version does not
// show (a v2-only value restored from the conversion annotation) changes
// the stored spec at the same generation. The status follows the stored
// spec, not the generation alone.
var specChanged = predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
	o, ok1 := e.ObjectOld.(*v2.Cache)
	n, ok2 := e.ObjectNew.(*v2.Cache)
	if !ok1 || !ok2 {
		return true
	}
	return o.Generation != n.Generation || !equality.Semantic.DeepEqual(o.Spec, n.Spec)
}}

// SetupWithManager reconciles on changes of the stored spec (specChanged),
// not on the operator's own status writes.
func (r *CacheReconciler) SetupWithManager(mgr ctrl.Manager, workers int) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&v2.Cache{}, builder.WithPredicates(specChanged)).
		WithOptions(controller.Options{MaxConcurrentReconciles: workers}).
		Complete(r)
}
