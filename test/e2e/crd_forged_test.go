//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keptAnnotation is kube.ConversionAnnotation (this module does not
// import the library's kube package for one constant).
const keptAnnotation = "conversion.paramkit.dev/kept"

// forgery is an edit of the conversion annotation of a v1 Cache: the
// entries of its layer (the genuine ones are ttlSeconds: 600, which v1
// cannot hold), and what the edit tries to store in v2.
type forgery struct {
	name    string
	entries []any
}

// forgeries are the attacks on the crd-operator's Cache,
// stored {engine: redis, memoryLimitMB: 64, ttlSeconds: 600,
// maxEntries: 1000}, through v1.
var forgeries = []forgery{
	{"the immutable engine changed", []any{
		map[string]any{"pointer": "/ttlSeconds", "value": 600},
		map[string]any{"pointer": "/engine", "value": "memcached", "was": "redis"}}},
	{"memoryLimitMB beyond v2's maximum", []any{
		map[string]any{"pointer": "/ttlSeconds", "value": 600},
		map[string]any{"pointer": "/memoryLimitMB", "value": 70000, "was": 64}}},
	{"the v2-only ttlSeconds out of range", []any{
		map[string]any{"pointer": "/ttlSeconds", "value": -5}}},
	{"the v2-only ttlSeconds of the wrong type", []any{
		map[string]any{"pointer": "/ttlSeconds", "value": "yes"}}},
}

// forgedWrite is one way a client writes the annotation of a v1 Cache;
// it reports whether the apiserver accepted the write, and what it said.
type forgedWrite struct {
	name  string
	write func(o *opCluster, name, annotation string, view map[string]any) (bool, string)
}

func httpWrite(r *response) (bool, string) {
	return r.code >= 200 && r.code < 300, fmt.Sprintf("%d %s", r.code, r.body)
}

// forgedWrites are the ways: kubectl annotate, its merge patch, a JSON
// patch, a PUT of the whole object, a server-side apply.
func forgedWrites(kubectlBin string) []forgedWrite {
	ways := []forgedWrite{
		{"merge patch (kubectl annotate's)", func(o *opCluster, name, ann string, _ map[string]any) (bool, string) {
			return httpWrite(o.call(http.MethodPatch, cachePath("v1", name), map[string]any{"metadata": map[string]any{"annotations": map[string]any{keptAnnotation: ann}}}))
		}},
		{"JSON patch", func(o *opCluster, name, ann string, _ map[string]any) (bool, string) {
			body, err := json.Marshal([]any{map[string]any{"op": "replace", "path": "/metadata/annotations/" + strings.ReplaceAll(keptAnnotation, "/", "~1"), "value": ann}})
			require.NoError(o.t, err)
			r, err := o.api.do(o.t.Context(), http.MethodPatch, cachePath("v1", name), "application/json-patch+json", body)
			require.NoError(o.t, err)
			return httpWrite(r)
		}},
		{"PUT of the whole object", func(o *opCluster, name, ann string, _ map[string]any) (bool, string) {
			// A read and a put, again on a conflict with the operator's
			// status write, as kubectl replace does.
			var r *response
			for range 20 {
				view := o.get2("v1", name)
				view["metadata"].(map[string]any)["annotations"].(map[string]any)[keptAnnotation] = ann
				if r = o.call(http.MethodPut, cachePath("v1", name), view); r.code != http.StatusConflict {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			return httpWrite(r)
		}},
		{"server-side apply", func(o *opCluster, name, ann string, _ map[string]any) (bool, string) {
			body, err := json.Marshal(map[string]any{"apiVersion": "example.paramkit.dev/v1", "kind": "Cache",
				"metadata": map[string]any{"name": name, "namespace": crdNamespace, "annotations": map[string]any{keptAnnotation: ann}}})
			require.NoError(o.t, err)
			r, err := o.api.do(o.t.Context(), http.MethodPatch, cachePath("v1", name)+"?fieldManager=mallory&force=true", "application/apply-patch+yaml", body)
			require.NoError(o.t, err)
			return httpWrite(r)
		}},
	}
	if kubectlBin != "" {
		ways = append([]forgedWrite{{"kubectl annotate", func(o *opCluster, name, ann string, _ map[string]any) (bool, string) {
			cmd := exec.Command(kubectlBin, "--kubeconfig", o.kubeconfig, "annotate", "--overwrite", "-n", crdNamespace,
				"caches.v1.example.paramkit.dev", name, keptAnnotation+"="+ann)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			return err == nil, out.String()
		}}}, ways...)
	}
	return ways
}

// storedCache is the stored parameters of a victim as created.
var storedCache = `{"engine":"redis","memoryLimitMB":64,"ttlSeconds":600,"maxEntries":1000}`

// victim creates a Cache through v2 and returns its v1 view, whose
// annotation keeps ttlSeconds.
func (o *opCluster) victim(name string) map[string]any {
	o.t.Helper()
	o.mustCreate(cachePath("v2", ""), rawCache(name, "v2", storedCache))
	view := o.get2("v1", name)
	ann, _ := view["metadata"].(map[string]any)["annotations"].(map[string]any)
	require.Contains(o.t, ann, keptAnnotation, "the v1 view keeps ttlSeconds in the annotation")
	return view
}

// forge returns the view's annotation with its layer's entries replaced.
func forge(t *testing.T, view map[string]any, entries []any) string {
	t.Helper()
	ann := view["metadata"].(map[string]any)["annotations"].(map[string]any)[keptAnnotation].(string)
	var kept map[string][]map[string]any
	require.NoError(t, json.Unmarshal([]byte(ann), &kept))
	require.NotEmpty(t, kept["/spec/parameters"], "%s", ann)
	kept["/spec/parameters"][0]["patch"] = entries
	b, err := json.Marshal(kept)
	require.NoError(t, err)
	return string(b)
}

// storedParams is a Cache's parameters as v2 stores them.
func (o *opCluster) storedParams(name string) map[string]any {
	o.t.Helper()
	return at(o.t, o.get2("v2", name), "spec.parameters").(map[string]any)
}

// TestCRDOperatorForgedAnnotation is issue 35's attack on a real
// apiserver with the crd-operator serving admission and conversion: the
// conversion annotation of a v1 Cache edited every way a client writes
// one (kubectl annotate, a merge patch, a JSON patch, a PUT of the whole
// object, a server-side apply) to store through v1 what v2 refuses (the
// immutable engine changed, memoryLimitMB beyond v2's maximum, the
// v2-only ttlSeconds out of range or of the wrong type), and v1's laxer
// schema (maxMemoryMB has no maximum in v1; an integer beyond int64).
// Each is refused and the Cache read back through v2 is unchanged.
// Then with the admission webhooks deleted (conversion still served):
// no forged annotation stores a changed engine or memoryLimitMB, nor a
// ttlSeconds v2 refuses, and an immutable change through either
// version is refused by the CRD itself. Then with every webhook down
// (the operator stopped): the forged annotation and an immutable change
// store nothing.
func TestCRDOperatorForgedAnnotation(t *testing.T) {
	o := startCRDOperatorCluster(t)
	kc := ""
	if p, err := exec.LookPath("kubectl"); err == nil {
		kc = p
	} else {
		t.Log("kubectl not found: its annotate is covered by its merge patch only")
	}
	want := plain(t, storedCache)
	n := 0
	next := func() string { n++; return fmt.Sprintf("victim-%d", n) }

	t.Run("with the webhooks, every forged annotation is refused", func(t *testing.T) {
		for _, way := range forgedWrites(kc) {
			for _, f := range forgeries {
				t.Run(way.name+"/"+f.name, func(t *testing.T) {
					name := next()
					view := o.victim(name)
					ok, out := way.write(o, name, forge(t, view, f.entries), view)
					assert.False(t, ok, "the forged annotation was accepted: %s", out)
					assert.Contains(t, out, keptAnnotation, "the denial names the annotation")
					assert.Equal(t, want, any(o.storedParams(name)), "the stored Cache changed")
				})
			}
		}
	})

	t.Run("with the webhooks, v1's laxer schema stores nothing v2 refuses", func(t *testing.T) {
		r := o.call(http.MethodPost, cachePath("v1", ""), rawCache("lax", "v1", `{"maxMemoryMB":70000}`))
		require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
		assert.Contains(t, string(r.body), `"field":"spec.parameters.maxMemoryMB"`, "named in v1's names")
		assert.Contains(t, string(r.body), "65536")
		assert.Equal(t, http.StatusNotFound, o.call(http.MethodGet, cachePath("v2", "lax"), nil).code)
		name := next()
		o.victim(name)
		for _, p := range []string{`{"maxMemoryMB":70000}`, `{"maxEntries":18446744073709551617}`, `{"maxEntries":9223372036854775808}`} {
			r := o.call(http.MethodPatch, cachePath("v1", name), json.RawMessage(`{"spec":{"parameters":`+p+`}}`))
			assert.Equal(t, http.StatusUnprocessableEntity, r.code, "%s: %s", p, r.body)
			t.Logf("v1 %s: %s", p, r.body)
		}
		assert.Equal(t, want, any(o.storedParams(name)), "the stored Cache changed")
	})

	t.Run("the genuine annotation still round-trips", func(t *testing.T) {
		name := next()
		o.victim(name)
		o.eventually(30*time.Second, func() error {
			view := o.get2("v1", name)
			view["metadata"].(map[string]any)["labels"] = map[string]any{"team": "a"}
			view["spec"].(map[string]any)["parameters"].(map[string]any)["maxMemoryMB"] = json.Number("128")
			r := o.call(http.MethodPut, cachePath("v1", name), view)
			if r.code == http.StatusConflict {
				return fmt.Errorf("conflict: %s", r.body)
			}
			require.Equal(t, http.StatusOK, r.code, "%s", r.body)
			return nil
		})
		assert.Equal(t, plain(t, `{"engine":"redis","memoryLimitMB":128,"ttlSeconds":600,"maxEntries":1000}`), any(o.storedParams(name)))
	})

	// Admission down, conversion up.
	for _, p := range []string{"/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/crd-operator-mutating",
		"/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/crd-operator-validating"} {
		r := o.call(http.MethodDelete, p, nil)
		require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	}
	o.eventually(time.Minute, func() error {
		r := o.call(http.MethodPost, cachePath("v1", "")+"?dryRun=All", rawCache("probe", "v1", `{"maxMemoryMB":1}`))
		if r.code != http.StatusUnprocessableEntity || strings.Contains(string(r.body), "admission webhook") {
			return fmt.Errorf("still the webhook's answer: %d %s", r.code, r.body)
		}
		return nil
	})

	t.Run("without admission webhooks, no forged annotation stores what v2 refuses", func(t *testing.T) {
		for _, way := range forgedWrites(kc) {
			for _, f := range forgeries {
				t.Run(way.name+"/"+f.name, func(t *testing.T) {
					name := next()
					view := o.victim(name)
					ok, out := way.write(o, name, forge(t, view, f.entries), view)
					got := o.storedParams(name)
					t.Logf("accepted %v; stored %v", ok, got)
					assert.Equal(t, "redis", got["engine"], "%s", out)
					assert.Equal(t, json.Number("64"), got["memoryLimitMB"], "%s", out)
					assert.Equal(t, json.Number("1000"), got["maxEntries"], "%s", out)
					ttl, isNumber := got["ttlSeconds"].(json.Number)
					require.True(t, isNumber, "ttlSeconds %v: %s", got["ttlSeconds"], out)
					assert.False(t, strings.HasPrefix(string(ttl), "-"), "ttlSeconds %s stored", ttl)
				})
			}
		}
	})

	t.Run("without admission webhooks, the CRD refuses an immutable change", func(t *testing.T) {
		name := next()
		o.victim(name)
		for _, v := range []string{"v1", "v2"} {
			r := o.call(http.MethodPatch, cachePath(v, name), json.RawMessage(`{"spec":{"parameters":{"engine":"memcached"}}}`))
			assert.Equal(t, http.StatusUnprocessableEntity, r.code, "%s: %s", v, r.body)
			assert.Contains(t, string(r.body), "engine is immutable")
		}
		assert.Equal(t, want, any(o.storedParams(name)))
		// A v1 value only v2's schema refuses (v2's maximum): the
		// apiserver judges a v1 write by v1's schema, which paramctl crd
		// gave v2's bound (the laxer older schema is not laxer in the CRD).
		r := o.call(http.MethodPatch, cachePath("v1", name), json.RawMessage(`{"spec":{"parameters":{"maxMemoryMB":70000}}}`))
		assert.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
		assert.Contains(t, string(r.body), "spec.parameters.maxMemoryMB")
		assert.Equal(t, want, any(o.storedParams(name)))
	})

	// Every webhook down: the operator (conversion too) stopped.
	name := next()
	view := o.victim(name)
	t.Run("SIGTERM exits 0", func(t *testing.T) { o.stopOperator() })
	t.Run("with every webhook down, nothing forged or immutable is stored", func(t *testing.T) {
		for _, f := range forgeries {
			ok, out := forgedWrites("")[0].write(o, name, forge(t, view, f.entries), view)
			assert.False(t, ok, "%s: a write through v1 needs the conversion webhook: %s", f.name, out)
		}
		r := o.call(http.MethodPatch, cachePath("v2", name), json.RawMessage(`{"spec":{"parameters":{"engine":"memcached"}}}`))
		assert.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
		assert.Contains(t, string(r.body), "engine is immutable")
		r = o.call(http.MethodPatch, cachePath("v2", name), json.RawMessage(`{"metadata":{"annotations":{"`+keptAnnotation+`":"{\"/spec/parameters\":[]}"}},"spec":{"parameters":{"memoryLimitMB":70000}}}`))
		assert.Equal(t, http.StatusUnprocessableEntity, r.code, "v2's own maximum: %s", r.body)
		assert.Equal(t, want, any(o.storedParams(name)))
	})
}
