//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/stretchr/testify/assert"
)

// Settings, from the environment:
//
//	PARAMKIT_E2E=skip      skip every test when the binaries are missing (without it such a run fails)
//	PARAMKIT_E2E_BIN       directory holding kube-apiserver and etcd (default: bin, as build.sh makes it)
//	PARAMKIT_E2E_PARAMCTL  a paramctl binary to serve the webhooks (default: built from this checkout)
//	PARAMKIT_E2E_DIRECT=1  point the apiserver straight at paramctl instead of through the recording proxy
//	PARAMKIT_E2E_KEEP=1    keep the run's directory (certificates, logs, etcd data) and print its path
const (
	envSkip     = "PARAMKIT_E2E"
	envBin      = "PARAMKIT_E2E_BIN"
	envParamctl = "PARAMKIT_E2E_PARAMCTL"
	envDirect   = "PARAMKIT_E2E_DIRECT"
	envKeep     = "PARAMKIT_E2E_KEEP"
)

// cl is the cluster every test drives; nil when the tests skip.
var (
	cl         *cluster
	skipReason string
)

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	bins, reason := findBinaries()
	if reason != "" {
		skip, msg := decideSkip(reason, os.Getenv(envSkip))
		fmt.Fprintln(os.Stderr, msg)
		if !skip {
			// Without -v, go test would print a bare "ok" for a run in
			// which every test skipped: fail instead, saying why.
			return 1
		}
		skipReason = reason
		return m.Run()
	}
	start := time.Now()
	c, err := startCluster(bins)
	if c != nil {
		defer c.stop()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: could not start the cluster: %v\n", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "e2e: etcd, kube-apiserver and paramctl webhook ready on loopback in %v (run directory %s)\n",
		time.Since(start).Round(100*time.Millisecond), c.dir)
	cl = c
	code := m.Run()
	if code != 0 {
		fmt.Fprintf(os.Stderr, "e2e: servers' logs are in %s (kept)\n", c.dir)
		c.keep = true
	}
	return code
}

// decideSkip says what a run without the servers' binaries does: it fails,
// saying why and how to build them, unless PARAMKIT_E2E=skip asks to skip
// every test on purpose (then it still says why).
func decideSkip(reason, env string) (skip bool, msg string) {
	if env == "skip" {
		return true, "e2e: skipping every test (" + envSkip + "=skip): " + reason
	}
	return false, "e2e: FAIL: no test ran: " + reason + "; set " + envSkip + "=skip to skip the end-to-end tests on purpose"
}

// need skips t when there is no cluster, saying why.
func need(t testing.TB) *cluster {
	t.Helper()
	if cl == nil {
		t.Skip(skipReason)
	}
	return cl
}

type binaries struct{ apiserver, etcd string }

func findBinaries() (binaries, string) {
	dir := os.Getenv(envBin)
	if dir == "" {
		dir = "bin"
	}
	dir, _ = filepath.Abs(dir)
	b := binaries{apiserver: filepath.Join(dir, "kube-apiserver"), etcd: filepath.Join(dir, "etcd")}
	var missing []string
	for _, f := range []string{b.apiserver, b.etcd} {
		if executable(f) != nil {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		return b, fmt.Sprintf("%s not built: run ./build.sh in test/e2e first (kube-apiserver takes about five minutes on two cores once its modules are downloaded), or set %s to a directory holding kube-apiserver and etcd",
			strings.Join(missing, " and "), envBin)
	}
	return b, ""
}

// cluster is one run's etcd, kube-apiserver and paramctl webhook, all on
// loopback, with the kudo.dev CRDs and the admission webhooks installed.
type cluster struct {
	dir    string
	keep   bool
	procs  []*process
	api    *client
	rec    *recorder    // nil when the apiserver calls paramctl directly
	hook   *http.Client // trusts the webhook's certificate
	proxy  *http.Server
	caPEM  []byte
	hookTo string           // paramctl's base URL
	cc     *clientCertHooks // the webhooks only the apiserver may call

	etcdURL string
}

func (c *cluster) stop() {
	if c.proxy != nil {
		_ = c.proxy.Close()
	}
	// The apiserver first, then etcd under it, then the webhook.
	for i := len(c.procs) - 1; i >= 0; i-- {
		c.procs[i].stop()
	}
	if c.keep || os.Getenv(envKeep) == "1" {
		fmt.Fprintf(os.Stderr, "e2e: kept %s\n", c.dir)
		return
	}
	_ = os.RemoveAll(c.dir)
}

func startCluster(bins binaries) (*cluster, error) {
	dir, err := os.MkdirTemp("", "paramkit-e2e-")
	if err != nil {
		return nil, err
	}
	c := &cluster{dir: dir}
	if err := c.start(bins); err != nil {
		c.keep = true
		return c, err
	}
	return c, nil
}

func (c *cluster) start(bins binaries) error {
	paramctl, err := paramctlBinary(c.dir)
	if err != nil {
		return err
	}
	ca, err := newAuthority("paramkit-e2e-ca")
	if err != nil {
		return err
	}
	c.caPEM = ca.pem
	caFile := filepath.Join(c.dir, "ca.crt")
	if err := os.WriteFile(caFile, ca.pem, 0o600); err != nil {
		return err
	}
	apiCert, apiKey, err := ca.issue(c.dir, "kube-apiserver", 2)
	if err != nil {
		return err
	}
	hookCert, hookKey, err := ca.issue(c.dir, "webhook", 3)
	if err != nil {
		return err
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(ca.pem)

	// paramctl webhook, and the recording proxy in front of it
	hookPort, err := freePort()
	if err != nil {
		return err
	}
	schemas, err := filepath.Abs(filepath.Join("testdata", "schemas"))
	if err != nil {
		return err
	}
	hookAddr := fmt.Sprintf("127.0.0.1:%d", hookPort)
	hook, err := startProcess(c.dir, "paramctl-webhook", paramctl, "webhook",
		"--cert", hookCert, "--key", hookKey, "--addr", hookAddr, "--schemas", schemas, "-v")
	if err != nil {
		return err
	}
	c.procs = append(c.procs, hook)
	tlsClient := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		TLSClientConfig:   &tls.Config{RootCAs: roots},
		ForceAttemptHTTP2: true,
		Proxy:             nil,
	}}
	if err := hook.waitReady(time.Minute, func(ctx context.Context) error {
		return httpOK(ctx, tlsClient, "https://"+hookAddr+"/healthz", "", "")
	}); err != nil {
		return fmt.Errorf("%w\n(is %s a paramctl with the webhook command? set %s to one that has it)", err, paramctl, envParamctl)
	}
	c.hookTo = "https://" + hookAddr
	c.hook = tlsClient
	if c.cc, err = c.startClientCertHooks(paramctl, hookCert, hookKey, schemas, tlsClient); err != nil {
		return err
	}
	if os.Getenv(envDirect) != "1" {
		if err := c.startProxy(hookCert, hookKey, tlsClient.Transport); err != nil {
			return err
		}
	}

	// etcd and kube-apiserver, which presents the client certificate
	// the webhooks started with --client-ca ask for (clientcert_test.go).
	k, err := startKube(c.dir, bins, ca, apiCert, apiKey, "--admission-control-config-file="+c.cc.admissionConfig)
	if k != nil {
		c.procs = append(c.procs, k.procs...)
	}
	if err != nil {
		return err
	}
	c.api, c.etcdURL = k.api, k.etcdURL
	apiserver := k.procs[len(k.procs)-1]
	// As a KUDO cluster did before the upgrade: the CRDs store v1beta1 and
	// objects are written in it. Then v1beta2 becomes the storage version
	// (KEP-33's upgrade step 2); the objects stay in etcd as v1beta1 until
	// something rewrites them.
	if err := c.install("v1beta1"); err != nil {
		return fmt.Errorf("%w\n%s\n%s", err, apiserver.tail(), hook.tail())
	}
	if err := c.seedLegacy(); err != nil {
		return fmt.Errorf("writing objects while v1beta1 is stored: %w\n%s", err, hook.tail())
	}
	if err := c.install("v1beta2"); err != nil {
		return fmt.Errorf("%w\n%s\n%s", err, apiserver.tail(), hook.tail())
	}
	return nil
}

// kube is an etcd and a kube-apiserver on loopback, and a client of the
// apiserver as its one user (system:masters).
type kube struct {
	procs   []*process // etcd, then the apiserver
	api     *client
	etcdURL string
	token   string
}

// startKube starts etcd and kube-apiserver in dir, the apiserver serving
// apiCert, trusted through ca, with the extra flags, and waits until the
// apiserver is ready. The processes it started are in the result even
// when it fails.
func startKube(dir string, bins binaries, ca *authority, apiCert, apiKey string, extra ...string) (*kube, error) {
	k := &kube{}
	saKey, saPub, err := serviceAccountKeys(dir)
	if err != nil {
		return k, err
	}
	token := randomToken()
	tokenFile := filepath.Join(dir, "tokens.csv")
	if err := os.WriteFile(tokenFile, []byte(token+",paramkit-e2e,paramkit-e2e,system:masters\n"), 0o600); err != nil {
		return k, err
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(ca.pem)

	// etcd
	clientPort, err := freePort()
	if err != nil {
		return k, err
	}
	peerPort, err := freePort()
	if err != nil {
		return k, err
	}
	etcdURL := fmt.Sprintf("http://127.0.0.1:%d", clientPort)
	peerURL := fmt.Sprintf("http://127.0.0.1:%d", peerPort)
	etcd, err := startProcess(dir, "etcd", bins.etcd,
		"--name=e2e",
		"--data-dir="+filepath.Join(dir, "etcd-data"),
		"--listen-client-urls="+etcdURL,
		"--advertise-client-urls="+etcdURL,
		"--listen-peer-urls="+peerURL,
		"--initial-advertise-peer-urls="+peerURL,
		"--initial-cluster=e2e="+peerURL,
		"--unsafe-no-fsync", // throwaway data: no need to wait for the disk
	)
	if err != nil {
		return k, err
	}
	k.procs = append(k.procs, etcd)
	plain := &http.Client{Timeout: 5 * time.Second}
	if err := etcd.waitReady(time.Minute, func(ctx context.Context) error {
		return httpOK(ctx, plain, etcdURL+"/health", "", `"health":"true"`)
	}); err != nil {
		return k, err
	}

	// kube-apiserver
	apiPort, err := freePort()
	if err != nil {
		return k, err
	}
	apiserver, err := startProcess(dir, "kube-apiserver", bins.apiserver, append([]string{
		"--etcd-servers=" + etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(apiPort),
		"--tls-cert-file=" + apiCert,
		"--tls-private-key-file=" + apiKey,
		"--cert-dir=" + filepath.Join(dir, "apiserver-certs"),
		"--token-auth-file=" + tokenFile,
		"--authorization-mode=AlwaysAllow",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + saPub,
		"--service-account-signing-key-file=" + saKey,
		"--service-cluster-ip-range=10.0.0.0/24",
		"--disable-admission-plugins=ServiceAccount",
		// Without a node to run on, the apiserver would advertise an
		// address of the host's network; "none" keeps it on 127.0.0.1.
		"--endpoint-reconciler-type=none",
		"--enable-priority-and-fairness=false",
		"--profiling=false",
	}, extra...)...)
	if err != nil {
		return k, err
	}
	k.procs = append(k.procs, apiserver)
	k.api = &client{
		base:  fmt.Sprintf("https://127.0.0.1:%d", apiPort),
		token: token,
		hc: &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{
			TLSClientConfig:   &tls.Config{RootCAs: roots},
			ForceAttemptHTTP2: true,
			Proxy:             nil,
		}},
	}
	if err := apiserver.waitReady(3*time.Minute, func(ctx context.Context) error {
		return httpOK(ctx, k.api.hc, k.api.base+"/readyz", token, "")
	}); err != nil {
		return k, err
	}
	k.etcdURL, k.token = etcdURL, token
	return k, nil
}

// paramctlBinary builds paramctl from this checkout (the replace in
// go.mod points at it) unless PARAMKIT_E2E_PARAMCTL names one.
func paramctlBinary(dir string) (string, error) {
	if p := os.Getenv(envParamctl); p != "" {
		p, _ = filepath.Abs(p)
		if err := executable(p); err != nil {
			return "", fmt.Errorf("%s: %w", envParamctl, err)
		}
		return p, nil
	}
	out := filepath.Join(dir, "paramctl")
	cmd := exec.Command("go", "build", "-o", out, "github.com/paramkit/paramkit/examples/paramctl")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building paramctl: %v\n%s", err, b)
	}
	return out, nil
}

// httpOK checks that url answers 200 (with want in its body, when given).
func httpOK(ctx context.Context, hc *http.Client, url, token, want string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s: %s", url, resp.Status, bytes.TrimSpace(body))
	}
	if want != "" && !bytes.Contains(body, []byte(want)) {
		return fmt.Errorf("GET %s: %s", url, bytes.TrimSpace(body))
	}
	return nil
}

// manifests are the CRDs and webhook configurations under
// testdata/manifests, and where each is applied.
var manifests = []struct{ file, path string }{
	{"operators.yaml", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/operators.kudo.dev"},
	{"operatorversions.yaml", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/operatorversions.kudo.dev"},
	{"instances.yaml", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/instances.kudo.dev"},
	{"mutating.yaml", "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/paramkit-e2e"},
	{"validating.yaml", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/paramkit-e2e"},
}

// install applies the manifests with storage as the CRDs' storage version
// (server-side apply, so that installing again is an upgrade) and waits
// until the apiserver serves the CRDs and calls the admission webhooks.
func (c *cluster) install(storage string) error {
	vars := struct{ URL, CABundle, Storage string }{c.hookTo, base64.StdEncoding.EncodeToString(c.caPEM), storage}
	if c.rec != nil {
		vars.URL = c.rec.url
	}
	for _, m := range manifests {
		tmpl, err := template.ParseFiles(filepath.Join("testdata", "manifests", m.file))
		if err != nil {
			return err
		}
		var doc bytes.Buffer
		if err := tmpl.Execute(&doc, vars); err != nil {
			return fmt.Errorf("%s: %w", m.file, err)
		}
		resp, err := c.api.do(context.Background(), http.MethodPatch, m.path+"?fieldManager=paramkit-e2e&force=true", "application/apply-patch+yaml", doc.Bytes())
		if err != nil {
			return fmt.Errorf("applying %s: %w", m.file, err)
		}
		if resp.code != http.StatusOK && resp.code != http.StatusCreated {
			return fmt.Errorf("applying %s: %d %s", m.file, resp.code, resp.body)
		}
	}
	for _, crd := range []string{"operators", "operatorversions", "instances"} {
		if err := c.waitEstablished(crd+".kudo.dev", storage); err != nil {
			return err
		}
	}
	return c.waitAdmission()
}

// waitEstablished waits until the CRD is Established and its v1beta1 and
// v1beta2 collections answer.
func (c *cluster) waitEstablished(name, storage string) error {
	deadline := time.Now().Add(time.Minute)
	for {
		err := func() error {
			resp, err := c.api.do(context.Background(), http.MethodGet, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"+name, "", nil)
			if err != nil {
				return err
			}
			var crd struct {
				Spec struct {
					Names    struct{ Plural string }
					Versions []struct {
						Name    string
						Storage bool
					}
				}
				Status struct {
					Conditions []struct{ Type, Status string }
				}
			}
			if err := json.Unmarshal(resp.body, &crd); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			established := false
			for _, cond := range crd.Status.Conditions {
				if cond.Type == "Established" && cond.Status == "True" {
					established = true
				}
			}
			if !established {
				return fmt.Errorf("CRD %s not established: %s", name, resp.body)
			}
			for _, v := range crd.Spec.Versions {
				if v.Storage && v.Name != storage {
					return fmt.Errorf("CRD %s still stores %s", name, v.Name)
				}
			}
			for _, v := range []string{"v1beta1", "v1beta2"} {
				r, err := c.api.do(context.Background(), http.MethodGet, "/apis/kudo.dev/"+v+"/"+crd.Spec.Names.Plural, "", nil)
				if err != nil {
					return err
				}
				if r.code != http.StatusOK {
					return fmt.Errorf("GET kudo.dev/%s %s: %d %s", v, crd.Spec.Names.Plural, r.code, r.body)
				}
			}
			return nil
		}()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// waitAdmission waits until the apiserver calls the admission webhooks:
// the admission plugins pick up new configurations a moment after they
// are created. A dry-run create of an Instance with an invalid parameter
// is denied once /validate is called; a valid one comes back defaulted
// once /mutate is.
func (c *cluster) waitAdmission() error {
	if err := c.createNamespace(probeNamespace); err != nil {
		return err
	}
	const path = "/apis/kudo.dev/v1beta2/namespaces/" + probeNamespace + "/instances?dryRun=All"
	bad := instance("admission-probe", "kep-0.2.0", map[string]any{"nodeCount": 0})
	good := instance("admission-probe", "kep-0.2.0", map[string]any{})
	deadline := time.Now().Add(time.Minute)
	for {
		err := func() error {
			r, err := c.api.doJSON(context.Background(), http.MethodPost, path, bad)
			if err != nil {
				return err
			}
			if r.code != http.StatusBadRequest && r.code != http.StatusUnprocessableEntity && r.code != http.StatusForbidden {
				return fmt.Errorf("an invalid Instance was not denied yet: %d %s", r.code, r.body)
			}
			r, err = c.api.doJSON(context.Background(), http.MethodPost, path, good)
			if err != nil {
				return err
			}
			if r.code != http.StatusCreated || !bytes.Contains(r.body, []byte(`"nodeCount":3`)) {
				return fmt.Errorf("a valid Instance was not defaulted yet: %d %s", r.code, r.body)
			}
			return nil
		}()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(250 * time.Millisecond)
	}
}

const probeNamespace = "paramkit-e2e-probe"

// client talks to the apiserver with plain HTTP and JSON as the test's
// only user (system:masters, by bearer token).
type client struct {
	base, token string
	hc          *http.Client
}

type response struct {
	code     int
	body     []byte
	warnings []string
}

func (c *client) do(ctx context.Context, method, path, contentType string, body []byte) (*response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Accept", "application/json")
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	r := &response{code: resp.StatusCode, body: b}
	for _, w := range resp.Header.Values("Warning") {
		r.warnings = append(r.warnings, warningText(w))
	}
	return r, nil
}

func (c *client) doJSON(ctx context.Context, method, path string, obj any) (*response, error) {
	contentType := "application/json"
	if method == http.MethodPatch {
		contentType = "application/merge-patch+json"
	}
	var body []byte
	if obj != nil {
		var err error
		if body, err = json.Marshal(obj); err != nil {
			return nil, err
		}
	}
	return c.do(ctx, method, path, contentType, body)
}

// warningText is the text of an RFC 7234 warning header as the apiserver
// writes it: 299 - "TEXT" with \" and \\ escaped.
func warningText(h string) string {
	_, rest, ok := strings.Cut(h, " - ")
	if !ok || len(rest) < 2 || rest[0] != '"' {
		return h
	}
	var b strings.Builder
	for i := 1; i < len(rest); i++ {
		switch ch := rest[i]; ch {
		case '\\':
			if i+1 < len(rest) {
				i++
				b.WriteByte(rest[i])
			}
		case '"':
			return b.String()
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// errNotJSON marks a body that is not the JSON object a test expected.
var errNotJSON = errors.New("not a JSON object")

// decodeObject reads a JSON object keeping numbers as json.Number, so that
// a test sees exactly the number text the apiserver returned.
func decodeObject(b []byte) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil || m == nil {
		return nil, fmt.Errorf("%w: %s", errNotJSON, b)
	}
	return m, nil
}

// instance is a kudo.dev Instance (apiVersion set by the caller's path; the
// apiserver requires it in the body too, so it is v1beta2 here unless
// parameters is a map of strings).
func instance(name, operatorVersion string, parameters any) map[string]any {
	version := "kudo.dev/v1beta2"
	if _, ok := parameters.(map[string]string); ok {
		version = "kudo.dev/v1beta1"
	}
	return map[string]any{
		"apiVersion": version,
		"kind":       "Instance",
		"metadata":   map[string]any{"name": name},
		"spec": map[string]any{
			"operatorVersion": map[string]any{"name": operatorVersion},
			"parameters":      parameters,
		},
	}
}

// startProxy puts a recording reverse proxy between the apiserver and
// paramctl, serving the webhook's certificate, so that tests can see what
// the apiserver sends (the URL's query, the objects of each review).
func (c *cluster) startProxy(certFile, keyFile string, upstream http.RoundTripper) error {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	c.rec = &recorder{url: "https://" + l.Addr().String(), upstream: c.hookTo, transport: upstream}
	c.proxy = &http.Server{
		Handler:           c.rec,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          nil,
	}
	go func() { _ = c.proxy.ServeTLS(l, "", "") }()
	return nil
}

// TestDecideSkip runs even without the servers (with PARAMKIT_E2E=skip):
// a run that cannot start them fails unless asked to skip.
func TestDecideSkip(t *testing.T) {
	skip, msg := decideSkip("bin/etcd not built", "")
	assert.False(t, skip)
	assert.Equal(t, "e2e: FAIL: no test ran: bin/etcd not built; set PARAMKIT_E2E=skip to skip the end-to-end tests on purpose", msg)
	skip, msg = decideSkip("bin/etcd not built", "skip")
	assert.True(t, skip)
	assert.Equal(t, "e2e: skipping every test (PARAMKIT_E2E=skip): bin/etcd not built", msg)
	skip, _ = decideSkip("bin/etcd not built", "1")
	assert.False(t, skip, "only skip skips")
}
