package controller_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/yaml"

	"github.com/paramkit/paramkit/examples/operator/api/v1beta2"
	"github.com/paramkit/paramkit/examples/operator/controller"
	"github.com/paramkit/paramkit/examples/operator/opversion"
)

func operatorVersion(t testing.TB, name string) *v1beta2.OperatorVersion {
	t.Helper()
	data, err := os.ReadFile("../config/samples/" + name + ".yaml")
	require.NoError(t, err)
	var ov v1beta2.OperatorVersion
	require.NoError(t, yaml.Unmarshal(data, &ov))
	return &ov
}

func newInstance(name, ov, parameters, plan string) *v1beta2.Instance {
	in := &v1beta2.Instance{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Generation: 1},
		Spec: v1beta2.InstanceSpec{
			OperatorVersion: v1beta2.OperatorVersionReference{Name: ov},
			PlanExecution:   v1beta2.PlanExecution{PlanName: plan},
		},
	}
	if parameters != "" {
		in.Spec.Parameters = &runtime.RawExtension{Raw: []byte(parameters)}
	}
	return in
}

// setup is a reconciler over a fake client holding the objects, with the
// status subresource and the operator-version index of a real manager.
func setup(t testing.TB, objs ...client.Object) (*controller.InstanceReconciler, client.Client) {
	s := runtime.NewScheme()
	require.NoError(t, v1beta2.AddToScheme(s))
	c := fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).
		WithStatusSubresource(&v1beta2.Instance{}).
		WithIndex(&v1beta2.Instance{}, controller.OperatorVersionIndex, controller.IndexOperatorVersion).
		Build()
	return &controller.InstanceReconciler{Client: c, Versions: opversion.New(c, nil)}, c
}

func reconcileAndGet(t testing.TB, r *controller.InstanceReconciler, c client.Client, name string) *v1beta2.Instance {
	t.Helper()
	key := types.NamespacedName{Namespace: "default", Name: name}
	_, err := r.Reconcile(context.Background(), ctrl.Request{NamespacedName: key})
	require.NoError(t, err)
	var in v1beta2.Instance
	require.NoError(t, c.Get(context.Background(), key, &in))
	return &in
}

func TestReconcileWritesStatus(t *testing.T) {
	for _, tc := range []struct {
		name       string
		instance   *v1beta2.Instance
		plan       string
		status     metav1.ConditionStatus
		reason     string
		messageHas string
	}{
		{"valid", newInstance("i", "my-operator-0.2.0", `{"clusterName":"prod","nodeCount":5,"storageBytes":9007199254740993}`, "deploy"),
			"deploy", metav1.ConditionTrue, controller.ReasonValid, "valid for OperatorVersion my-operator-0.2.0"},
		{"the plan of the last change", newInstance("i", "my-operator-0.2.0", `{"clusterName":"prod","backup":{"enabled":true}}`, "backup"),
			"backup", metav1.ConditionTrue, controller.ReasonValid, ""},
		{"no plan execution: an install", newInstance("i", "my-operator-0.2.0", ``, ""),
			"deploy", metav1.ConditionTrue, controller.ReasonValid, ""},
		{"invalid", newInstance("i", "my-operator-0.2.0", `{"clusterName":"prod","nodeCount":0}`, "deploy"),
			"deploy", metav1.ConditionFalse, "Invalid", "spec.parameters.nodeCount: "},
		{"wrong type", newInstance("i", "my-operator-0.2.0", `{"clusterName":"prod","backup":{"enabled":"yes"}}`, "deploy"),
			"deploy", metav1.ConditionFalse, "Type", "spec.parameters.backup.enabled: "},
		{"no operator version", newInstance("i", "my-operator-9", `{}`, "deploy"),
			"deploy", metav1.ConditionFalse, controller.ReasonOperatorVersionNotFound, `spec.operatorVersion.name: no schema for operator version "my-operator-9"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, c := setup(t, operatorVersion(t, "my-operator-0.2.0"), tc.instance)
			in := reconcileAndGet(t, r, c, "i")
			assert.Equal(t, int64(1), in.Status.ObservedGeneration)
			assert.Equal(t, tc.plan, in.Status.Plan)
			cond := meta.FindStatusCondition(in.Status.Conditions, v1beta2.ConditionParametersValid)
			require.NotNil(t, cond)
			assert.Equal(t, tc.status, cond.Status)
			assert.Equal(t, tc.reason, cond.Reason)
			assert.Contains(t, cond.Message, tc.messageHas)
			assert.Equal(t, int64(1), cond.ObservedGeneration)
			assert.Regexp(t, `^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`, cond.Reason, "a reason the apiserver accepts")
		})
	}
}

// TestReconcileIsQuietWhenNothingChanged: a second reconcile of the same
// generation writes nothing (no status churn, no resourceVersion bump).
func TestReconcileIsQuietWhenNothingChanged(t *testing.T) {
	r, c := setup(t, operatorVersion(t, "my-operator-0.2.0"), newInstance("i", "my-operator-0.2.0", `{"clusterName":"prod"}`, "deploy"))
	first := reconcileAndGet(t, r, c, "i")
	second := reconcileAndGet(t, r, c, "i")
	assert.Equal(t, first.ResourceVersion, second.ResourceVersion)
}

// TestAnEditedOperatorVersionRechecksItsInstances: the OperatorVersion's
// event maps to its Instances (and only those of its namespace naming
// it), and their status follows the new schema.
func TestAnEditedOperatorVersionRechecksItsInstances(t *testing.T) {
	ctx := context.Background()
	ov := operatorVersion(t, "my-operator-0.2.0")
	other := newInstance("other", "my-operator-0.1.0", `{}`, "deploy")
	elsewhere := newInstance("elsewhere", "my-operator-0.2.0", `{}`, "deploy")
	elsewhere.Namespace = "other"
	r, c := setup(t, ov, operatorVersion(t, "my-operator-0.1.0"),
		newInstance("a", "my-operator-0.2.0", `{"clusterName":"prod","nodeCount":5}`, "deploy"),
		newInstance("b", "my-operator-0.2.0", `{"clusterName":"prod","nodeCount":2}`, "deploy"),
		other, elsewhere)
	for _, name := range []string{"a", "b"} {
		in := reconcileAndGet(t, r, c, name)
		assert.Equal(t, metav1.ConditionTrue, meta.FindStatusCondition(in.Status.Conditions, v1beta2.ConditionParametersValid).Status)
	}

	// The operator version now allows at most 4 nodes.
	var stored v1beta2.OperatorVersion
	require.NoError(t, c.Get(ctx, client.ObjectKeyFromObject(ov), &stored))
	stored.Spec.Parameters.Raw = []byte(strings.Replace(string(stored.Spec.Parameters.Raw), `"minimum":1`, `"minimum":1,"maximum":4`, 1))
	require.Contains(t, string(stored.Spec.Parameters.Raw), `"maximum":4`)
	require.NoError(t, c.Update(ctx, &stored))

	reqs := r.InstancesOf(ctx, &stored)
	var names []string
	for _, q := range reqs {
		names = append(names, q.Namespace+"/"+q.Name)
	}
	assert.ElementsMatch(t, []string{"default/a", "default/b"}, names)

	a := reconcileAndGet(t, r, c, "a")
	cond := meta.FindStatusCondition(a.Status.Conditions, v1beta2.ConditionParametersValid)
	assert.Equal(t, metav1.ConditionFalse, cond.Status)
	assert.Equal(t, "Invalid", cond.Reason)
	assert.Contains(t, cond.Message, "spec.parameters.nodeCount: ")
	b := reconcileAndGet(t, r, c, "b")
	assert.Equal(t, metav1.ConditionTrue, meta.FindStatusCondition(b.Status.Conditions, v1beta2.ConditionParametersValid).Status)
}

func TestReconcileOfAGoneInstance(t *testing.T) {
	r, _ := setup(t)
	_, err := r.Reconcile(context.Background(), ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "gone"}})
	assert.NoError(t, err)
}

// TestReconcileWhileStopping: a reconcile cut short by the manager
// stopping (its context cancelled) is not a failure; the same error with
// the manager running is returned, so that the request is retried.
func TestReconcileWhileStopping(t *testing.T) {
	s := runtime.NewScheme()
	require.NoError(t, v1beta2.AddToScheme(s))
	c := fake.NewClientBuilder().WithScheme(s).
		WithObjects(operatorVersion(t, "my-operator-0.2.0"), newInstance("i", "my-operator-0.2.0", `{"clusterName":"prod"}`, "deploy")).
		WithStatusSubresource(&v1beta2.Instance{}).
		WithInterceptorFuncs(interceptor.Funcs{SubResourcePatch: func(ctx context.Context, _ client.Client, _ string, _ client.Object, _ client.Patch, _ ...client.SubResourcePatchOption) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			return errors.New("the apiserver is unreachable")
		}}).
		Build()
	r := &controller.InstanceReconciler{Client: c, Versions: opversion.New(c, nil)}
	req := ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "i"}}

	_, err := r.Reconcile(context.Background(), req)
	require.EqualError(t, err, "the apiserver is unreachable")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = r.Reconcile(ctx, req)
	assert.NoError(t, err)
}

func TestIndexOperatorVersion(t *testing.T) {
	assert.Equal(t, []string{"x"}, controller.IndexOperatorVersion(newInstance("i", "x", "", "")))
	assert.Nil(t, controller.IndexOperatorVersion(newInstance("i", "", "", "")))
	assert.Nil(t, controller.IndexOperatorVersion(operatorVersion(t, "my-operator-0.2.0")))
}

// TestRecheckIsLowPriority: an OperatorVersion's edit lists its Instances
// once and enqueues them below Instance events, so that an Instance
// created or changed during the wave is the next one a worker takes.
func TestRecheckIsLowPriority(t *testing.T) {
	ctx := context.Background()
	ov := operatorVersion(t, "my-operator-0.2.0")
	objs := []client.Object{ov}
	for i := range 50 {
		objs = append(objs, newInstance(fmt.Sprintf("i%02d", i), "my-operator-0.2.0", `{}`, "deploy"))
	}
	s := runtime.NewScheme()
	require.NoError(t, v1beta2.AddToScheme(s))
	var lists atomic.Int32
	c := fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).
		WithIndex(&v1beta2.Instance{}, controller.OperatorVersionIndex, controller.IndexOperatorVersion).
		WithInterceptorFuncs(interceptor.Funcs{List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
			lists.Add(1)
			return c.List(ctx, list, opts...)
		}}).Build()
	r := &controller.InstanceReconciler{Client: c, Versions: opversion.New(c, nil)}
	q := priorityqueue.New[reconcile.Request]("test")
	defer q.ShutDown()

	edited := ov.DeepCopy()
	edited.Generation++
	r.Recheck().Update(ctx, event.UpdateEvent{ObjectOld: ov, ObjectNew: edited}, q)
	assert.Equal(t, int32(1), lists.Load(), "one list per edit")
	require.Equal(t, 50, q.Len())

	newcomer := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "newcomer"}}
	q.Add(newcomer) // what an Instance event adds
	item, priority, _ := q.GetWithPriority()
	assert.Equal(t, newcomer, item, "the newcomer goes before the wave")
	assert.Equal(t, 0, priority)
	q.Done(item)
	for range 50 {
		item, priority, _ := q.GetWithPriority()
		assert.Equal(t, handler.LowPriority, priority, item.Name)
		q.Done(item)
	}
}
