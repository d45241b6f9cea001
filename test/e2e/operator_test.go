//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// envOperator names a prebuilt examples/operator binary (default: built
// from this checkout).
const envOperator = "PARAMKIT_E2E_OPERATOR"

// operatorDir is examples/operator, relative to test/e2e.
var operatorDir = filepath.Join("..", "..", "examples", "operator")

// opCluster is an etcd and a kube-apiserver of the operator's own (the
// shared cluster has paramctl's webhooks for the same kinds), the
// operator's CRDs and webhook configurations pointed at the operator on
// loopback, and the operator.
type opCluster struct {
	t          testing.TB
	dir        string
	k          *kube
	api        *client
	bin        string
	op         *process
	kubeconfig string
	certDir    string
	hookPort   int
	probeAddr  string
	caPEM      []byte
	// clientCA signed the apiserver's client certificate (clientCert,
	// clientKey): the operator's --webhook-client-ca.
	clientCA, clientCert, clientKey string
}

const opNamespace = "ops"

func startOperatorCluster(t testing.TB) *opCluster {
	need(t)
	bins, reason := findBinaries()
	if reason != "" {
		t.Skip(reason)
	}
	dir, err := os.MkdirTemp("", "paramkit-e2e-operator-")
	require.NoError(t, err)
	o := &opCluster{t: t, dir: dir}
	t.Cleanup(func() {
		o.op.stop()
		for i := len(o.k.procs) - 1; i >= 0; i-- {
			o.k.procs[i].stop()
		}
		if t.Failed() || os.Getenv(envKeep) == "1" {
			fmt.Fprintf(os.Stderr, "e2e: operator run kept in %s\n", dir)
			return
		}
		_ = os.RemoveAll(dir)
	})
	start := time.Now()
	ca, err := newAuthority("paramkit-e2e-operator-ca")
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

	// The operator requires a client certificate on its admission paths
	// (--webhook-client-ca); the apiserver presents one, as an
	// AdmissionConfiguration whose kubeconfig names a user for the
	// operator's host:port tells it to.
	o.hookPort, err = freePort()
	require.NoError(t, err)
	clients, err := newAuthority("paramkit-e2e-operator-clients")
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
	o.bin = operatorBinary(t, dir)
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

	// The CRDs first: the operator's informers need the kinds to exist.
	o.applyManifests(filepath.Join(operatorDir, "config", "crd"))
	o.startOperator()
	o.applyManifests(filepath.Join(operatorDir, "config", "webhook"))
	o.mustCreate("/api/v1/namespaces", map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": opNamespace}})
	o.waitAdmission()
	t.Logf("etcd, kube-apiserver and the operator ready in %v", time.Since(start).Round(100*time.Millisecond))
	return o
}

// operatorBinary builds examples/operator in place (its own module), as
// its README says, unless PARAMKIT_E2E_OPERATOR names a binary.
func operatorBinary(t testing.TB, dir string) string {
	if p := os.Getenv(envOperator); p != "" {
		p, _ = filepath.Abs(p)
		require.NoError(t, executable(p), envOperator)
		return p
	}
	out := filepath.Join(dir, "operator")
	cmd := exec.Command("go", "build", "-o", out, ".")
	cmd.Dir = operatorDir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "building the operator:\n%s", b)
	return out
}

// startOperator runs the operator exactly as its contract says, and waits
// until /healthz and /readyz answer 200.
func (o *opCluster) startOperator() {
	t := o.t
	var err error
	o.op, err = startProcess(o.dir, "operator", o.bin, append([]string{
		"--kubeconfig", o.kubeconfig,
		"--webhook-host", "127.0.0.1",
		"--webhook-port", strconv.Itoa(o.hookPort),
		"--webhook-cert-dir", o.certDir,
		"--webhook-client-ca", o.clientCA,
		"--metrics-bind-address", "0",
		"--health-probe-bind-address", o.probeAddr,
	}, strings.Fields(*operatorArgs)...)...)
	require.NoError(t, err)
	plain := &http.Client{Timeout: 5 * time.Second}
	require.NoError(t, o.op.waitReady(2*time.Minute, func(ctx context.Context) error {
		if err := httpOK(ctx, plain, "http://"+o.probeAddr+"/healthz", "", ""); err != nil {
			return err
		}
		return httpOK(ctx, plain, "http://"+o.probeAddr+"/readyz", "", "")
	}))
}

// stopOperator sends SIGTERM and checks that the operator exits 0.
func (o *opCluster) stopOperator() {
	o.op.stop()
	require.True(o.t, o.op.exited())
	require.NoError(o.t, o.op.err, "the operator's exit after SIGTERM\n%s", o.op.tail())
	require.Equal(o.t, 0, o.op.cmd.ProcessState.ExitCode())
}

// applyManifests applies every YAML document of the folder's files,
// replacing each webhook client config's service by
// https://127.0.0.1:PORT<path> and a caBundle, as envtest does.
func (o *opCluster) applyManifests(folder string) {
	t := o.t
	files, err := filepath.Glob(filepath.Join(folder, "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files, folder)
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
	for _, crd := range []string{"instances", "operatorversions"} {
		if strings.HasSuffix(folder, "crd") {
			o.waitEstablished(crd)
		}
	}
}

// resourcePath is where an object of the manifests lives.
func resourcePath(t testing.TB, obj map[string]any) string {
	name := obj["metadata"].(map[string]any)["name"].(string)
	switch obj["kind"] {
	case "CustomResourceDefinition":
		return "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name
	case "MutatingWebhookConfiguration":
		return "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/" + name
	case "ValidatingWebhookConfiguration":
		return "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/" + name
	}
	t.Fatalf("unexpected kind %v in the manifests", obj["kind"])
	return ""
}

func (o *opCluster) pointAtOperator(obj map[string]any) {
	point := func(cc map[string]any) {
		svc, _ := cc["service"].(map[string]any)
		if svc == nil {
			return
		}
		p, _ := svc["path"].(string)
		delete(cc, "service")
		cc["url"] = fmt.Sprintf("https://127.0.0.1:%d%s", o.hookPort, p)
		cc["caBundle"] = base64.StdEncoding.EncodeToString(o.caPEM)
	}
	if spec, ok := obj["spec"].(map[string]any); ok {
		if conv, ok := spec["conversion"].(map[string]any); ok {
			if wh, ok := conv["webhook"].(map[string]any); ok {
				if cc, ok := wh["clientConfig"].(map[string]any); ok {
					point(cc)
				}
			}
		}
	}
	if hooks, ok := obj["webhooks"].([]any); ok {
		for _, h := range hooks {
			if cc, ok := h.(map[string]any)["clientConfig"].(map[string]any); ok {
				point(cc)
			}
		}
	}
}

func (o *opCluster) waitEstablished(plural string) {
	o.eventually(time.Minute, func() error {
		for _, v := range []string{"v1beta1", "v1beta2"} {
			r, err := o.api.do(context.Background(), http.MethodGet, "/apis/kudo.dev/"+v+"/"+plural, "", nil)
			if err != nil {
				return err
			}
			if r.code != http.StatusOK {
				return fmt.Errorf("GET kudo.dev/%s %s: %d %s", v, plural, r.code, r.body)
			}
		}
		return nil
	})
}

// waitAdmission waits until the apiserver calls the operator's
// admission webhooks: a dry-run Instance naming no OperatorVersion is
// denied once they are called.
func (o *opCluster) waitAdmission() {
	o.eventually(time.Minute, func() error {
		r := o.call(http.MethodPost, opPath("v1beta2", "instances", "")+"?dryRun=All", opInstance("probe", "none-1.0", map[string]any{}))
		if r.code != http.StatusUnprocessableEntity {
			return fmt.Errorf("not denied yet: %d %s", r.code, r.body)
		}
		return nil
	})
}

// eventually retries f until it succeeds or the time is up.
func (o *opCluster) eventually(timeout time.Duration, f func() error) {
	o.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := f()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			o.t.Fatalf("after %v: %v\n%s", timeout, err, o.op.tail())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (o *opCluster) call(method, path string, obj any) *response {
	o.t.Helper()
	r, err := o.api.doJSON(context.Background(), method, path, obj)
	require.NoError(o.t, err)
	return r
}

func (o *opCluster) mustCreate(path string, obj any) *response {
	o.t.Helper()
	r := o.call(http.MethodPost, path, obj)
	require.Equal(o.t, http.StatusCreated, r.code, "%s", r.body)
	return r
}

// object decodes a response's object, numbers exact.
func (o *opCluster) object(r *response, code int) map[string]any {
	o.t.Helper()
	require.Equal(o.t, code, r.code, "%s", r.body)
	m, err := decodeObject(r.body)
	require.NoError(o.t, err)
	return m
}

func (o *opCluster) get(version, resource, name string) map[string]any {
	o.t.Helper()
	return o.object(o.call(http.MethodGet, opPath(version, resource, name), nil), http.StatusOK)
}

func opPath(version, resource, name string) string { return path(version, resource, opNamespace, name) }

func opInstance(name, ov string, parameters any) map[string]any {
	in := instance(name, ov, parameters)
	in["metadata"].(map[string]any)["namespace"] = opNamespace
	return in
}

// sample reads a file of the operator's config/samples as JSON, in the
// test's namespace.
func (o *opCluster) sample(name string) map[string]any {
	data, err := os.ReadFile(filepath.Join(operatorDir, "config", "samples", name+".yaml"))
	require.NoError(o.t, err)
	js, err := yaml.YAMLToJSON(data)
	require.NoError(o.t, err)
	m, err := decodeObject(js)
	require.NoError(o.t, err)
	m["metadata"].(map[string]any)["namespace"] = opNamespace
	return m
}

// status waits until the Instance's status describes its current
// generation and says plan and valid, and returns the Instance.
func (o *opCluster) status(name, plan, valid string) map[string]any {
	o.t.Helper()
	var last map[string]any
	o.eventually(30*time.Second, func() error {
		last = o.get("v1beta2", "instances", name)
		gen := at(o.t, last, "metadata.generation")
		st, _ := last["status"].(map[string]any)
		if st == nil || fmt.Sprint(st["observedGeneration"]) != fmt.Sprint(gen) {
			return fmt.Errorf("status of %s not at generation %v yet: %v", name, gen, st)
		}
		if st["plan"] != plan {
			return fmt.Errorf("status.plan of %s is %v, want %s", name, st["plan"], plan)
		}
		if c := condition(last); c == nil || c["status"] != valid {
			return fmt.Errorf("ParametersValid of %s is %v, want %s", name, c, valid)
		}
		return nil
	})
	return last
}

func condition(o map[string]any) map[string]any {
	st, _ := o["status"].(map[string]any)
	cs, _ := st["conditions"].([]any)
	for _, c := range cs {
		if m, _ := c.(map[string]any); m["type"] == "ParametersValid" {
			return m
		}
	}
	return nil
}

// causes returns a denial's fields, and checks that the message names
// each of them.
func (o *opCluster) causes(r *response) []string {
	o.t.Helper()
	require.Equal(o.t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
	var st struct {
		Message string
		Details struct {
			Causes []struct{ Field, Message string }
		}
	}
	require.NoError(o.t, json.Unmarshal(r.body, &st))
	var fields []string
	for _, c := range st.Details.Causes {
		fields = append(fields, c.Field)
		assert.Contains(o.t, st.Message, c.Field+": ", "the message names the field")
	}
	assert.NotContains(o.t, st.Message, "/spec/parameters", "field paths, not JSON pointers")
	return fields
}

// TestOperator drives the operator of examples/operator through a real
// kube-apiserver, as its contract says: creates, updates, denials with
// field paths, warnings, an upgrade by oldName, v1beta1 reads and writes,
// status following every change, an edited OperatorVersion, a restart.
func TestOperator(t *testing.T) {
	o := startOperatorCluster(t)
	// Operator versions: 0.1.0 written through v1beta1 (a flat list,
	// converted by the operator's /convert), 0.2.0 through v1beta2.
	o.mustCreate(opPath("v1beta1", "operatorversions", ""), o.sample("my-operator-0.1.0"))
	o.mustCreate(opPath("v1beta2", "operatorversions", ""), o.sample("my-operator-0.2.0"))
	ov1 := o.get("v1beta2", "operatorversions", "my-operator-0.1.0")
	assert.Equal(t, "boolean", at(t, ov1, "spec.parameters.properties.BACKUP_ENABLED.type"), "v1beta1 list read as a schema")

	t.Run("create through v1beta1", func(t *testing.T) {
		o.t = t
		r := o.mustCreate(opPath("v1beta1", "instances", ""), o.sample("instance"))
		assert.Empty(t, r.warnings)
		in := o.status("my-instance", "deploy", "True")
		assert.Equal(t, map[string]any{"CLUSTER_NAME": "my-cluster", "BACKUP_ENABLED": true, "BACKUP_CREDENTIALS_USERNAME": "backup", "BACKUP_CREDENTIALS_PASSWORD": "change-me"},
			at(t, in, "spec.parameters"), "typed through v1beta2")
		assert.Equal(t, "deploy", at(t, in, "spec.planExecution.planName"))
		assert.Equal(t, "Valid", condition(in)["reason"])
		old := o.get("v1beta1", "instances", "my-instance")
		assert.Equal(t, "true", at(t, old, "spec.parameters.BACKUP_ENABLED"), "text again through v1beta1")
	})

	t.Run("warnings reach the client", func(t *testing.T) {
		o.t = t
		r := o.mustCreate(opPath("v1beta2", "instances", ""), opInstance("typo", "my-operator-0.1.0", map[string]any{"CLUSTER_NAME": "c", "BACKUP_ENABLD": true}))
		require.Len(t, r.warnings, 1)
		assert.Equal(t, `spec.parameters.BACKUP_ENABLD: "BACKUP_ENABLD" is not declared by the schema; did you mean "BACKUP_ENABLED"?`, r.warnings[0])
		o.status("typo", "deploy", "True")
	})

	t.Run("an update runs its trigger's plan", func(t *testing.T) {
		o.t = t
		r := o.call(http.MethodPatch, opPath("v1beta2", "instances", "my-instance"), map[string]any{"spec": map[string]any{"parameters": map[string]any{"BACKUP_CREDENTIALS_USERNAME": "other"}}})
		require.Equal(t, http.StatusOK, r.code, "%s", r.body)
		in := o.status("my-instance", "backup", "True")
		assert.Equal(t, json.Number("2"), at(t, in, "metadata.generation"))
	})

	t.Run("denials name field paths", func(t *testing.T) {
		o.t = t
		p := opPath("v1beta2", "instances", "my-instance")
		r := o.call(http.MethodPatch, p, map[string]any{"spec": map[string]any{"parameters": map[string]any{"CLUSTER_NAME": "x"}}})
		assert.Equal(t, []string{"spec.parameters.CLUSTER_NAME"}, o.causes(r))
		assert.Contains(t, string(r.body), "immutable")
		r = o.call(http.MethodPatch, p, map[string]any{"spec": map[string]any{"parameters": map[string]any{"BACKUP_ENABLED": "maybe"}}})
		assert.Equal(t, []string{"spec.parameters.BACKUP_ENABLED"}, o.causes(r))
		r = o.call(http.MethodPatch, p, map[string]any{"spec": map[string]any{"planExecution": map[string]any{"planName": "deploy"}}})
		assert.Equal(t, []string{"spec.planExecution"}, o.causes(r), "the plan is not set by hand")
		o.status("my-instance", "backup", "True")
	})

	t.Run("an upgrade moves parameters by oldName", func(t *testing.T) {
		o.t = t
		r := o.call(http.MethodPatch, opPath("v1beta2", "instances", "my-instance"), map[string]any{"spec": map[string]any{"operatorVersion": map[string]any{"name": "my-operator-0.2.0"}}})
		require.Equal(t, http.StatusOK, r.code, "%s", r.body)
		in := o.status("my-instance", "upgrade", "True")
		assert.Equal(t, map[string]any{
			"clusterName":  "my-cluster",
			"nodeCount":    json.Number("3"),
			"storageBytes": json.Number("9007199254740993"),
			"backup":       map[string]any{"enabled": true, "credentials": map[string]any{"name": "other", "password": "change-me"}},
		}, at(t, in, "spec.parameters"))
		assert.Equal(t, "upgrade", at(t, in, "spec.planExecution.planName"))

		r = o.call(http.MethodPatch, opPath("v1beta2", "instances", "typo"), map[string]any{"spec": map[string]any{"operatorVersion": map[string]any{"name": "my-operator-0.2.0"}}})
		require.Equal(t, http.StatusOK, r.code, "%s", r.body)
		assert.Equal(t, []string{"spec.parameters.BACKUP_ENABLD: dropped by the upgrade from my-operator-0.1.0 to my-operator-0.2.0: my-operator-0.2.0 declares no place for it"}, r.warnings)
		o.status("typo", "upgrade", "True")
	})

	t.Run("changes of two plans are refused", func(t *testing.T) {
		o.t = t
		r := o.call(http.MethodPatch, opPath("v1beta2", "instances", "my-instance"), map[string]any{"spec": map[string]any{"parameters": map[string]any{"nodeCount": 4, "backup": map[string]any{"enabled": false}}}})
		assert.Equal(t, []string{"spec.parameters.backup.enabled", "spec.parameters.nodeCount"}, o.causes(r))
	})

	t.Run("v1beta1 reads and writes after the upgrade", func(t *testing.T) {
		o.t = t
		old := o.get("v1beta1", "instances", "my-instance")
		p := at(t, old, "spec.parameters").(map[string]any)
		assert.Equal(t, "9007199254740993", p["storageBytes"])
		assert.Equal(t, "3", p["nodeCount"])
		p["nodeCount"] = "4"
		r := o.call(http.MethodPut, opPath("v1beta1", "instances", "my-instance"), old)
		require.Equal(t, http.StatusOK, r.code, "%s", r.body)
		in := o.status("my-instance", "deploy", "True")
		assert.Equal(t, json.Number("4"), at(t, in, "spec.parameters.nodeCount"))
		assert.Equal(t, json.Number("9007199254740993"), at(t, in, "spec.parameters.storageBytes"))

		r = o.call(http.MethodPatch, opPath("v1beta2", "instances", "my-instance"), map[string]any{"spec": map[string]any{"parameters": map[string]any{"storageBytes": json.Number("9007199254740995")}}})
		require.Equal(t, http.StatusOK, r.code, "%s", r.body)
		assert.Contains(t, string(r.body), `"storageBytes":9007199254740995`)
		assert.Equal(t, "9007199254740995", at(t, o.get("v1beta1", "instances", "my-instance"), "spec.parameters.storageBytes"))
		o.status("my-instance", "deploy", "True")
	})

	t.Run("an edited OperatorVersion re-checks its Instances", func(t *testing.T) {
		o.t = t
		ovPath := opPath("v1beta2", "operatorversions", "my-operator-0.2.0")
		r := o.call(http.MethodPatch, ovPath, map[string]any{"spec": map[string]any{"parameters": map[string]any{"properties": map[string]any{"nodeCount": map[string]any{"maximum": 3}}}}})
		require.Equal(t, http.StatusOK, r.code, "%s", r.body)
		in := o.status("my-instance", "deploy", "False")
		c := condition(in)
		assert.Equal(t, "Invalid", c["reason"])
		assert.Contains(t, c["message"], "spec.parameters.nodeCount: ")
		o.status("typo", "upgrade", "True") // nodeCount 3 is still fine

		r = o.call(http.MethodPatch, ovPath, map[string]any{"spec": map[string]any{"parameters": map[string]any{"properties": map[string]any{"nodeCount": map[string]any{"maximum": nil}}}}})
		require.Equal(t, http.StatusOK, r.code, "%s", r.body)
		o.status("my-instance", "deploy", "True")
	})

	t.Run("only the apiserver may call the admission paths", func(t *testing.T) {
		o.t = t
		base := fmt.Sprintf("https://127.0.0.1:%d", o.hookPort)
		body := []byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"x","kind":{"group":"kudo.dev","version":"v1beta2","kind":"Instance"},"operation":"DELETE"}}`)
		post := func(hc *http.Client, p string) int {
			resp, err := hc.Post(base+p, "application/json", bytes.NewReader(body))
			if err != nil {
				return -1 // refused at the handshake
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		anon := o.caller("", "")
		assert.Equal(t, http.StatusUnauthorized, post(anon, "/mutate-kudo-dev-v1beta2-instance"))
		assert.Equal(t, http.StatusUnauthorized, post(anon, "/validate-kudo-dev-v1beta2-instance"))
		assert.Equal(t, http.StatusOK, post(o.caller(o.clientCert, o.clientKey), "/validate-kudo-dev-v1beta2-instance"))
		strangers, err := newAuthority("strangers")
		require.NoError(t, err)
		sc, sk, err := strangers.issueClient(o.dir, "stranger", 9)
		require.NoError(t, err)
		assert.NotEqual(t, http.StatusOK, post(o.caller(sc, sk), "/validate-kudo-dev-v1beta2-instance"), "a certificate of another CA")
		// The apiserver presents no certificate to conversion webhooks:
		// /convert answers (every v1beta1 read above went through it).
		assert.NotEqual(t, http.StatusUnauthorized, post(anon, "/convert"))
	})

	t.Run("a restart", func(t *testing.T) {
		o.t = t
		o.stopOperator()
		o.startOperator()
		o.eventually(time.Minute, func() error {
			r := o.call(http.MethodPatch, opPath("v1beta2", "instances", "my-instance"), map[string]any{"spec": map[string]any{"parameters": map[string]any{"nodeCount": 2}}})
			if r.code != http.StatusOK {
				return fmt.Errorf("update after the restart: %d %s", r.code, r.body)
			}
			return nil
		})
		in := o.status("my-instance", "deploy", "True")
		assert.Equal(t, json.Number("2"), at(t, in, "spec.parameters.nodeCount"))
	})

	t.Run("latency of an update through both webhooks", func(t *testing.T) {
		o.t = t
		const n = 60
		hooked := o.latencies(n, opPath("v1beta2", "instances", "my-instance"), func(i int) any {
			return map[string]any{"spec": map[string]any{"parameters": map[string]any{"nodeCount": 2 + i%2}}}
		})
		o.mustCreate("/api/v1/namespaces/"+opNamespace+"/configmaps", map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "baseline"}})
		plain := o.latencies(n, "/api/v1/namespaces/"+opNamespace+"/configmaps/baseline", func(i int) any {
			return map[string]any{"data": map[string]any{"nodeCount": strconv.Itoa(2 + i%2)}}
		})
		// The webhook server alone, called as the apiserver calls it (its
		// client certificate, a kept-alive connection) with the review of
		// such an update.
		cur := o.get("v1beta2", "instances", "my-instance")
		next := o.get("v1beta2", "instances", "my-instance")
		next["spec"].(map[string]any)["parameters"].(map[string]any)["nodeCount"] = json.Number("5")
		review, err := json.Marshal(map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": map[string]any{
			"uid": "latency", "kind": map[string]any{"group": "kudo.dev", "version": "v1beta2", "kind": "Instance"},
			"resource": map[string]any{"group": "kudo.dev", "version": "v1beta2", "resource": "instances"},
			"name":     "my-instance", "namespace": opNamespace, "operation": "UPDATE", "object": next, "oldObject": cur,
			"userInfo": map[string]any{"username": "e2e"}}})
		require.NoError(t, err)
		hc := o.caller(o.clientCert, o.clientKey)
		direct := make(latency, 0, n)
		for i := 0; i < n; i++ {
			start := time.Now()
			resp, err := hc.Post(fmt.Sprintf("https://127.0.0.1:%d/mutate-kudo-dev-v1beta2-instance?timeout=10s", o.hookPort), "application/json", bytes.NewReader(review))
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			direct = append(direct, time.Since(start))
			require.Contains(t, string(body), `"allowed":true`)
		}
		// The same updates once the webhook configurations are gone: what
		// the webhooks add, apart from the custom resource's own cost.
		for _, p := range []string{"/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/paramkit-operator-mutating", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/paramkit-operator-validating"} {
			r := o.call(http.MethodDelete, p, nil)
			require.Equal(t, http.StatusOK, r.code, "%s", r.body)
		}
		o.eventually(time.Minute, func() error {
			r := o.call(http.MethodPatch, opPath("v1beta2", "instances", "my-instance")+"?dryRun=All", map[string]any{"spec": map[string]any{"parameters": map[string]any{"nodeCount": 0}}})
			if r.code != http.StatusOK {
				return fmt.Errorf("the webhooks are still called: %d", r.code)
			}
			return nil
		})
		bare := o.latencies(n, opPath("v1beta2", "instances", "my-instance"), func(i int) any {
			return map[string]any{"spec": map[string]any{"parameters": map[string]any{"nodeCount": 2 + i%2}}}
		})
		t.Logf("an Instance update through the apiserver with both webhooks: %s", hooked)
		t.Logf("the same update with no webhook configured:                  %s", bare)
		t.Logf("a ConfigMap update through the same apiserver:               %s", plain)
		t.Logf("the mutating webhook alone, called directly with that review: %s", direct)
	})
}

// caller is an HTTPS client of the operator's webhook server presenting
// the certificate in certFile and keyFile (none when "").
func (o *opCluster) caller(certFile, keyFile string) *http.Client {
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(o.caPEM)
	cfg := &tls.Config{RootCAs: roots}
	if certFile != "" {
		pair, err := tls.LoadX509KeyPair(certFile, keyFile)
		require.NoError(o.t, err)
		cfg.Certificates = []tls.Certificate{pair}
	}
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: cfg, Proxy: nil}}
	o.t.Cleanup(hc.CloseIdleConnections)
	return hc
}

// latency is a set of request durations.
type latency []time.Duration

func (l latency) String() string {
	s := append(latency(nil), l...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	q := func(p float64) time.Duration { return s[int(p*float64(len(s)-1))].Round(10 * time.Microsecond) }
	return fmt.Sprintf("p50 %v, p90 %v, p99 %v, max %v over %d", q(0.5), q(0.9), q(0.99), s[len(s)-1].Round(10*time.Microsecond), len(s))
}

// latencies times n merge patches of path, one at a time.
func (o *opCluster) latencies(n int, path string, patch func(i int) any) latency {
	o.t.Helper()
	out := make(latency, 0, n)
	for i := 0; i < n; i++ {
		start := time.Now()
		r := o.call(http.MethodPatch, path, patch(i))
		out = append(out, time.Since(start))
		require.Equal(o.t, http.StatusOK, r.code, "%s", r.body)
	}
	return out
}
