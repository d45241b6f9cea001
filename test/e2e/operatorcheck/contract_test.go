//go:build e2e && linux

package operatorcheck

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ns is the namespace of the test's objects.
const ns = "check"

func path(version, resource, name string) string {
	p := "/apis/kudo.dev/" + version + "/namespaces/" + ns + "/" + resource
	if name != "" {
		p += "/" + name
	}
	return p
}

// inst is an Instance: v1beta1 when parameters is a map of strings.
func inst(name, ov string, parameters any) map[string]any {
	version := "kudo.dev/v1beta2"
	if _, ok := parameters.(map[string]string); ok {
		version = "kudo.dev/v1beta1"
	}
	return map[string]any{"apiVersion": version, "kind": "Instance",
		"metadata": map[string]any{"name": name, "namespace": ns},
		"spec":     map[string]any{"operatorVersion": map[string]any{"name": ov}, "parameters": parameters}}
}

func ovName(name string) map[string]any {
	return map[string]any{"spec": map[string]any{"operatorVersion": map[string]any{"name": name}}}
}

func setParams(p map[string]any) map[string]any {
	return map[string]any{"spec": map[string]any{"parameters": p}}
}

// The operator versions: 1.0 written through v1beta1 (KUDO's flat list),
// 2.0 through v1beta2 (a schema: oldName, trigger, immutable, a default
// beyond float64, an update and an upgrade plan).
var (
	ck1 = map[string]any{"apiVersion": "kudo.dev/v1beta1", "kind": "OperatorVersion",
		"metadata": map[string]any{"name": "ck-1.0", "namespace": ns},
		"spec": map[string]any{"version": "1.0", "plans": map[string]any{"deploy": map[string]any{}, "backup": map[string]any{}},
			"parameters": []any{
				map[string]any{"name": "NODE_COUNT", "default": 3},
				map[string]any{"name": "CLUSTER_NAME", "default": "c1", "immutable": true, "required": true},
				map[string]any{"name": "BACKUP_ENABLED", "default": false, "trigger": "backup"},
				map[string]any{"name": "STORAGE", "default": json.Number("9007199254740993")},
			}}}
	ck2 = map[string]any{"apiVersion": "kudo.dev/v1beta2", "kind": "OperatorVersion",
		"metadata": map[string]any{"name": "ck-2.0", "namespace": ns},
		"spec": map[string]any{"version": "2.0",
			"plans": map[string]any{"deploy": map[string]any{}, "update": map[string]any{}, "upgrade": map[string]any{}, "backup": map[string]any{}},
			"parameters": map[string]any{"type": "object", "properties": map[string]any{
				"nodeCount":   map[string]any{"type": "integer", "minimum": 1, "maximum": 10, "default": 3, "oldName": "NODE_COUNT"},
				"clusterName": map[string]any{"type": "string", "default": "c1", "immutable": true, "oldName": "CLUSTER_NAME"},
				"storage":     map[string]any{"type": "integer", "default": json.Number("9007199254740993"), "oldName": "STORAGE"},
				"backup": map[string]any{"type": "object", "trigger": "backup", "properties": map[string]any{
					"enabled":  map[string]any{"type": "boolean", "default": false, "oldName": "BACKUP_ENABLED"},
					"schedule": map[string]any{"type": "string"},
				}},
			}}}}
)

func (c *cluster) get(version, resource, name string) map[string]any {
	c.t.Helper()
	r := c.api.call(c.t, http.MethodGet, path(version, resource, name), nil)
	require.Equal(c.t, http.StatusOK, r.code, "%s", r.body)
	return decode(c.t, r.body)
}

// ok requires a 200 (or 201) and returns the reply.
func (c *cluster) ok(r *reply) *reply {
	c.t.Helper()
	require.Contains(c.t, []int{200, 201}, r.code, "%s", r.body)
	return r
}

func (c *cluster) patch(name string, patch any) *reply {
	c.t.Helper()
	return c.api.call(c.t, http.MethodPatch, path("v1beta2", "instances", name), patch)
}

var reasonPattern = regexp.MustCompile(`^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`)

// status waits until the Instance's status describes its generation with
// the plan and ParametersValid status, and returns the Instance.
func (c *cluster) status(name, plan, valid string) map[string]any {
	c.t.Helper()
	var in map[string]any
	c.eventually(time.Minute, func() error {
		in = c.get("v1beta2", "instances", name)
		gen := dig(in, "metadata", "generation")
		if got := dig(in, "status", "observedGeneration"); fmt.Sprint(got) != fmt.Sprint(gen) {
			return fmt.Errorf("%s: status.observedGeneration %v, generation %v", name, got, gen)
		}
		if got := dig(in, "status", "plan"); got != plan {
			return fmt.Errorf("%s: status.plan %v, want %s", name, got, plan)
		}
		cond := condition(in)
		if cond == nil || cond["status"] != valid {
			return fmt.Errorf("%s: ParametersValid %v, want %s", name, cond, valid)
		}
		if fmt.Sprint(cond["observedGeneration"]) != fmt.Sprint(gen) {
			return fmt.Errorf("%s: ParametersValid of generation %v, want %v", name, cond["observedGeneration"], gen)
		}
		return nil
	})
	reason, _ := condition(in)["reason"].(string)
	assert.Regexp(c.t, reasonPattern, reason)
	return in
}

func condition(in map[string]any) map[string]any {
	cs, _ := dig(in, "status", "conditions").([]any)
	for _, x := range cs {
		if m, _ := x.(map[string]any); m["type"] == "ParametersValid" {
			return m
		}
	}
	return nil
}

// denied requires a 422 Invalid whose causes name exactly fields, each
// also in the message, and no JSON pointer.
func (c *cluster) denied(r *reply, fields ...string) string {
	c.t.Helper()
	require.Equal(c.t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
	st := decode(c.t, r.body)
	assert.Equal(c.t, "Invalid", st["reason"])
	msg, _ := st["message"].(string)
	var got []string
	causes, _ := dig(st, "details", "causes").([]any)
	for _, x := range causes {
		f, _ := dig(x, "field").(string)
		got = append(got, f)
		assert.Contains(c.t, msg, f+": ", "the message names %s", f)
	}
	sort.Strings(got)
	sort.Strings(fields)
	assert.Equal(c.t, fields, got, "causes of %s", msg)
	assert.NotContains(c.t, msg, "/spec/parameters")
	return msg
}

// number is the exact text of a number in a raw object.
func number(t *testing.T, v any) string {
	t.Helper()
	n, ok := v.(json.Number)
	require.True(t, ok, "%v (%T) is a number", v, v)
	return string(n)
}

// TestOperatorContract runs the operator as issue 20's contract says and
// checks every promise of it and of the operator's README.
func TestOperatorContract(t *testing.T) {
	c := newCluster(t)
	root := t

	c.api.mustCreate(t, path("v1beta1", "operatorversions", ""), ck1)
	c.api.mustCreate(t, path("v1beta2", "operatorversions", ""), ck2)
	r := c.api.call(t, http.MethodGet, path("v1beta2", "operatorversions", "ck-1.0"), nil)
	require.Contains(t, string(r.body), `"default":9007199254740993`, "a v1beta1 default beyond float64 reads exactly as a schema")

	t.Run("create: defaults, exact numbers, plan deploy", func(t *testing.T) {
		c.t = t
		r := c.api.mustCreate(t, path("v1beta2", "instances", ""), inst("a", "ck-2.0", map[string]any{"nodeCount": 5, "storage": json.Number("9007199254740995")}))
		assert.Empty(t, r.warnings)
		in := c.status("a", "deploy", "True")
		assert.Equal(t, "Valid", condition(in)["reason"])
		p := dig(in, "spec", "parameters").(map[string]any)
		assert.Equal(t, "9007199254740995", number(t, p["storage"]))
		assert.Equal(t, "c1", p["clusterName"])
		assert.Equal(t, map[string]any{"enabled": false}, p["backup"])
		assert.Equal(t, "deploy", dig(in, "spec", "planExecution", "planName"))

		c.api.mustCreate(t, path("v1beta2", "instances", ""), inst("b", "ck-2.0", map[string]any{}))
		in = c.status("b", "deploy", "True")
		assert.Equal(t, "9007199254740993", number(t, dig(in, "spec", "parameters", "storage")), "a default beyond float64")
	})

	t.Run("warnings reach the client", func(t *testing.T) {
		c.t = t
		r := c.api.mustCreate(t, path("v1beta2", "instances", ""), inst("typo", "ck-2.0", map[string]any{"nodeCont": 4}))
		require.Len(t, r.warnings, 1, "%v", r.warnings)
		assert.Contains(t, r.warnings[0], "spec.parameters.nodeCont")
		assert.Contains(t, r.warnings[0], `"nodeCount"`, "the closest declared name")
		c.status("typo", "deploy", "True")
	})

	t.Run("denials carry field paths", func(t *testing.T) {
		c.t = t
		c.denied(c.patch("a", setParams(map[string]any{"nodeCount": 0})), "spec.parameters.nodeCount")
		c.denied(c.patch("a", setParams(map[string]any{"nodeCount": "many"})), "spec.parameters.nodeCount")
		c.denied(c.api.call(t, http.MethodPost, path("v1beta2", "instances", ""), inst("bad", "ck-2.0", map[string]any{"nodeCount": 11})), "spec.parameters.nodeCount")
		msg := c.denied(c.patch("a", setParams(map[string]any{"clusterName": "other"})), "spec.parameters.clusterName")
		assert.Contains(t, msg, "immutable")
		c.denied(c.patch("a", setParams(map[string]any{"nodeCount": 6, "backup": map[string]any{"enabled": true}})),
			"spec.parameters.nodeCount", "spec.parameters.backup.enabled")
		c.denied(c.patch("a", map[string]any{"spec": map[string]any{"planExecution": map[string]any{"planName": "backup"}}}), "spec.planExecution")
		c.denied(c.patch("a", ovName("ck-9.0")), "spec.operatorVersion.name")
		c.status("a", "deploy", "True")
	})

	t.Run("updates: the trigger's plan, update where declared, a removed parameter's trigger", func(t *testing.T) {
		c.t = t
		c.ok(c.patch("a", setParams(map[string]any{"backup": map[string]any{"schedule": "daily"}})))
		c.status("a", "backup", "True")
		c.ok(c.patch("a", setParams(map[string]any{"nodeCount": 6})))
		c.status("a", "update", "True")
		c.ok(c.patch("a", jsonPatch{{"op": "remove", "path": "/spec/parameters/backup/schedule"}}))
		in := c.status("a", "backup", "True")
		assert.Nil(t, dig(in, "spec", "parameters", "backup", "schedule"))
	})

	t.Run("a change of nothing keeps the plan", func(t *testing.T) {
		c.t = t
		before := c.status("a", "backup", "True")
		gen := dig(before, "metadata", "generation")
		c.ok(c.patch("a", map[string]any{"metadata": map[string]any{"labels": map[string]any{"team": "x"}}}))
		c.ok(c.patch("a", setParams(map[string]any{"nodeCount": 6})))
		c.ok(c.patch("a", jsonPatch{{"op": "remove", "path": "/spec/parameters/clusterName"}})) // its default comes back
		in := c.status("a", "backup", "True")
		assert.Equal(t, gen, dig(in, "metadata", "generation"))
		// kubectl replace -f of a manifest: the whole object, without
		// spec.planExecution, parameters as they are.
		obj := c.get("v1beta2", "instances", "a")
		delete(obj["spec"].(map[string]any), "planExecution")
		delete(obj, "status")
		c.ok(c.api.call(t, http.MethodPut, path("v1beta2", "instances", "a"), obj))
		in = c.status("a", "backup", "True")
		assert.Equal(t, gen, dig(in, "metadata", "generation"))
	})

	t.Run("writes and reads through v1beta1", func(t *testing.T) {
		c.t = t
		old := c.get("v1beta1", "instances", "a")
		p := dig(old, "spec", "parameters").(map[string]any)
		assert.Equal(t, "9007199254740995", p["storage"])
		assert.Equal(t, "6", p["nodeCount"])
		assert.Equal(t, "c1", p["clusterName"])
		for k, v := range p {
			assert.IsType(t, "", v, "v1beta1 parameter %s", k)
		}
		// An old client's read-modify-write of nothing changes nothing.
		r := c.ok(c.api.call(t, http.MethodPut, path("v1beta1", "instances", "a"), old))
		assert.Equal(t, dig(old, "metadata", "generation"), dig(decode(t, r.body), "metadata", "generation"))
		// A change through v1beta1 runs its plan.
		old = c.get("v1beta1", "instances", "a")
		dig(old, "spec", "parameters").(map[string]any)["nodeCount"] = "7"
		c.ok(c.api.call(t, http.MethodPut, path("v1beta1", "instances", "a"), old))
		in := c.status("a", "update", "True")
		assert.Equal(t, "7", number(t, dig(in, "spec", "parameters", "nodeCount")))
		assert.Equal(t, "9007199254740995", number(t, dig(in, "spec", "parameters", "storage")))
		c.ok(c.api.call(t, http.MethodPatch, path("v1beta1", "instances", "a"), setParams(map[string]any{"backup": `{"enabled":true}`})))
		in = c.status("a", "backup", "True")
		assert.Equal(t, true, dig(in, "spec", "parameters", "backup", "enabled"))
		c.denied(c.api.call(t, http.MethodPatch, path("v1beta1", "instances", "a"), setParams(map[string]any{"nodeCount": "0"})), "spec.parameters.nodeCount")
		// Created through v1beta1: typed by the schema.
		c.api.mustCreate(t, path("v1beta1", "instances", ""), inst("old", "ck-1.0", map[string]string{"NODE_COUNT": "4", "CLUSTER_NAME": "prod"}))
		in = c.status("old", "deploy", "True")
		assert.Equal(t, "4", number(t, dig(in, "spec", "parameters", "NODE_COUNT")))
		assert.Equal(t, "9007199254740993", number(t, dig(in, "spec", "parameters", "STORAGE")))
	})

	t.Run("an upgrade right after the create", func(t *testing.T) {
		c.t = t
		c.api.mustCreate(t, path("v1beta1", "instances", ""), inst("up", "ck-1.0", map[string]string{"NODE_COUNT": "4", "CLUSTER_NAME": "prod", "BACKUP_ENABLED": "true", "EXTRA": "x"}))
		r := c.ok(c.patch("up", ovName("ck-2.0")))
		require.Len(t, r.warnings, 1, "%v", r.warnings)
		assert.Contains(t, r.warnings[0], "spec.parameters.EXTRA")
		assert.Contains(t, r.warnings[0], "dropped")
		in := c.status("up", "upgrade", "True")
		p := dig(in, "spec", "parameters").(map[string]any)
		assert.Equal(t, "4", number(t, p["nodeCount"]))
		assert.Equal(t, "prod", p["clusterName"])
		assert.Equal(t, "9007199254740993", number(t, p["storage"]))
		assert.Equal(t, map[string]any{"enabled": true}, p["backup"])
		assert.Len(t, p, 4)
		// The upgraded Instance through v1beta1, and back, unchanged.
		old := c.get("v1beta1", "instances", "up")
		r = c.ok(c.api.call(t, http.MethodPut, path("v1beta1", "instances", "up"), old))
		assert.Equal(t, dig(in, "metadata", "generation"), dig(decode(t, r.body), "metadata", "generation"))
	})

	t.Run("an edited OperatorVersion re-checks its Instances", func(t *testing.T) {
		c.t = t
		ov := path("v1beta2", "operatorversions", "ck-2.0")
		c.ok(c.api.call(t, http.MethodPatch, ov, map[string]any{"spec": map[string]any{"parameters": map[string]any{"properties": map[string]any{"nodeCount": map[string]any{"maximum": 5}}}}}))
		in := c.status("a", "backup", "False") // nodeCount 7
		cond := condition(in)
		assert.Equal(t, "Invalid", cond["reason"])
		assert.Contains(t, cond["message"], "spec.parameters.nodeCount")
		c.status("up", "upgrade", "True") // nodeCount 4
		// A new required parameter without a default.
		c.ok(c.api.call(t, http.MethodPatch, ov, map[string]any{"spec": map[string]any{"parameters": map[string]any{"required": []any{"region"}, "properties": map[string]any{"region": map[string]any{"type": "string"}}}}}))
		in = c.status("up", "upgrade", "False")
		assert.Equal(t, "Required", condition(in)["reason"])
		assert.Contains(t, condition(in)["message"], "region")
		c.ok(c.api.call(t, http.MethodPatch, ov, map[string]any{"spec": map[string]any{"parameters": map[string]any{"required": nil, "properties": map[string]any{"region": nil, "nodeCount": map[string]any{"maximum": 10}}}}}))
		c.status("a", "backup", "True")
		c.status("up", "upgrade", "True")
	})

	t.Run("an OperatorVersion deleted", func(t *testing.T) {
		c.t = t
		tmp := map[string]any{"apiVersion": "kudo.dev/v1beta2", "kind": "OperatorVersion", "metadata": map[string]any{"name": "tmp-1.0", "namespace": ns},
			"spec": map[string]any{"plans": map[string]any{"deploy": map[string]any{}}, "parameters": map[string]any{"type": "object", "properties": map[string]any{"s": map[string]any{"type": "string"}}}}}
		c.api.mustCreate(t, path("v1beta2", "operatorversions", ""), tmp)
		c.api.mustCreate(t, path("v1beta2", "instances", ""), inst("orphan", "tmp-1.0", map[string]any{"s": "3"}))
		c.status("orphan", "deploy", "True")
		c.ok(c.api.call(t, http.MethodDelete, path("v1beta2", "operatorversions", "tmp-1.0"), nil))
		in := c.status("orphan", "deploy", "False")
		assert.Equal(t, "OperatorVersionNotFound", condition(in)["reason"])
		assert.Contains(t, condition(in)["message"], "tmp-1.0")
		// Old clients still list the namespace, and read the orphan back
		// to what it is.
		r := c.ok(c.api.call(t, http.MethodGet, path("v1beta1", "instances", ""), nil))
		assert.Contains(t, string(r.body), `"name":"orphan"`)
		old := c.get("v1beta1", "instances", "orphan")
		c.ok(c.api.call(t, http.MethodPut, path("v1beta1", "instances", "orphan"), old))
		assert.Equal(t, "3", dig(c.get("v1beta2", "instances", "orphan"), "spec", "parameters", "s"))
		// Its parameters cannot change, labels can; new Instances of it
		// are refused, through either version.
		c.denied(c.patch("orphan", setParams(map[string]any{"s": "4"})), "spec.operatorVersion.name")
		c.ok(c.patch("orphan", map[string]any{"metadata": map[string]any{"labels": map[string]any{"x": "y"}}}))
		c.denied(c.api.call(t, http.MethodPost, path("v1beta1", "instances", ""), inst("orphan2", "tmp-1.0", map[string]string{"s": "x"})), "spec.operatorVersion.name")
		c.denied(c.api.call(t, http.MethodPost, path("v1beta2", "instances", ""), inst("orphan2", "tmp-1.0", map[string]any{"s": "x"})), "spec.operatorVersion.name")
		// It comes back: so does the condition.
		c.api.mustCreate(t, path("v1beta2", "operatorversions", ""), tmp)
		c.status("orphan", "deploy", "True")
	})

	t.Run("many Instances, a restart, SIGTERM while reconciling", func(t *testing.T) {
		c.t = t
		const n = 60
		for i := 0; i < n; i++ {
			c.api.mustCreate(t, path("v1beta2", "instances", ""), inst("m"+strconv.Itoa(i), "ck-2.0", map[string]any{"nodeCount": i%10 + 1}))
		}
		for i := 0; i < n; i++ {
			c.status("m"+strconv.Itoa(i), "deploy", "True")
		}
		// A restart writes nothing: every status was already right.
		before := c.snapshot()
		c.stopOperator(c.op)
		c.op = c.startOperator(c.hookPort)
		time.Sleep(3 * time.Second)
		assert.Equal(t, before, c.snapshot(), "resourceVersions after a restart")

		ov := path("v1beta2", "operatorversions", "ck-2.0")
		c.ok(c.api.call(t, http.MethodPatch, ov, map[string]any{"spec": map[string]any{"parameters": map[string]any{"properties": map[string]any{"nodeCount": map[string]any{"maximum": 5}}}}}))
		time.Sleep(50 * time.Millisecond)
		c.stopOperator(c.op) // in the middle of re-checking n Instances
		c.op = c.startOperator(c.hookPort)
		for i := 0; i < n; i++ {
			valid := "True"
			if i%10+1 > 5 {
				valid = "False"
			}
			c.status("m"+strconv.Itoa(i), "deploy", valid)
		}
		c.ok(c.api.call(t, http.MethodPatch, ov, map[string]any{"spec": map[string]any{"parameters": map[string]any{"properties": map[string]any{"nodeCount": map[string]any{"maximum": 10}}}}}))
		for i := 0; i < n; i++ {
			c.status("m"+strconv.Itoa(i), "deploy", "True")
		}
	})

	t.Run("leader election: a second replica waits, serves webhooks, stops cleanly", func(t *testing.T) {
		c.t = t
		r := c.api.call(t, http.MethodGet, "/apis/coordination.k8s.io/v1/namespaces/default/leases", nil)
		require.Equal(t, http.StatusOK, r.code, "%s", r.body)
		leases := decode(t, r.body)["items"].([]any)
		require.Len(t, leases, 1, "the lease is in namespace default out of cluster")
		holder := dig(leases[0], "spec", "holderIdentity")
		assert.NotEmpty(t, holder)
		second := c.startOperator(freePort(t))
		time.Sleep(2 * time.Second)
		r = c.api.call(t, http.MethodGet, "/apis/coordination.k8s.io/v1/namespaces/default/leases", nil)
		assert.Equal(t, holder, dig(decode(t, r.body)["items"].([]any)[0], "spec", "holderIdentity"), "the first replica keeps the lease")
		assert.False(t, strings.Contains(readLog(second), "Successfully acquired lease"))
		c.stopOperator(second)
	})

	// Takeover times with the lease flags (figures, not assertions): a
	// leader and a standby with a 4 s lease, the leader killed (SIGKILL:
	// no release), the OperatorVersion edited at once; measured until the
	// lease names the standby and until the standby has re-checked m9.
	t.Run("takeover with the lease flags: leader killed", func(t *testing.T) {
		c.t = t
		flags := []string{"--leader-elect-lease-duration=4s", "--leader-elect-renew-deadline=3s", "--leader-elect-retry-period=1s"}
		lease := "/apis/coordination.k8s.io/v1/namespaces/" + leaseNamespace + "/leases/paramkit-operator.kudo.dev"
		holder := func() string {
			r := c.api.call(t, http.MethodGet, lease, nil)
			require.Equal(t, http.StatusOK, r.code, "%s", r.body)
			h, _ := dig(decode(t, r.body), "spec", "holderIdentity").(string)
			return h
		}
		c.stopOperator(c.op) // releases the lease
		leader := c.startOperator(c.hookPort, flags...)
		c.eventually(time.Minute, func() error {
			if holder() == "" {
				return fmt.Errorf("no holder yet")
			}
			return nil
		})
		ov := path("v1beta2", "operatorversions", "ck-2.0")
		var takeovers, resumed []time.Duration
		for i := range 3 {
			standby := c.startOperator(freePort(t), flags...)
			old := holder()
			require.NotEmpty(t, old)
			require.NoError(t, leader.p.cmd.Process.Kill())
			<-leader.p.done
			killed := time.Now()
			maximum, want := any(5), "False" // m9 has nodeCount 10
			if i%2 == 1 {
				maximum, want = 10, "True"
			}
			c.ok(c.api.call(t, http.MethodPatch, ov, map[string]any{"spec": map[string]any{"parameters": map[string]any{"properties": map[string]any{"nodeCount": map[string]any{"maximum": maximum}}}}}))
			var took time.Duration
			deadline := killed.Add(time.Minute)
			for took == 0 {
				if h := holder(); h != old && h != "" {
					took = time.Since(killed)
				}
				require.True(t, time.Now().Before(deadline), "no takeover in a minute\n%s", standby.p.tail())
				time.Sleep(20 * time.Millisecond)
			}
			c.status("m9", "deploy", want)
			takeovers, resumed = append(takeovers, took), append(resumed, time.Since(killed))
			leader = standby
		}
		t.Logf("takeover after the leader's SIGKILL with --leader-elect-lease-duration=4s --leader-elect-renew-deadline=3s --leader-elect-retry-period=1s: lease taken in %v; the OperatorVersion edit applied by the new leader %v after the kill",
			takeovers, resumed)
		c.stopOperator(leader)
		c.op = c.startOperator(c.hookPort)
	})
	c.t = root
}

// snapshot is every Instance's name and resourceVersion.
func (c *cluster) snapshot() map[string]string {
	c.t.Helper()
	r := c.api.call(c.t, http.MethodGet, path("v1beta2", "instances", ""), nil)
	require.Equal(c.t, http.StatusOK, r.code, "%s", r.body)
	out := map[string]string{}
	for _, x := range decode(c.t, r.body)["items"].([]any) {
		out[dig(x, "metadata", "name").(string)] = dig(x, "metadata", "resourceVersion").(string)
	}
	return out
}

// readLog is the operator's whole log so far.
func readLog(o *operator) string {
	b, _ := os.ReadFile(o.p.log)
	return string(b)
}
