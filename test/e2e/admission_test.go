//go:build e2e

package e2e

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAdmissionDeniesInvalidParameters: an invalid value is refused with
// its pointer, written through either version.
func TestAdmissionDeniesInvalidParameters(t *testing.T) {
	c := need(t)
	ns := c.namespace(t)
	for _, tc := range []struct {
		name, version string
		parameters    any
		want          []string
	}{
		{"v1beta2 below minimum", "v1beta2", map[string]any{"clusterName": "a", "nodeCount": 0}, []string{"/spec/parameters/nodeCount"}},
		{"v1beta1 below minimum", "v1beta1", map[string]string{"clusterName": "a", "nodeCount": "0"}, []string{"/spec/parameters/nodeCount"}},
		{"v1beta1 not an integer", "v1beta1", map[string]string{"clusterName": "a", "nodeCount": "many"}, []string{"/spec/parameters/nodeCount"}},
		{"v1beta2 nested wrong type", "v1beta2", map[string]any{"clusterName": "a", "backup": map[string]any{"enabled": "yes"}}, []string{"/spec/parameters/backup/enabled"}},
		{"v1beta2 two errors", "v1beta2", map[string]any{"clusterName": 7, "nodeCount": -1}, []string{"/spec/parameters/clusterName", "/spec/parameters/nodeCount"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := c.denied(t, http.MethodPost, path(tc.version, "instances", ns, ""), instance("bad", "kep-0.2.0", tc.parameters))
			for _, w := range tc.want {
				assert.Contains(t, msg, w)
			}
		})
	}
	r := c.call(t, http.MethodGet, path("v1beta2", "instances", ns, "bad"), nil)
	assert.Equal(t, http.StatusNotFound, r.code, "nothing was stored")
}

// TestAdmissionImmutable: an immutable parameter may not change, through
// either version.
func TestAdmissionImmutable(t *testing.T) {
	c := need(t)
	ns := c.namespace(t)
	created, _ := c.create(t, "v1beta2", "instances", ns, instance("kep", "kep-0.2.0", map[string]any{"clusterName": "prod"}))

	changed := instance("kep", "kep-0.2.0", map[string]any{"clusterName": "staging"})
	msg := c.denied(t, http.MethodPut, path("v1beta2", "instances", ns, "kep"), withRV(changed, created))
	assert.Contains(t, msg, "/spec/parameters/clusterName")
	assert.Contains(t, msg, "immutable")

	msg = c.denied(t, http.MethodPatch, path("v1beta1", "instances", ns, "kep"),
		map[string]any{"spec": map[string]any{"parameters": map[string]any{"clusterName": "staging"}}})
	assert.Contains(t, msg, "/spec/parameters/clusterName")

	assert.Equal(t, "prod", at(t, c.get(t, "v1beta2", "instances", ns, "kep"), "spec.parameters.clusterName"))
}

// TestAdmissionPlans: /validate names the plan a change runs in the
// warning "plan: NAME", and refuses an update that would run two.
func TestAdmissionPlans(t *testing.T) {
	c := need(t)
	ns := c.namespace(t)
	_, r := c.create(t, "v1beta2", "instances", ns, instance("kep", "kep-0.2.0", map[string]any{"clusterName": "prod"}))
	assert.Contains(t, r.warnings, "plan: deploy", "an install runs deploy")

	_, r = c.expect(t, http.StatusOK, http.MethodPatch, path("v1beta2", "instances", ns, "kep"),
		map[string]any{"spec": map[string]any{"parameters": map[string]any{"backup": map[string]any{"enabled": true}}}})
	assert.Contains(t, r.warnings, "plan: backup")

	_, r = c.expect(t, http.StatusOK, http.MethodPatch, path("v1beta2", "instances", ns, "kep"),
		map[string]any{"spec": map[string]any{"parameters": map[string]any{"nodeCount": 4}}})
	assert.Contains(t, r.warnings, "plan: deploy")

	msg := c.denied(t, http.MethodPatch, path("v1beta2", "instances", ns, "kep"),
		map[string]any{"spec": map[string]any{"parameters": map[string]any{"nodeCount": 5, "backup": map[string]any{"enabled": false}}}})
	assert.Contains(t, msg, "backup")
	assert.Contains(t, msg, "deploy")
	assert.Contains(t, msg, "/spec/parameters/nodeCount")

	_, r = c.expect(t, http.StatusOK, http.MethodPatch, path("v1beta2", "instances", ns, "kep"),
		map[string]any{"metadata": map[string]any{"labels": map[string]any{"team": "a"}}})
	for _, w := range r.warnings {
		assert.NotContains(t, w, "plan:", "a label change runs no plan")
	}
}

// TestAdmissionDefaults: /mutate's defaults are in the stored object,
// written through either version.
func TestAdmissionDefaults(t *testing.T) {
	c := need(t)
	ns := c.namespace(t)
	want := plain(t, `{"clusterName": "my-cluster", "nodeCount": 3, "backup": {"enabled": false}}`)

	created, _ := c.create(t, "v1beta2", "instances", ns, instance("empty", "kep-0.2.0", map[string]any{}))
	assert.Equal(t, want, parameters(t, created), "the create's answer")
	assert.Equal(t, want, parameters(t, c.get(t, "v1beta2", "instances", ns, "empty")))

	noParams := instance("none", "kep-0.2.0", nil)
	delete(noParams["spec"].(map[string]any), "parameters")
	c.create(t, "v1beta2", "instances", ns, noParams)
	assert.Equal(t, want, parameters(t, c.get(t, "v1beta2", "instances", ns, "none")), "no parameters at all")

	created, _ = c.create(t, "v1beta1", "instances", ns, instance("old", "kep-0.2.0", map[string]string{"nodeCount": "7"}))
	assert.Equal(t, map[string]any{"clusterName": "my-cluster", "nodeCount": "7", "backup": `{"enabled":false}`}, parameters(t, created),
		"the v1beta1 create's answer carries the defaults as text")
	assert.Equal(t, plain(t, `{"clusterName": "my-cluster", "nodeCount": 7, "backup": {"enabled": false}}`),
		parameters(t, c.get(t, "v1beta2", "instances", ns, "old")))
}

// TestAdmissionUpgrade: changing spec.operatorVersion.name moves the
// parameters by oldName in /mutate and runs the upgrade plan.
func TestAdmissionUpgrade(t *testing.T) {
	c := need(t)
	ns := c.namespace(t)
	created, _ := c.create(t, "v1beta1", "instances", ns, instance("kep", "kep-0.1.0", map[string]string{
		"CLUSTER_NAME": "prod", "BACKUP_ENABLED": "true",
	}))
	upgraded := instance("kep", "kep-0.2.0", plain(t, `{"CLUSTER_NAME": "prod", "BACKUP_ENABLED": true}`))
	stored, r := c.expect(t, http.StatusOK, http.MethodPut, path("v1beta2", "instances", ns, "kep"), withRV(upgraded, created))
	assert.Equal(t, plain(t, `{"clusterName": "prod", "nodeCount": 3, "backup": {"enabled": true}}`), parameters(t, stored))
	assert.Contains(t, r.warnings, "plan: upgrade")
}

// TestAdmissionMissingSchema: an Instance of an operator version the
// webhook has no schema for is refused, naming the version.
func TestAdmissionMissingSchema(t *testing.T) {
	c := need(t)
	ns := c.namespace(t)
	msg := c.denied(t, http.MethodPost, path("v1beta2", "instances", ns, ""), instance("x", "nope-1.0.0", map[string]any{"a": 1}))
	assert.Contains(t, msg, "nope-1.0.0")

	r := c.call(t, http.MethodPost, path("v1beta1", "instances", ns, ""), instance("y", "nope-1.0.0", map[string]string{"a": "1"}))
	assert.GreaterOrEqual(t, r.code, 400, "%s", r.body)
	assert.Contains(t, string(r.body), "nope-1.0.0")
}

// TestWebhookURLsCarryTimeout: the apiserver calls every webhook URL with
// ?timeout=30s (conversion always, admission because timeoutSeconds is
// 30), and paramctl answers each call.
func TestWebhookURLsCarryTimeout(t *testing.T) {
	c := need(t)
	rec := c.needRecorder(t)
	ns := c.namespace(t)
	mark := rec.mark()
	c.create(t, "v1beta1", "instances", ns, instance("zk", "zookeeper-0.3.0", map[string]string{"NODE_COUNT": "3"}))
	c.get(t, "v1beta1", "instances", ns, "zk")

	seen := map[string]bool{}
	for _, cl := range rec.since(mark) {
		seen[cl.Path] = true
		q, err := url.ParseQuery(cl.RawQuery)
		require.NoError(t, err)
		assert.Equal(t, "30s", q.Get("timeout"), "%s?%s", cl.Path, cl.RawQuery)
		assert.Equal(t, http.StatusOK, cl.Status, "%s?%s", cl.Path, cl.RawQuery)
	}
	for _, p := range []string{"/convert", "/mutate", "/validate"} {
		assert.True(t, seen[p], "the apiserver called %s", p)
	}
}
