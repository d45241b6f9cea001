//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The objects written while the CRDs stored v1beta1.
const (
	legacyNamespace = "legacy-v1beta1"
	legacyInstances = 30
)

// legacyMigrated is set once TestStoredV1beta1Objects has begun to
// migrate the objects that cluster start-up stored as v1beta1.
var legacyMigrated bool

func legacyName(i int) string { return fmt.Sprintf("zk-%02d", i) }

// legacyParameters are the v1beta1 parameters of legacy Instance i.
func legacyParameters(i int) map[string]string {
	return map[string]string{
		"NODE_COUNT":     strconv.Itoa(i + 1),
		"BACKUP_ENABLED": strconv.FormatBool(i%2 == 0),
		"VERSION":        "1.10",
	}
}

// legacyOperatorVersion is a v1beta1 OperatorVersion with KUDO's flat
// parameter list.
func legacyOperatorVersion(name string) map[string]any {
	return map[string]any{
		"apiVersion": "kudo.dev/v1beta1",
		"kind":       "OperatorVersion",
		"metadata":   map[string]any{"name": name},
		"spec": map[string]any{
			"operator": map[string]any{"name": "zookeeper", "kind": "Operator"},
			"version":  "0.3.0",
			"parameters": []any{
				map[string]any{
					"name":        "NODE_COUNT",
					"description": "Number of replicas that should be run as part of the deployment",
					"default":     "3",
					"required":    true,
					"value-type":  "integer",
				},
				map[string]any{
					"name":       "BACKUP_ENABLED",
					"default":    "false",
					"value-type": "boolean",
					"trigger":    "backup",
				},
				map[string]any{
					"name":        "VERSION",
					"displayName": "ZooKeeper version",
					"default":     "1.10",
				},
			},
		},
	}
}

// seedLegacy writes Instances and an OperatorVersion through v1beta1 while
// v1beta1 is the storage version.
func (c *cluster) seedLegacy() error {
	if err := c.createNamespace(legacyNamespace); err != nil {
		return err
	}
	post := func(resource string, obj map[string]any) error {
		r, err := c.api.doJSON(context.Background(), http.MethodPost, path("v1beta1", resource, legacyNamespace, ""), obj)
		if err != nil {
			return err
		}
		if r.code != http.StatusCreated {
			return fmt.Errorf("creating %s: %d %s", resource, r.code, r.body)
		}
		return nil
	}
	if err := post("operatorversions", legacyOperatorVersion("zookeeper-0.3.0")); err != nil {
		return err
	}
	for i := range legacyInstances {
		if err := post("instances", instance(legacyName(i), "zookeeper-0.3.0", legacyParameters(i))); err != nil {
			return err
		}
	}
	return nil
}

// stored reads an object's apiVersion straight from etcd, through etcd's
// JSON gateway, to see which version the apiserver wrote.
func (c *cluster) stored(t *testing.T, resource, ns, name string) string {
	t.Helper()
	key := "/registry/kudo.dev/" + resource + "/" + ns + "/" + name
	body, _ := json.Marshal(map[string]string{"key": base64.StdEncoding.EncodeToString([]byte(key))})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.etcdURL+"/v3/kv/range", bytes.NewReader(body))
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", b)
	var out struct {
		Kvs []struct{ Value []byte } // base64 in JSON, decoded by encoding/json
	}
	require.NoError(t, json.Unmarshal(b, &out), "%s", b)
	require.Len(t, out.Kvs, 1, "etcd has no %s: %s", key, b)
	var obj struct {
		APIVersion string `json:"apiVersion"`
	}
	require.NoError(t, json.Unmarshal(out.Kvs[0].Value, &obj), "%s holds %q", key, out.Kvs[0].Value)
	return obj.APIVersion
}

// TestStoredV1beta1Objects: objects written while v1beta1 was stored are
// read as v1beta2 once v1beta2 is the storage version — a LIST sends them
// all to /convert in one review, in order — and rewriting each one (the
// storage version migration of KEP-33's upgrade step 4) stores it as
// v1beta2 without changing what either version reads.
func TestStoredV1beta1Objects(t *testing.T) {
	c := need(t)
	// The objects are stored as v1beta1 once per cluster, as it starts,
	// and this test migrates them: a second run in one process (-count)
	// has nothing left to migrate.
	if legacyMigrated {
		t.Skip("the v1beta1 objects were migrated by an earlier run in this process (-count > 1); they are written once per cluster")
	}
	legacyMigrated = true

	for i := range legacyInstances {
		require.Equal(t, "kudo.dev/v1beta1", c.stored(t, "instances", legacyNamespace, legacyName(i)), "before the migration")
	}

	list, _ := c.expect(t, http.StatusOK, http.MethodGet, path("v1beta2", "instances", legacyNamespace, ""), nil)
	items := list["items"].([]any)
	require.Len(t, items, legacyInstances)
	for i, it := range items {
		o := it.(map[string]any)
		assert.Equal(t, "kudo.dev/v1beta2", o["apiVersion"])
		assert.Equal(t, legacyName(i), at(t, o, "metadata.name"))
		assert.Equal(t, map[string]any{
			"NODE_COUNT":     json.Number(strconv.Itoa(i + 1)),
			"BACKUP_ENABLED": i%2 == 0,
			"VERSION":        "1.10",
		}, parameters(t, o), "item %d", i)
	}
	if c.rec != nil {
		// The apiserver converts what it reads from etcd object by object,
		// when it fills its watch cache for v1beta2 (so possibly before
		// the LIST): each stored v1beta1 object went to /convert.
		reviews, most, converted := conversions(c.rec.since(0), "kudo.dev/v1beta2")
		t.Logf("%d ConversionReviews to v1beta2 so far, at most %d objects in one", reviews, most)
		for i := range legacyInstances {
			assert.True(t, converted[objectRef{"kudo.dev/v1beta1", "Instance", legacyNamespace, legacyName(i)}],
				"the stored v1beta1 %s went through /convert", legacyName(i))
		}
	}

	// The storage version migration: an unchanged write of every object.
	for i := range legacyInstances {
		o := items[i].(map[string]any)
		c.expect(t, http.StatusOK, http.MethodPut, path("v1beta2", "instances", legacyNamespace, legacyName(i)), o)
		require.Equal(t, "kudo.dev/v1beta2", c.stored(t, "instances", legacyNamespace, legacyName(i)), "after the migration")
	}
	for i := range legacyInstances {
		o := c.get(t, "v1beta1", "instances", legacyNamespace, legacyName(i))
		want := map[string]any{}
		for k, v := range legacyParameters(i) {
			want[k] = v
		}
		assert.Equal(t, want, parameters(t, o), "v1beta1 reads %s as it was written", legacyName(i))
	}

	// The OperatorVersion written as v1beta1 reads as a schema.
	require.Equal(t, "kudo.dev/v1beta1", c.stored(t, "operatorversions", legacyNamespace, "zookeeper-0.3.0"))
	ov := c.get(t, "v1beta2", "operatorversions", legacyNamespace, "zookeeper-0.3.0")
	assert.Equal(t, plain(t, `{"type": "integer", "default": 3, "description": "Number of replicas that should be run as part of the deployment"}`),
		at(t, ov, "spec.parameters.properties.NODE_COUNT"))
	assert.Equal(t, []any{"NODE_COUNT"}, at(t, ov, "spec.parameters.required"))
}
