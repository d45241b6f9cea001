package controller_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/paramkit/paramkit/params"
)

const benchParams = `{"clusterName":"prod","nodeCount":4,"storageBytes":9007199254740993,"backup":{"enabled":true,"credentials":{"name":"u","password":"p"}}}`

// BenchmarkReconcile is one reconcile of an Instance whose status is up
// to date (the steady state: every resync, every event that changes
// nothing): the Instance read from controller-runtime's fake client (a
// real manager reads its informer's copy, which costs about the same
// deep copy), the operator version from the cache, the parameters checked
// by paramkit, no write.
func BenchmarkReconcile(b *testing.B) {
	r, c := setup(b, operatorVersion(b, "my-operator-0.2.0"), newInstance("i", "my-operator-0.2.0", benchParams, "deploy"))
	reconcileAndGet(b, r, c, "i") // writes the status once
	req := ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "i"}}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := r.Reconcile(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReconcileParamkit is paramkit's part of the same reconcile:
// reading the parameters exactly, defaulting them and validating them
// against the compiled operator version.
func BenchmarkReconcileParamkit(b *testing.B) {
	r, _ := setup(b, operatorVersion(b, "my-operator-0.2.0"))
	ov, err := r.Versions.Get(context.Background(), "default", "my-operator-0.2.0")
	require.NoError(b, err)
	raw := []byte(benchParams)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		v, err := params.Decode(nil, raw)
		if err != nil {
			b.Fatal(err)
		}
		dv, err := params.Default(ov.Schema(), v)
		if err != nil {
			b.Fatal(err)
		}
		if err := params.Validate(ov.Schema(), dv); err != nil {
			b.Fatal(err)
		}
	}
}
