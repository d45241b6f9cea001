package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/kudo"
)

const schemaV1 = `type: object
properties:
  a: {type: integer, default: 1}
`

const schemaV2 = `{"type": "object", "properties": {"a": {"type": "string", "default": "one"}}}`

func TestDirResolver(t *testing.T) {
	dir := t.TempDir()
	r := NewDirResolver(dir)
	r.SetRecheckInterval(0) // look at the file on every call
	ctx := context.Background()
	write := func(name, content string) {
		t.Helper()
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}

	_, err := r.Resolve(ctx, "ns", "op-1.0.0")
	require.ErrorIs(t, err, ErrSchemaNotFound)
	assert.EqualError(t, err, `no schema for operator version "op-1.0.0": neither `+filepath.Join(dir, "op-1.0.0.yaml")+` nor `+filepath.Join(dir, "op-1.0.0.json")+` exists`)

	write("op-1.0.0.yaml", schemaV1)
	v1, err := r.Resolve(ctx, "ns", "op-1.0.0")
	require.NoError(t, err)
	assert.Equal(t, []string{"integer"}, v1.Schema().Root().Child("a").Type())
	assert.Nil(t, v1.Plans(), "a bare schema says nothing about plans")

	again, err := r.Resolve(ctx, "other-namespace", "op-1.0.0")
	require.NoError(t, err)
	assert.Same(t, v1, again, "an unchanged file is not compiled again")

	// Replaced atomically, as a ConfigMap update or `mv` does.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tmp"), []byte(schemaV1+"  b: {type: string}\n"), 0o644))
	require.NoError(t, os.Rename(filepath.Join(dir, "tmp"), filepath.Join(dir, "op-1.0.0.yaml")))
	v1b, err := r.Resolve(ctx, "ns", "op-1.0.0")
	require.NoError(t, err)
	assert.NotSame(t, v1, v1b)
	assert.NotNil(t, v1b.Schema().Root().Child("b"), "the changed file was reloaded")

	// A broken file is refused with the file's name, never served stale.
	write("op-1.0.0.yaml", "type: object\nproperties: {a: {type: 7}}\n")
	_, err = r.Resolve(ctx, "ns", "op-1.0.0")
	require.Error(t, err)
	assert.NotErrorIs(t, err, ErrSchemaNotFound)
	assert.Contains(t, err.Error(), `operator version "op-1.0.0": schema file `+filepath.Join(dir, "op-1.0.0.yaml")+": ")

	// Two files for one version are ambiguous.
	write("op-1.0.0.yaml", schemaV1)
	write("op-1.0.0.json", schemaV2)
	_, err = r.Resolve(ctx, "ns", "op-1.0.0")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "has two schema files")

	require.NoError(t, os.Remove(filepath.Join(dir, "op-1.0.0.yaml")))
	v2, err := r.Resolve(ctx, "ns", "op-1.0.0")
	require.NoError(t, err)
	assert.Equal(t, []string{"string"}, v2.Schema().Root().Child("a").Type())

	// Semantic faults make the schema unusable for the webhook.
	write("conflict-1.yaml", "type: object\nproperties:\n  a:\n    type: object\n    trigger: x\n    properties:\n      b: {type: string, trigger: y}\n")
	_, err = r.Resolve(ctx, "ns", "conflict-1")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `/properties/a/properties/b: trigger "y" differs from trigger "x" of its ancestor /properties/a`)
}

func TestDirResolverRefusesBadNames(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "secret.yaml"), []byte(schemaV1), 0o644))
	r := NewDirResolver(filepath.Join(dir, "schemas"))
	for _, name := range []string{"", "../secret", "UPPER", "a/b", "-x", "x-", ".hidden", string(make([]byte, 300))} {
		_, err := r.Resolve(context.Background(), "", name)
		require.Error(t, err, name)
		assert.ErrorIs(t, err, ErrSchemaNotFound, name)
	}
}

func TestDirResolverReadsOperatorVersionPlans(t *testing.T) {
	r := NewDirResolver("testdata/webhook/schemas")
	v, err := r.Resolve(context.Background(), "", "kep-0.2.0")
	require.NoError(t, err)
	assert.Equal(t, []string{"backup", "deploy", "upgrade"}, v.Plans())
	assert.True(t, v.HasPlan("upgrade"))
	assert.Equal(t, "backup", v.Schema().Root().Child("backup").Trigger())
}

func TestDirResolverConcurrentFirstUse(t *testing.T) {
	r := NewDirResolver("testdata/webhook/schemas")
	var wg sync.WaitGroup
	got := make([]*kudo.OperatorVersion, 32)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := r.Resolve(context.Background(), "", "zookeeper-0.3.0")
			if err == nil {
				got[i] = v
			}
		}()
	}
	wg.Wait()
	for _, v := range got {
		require.NotNil(t, v)
		assert.Same(t, got[0], v, "compiled once for all callers")
	}
}

func TestDirResolverBoundsMisses(t *testing.T) {
	r := NewDirResolver(t.TempDir())
	for i := 0; i < maxCachedMisses+100; i++ {
		_, err := r.Resolve(context.Background(), "", "missing-"+strconv.Itoa(i))
		require.True(t, errors.Is(err, ErrSchemaNotFound))
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	assert.LessOrEqual(t, len(r.entries), maxCachedMisses+1)
}

// TestDirResolverJSONIsJSON: NAME.json is read as JSON only; a trailing
// comma, which the YAML reader would accept, is refused with its line.
func TestDirResolverJSONIsJSON(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "op-1.json"), []byte("{\n  \"type\": \"object\",\n}\n"), 0o644))
	_, err := NewDirResolver(dir).Resolve(context.Background(), "ns", "op-1")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "op-1.json: line 2: a trailing comma before '}' is not JSON")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "op-2.yaml"), []byte("{\n  \"type\": \"object\",\n}\n"), 0o644))
	_, err = NewDirResolver(dir).Resolve(context.Background(), "ns", "op-2")
	assert.NoError(t, err, "the same text in a .yaml file is YAML")
}

// TestDirResolverLoadAllStopsWithItsContext: a context done before the
// call loads nothing and says why; LoadAll does not report success for a
// directory it did not read through.
func TestDirResolverLoadAllStopsWithItsContext(t *testing.T) {
	all, err := NewDirResolver("testdata/webhook/schemas").LoadAll(context.Background())
	require.NoError(t, err)
	require.Len(t, all, 4)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := NewDirResolver("testdata/webhook/schemas").LoadAll(ctx)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, got)
}
