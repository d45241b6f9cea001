// Package controller reconciles kudo.dev Instances with paramkit: it
// writes each Instance's status (observedGeneration, the plan the last
// accepted change triggered, the ParametersValid condition) and checks
// the Instances of an OperatorVersion again when that OperatorVersion
// changes. It is what an operator author lifts into a project of their
// own, next to the place where the plans actually run.
//
// The plan is not decided here: a controller may never see an
// intermediate state (a create followed at once by an upgrade), so the
// mutating webhook decides it where it sees the change and writes it into
// spec.planExecution (package instancewebhook); the reconciler reports
// it.
package controller

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crcontroller "sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/examples/operator/api/v1beta2"
	"github.com/paramkit/paramkit/examples/operator/kudoconvert"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/trigger"
)

// OperatorVersionIndex is the field index of Instances by
// spec.operatorVersion.name, through which an OperatorVersion's
// Instances are found.
const OperatorVersionIndex = "spec.operatorVersion.name"

// Condition reasons besides those of paramkit's error kinds
// ((schema.Kind).Reason: Invalid, Type, Required, ...).
const (
	ReasonValid                   = "Valid"
	ReasonOperatorVersionNotFound = "OperatorVersionNotFound"
	ReasonOperatorVersionInvalid  = "OperatorVersionInvalid"
	ReasonParametersUnreadable    = "ParametersUnreadable"
)

// maxMessage bounds a condition's message (the apiserver allows 32768
// bytes).
const maxMessage = 4096

// Versions finds compiled operator versions (opversion.Cache).
type Versions interface {
	Get(ctx context.Context, namespace, name string) (*kudo.OperatorVersion, error)
	Forget(namespace, name string)
}

// InstanceReconciler writes Instances' status. Client reads and writes
// Instances (the manager's client); Versions compiles OperatorVersions;
// MaxConcurrentReconciles is the number of workers (0: one).
type InstanceReconciler struct {
	Client                  client.Client
	Versions                Versions
	MaxConcurrentReconciles int
}

// SetupWithManager indexes Instances by operator version and registers
// the controller: it reconciles an Instance when its spec changes (a new
// generation: never for the operator's own status write) and every
// Instance of an OperatorVersion when that one's spec changes, at a low
// priority (Recheck), so that an Instance created or changed meanwhile
// is reconciled by the next free worker instead of after the whole
// wave. controller-runtime v0.25's controllers use its priority queue
// unless told otherwise; this one asks for it explicitly.
func (r *InstanceReconciler) SetupWithManager(ctx context.Context, mgr ctrl.Manager) error {
	if err := mgr.GetFieldIndexer().IndexField(ctx, &v1beta2.Instance{}, OperatorVersionIndex, IndexOperatorVersion); err != nil {
		return err
	}
	usePriorityQueue := true
	return ctrl.NewControllerManagedBy(mgr).
		For(&v1beta2.Instance{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Watches(&v1beta2.OperatorVersion{}, r.Recheck(), builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		WithOptions(crcontroller.Options{MaxConcurrentReconciles: r.MaxConcurrentReconciles, UsePriorityQueue: &usePriorityQueue}).
		Named("instance").
		Complete(r)
}

// Recheck is the event handler of OperatorVersions: an OperatorVersion
// created, changed or deleted enqueues its Instances (InstancesOf: the
// list built once per event, from the informer's index) at
// handler.LowPriority when the queue is a priority queue, so that
// Instance events (priority 0) go first; with a plain queue they are
// added in order.
func (r *InstanceReconciler) Recheck() handler.EventHandler {
	return handler.Funcs{
		CreateFunc: func(ctx context.Context, e event.CreateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			r.enqueueLow(ctx, e.Object, q)
		},
		UpdateFunc: func(ctx context.Context, e event.UpdateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			// The new object only: an OperatorVersion's name and namespace
			// do not change, so the old one has the same Instances.
			r.enqueueLow(ctx, e.ObjectNew, q)
		},
		DeleteFunc: func(ctx context.Context, e event.DeleteEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			r.enqueueLow(ctx, e.Object, q)
		},
		GenericFunc: func(ctx context.Context, e event.GenericEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			r.enqueueLow(ctx, e.Object, q)
		},
	}
}

func (r *InstanceReconciler) enqueueLow(ctx context.Context, o client.Object, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	if o == nil {
		return
	}
	reqs := r.InstancesOf(ctx, o)
	if len(reqs) == 0 {
		return
	}
	if pq, ok := q.(priorityqueue.PriorityQueue[reconcile.Request]); ok {
		low := handler.LowPriority
		pq.AddWithOpts(priorityqueue.AddOpts{Priority: &low}, reqs...)
		return
	}
	for _, req := range reqs {
		q.Add(req)
	}
}

// IndexOperatorVersion is the index function of OperatorVersionIndex.
func IndexOperatorVersion(o client.Object) []string {
	in, ok := o.(*v1beta2.Instance)
	if !ok || in.Spec.OperatorVersion.Name == "" {
		return nil
	}
	return []string{in.Spec.OperatorVersion.Name}
}

// InstancesOf maps an OperatorVersion event to its Instances (those of its
// namespace naming it), and drops the cache's compiled copy: the next
// look-up compiles the new one.
func (r *InstanceReconciler) InstancesOf(ctx context.Context, o client.Object) []reconcile.Request {
	r.Versions.Forget(o.GetNamespace(), o.GetName())
	var list v1beta2.InstanceList
	if err := r.Client.List(ctx, &list, client.InNamespace(o.GetNamespace()), client.MatchingFields{OperatorVersionIndex: o.GetName()}); err != nil {
		ctrl.LoggerFrom(ctx).Error(err, "listing the Instances of an OperatorVersion", "operatorVersion", o.GetName())
		return nil
	}
	out := make([]reconcile.Request, len(list.Items))
	for i, in := range list.Items {
		out[i] = reconcile.Request{NamespacedName: types.NamespacedName{Namespace: in.Namespace, Name: in.Name}}
	}
	return out
}

// Reconcile brings one Instance's status up to date.
func (r *InstanceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var in v1beta2.Instance
	if err := r.Client.Get(ctx, req.NamespacedName, &in); err != nil {
		return ctrl.Result{}, stopping(ctx, client.IgnoreNotFound(err))
	}
	status := r.Status(ctx, &in)
	if equality.Semantic.DeepEqual(status, in.Status) {
		return ctrl.Result{}, nil
	}
	orig := in.DeepCopy()
	in.Status = status
	if err := r.Client.Status().Patch(ctx, &in, client.MergeFrom(orig)); err != nil {
		if apierrors.IsNotFound(err) {
			return ctrl.Result{}, nil
		}
		return ctrl.Result{}, stopping(ctx, err)
	}
	// Debug level (-zap-log-level=debug): one line per status write is
	// routine, and 10 MB of log at 10,000 Instances.
	ctrl.LoggerFrom(ctx).V(1).Info("status", "plan", status.Plan, "generation", status.ObservedGeneration,
		"parametersValid", meta.FindStatusCondition(status.Conditions, v1beta2.ConditionParametersValid).Status)
	return ctrl.Result{}, nil
}

// stopping drops err when ctx is done: the manager is stopping (SIGTERM,
// a lost lease), the request is not retried, and the next start
// reconciles every Instance anyway; an error would only be logged as a
// failure of a clean shutdown.
func stopping(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil {
		return nil
	}
	return err
}

// Status is the status the Instance should have: its generation, the plan
// of spec.planExecution (deploy for an Instance admitted without one, as
// a creation is), and ParametersValid as the Instance's parameters,
// defaulted, check against its operator version now.
func (r *InstanceReconciler) Status(ctx context.Context, in *v1beta2.Instance) v1beta2.InstanceStatus {
	st := *in.Status.DeepCopy()
	st.ObservedGeneration = in.Generation
	switch {
	case in.Spec.PlanExecution.PlanName != "":
		st.Plan = in.Spec.PlanExecution.PlanName
	case st.Plan == "":
		st.Plan = trigger.Deploy
	}
	cond := r.check(ctx, in)
	cond.ObservedGeneration = in.Generation
	meta.SetStatusCondition(&st.Conditions, cond)
	return st
}

// check decides the ParametersValid condition.
func (r *InstanceReconciler) check(ctx context.Context, in *v1beta2.Instance) metav1.Condition {
	c := metav1.Condition{Type: v1beta2.ConditionParametersValid, Status: metav1.ConditionFalse}
	name := in.Spec.OperatorVersion.Name
	ov, err := r.Versions.Get(ctx, in.Namespace, name)
	if err != nil {
		c.Reason, c.Message = ReasonOperatorVersionInvalid, bound(fmt.Sprintf("spec.operatorVersion.name: %v", err))
		if errors.Is(err, kudoconvert.ErrSchemaNotFound) {
			c.Reason = ReasonOperatorVersionNotFound
		}
		return c
	}
	var values any = map[string]any{}
	if in.Spec.Parameters != nil && len(in.Spec.Parameters.Raw) > 0 {
		if values, err = params.Decode(nil, in.Spec.Parameters.Raw); err != nil {
			c.Reason, c.Message = ReasonParametersUnreadable, bound("spec.parameters: "+err.Error())
			return c
		}
	}
	defaulted, err := params.Default(ov.Schema(), values)
	if err == nil {
		err = params.Validate(ov.Schema(), defaulted)
	}
	if err != nil {
		errs := schema.ErrorsOf(err)
		msgs := make([]string, 0, len(errs))
		for _, e := range errs {
			msgs = append(msgs, e.FieldPath("spec.parameters")+": "+e.Message)
		}
		c.Reason = ReasonParametersUnreadable
		if len(errs) > 0 {
			c.Reason = errs[0].Kind.Reason()
		}
		c.Message = bound(fmt.Sprintf("invalid for OperatorVersion %s: %s", name, strings.Join(msgs, "; ")))
		return c
	}
	c.Status, c.Reason = metav1.ConditionTrue, ReasonValid
	c.Message = fmt.Sprintf("valid for OperatorVersion %s", name)
	return c
}

// bound cuts a message to maxMessage bytes, at a rune boundary.
func bound(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	cut := maxMessage - len(" …")
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + " …"
}
