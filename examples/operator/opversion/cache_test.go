package opversion_test

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/yaml"

	"github.com/paramkit/paramkit/examples/operator/api/v1beta2"
	"github.com/paramkit/paramkit/examples/operator/kudoconvert"
	"github.com/paramkit/paramkit/examples/operator/opversion"
	"github.com/paramkit/paramkit/schema"
)

func scheme(t testing.TB) *runtime.Scheme {
	s := runtime.NewScheme()
	require.NoError(t, v1beta2.AddToScheme(s))
	return s
}

// sample reads an OperatorVersion of config/samples as the apiserver
// would store it (v1beta2 typed; a v1beta1 list stays a list until the
// conversion webhook runs, and kudo reads both).
func sample(t testing.TB, name string) *v1beta2.OperatorVersion {
	t.Helper()
	data, err := os.ReadFile("../config/samples/" + name + ".yaml")
	require.NoError(t, err)
	var ov v1beta2.OperatorVersion
	require.NoError(t, yaml.Unmarshal(data, &ov))
	ov.APIVersion, ov.Kind = "", "" // as a typed client's Get leaves them
	return &ov
}

func TestCacheCompilesOncePerResourceVersion(t *testing.T) {
	ctx := context.Background()
	c := fake.NewClientBuilder().WithScheme(scheme(t)).WithObjects(sample(t, "my-operator-0.2.0")).Build()
	cache := opversion.New(c, nil)

	ov, err := cache.Get(ctx, "default", "my-operator-0.2.0")
	require.NoError(t, err)
	assert.Equal(t, "my-operator-0.2.0", ov.Name())
	assert.Equal(t, []string{"backup", "deploy", "upgrade"}, ov.Plans(), "the plans of a typed object without kind")
	assert.Equal(t, "upgrade", ov.UpgradePlan())
	again, err := cache.Get(ctx, "default", "my-operator-0.2.0")
	require.NoError(t, err)
	assert.Same(t, ov, again)
	assert.Equal(t, int64(1), cache.Compiles())

	// An edit changes the resourceVersion: the next Get compiles the new
	// object, without anyone calling Forget.
	var obj v1beta2.OperatorVersion
	require.NoError(t, c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "my-operator-0.2.0"}, &obj))
	obj.Spec.Plans["update"] = runtime.RawExtension{Raw: []byte(`{}`)}
	require.NoError(t, c.Update(ctx, &obj))
	edited, err := cache.Get(ctx, "default", "my-operator-0.2.0")
	require.NoError(t, err)
	assert.NotSame(t, ov, edited)
	assert.Equal(t, "update", edited.DefaultPlan())
	assert.Equal(t, int64(2), cache.Compiles())

	// Forget drops the entry; the same object compiles again once.
	cache.Forget("default", "my-operator-0.2.0")
	_, err = cache.Get(ctx, "default", "my-operator-0.2.0")
	require.NoError(t, err)
	assert.Equal(t, int64(3), cache.Compiles())

	// Another namespace is another OperatorVersion.
	_, err = cache.Get(ctx, "other", "my-operator-0.2.0")
	assert.ErrorIs(t, err, kudoconvert.ErrSchemaNotFound)
}

func TestCacheReadsV1beta1Lists(t *testing.T) {
	c := fake.NewClientBuilder().WithScheme(scheme(t)).WithObjects(sample(t, "my-operator-0.1.0")).Build()
	ov, err := opversion.New(c, nil).Get(context.Background(), "default", "my-operator-0.1.0")
	require.NoError(t, err)
	assert.Equal(t, []string{"backup", "deploy"}, ov.Plans())
	assert.True(t, ov.Schema().Root().Child("CLUSTER_NAME").Immutable())
}

func TestCacheErrors(t *testing.T) {
	ctx := context.Background()
	broken := sample(t, "my-operator-0.2.0")
	broken.Name = "broken"
	broken.Spec.Parameters = &runtime.RawExtension{Raw: []byte(`{"type": "object", "properties": {"a": {"type": 7}}}`)}
	c := fake.NewClientBuilder().WithScheme(scheme(t)).WithObjects(broken).Build()
	cache := opversion.New(c, nil)

	_, err := cache.Get(ctx, "default", "missing")
	require.ErrorIs(t, err, kudoconvert.ErrSchemaNotFound)
	var nf *kudoconvert.NotFoundError
	require.True(t, errors.As(err, &nf))
	assert.Contains(t, err.Error(), `no OperatorVersion "missing" in namespace "default"`)

	_, err = cache.Get(ctx, "default", "")
	assert.ErrorIs(t, err, kudoconvert.ErrSchemaNotFound)

	for range 3 {
		_, err = cache.Get(ctx, "default", "broken")
		require.Error(t, err)
		assert.NotErrorIs(t, err, kudoconvert.ErrSchemaNotFound)
		errs := schema.ErrorsOf(err)
		require.NotEmpty(t, errs, "%v", err)
		assert.Equal(t, "/spec/parameters/properties/a/type", errs[0].Pointer)
	}
	assert.Equal(t, int64(1), cache.Compiles(), "a broken object is compiled once too")

	_, err = opversion.Compile(nil)
	assert.Error(t, err)
}

// TestCacheAsksTheAPIServerWhatTheInformerHasNotSeen: an OperatorVersion
// created a moment ago is not in the informer's copy yet; the cache finds
// it through the live reader, and only there. Without one, it is not
// found.
func TestCacheAsksTheAPIServerWhatTheInformerHasNotSeen(t *testing.T) {
	ctx := context.Background()
	informer := fake.NewClientBuilder().WithScheme(scheme(t)).Build()
	apiserver := fake.NewClientBuilder().WithScheme(scheme(t)).WithObjects(sample(t, "my-operator-0.2.0")).Build()

	ov, err := opversion.New(informer, apiserver).Get(ctx, "default", "my-operator-0.2.0")
	require.NoError(t, err)
	assert.Equal(t, "upgrade", ov.UpgradePlan())

	_, err = opversion.New(informer, apiserver).Get(ctx, "default", "missing")
	assert.ErrorIs(t, err, kudoconvert.ErrSchemaNotFound, "missing in both")
	_, err = opversion.New(informer, nil).Get(ctx, "default", "my-operator-0.2.0")
	assert.ErrorIs(t, err, kudoconvert.ErrSchemaNotFound)
}

// TestCacheConcurrentGets: many goroutines asking for the same new
// object compile it once, and all get the same operator version.
func TestCacheConcurrentGets(t *testing.T) {
	c := fake.NewClientBuilder().WithScheme(scheme(t)).WithObjects(sample(t, "my-operator-0.2.0")).Build()
	cache := opversion.New(c, nil)
	var wg sync.WaitGroup
	got := make([]any, 16)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ov, err := cache.Get(context.Background(), "default", "my-operator-0.2.0")
			assert.NoError(t, err)
			got[i] = ov
			if i%4 == 0 {
				cache.Forget("default", "other")
			}
		}()
	}
	wg.Wait()
	for _, ov := range got {
		assert.Same(t, got[0], ov)
	}
	assert.Equal(t, int64(1), cache.Compiles())
}
