//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// crdOperatorDir is examples/crd-operator, relative to test/e2e.
var crdOperatorDir = filepath.Join("..", "..", "examples", "crd-operator")

const crdNamespace = "caches"

// startCRDOperatorCluster is startOperatorCluster for the plain-CRD
// operator: an apiserver of its own, its CRD and webhook configurations
// pointed at it on loopback (admission behind a client certificate, as
// the KUDO operator's), and the operator.
func startCRDOperatorCluster(t testing.TB) *opCluster {
	need(t)
	bins, reason := findBinaries()
	if reason != "" {
		t.Skip(reason)
	}
	dir, err := os.MkdirTemp("", "paramkit-e2e-crd-operator-")
	require.NoError(t, err)
	o := &opCluster{t: t, dir: dir}
	t.Cleanup(func() {
		o.op.stop()
		for i := len(o.k.procs) - 1; i >= 0; i-- {
			o.k.procs[i].stop()
		}
		if t.Failed() || os.Getenv(envKeep) == "1" {
			fmt.Fprintf(os.Stderr, "e2e: crd-operator run kept in %s\n", dir)
			return
		}
		_ = os.RemoveAll(dir)
	})
	ca, err := newAuthority("paramkit-e2e-crd-operator-ca")
	require.NoError(t, err)
	o.caPEM = ca.pem
	apiCert, apiKey, err := ca.issue(dir, "kube-apiserver", 2)
	require.NoError(t, err)
	opCert, opKey, err := ca.issue(dir, "operator", 3)
	require.NoError(t, err)
	o.certDir = filepath.Join(dir, "operator-certs")
	require.NoError(t, os.MkdirAll(o.certDir, 0o700))
	require.NoError(t, os.Rename(opCert, filepath.Join(o.certDir, "tls.crt")))
	require.NoError(t, os.Rename(opKey, filepath.Join(o.certDir, "tls.key")))
	o.hookPort, err = freePort()
	require.NoError(t, err)
	clients, err := newAuthority("paramkit-e2e-crd-operator-clients")
	require.NoError(t, err)
	o.clientCA = filepath.Join(dir, "client-ca.crt")
	require.NoError(t, os.WriteFile(o.clientCA, clients.pem, 0o600))
	o.clientCert, o.clientKey, err = clients.issueClient(dir, "apiserver-client", 2)
	require.NoError(t, err)
	hookKubeconfig := filepath.Join(dir, "webhook-kubeconfig.yaml")
	require.NoError(t, os.WriteFile(hookKubeconfig, []byte(fmt.Sprintf("apiVersion: v1\nkind: Config\nusers:\n- name: %q\n  user:\n    client-certificate: %s\n    client-key: %s\n",
		fmt.Sprintf("127.0.0.1:%d", o.hookPort), o.clientCert, o.clientKey)), 0o600))
	admissionConfig := filepath.Join(dir, "admission-config.yaml")
	var ac strings.Builder
	ac.WriteString("apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n")
	for _, plugin := range []string{"ValidatingAdmissionWebhook", "MutatingAdmissionWebhook"} {
		fmt.Fprintf(&ac, "- name: %s\n  configuration:\n    apiVersion: apiserver.config.k8s.io/v1\n    kind: WebhookAdmissionConfiguration\n    kubeConfigFile: %q\n", plugin, hookKubeconfig)
	}
	require.NoError(t, os.WriteFile(admissionConfig, []byte(ac.String()), 0o600))
	o.k, err = startKube(dir, bins, ca, apiCert, apiKey, "--admission-control-config-file="+admissionConfig)
	if o.k == nil {
		o.k = &kube{}
	}
	require.NoError(t, err)
	o.api = o.k.api
	o.bin = filepath.Join(dir, "crd-operator")
	cmd := exec.Command("go", "build", "-o", o.bin, ".")
	cmd.Dir = crdOperatorDir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "building the crd-operator:\n%s", b)
	o.kubeconfig = filepath.Join(dir, "kubeconfig")
	require.NoError(t, os.WriteFile(o.kubeconfig, []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster: {server: %q, certificate-authority-data: %s}
users:
- name: e2e
  user: {token: %q}
contexts:
- name: e2e
  context: {cluster: e2e, user: e2e}
current-context: e2e
`, o.api.base, base64.StdEncoding.EncodeToString(ca.pem), o.k.token)), 0o600))
	probePort, err := freePort()
	require.NoError(t, err)
	o.probeAddr = fmt.Sprintf("127.0.0.1:%d", probePort)

	o.applyCRDOperatorManifests("crd")
	o.eventually(time.Minute, func() error {
		for _, v := range []string{"v1", "v2"} {
			if r := o.call(http.MethodGet, "/apis/example.paramkit.dev/"+v+"/caches", nil); r.code != http.StatusOK {
				return fmt.Errorf("GET caches %s: %d %s", v, r.code, r.body)
			}
		}
		return nil
	})
	o.startOperator()
	o.applyCRDOperatorManifests("webhook")
	o.mustCreate("/api/v1/namespaces", map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": crdNamespace}})
	o.eventually(time.Minute, func() error {
		// The CRD refuses maxMemoryMB 1 by itself; the webhook (which
		// the mutating phase calls before the CRD's validation) says so
		// first once the apiserver calls it.
		r := o.call(http.MethodPost, cachePath("v1", "")+"?dryRun=All", cache("probe", "v1", map[string]any{"maxMemoryMB": 1}))
		if r.code != http.StatusUnprocessableEntity || !strings.Contains(string(r.body), "admission webhook") {
			return fmt.Errorf("not denied by the webhook yet: %d %s", r.code, r.body)
		}
		return nil
	})
	return o
}

// applyCRDOperatorManifests applies config/FOLDER of the crd-operator,
// its webhooks pointed at the operator on loopback.
func (o *opCluster) applyCRDOperatorManifests(folder string) {
	t := o.t
	files, err := filepath.Glob(filepath.Join(crdOperatorDir, "config", folder, "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		if filepath.Base(f) == "kustomization.yaml" {
			continue // kustomize's, not an object
		}
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, doc := range bytes.Split(data, []byte("\n---\n")) {
			var obj map[string]any
			require.NoError(t, yaml.Unmarshal(doc, &obj), f)
			if obj == nil || obj["kind"] == "Service" {
				// The Service is the in-cluster way to the operator;
				// here the client configs name it by URL instead.
				continue
			}
			o.pointAtOperator(obj)
			body, err := json.Marshal(obj)
			require.NoError(t, err)
			r, err := o.api.do(context.Background(), http.MethodPatch, resourcePath(t, obj)+"?fieldManager=paramkit-e2e&force=true", "application/apply-patch+yaml", body)
			require.NoError(t, err)
			require.Contains(t, []int{200, 201}, r.code, "applying %s: %s", f, r.body)
		}
	}
}

func cachePath(version, name string) string {
	p := "/apis/example.paramkit.dev/" + version + "/namespaces/" + crdNamespace + "/caches"
	if name != "" {
		p += "/" + name
	}
	return p
}

func cache(name, version string, parameters any) map[string]any {
	return map[string]any{"apiVersion": "example.paramkit.dev/" + version, "kind": "Cache",
		"metadata": map[string]any{"name": name, "namespace": crdNamespace},
		"spec":     map[string]any{"parameters": parameters}}
}

// rawCache is cache with the parameters as JSON text (numbers exact).
func rawCache(name, version, parameters string) json.RawMessage {
	return json.RawMessage(`{"apiVersion":"example.paramkit.dev/` + version + `","kind":"Cache","metadata":{"name":"` + name +
		`","namespace":"` + crdNamespace + `"},"spec":{"parameters":` + parameters + `}}`)
}

// TestCRDOperator checks the issue's "done when" on a real apiserver:
// invalid v1 objects get a 422 naming the field as written, never a
// 500; a misspelled key is refused under strict field validation and
// pruned with a warning otherwise (the CRD's closed schema, webhook or
// not); a v1 read holds only v1 parameters and writing it
// back keeps v2-only values; an integer beyond int64 is refused, not
// rounded; status follows; without the webhooks the CRD's own schema
// still refuses a change of engine and an out-of-range value; SIGTERM
// exits 0.
func TestCRDOperator(t *testing.T) {
	o := startCRDOperatorCluster(t)

	t.Run("invalid v1 objects get a 422 in v1's names", func(t *testing.T) {
		for _, tt := range []struct{ params, field string }{
			{`{"maxMemoryMB":8}`, "spec.parameters.maxMemoryMB"},
			{`{"maxEntries":1.5}`, "spec.parameters.maxEntries"},
			{`{"engine":"valkey"}`, "spec.parameters.engine"},
		} {
			r := o.call(http.MethodPost, cachePath("v1", ""), rawCache("bad", "v1", tt.params))
			require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s: %s", tt.params, r.body)
			assert.Contains(t, string(r.body), `"field":"`+tt.field+`"`, "%s", r.body)
			assert.NotContains(t, string(r.body), "memoryLimitMB", "a v1 user reads v1's names")
			assert.NotContains(t, string(r.body), "x-paramkit-bag")
		}
		// A misspelled key never reaches the webhook: the CRD's closed
		// parameters refuse it under strict field validation (kubectl's
		// default) and prune it with a warning otherwise.
		r := o.call(http.MethodPost, cachePath("v1", "")+"?fieldValidation=Strict", rawCache("bad", "v1", `{"maxMemoryMb":32}`))
		assert.Equal(t, http.StatusBadRequest, r.code, "%s", r.body)
		assert.Contains(t, string(r.body), `unknown field \"spec.parameters.maxMemoryMb\"`)
		r = o.call(http.MethodPost, cachePath("v1", "")+"?dryRun=All&fieldValidation=Warn", rawCache("pruned", "v1", `{"maxMemoryMb":32}`))
		require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
		assert.Contains(t, strings.Join(r.warnings, "\n"), "spec.parameters.maxMemoryMb")
		assert.NotContains(t, string(r.body), "maxMemoryMb")
	})

	t.Run("a v1 read holds v1 parameters, writing it back keeps v2 values", func(t *testing.T) {
		o.mustCreate(cachePath("v2", ""), rawCache("pages", "v2", `{"engine":"memcached","memoryLimitMB":32,"ttlSeconds":600}`))
		// A read, a change and a write, as kubectl edit does; again on a
		// conflict with the operator's status write.
		o.eventually(30*time.Second, func() error {
			v1 := o.get2("v1", "pages")
			p := at(t, v1, "spec.parameters").(map[string]any)
			assert.Equal(t, json.Number("32"), p["maxMemoryMB"])
			assert.NotContains(t, p, "ttlSeconds")
			assert.NotContains(t, p, "memoryLimitMB")
			p["maxMemoryMB"] = json.Number("48")
			r := o.call(http.MethodPut, cachePath("v1", "pages"), v1)
			if r.code == http.StatusConflict {
				return fmt.Errorf("conflict: %s", r.body)
			}
			require.Equal(t, http.StatusOK, r.code, "%s", r.body)
			return nil
		})
		v2 := o.get2("v2", "pages")
		assert.Equal(t, json.Number("48"), at(t, v2, "spec.parameters.memoryLimitMB"))
		assert.Equal(t, json.Number("600"), at(t, v2, "spec.parameters.ttlSeconds"), "the v1 write kept the v2-only value")
		// Status follows the generation.
		o.eventually(30*time.Second, func() error {
			c := o.get2("v2", "pages")
			if fmt.Sprint(at(t, c, "status.observedGeneration")) != fmt.Sprint(at(t, c, "metadata.generation")) {
				return fmt.Errorf("status not at the generation yet: %v", c["status"])
			}
			if cond := condition(c); cond == nil || cond["status"] != "True" {
				return fmt.Errorf("ParametersValid: %v", cond)
			}
			return nil
		})
	})

	t.Run("an integer beyond int64 is refused, not rounded", func(t *testing.T) {
		for _, v := range []string{"v1", "v2"} {
			r := o.call(http.MethodPost, cachePath(v, ""), rawCache("huge-"+v, v, `{"maxEntries":18446744073709551617}`))
			assert.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
			t.Logf("%s: %s", v, r.body)
			g := o.call(http.MethodGet, cachePath(v, "huge-"+v), nil)
			assert.Equal(t, http.StatusNotFound, g.code, "nothing stored: %s", g.body)
		}
	})

	t.Run("without the webhooks the CRD's schema still refuses", func(t *testing.T) {
		o.mustCreate(cachePath("v1", ""), rawCache("sessions", "v1", `{"engine":"redis","maxMemoryMB":64}`))
		for _, p := range []string{"/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/crd-operator-mutating",
			"/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/crd-operator-validating"} {
			r := o.call(http.MethodDelete, p, nil)
			require.Equal(t, http.StatusOK, r.code, "%s", r.body)
		}
		o.eventually(time.Minute, func() error {
			// The apiserver stops calling the webhooks: the CRD's own
			// refusal, not the webhook's.
			r := o.call(http.MethodPost, cachePath("v1", "")+"?dryRun=All", rawCache("probe", "v1", `{"maxMemoryMB":1}`))
			if r.code != http.StatusUnprocessableEntity || strings.Contains(string(r.body), "admission webhook") {
				return fmt.Errorf("still the webhook's answer: %d %s", r.code, r.body)
			}
			return nil
		})
		// Without any webhook, a misspelled key is still never stored,
		// and parameters: {} gets the CRD's defaults.
		r := o.call(http.MethodPost, cachePath("v1", "")+"?fieldValidation=Strict", rawCache("typo", "v1", `{"maxMemoryMb":32}`))
		assert.Equal(t, http.StatusBadRequest, r.code, "%s", r.body)
		r = o.call(http.MethodPost, cachePath("v2", "")+"?dryRun=All", rawCache("plain", "v2", `{}`))
		require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
		assert.Equal(t, json.Number("300"), at(t, o.object(r, http.StatusCreated), "spec.parameters.ttlSeconds"))
		c := o.get2("v1", "sessions")
		c["spec"].(map[string]any)["parameters"].(map[string]any)["engine"] = "memcached"
		r = o.call(http.MethodPut, cachePath("v1", "sessions"), c)
		require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
		assert.Contains(t, string(r.body), "engine is immutable")
		r = o.call(http.MethodPost, cachePath("v2", ""), rawCache("small", "v2", `{"memoryLimitMB":8}`))
		require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
		assert.Contains(t, string(r.body), "spec.parameters.memoryLimitMB")
	})

	t.Run("SIGTERM exits 0", func(t *testing.T) { o.stopOperator() })
}

func (o *opCluster) get2(version, name string) map[string]any {
	o.t.Helper()
	return o.object(o.call(http.MethodGet, cachePath(version, name), nil), http.StatusOK)
}
