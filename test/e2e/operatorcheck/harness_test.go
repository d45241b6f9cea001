//go:build e2e && linux

// Package operatorcheck checks examples/operator against a real
// kube-apiserver exactly as issue 20's contract and the operator's README
// describe it, from the outside: it builds the operator with go build in
// its folder, applies config/crd, config/rbac and config/webhook with no
// change but each service client config rewritten to
// https://127.0.0.1:PORT<path> and a caBundle (as envtest does), runs the
// operator with the contract's flags as a user holding only
// config/rbac's ClusterRole (the apiserver authorizes with RBAC), and
// drives it with plain HTTP as kubectl would, reading warnings from the
// Warning headers and numbers as exact text.
//
// It shares no code with the e2e package's TestOperator on purpose: it is
// a second pair of eyes on the same contract.
package operatorcheck

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// The e2e package's settings, read the same way.
const (
	envSkip = "PARAMKIT_E2E"     // "skip": skip when the servers are not built
	envBin  = "PARAMKIT_E2E_BIN" // directory holding kube-apiserver and etcd (default ../bin)
	envKeep = "PARAMKIT_E2E_KEEP"
)

// operatorDir is examples/operator, from test/e2e/operatorcheck.
var operatorDir = filepath.Join("..", "..", "..", "examples", "operator")

// operatorUser is the user the operator runs as; config/rbac's ClusterRole
// is bound to it and it has nothing else.
const operatorUser = "paramkit-operator"

// proc is a server this test started; its output goes to a log file.
type proc struct {
	name string
	cmd  *exec.Cmd
	log  string
	done chan struct{}
	err  error
}

func start(t *testing.T, dir, name, bin string, args ...string) *proc {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, name+".log"))
	require.NoError(t, err)
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !strings.HasSuffix(strings.ToLower(k), "_proxy") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	require.NoError(t, cmd.Start(), name)
	p := &proc{name: name, cmd: cmd, log: f.Name(), done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		f.Close()
		close(p.done)
	}()
	return p
}

// term sends SIGTERM and returns the exit code (-1 when it had to be
// killed after a minute).
func (p *proc) term() int {
	select {
	case <-p.done:
		return p.cmd.ProcessState.ExitCode()
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(time.Minute):
		_ = p.cmd.Process.Kill()
		<-p.done
		return -1
	}
}

func (p *proc) tail() string {
	b, _ := os.ReadFile(p.log)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return fmt.Sprintf("--- %s (%s) ---\n%s", p.name, p.log, b)
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// ca is a throwaway certificate authority.
type ca struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

func newCA(t *testing.T) *ca {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "operatorcheck"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	return &ca{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// serving writes a serving certificate for 127.0.0.1 to certFile and its
// key to keyFile.
func (c *ca) serving(t *testing.T, certFile, keyFile string, serial int64) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, c.cert, &key.PublicKey, c.key)
	require.NoError(t, err)
	kder, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600))
	require.NoError(t, os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600))
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// cluster is etcd, kube-apiserver (RBAC) and the operator, with the
// operator's manifests applied.
type cluster struct {
	t          *testing.T
	dir        string
	ca         *ca
	api        *apiClient
	procs      []*proc
	opBin      string
	kubeconfig string // the operator's: its own user, nothing but config/rbac
	certDir    string
	hookPort   int
	op         *operator
}

// operator is one running operator process and its probe address.
type operator struct {
	p     *proc
	probe string
}

func newCluster(t *testing.T) *cluster {
	binDir := os.Getenv(envBin)
	if binDir == "" {
		binDir = filepath.Join("..", "bin")
	}
	binDir, _ = filepath.Abs(binDir)
	for _, b := range []string{"etcd", "kube-apiserver"} {
		if _, err := os.Stat(filepath.Join(binDir, b)); err != nil {
			if os.Getenv(envSkip) == "skip" {
				t.Skipf("%s=skip: %s not built (run ../build.sh)", envSkip, b)
			}
			t.Fatalf("%s not built in %s: run ./build.sh in test/e2e or set %s (or %s=skip to skip)", b, binDir, envBin, envSkip)
		}
	}
	dir, err := os.MkdirTemp("", "paramkit-operatorcheck-")
	require.NoError(t, err)
	c := &cluster{t: t, dir: dir, ca: newCA(t)}
	t.Cleanup(func() {
		if c.op != nil {
			c.op.p.term()
		}
		for i := len(c.procs) - 1; i >= 0; i-- {
			c.procs[i].term()
		}
		if t.Failed() || os.Getenv(envKeep) == "1" {
			t.Logf("kept %s", dir)
			return
		}
		_ = os.RemoveAll(dir)
	})

	// etcd
	ep, pp := freePort(t), freePort(t)
	etcdURL, peerURL := fmt.Sprintf("http://127.0.0.1:%d", ep), fmt.Sprintf("http://127.0.0.1:%d", pp)
	etcd := start(t, dir, "etcd", filepath.Join(binDir, "etcd"), "--name=c", "--data-dir="+filepath.Join(dir, "etcd"),
		"--listen-client-urls="+etcdURL, "--advertise-client-urls="+etcdURL, "--listen-peer-urls="+peerURL,
		"--initial-advertise-peer-urls="+peerURL, "--initial-cluster=c="+peerURL, "--unsafe-no-fsync")
	c.procs = append(c.procs, etcd)
	c.waitFor(etcd, time.Minute, func() error { return get(&http.Client{Timeout: time.Second}, etcdURL+"/health") })

	// kube-apiserver, authorizing with RBAC: the operator gets only what
	// config/rbac gives it.
	c.ca.serving(t, filepath.Join(dir, "apiserver.crt"), filepath.Join(dir, "apiserver.key"), 2)
	saKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	saDER, err := x509.MarshalECPrivateKey(saKey)
	require.NoError(t, err)
	saPub, err := x509.MarshalPKIXPublicKey(&saKey.PublicKey)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sa.key"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: saDER}), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sa.pub"), pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: saPub}), 0o600))
	adminToken, opToken := token(t), token(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tokens.csv"),
		[]byte(adminToken+",admin,admin,system:masters\n"+opToken+","+operatorUser+","+operatorUser+"\n"), 0o600))
	ap := freePort(t)
	apiserver := start(t, dir, "kube-apiserver", filepath.Join(binDir, "kube-apiserver"),
		"--etcd-servers="+etcdURL, "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1",
		"--secure-port="+strconv.Itoa(ap), "--tls-cert-file="+filepath.Join(dir, "apiserver.crt"),
		"--tls-private-key-file="+filepath.Join(dir, "apiserver.key"), "--cert-dir="+filepath.Join(dir, "apiserver-certs"),
		"--token-auth-file="+filepath.Join(dir, "tokens.csv"), "--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file="+filepath.Join(dir, "sa.pub"), "--service-account-signing-key-file="+filepath.Join(dir, "sa.key"),
		"--service-cluster-ip-range=10.0.0.0/24", "--disable-admission-plugins=ServiceAccount",
		"--endpoint-reconciler-type=none", "--enable-priority-and-fairness=false")
	c.procs = append(c.procs, apiserver)
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(c.ca.pem)
	c.api = &apiClient{base: fmt.Sprintf("https://127.0.0.1:%d", ap), token: adminToken,
		hc: &http.Client{Timeout: time.Minute, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}, Proxy: nil}}}
	c.waitFor(apiserver, 3*time.Minute, func() error {
		r, err := c.api.try(http.MethodGet, "/readyz", "", nil)
		if err != nil {
			return err
		}
		if r.code != http.StatusOK {
			return fmt.Errorf("/readyz: %d %s", r.code, r.body)
		}
		return nil
	})
	c.kubeconfig = filepath.Join(dir, "operator.kubeconfig")
	require.NoError(t, os.WriteFile(c.kubeconfig, []byte(fmt.Sprintf(
		"apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: %q, certificate-authority-data: %s}\nusers:\n- name: u\n  user: {token: %q}\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c\n",
		c.api.base, base64.StdEncoding.EncodeToString(c.ca.pem), opToken)), 0o600))

	// The operator, built as the contract says: go build . in its folder.
	c.opBin = filepath.Join(dir, "operator")
	build := exec.Command("go", "build", "-o", c.opBin, ".")
	build.Dir = operatorDir
	out, err := build.CombinedOutput()
	require.NoError(t, err, "cd examples/operator && go build .\n%s", out)
	c.certDir = filepath.Join(dir, "certs")
	require.NoError(t, os.MkdirAll(c.certDir, 0o700))
	c.ca.serving(t, filepath.Join(c.certDir, "tls.crt"), filepath.Join(c.certDir, "tls.key"), 3)
	c.hookPort = freePort(t)

	// The manifests as they are, CRDs and RBAC first.
	c.applyFolder("crd", "CustomResourceDefinition")
	// config/rbac's ClusterRole, and its Role for the lease and events in
	// "default" (where the operator, run outside a cluster, holds its
	// lease), both bound to the operator's user: it gets what the
	// shipped roles give and nothing else. (The shipped bindings name
	// the in-cluster ServiceAccount; TestOperatorDeployment dry-runs
	// them.)
	c.applyFolder("rbac", "ClusterRole", "Role")
	c.apply(map[string]any{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
		"metadata": map[string]any{"name": "paramkit-operator"},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "paramkit-operator"},
		"subjects": []any{map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": operatorUser}}})
	c.apply(map[string]any{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
		"metadata": map[string]any{"name": "paramkit-operator-leader-election", "namespace": leaseNamespace},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "paramkit-operator-leader-election"},
		"subjects": []any{map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": operatorUser}}})
	for _, plural := range []string{"instances", "operatorversions"} {
		c.eventually(time.Minute, func() error {
			for _, v := range []string{"v1beta1", "v1beta2"} {
				if r := c.api.call(t, http.MethodGet, "/apis/kudo.dev/"+v+"/"+plural, nil); r.code != http.StatusOK {
					return fmt.Errorf("%s %s: %d", v, plural, r.code)
				}
			}
			return nil
		})
	}
	c.op = c.startOperator(c.hookPort)
	c.applyFolder("webhook", "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration")
	c.api.mustCreate(t, "/api/v1/namespaces", map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}})
	// The admission webhooks are called once a dry-run Instance naming
	// no OperatorVersion is refused.
	c.eventually(time.Minute, func() error {
		r := c.api.call(t, http.MethodPost, path("v1beta2", "instances", "")+"?dryRun=All", inst("probe", "none-1.0", map[string]any{}))
		if r.code != http.StatusUnprocessableEntity {
			return fmt.Errorf("not refused yet: %d %s", r.code, r.body)
		}
		return nil
	})
	return c
}

// startOperator runs the operator with the contract's flags, on its own
// port for webhooks (the apiserver calls c.hookPort) and probes, and
// waits for /healthz and /readyz.
func (c *cluster) startOperator(hookPort int, extra ...string) *operator {
	probe := fmt.Sprintf("127.0.0.1:%d", freePort(c.t))
	args := append([]string{
		"--kubeconfig", c.kubeconfig,
		"--webhook-host", "127.0.0.1",
		"--webhook-port", strconv.Itoa(hookPort),
		"--webhook-cert-dir", c.certDir,
		"--metrics-bind-address", "0",
		"--health-probe-bind-address", probe,
		"--leader-elect",
	}, extra...)
	o := &operator{p: start(c.t, c.dir, fmt.Sprintf("operator-%d", time.Now().UnixNano()), c.opBin, args...), probe: probe}
	plain := &http.Client{Timeout: 2 * time.Second}
	c.waitFor(o.p, 2*time.Minute, func() error {
		if err := get(plain, "http://"+probe+"/healthz"); err != nil {
			return err
		}
		return get(plain, "http://"+probe+"/readyz")
	})
	return o
}

// stopOperator sends SIGTERM and requires exit status 0.
func (c *cluster) stopOperator(o *operator) {
	c.t.Helper()
	code := o.p.term()
	require.Equal(c.t, 0, code, "exit status after SIGTERM\n%s", o.p.tail())
}

// applyFolder applies the documents of config/NAME of the given kinds
// (each at least once), each service client config rewritten to
// https://127.0.0.1:PORT<path> and a caBundle; a namespaced one goes to
// leaseNamespace. kustomization.yaml is kustomize's, not an object.
func (c *cluster) applyFolder(name string, kinds ...string) {
	files, err := filepath.Glob(filepath.Join(operatorDir, "config", name, "*.yaml"))
	require.NoError(c.t, err)
	require.NotEmpty(c.t, files, name)
	seen := map[string]bool{}
	for _, f := range files {
		if filepath.Base(f) == "kustomization.yaml" {
			continue
		}
		data, err := os.ReadFile(f)
		require.NoError(c.t, err)
		for _, doc := range strings.Split(string(data), "\n---") {
			var obj map[string]any
			require.NoError(c.t, yaml.Unmarshal([]byte(doc), &obj), f)
			kind, _ := obj["kind"].(string)
			if obj == nil || !slices.Contains(kinds, kind) {
				continue
			}
			seen[kind] = true
			c.rewrite(obj)
			c.apply(obj)
		}
	}
	for _, k := range kinds {
		require.True(c.t, seen[k], "config/%s has no %s", name, k)
	}
}

// leaseNamespace is where the operator, run outside a cluster with
// --leader-elect, holds its lease.
const leaseNamespace = "default"

// rewrite does what envtest does to a webhook client config, nothing
// more: service becomes url, caBundle is set.
func (c *cluster) rewrite(obj map[string]any) {
	point := func(cc map[string]any) {
		svc, ok := cc["service"].(map[string]any)
		if !ok {
			return
		}
		p, _ := svc["path"].(string)
		delete(cc, "service")
		cc["url"] = fmt.Sprintf("https://127.0.0.1:%d%s", c.hookPort, p)
		cc["caBundle"] = base64.StdEncoding.EncodeToString(c.ca.pem)
	}
	if cc, ok := dig(obj, "spec", "conversion", "webhook", "clientConfig").(map[string]any); ok {
		point(cc)
	}
	hooks, _ := obj["webhooks"].([]any)
	for _, h := range hooks {
		if cc, ok := dig(h, "clientConfig").(map[string]any); ok {
			point(cc)
		}
	}
}

// apply is a server-side apply of obj.
func (c *cluster) apply(obj map[string]any) {
	c.t.Helper()
	name := dig(obj, "metadata", "name").(string)
	var p string
	switch obj["kind"] {
	case "CustomResourceDefinition":
		p = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"
	case "MutatingWebhookConfiguration":
		p = "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/"
	case "ValidatingWebhookConfiguration":
		p = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/"
	case "ClusterRole":
		p = "/apis/rbac.authorization.k8s.io/v1/clusterroles/"
	case "ClusterRoleBinding":
		p = "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/"
	case "Role":
		p = "/apis/rbac.authorization.k8s.io/v1/namespaces/" + leaseNamespace + "/roles/"
	case "RoleBinding":
		p = "/apis/rbac.authorization.k8s.io/v1/namespaces/" + leaseNamespace + "/rolebindings/"
	default:
		c.t.Fatalf("no path for kind %v", obj["kind"])
	}
	body, err := json.Marshal(obj)
	require.NoError(c.t, err)
	r := c.api.do(c.t, http.MethodPatch, p+name+"?fieldManager=operatorcheck&force=true", "application/apply-patch+yaml", body)
	require.Contains(c.t, []int{200, 201}, r.code, "applying %s %s: %s", obj["kind"], name, r.body)
}

// waitFor retries f until it succeeds, failing with p's log when p exits
// or the time is up.
func (c *cluster) waitFor(p *proc, timeout time.Duration, f func() error) {
	c.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := f()
		if err == nil {
			return
		}
		if p.exited() || time.Now().After(deadline) {
			c.t.Fatalf("%s not ready: %v\n%s", p.name, err, p.tail())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// eventually retries f for up to timeout.
func (c *cluster) eventually(timeout time.Duration, f func() error) {
	c.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := f()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			tail := ""
			if c.op != nil {
				tail = c.op.p.tail()
			}
			c.t.Fatalf("after %v: %v\n%s", timeout, err, tail)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func get(hc *http.Client, url string) error {
	resp, err := hc.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	return nil
}

func token(t *testing.T) string {
	b := make([]byte, 16)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return fmt.Sprintf("%x", b)
}

// apiClient talks to the apiserver as admin, as kubectl does: JSON in
// and out, warnings from the Warning headers.
type apiClient struct {
	base, token string
	hc          *http.Client
}

type reply struct {
	code     int
	body     []byte
	warnings []string
}

func (a *apiClient) try(method, p, contentType string, body []byte) (*reply, error) {
	req, err := http.NewRequestWithContext(context.Background(), method, a.base+p, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+a.token)
	req.Header.Set("Accept", "application/json")
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	r := &reply{code: resp.StatusCode, body: b}
	for _, w := range resp.Header.Values("Warning") {
		r.warnings = append(r.warnings, warningText(w))
	}
	return r, nil
}

func (a *apiClient) do(t *testing.T, method, p, contentType string, body []byte) *reply {
	t.Helper()
	r, err := a.try(method, p, contentType, body)
	require.NoError(t, err)
	return r
}

// call sends obj as JSON: a merge patch for PATCH, unless obj is a
// jsonPatch.
func (a *apiClient) call(t *testing.T, method, p string, obj any) *reply {
	t.Helper()
	ct := "application/json"
	if method == http.MethodPatch {
		ct = "application/merge-patch+json"
		if _, ok := obj.(jsonPatch); ok {
			ct = "application/json-patch+json"
		}
	}
	var body []byte
	if obj != nil {
		var err error
		body, err = json.Marshal(obj)
		require.NoError(t, err)
	}
	return a.do(t, method, p, ct, body)
}

func (a *apiClient) mustCreate(t *testing.T, p string, obj any) *reply {
	t.Helper()
	r := a.call(t, http.MethodPost, p, obj)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	return r
}

// jsonPatch is an RFC 6902 patch.
type jsonPatch []map[string]any

// warningText reads the text of a `299 - "TEXT"` header.
func warningText(h string) string {
	_, rest, ok := strings.Cut(h, " - ")
	if !ok {
		return h
	}
	s, err := strconv.Unquote(rest)
	if err != nil {
		return rest
	}
	return s
}

// decode reads a JSON object, numbers as json.Number (their exact text).
func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	require.NoError(t, d.Decode(&m), "%s", b)
	return m
}

// dig follows keys through nested objects; nil where one is missing.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}
