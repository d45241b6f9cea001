//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOperatorVersionV1beta1 creates an OperatorVersion through v1beta1,
// reads it as v1beta2 (a schema, as KEP-33 shows) and as v1beta1 again
// (the same parameter list).
func TestOperatorVersionV1beta1(t *testing.T) {
	c := need(t)
	ns := c.namespace(t)
	ov := legacyOperatorVersion("zookeeper-0.3.0")
	created, _ := c.create(t, "v1beta1", "operatorversions", ns, ov)
	wantList := plain(t, mustJSON(t, ov["spec"].(map[string]any)["parameters"]))
	assert.ElementsMatch(t, wantList, parameters(t, created), "the create's answer")

	v2 := c.get(t, "v1beta2", "operatorversions", ns, "zookeeper-0.3.0")
	assert.Equal(t, "kudo.dev/v1beta2", v2["apiVersion"])
	s := parameters(t, v2).(map[string]any)
	assert.Equal(t, "object", s["type"])
	assert.Equal(t, []any{"NODE_COUNT"}, s["required"])
	assert.Equal(t, plain(t, `{
		"NODE_COUNT": {"type": "integer", "default": 3, "description": "Number of replicas that should be run as part of the deployment"},
		"BACKUP_ENABLED": {"type": "boolean", "default": false, "trigger": "backup"},
		"VERSION": {"type": "string", "default": "1.10", "title": "ZooKeeper version"}
	}`), s["properties"])
	assert.Equal(t, ov["spec"].(map[string]any)["version"], at(t, v2, "spec.version"), "other spec fields stay")

	v1 := c.get(t, "v1beta1", "operatorversions", ns, "zookeeper-0.3.0")
	assert.Equal(t, "kudo.dev/v1beta1", v1["apiVersion"])
	assert.ElementsMatch(t, wantList, parameters(t, v1), "v1beta1 reads the parameters it wrote")
	assert.Equal(t, wantList, parameters(t, v1), "v1beta1 reads the list it wrote, in its order "+
		"(the apiserver keeps no key order in a stored object, so the schema's properties cannot carry it)")
}

// TestOperatorVersionV1beta2ThroughOldClient creates an OperatorVersion
// with a nested schema through v1beta2; an old client reads it as v1beta1
// (a flat list) and writes it back with a label changed; the schema read
// through v1beta2 is exactly what was created.
func TestOperatorVersionV1beta2ThroughOldClient(t *testing.T) {
	c := need(t)
	ns := c.namespace(t)
	schema := plain(t, `{
		"title": "My Operator",
		"$schema": "https://json-schema.org/draft/2019-09/schema",
		"type": "object",
		"required": ["clusterName"],
		"properties": {
			"clusterName": {"type": "string", "default": "my-cluster", "immutable": true, "oldName": "CLUSTER_NAME"},
			"nodeCount": {"type": "integer", "minimum": 1, "default": 3, "description": "Number of nodes"},
			"tolerance": {"type": "number", "default": 0.25, "maximum": 1},
			"backup": {
				"type": "object",
				"trigger": "backup",
				"required": ["enabled"],
				"properties": {
					"enabled": {"type": "boolean", "default": false, "oldName": "BACKUP_ENABLED"},
					"credentials": {"type": "object", "properties": {"name": {"type": "string"}, "password": {"type": "string"}}}
				}
			},
			"zones": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "default": ["a"]}
		}
	}`)
	ov := map[string]any{
		"apiVersion": "kudo.dev/v1beta2",
		"kind":       "OperatorVersion",
		"metadata":   map[string]any{"name": "kep-0.2.0"},
		"spec":       map[string]any{"version": "0.2.0", "parameters": schema},
	}
	c.create(t, "v1beta2", "operatorversions", ns, ov)

	v1 := c.get(t, "v1beta1", "operatorversions", ns, "kep-0.2.0")
	list, ok := parameters(t, v1).([]any)
	require.True(t, ok, "v1beta1 spec.parameters is a list: %v", parameters(t, v1))
	var names []any
	for _, p := range list {
		names = append(names, p.(map[string]any)["name"])
	}
	// The apiserver stores objects without key order, so the properties
	// come back sorted; the list follows them.
	assert.ElementsMatch(t, []any{"clusterName", "nodeCount", "tolerance", "backup", "zones"}, names)
	t.Logf("v1beta1 reads: %s", mustJSON(t, list))

	md := v1["metadata"].(map[string]any)
	labels, _ := md["labels"].(map[string]any)
	if labels == nil {
		labels = map[string]any{}
		md["labels"] = labels
	}
	labels["edited-by"] = "old-client"
	c.expect(t, http.StatusOK, http.MethodPut, path("v1beta1", "operatorversions", ns, "kep-0.2.0"), v1)

	v2 := c.get(t, "v1beta2", "operatorversions", ns, "kep-0.2.0")
	assert.Equal(t, schema, parameters(t, v2), "the schema survives an old client's update")
	assert.Equal(t, "old-client", at(t, v2, "metadata.labels.edited-by"))
}

// zkStrings are v1beta1 parameters in the form the webhook writes them:
// a string verbatim, anything else as compact JSON.
var zkStrings = map[string]string{
	"NODE_COUNT":     "3",
	"BACKUP_ENABLED": "false",
	"ARRAY_PARAM":    `["foo","bar","bazz"]`,
	"MAP_PARAM":      `{"foo":"bar"}`,
	"VERSION":        "1.10",
	"ZK_PORT":        "2181",
}

const zkTyped = `{
	"NODE_COUNT": 3,
	"BACKUP_ENABLED": false,
	"ARRAY_PARAM": ["foo", "bar", "bazz"],
	"MAP_PARAM": {"foo": "bar"},
	"VERSION": "1.10",
	"ZK_PORT": 2181
}`

func stringsAsAny(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// TestInstanceV1beta1Strings creates an Instance through v1beta1 with
// string parameters, reads it as v1beta2 (typed by the schema) and as
// v1beta1 again (the same strings).
func TestInstanceV1beta1Strings(t *testing.T) {
	c := need(t)
	ns := c.namespace(t)

	created, _ := c.create(t, "v1beta1", "instances", ns, instance("zk", "zookeeper-0.3.0", zkStrings))
	assert.Equal(t, "kudo.dev/v1beta1", created["apiVersion"])
	assert.Equal(t, stringsAsAny(zkStrings), parameters(t, created), "the create's answer")

	v2 := c.get(t, "v1beta2", "instances", ns, "zk")
	assert.Equal(t, "kudo.dev/v1beta2", v2["apiVersion"])
	assert.Equal(t, plain(t, zkTyped), parameters(t, v2))

	v1 := c.get(t, "v1beta1", "instances", ns, "zk")
	assert.Equal(t, stringsAsAny(zkStrings), parameters(t, v1), "identical strings")
}

// TestInstanceKEPForms: KEP-33's terse v1beta1 forms ('[foo,bar,bazz]',
// '{foo:"bar"}') and an integer beyond float64's exact range unwrap to what
// they mean; v1beta1 then reads text that unwraps to exactly the same
// values.
func TestInstanceKEPForms(t *testing.T) {
	c := need(t)
	ns := c.namespace(t)
	c.create(t, "v1beta1", "instances", ns, instance("kep", "zookeeper-0.3.0", map[string]string{
		"NODE_COUNT":  "9007199254740993",
		"ARRAY_PARAM": "[foo,bar,bazz]",
		"MAP_PARAM":   `{foo:"bar"}`,
		"VERSION":     "007",
	}))
	v2 := c.get(t, "v1beta2", "instances", ns, "kep")
	assert.Equal(t, plain(t, `{
		"NODE_COUNT": 9007199254740993,
		"BACKUP_ENABLED": false,
		"ARRAY_PARAM": ["foo", "bar", "bazz"],
		"MAP_PARAM": {"foo": "bar"},
		"VERSION": "007"
	}`), parameters(t, v2), "typed, exact, and defaulted by /mutate")

	v1 := c.get(t, "v1beta1", "instances", ns, "kep")
	assert.Equal(t, map[string]any{
		"NODE_COUNT":     "9007199254740993",
		"BACKUP_ENABLED": "false",
		"ARRAY_PARAM":    `["foo","bar","bazz"]`,
		"MAP_PARAM":      `{"foo":"bar"}`,
		"VERSION":        "007",
	}, parameters(t, v1))
}

// TestListInstancesBothVersions lists many Instances stored as v1beta2
// through both versions, in order, each item converted by /convert.
//
// kube-apiserver v1.37 converts what it reads from etcd object by object
// (each served version has its own storage and watch cache, decoding every
// object into its version), so its reviews carry one object each; a
// review with many objects, as the ConversionReview API allows, is then
// sent to the webhook directly with the very objects the apiserver
// returned, and must come back in order and convert back exactly.
func TestListInstancesBothVersions(t *testing.T) {
	c := need(t)
	ns := c.namespace(t)
	const n = 40
	var mark int
	if c.rec != nil {
		mark = c.rec.mark()
	}
	for i := range n {
		name := fmt.Sprintf("zk-%02d", i)
		if i%2 == 0 {
			c.create(t, "v1beta1", "instances", ns, instance(name, "zookeeper-0.3.0", map[string]string{"NODE_COUNT": strconv.Itoa(i + 1)}))
		} else {
			c.create(t, "v1beta2", "instances", ns, instance(name, "zookeeper-0.3.0", map[string]any{"NODE_COUNT": i + 1}))
		}
	}

	l1, _ := c.expect(t, http.StatusOK, http.MethodGet, path("v1beta1", "instances", ns, ""), nil)
	v1items := l1["items"].([]any)
	require.Len(t, v1items, n)
	for i, it := range v1items {
		o := it.(map[string]any)
		assert.Equal(t, "kudo.dev/v1beta1", o["apiVersion"])
		assert.Equal(t, fmt.Sprintf("zk-%02d", i), at(t, o, "metadata.name"))
		assert.Equal(t, map[string]any{"NODE_COUNT": strconv.Itoa(i + 1), "BACKUP_ENABLED": "false"}, parameters(t, o), "item %d", i)
	}
	if c.rec != nil {
		reviews, most, converted := conversions(c.rec.since(mark), "kudo.dev/v1beta1")
		t.Logf("the apiserver sent %d ConversionReviews to v1beta1, at most %d objects in one", reviews, most)
		for i := range n {
			assert.True(t, converted[objectRef{"kudo.dev/v1beta2", "Instance", ns, fmt.Sprintf("zk-%02d", i)}], "zk-%02d went through /convert", i)
		}
	}

	l2, _ := c.expect(t, http.StatusOK, http.MethodGet, path("v1beta2", "instances", ns, ""), nil)
	v2items := l2["items"].([]any)
	require.Len(t, v2items, n)
	for i, it := range v2items {
		o := it.(map[string]any)
		assert.Equal(t, "kudo.dev/v1beta2", o["apiVersion"])
		assert.Equal(t, fmt.Sprintf("zk-%02d", i), at(t, o, "metadata.name"))
		assert.Equal(t, map[string]any{"NODE_COUNT": json.Number(strconv.Itoa(i + 1)), "BACKUP_ENABLED": false}, parameters(t, o), "item %d", i)
	}

	// Many objects in one review, both ways.
	down := c.convertReview(t, "kudo.dev/v1beta1", v2items)
	require.Len(t, down, n)
	for i := range down {
		assert.Equal(t, v1items[i], down[i], "object %d of the review", i)
	}
	up := c.convertReview(t, "kudo.dev/v1beta2", down)
	require.Len(t, up, n)
	for i := range up {
		assert.Equal(t, v2items[i], up[i], "object %d of the review", i)
	}
}

// convertReview sends one ConversionReview holding objects straight to
// paramctl's /convert, as the apiserver would (with ?timeout=30s), and
// returns the converted objects.
func (c *cluster) convertReview(t *testing.T, desired string, objects []any) []any {
	t.Helper()
	body, err := json.Marshal(map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "ConversionReview",
		"request":    map[string]any{"uid": fmt.Sprintf("e2e-%d", len(objects)), "desiredAPIVersion": desired, "objects": objects},
	})
	require.NoError(t, err)
	resp, err := c.hook.Post(c.hookTo+"/convert?timeout=30s", "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", b)
	review, err := decodeObject(b)
	require.NoError(t, err)
	r := at(t, review, "response").(map[string]any)
	require.Equal(t, "Success", at(t, r, "result.status"), "%s", b)
	out, ok := r["convertedObjects"].([]any)
	require.True(t, ok, "%s", b)
	return out
}

// TestUpdateThroughV1beta1 updates an Instance stored as v1beta2 through
// v1beta1, with a PUT of what v1beta1 reads and with a merge patch: the
// apiserver converts the old object down, the new one up for admission and
// storage, and the result down again for the answer.
func TestUpdateThroughV1beta1(t *testing.T) {
	c := need(t)
	ns := c.namespace(t)
	c.create(t, "v1beta2", "instances", ns, instance("kep", "kep-0.2.0", plain(t, `{"clusterName": "prod", "nodeCount": 3}`)))

	v1 := c.get(t, "v1beta1", "instances", ns, "kep")
	assert.Equal(t, map[string]any{"clusterName": "prod", "nodeCount": "3", "backup": `{"enabled":false}`}, parameters(t, v1))

	v1["spec"].(map[string]any)["parameters"].(map[string]any)["nodeCount"] = "5"
	put, r := c.expect(t, http.StatusOK, http.MethodPut, path("v1beta1", "instances", ns, "kep"), v1)
	assert.Equal(t, "kudo.dev/v1beta1", put["apiVersion"])
	assert.Equal(t, map[string]any{"clusterName": "prod", "nodeCount": "5", "backup": `{"enabled":false}`}, parameters(t, put))
	assert.Contains(t, r.warnings, "plan: deploy")
	assert.Equal(t, plain(t, `{"clusterName": "prod", "nodeCount": 5, "backup": {"enabled": false}}`), parameters(t, c.get(t, "v1beta2", "instances", ns, "kep")))

	patched, r := c.expect(t, http.StatusOK, http.MethodPatch, path("v1beta1", "instances", ns, "kep"),
		map[string]any{"spec": map[string]any{"parameters": map[string]any{"backup": `{"enabled":true}`}}})
	assert.Equal(t, map[string]any{"clusterName": "prod", "nodeCount": "5", "backup": `{"enabled":true}`}, parameters(t, patched))
	assert.Contains(t, r.warnings, "plan: backup")
	assert.Equal(t, plain(t, `{"clusterName": "prod", "nodeCount": 5, "backup": {"enabled": true}}`), parameters(t, c.get(t, "v1beta2", "instances", ns, "kep")))
}

// TestOperatorPassesThrough: an Operator has the same fields in both
// versions; only apiVersion changes.
func TestOperatorPassesThrough(t *testing.T) {
	c := need(t)
	ns := c.namespace(t)
	spec := map[string]any{"description": "ZooKeeper", "maintainers": []any{map[string]any{"name": "someone"}}, "kudoVersion": "0.20.0"}
	c.create(t, "v1beta1", "operators", ns, map[string]any{
		"apiVersion": "kudo.dev/v1beta1", "kind": "Operator",
		"metadata": map[string]any{"name": "zookeeper"}, "spec": spec,
	})
	v2 := c.get(t, "v1beta2", "operators", ns, "zookeeper")
	assert.Equal(t, "kudo.dev/v1beta2", v2["apiVersion"])
	assert.Equal(t, spec, v2["spec"])
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
