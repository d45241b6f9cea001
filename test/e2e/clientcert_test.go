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
	"path/filepath"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clientCertHooks are two more `paramctl webhook` processes, started with
// --client-ca so that only callers with a client certificate signed by
// the run's client CA reach them: strict guards /validate, /mutate and
// /convert; openConvert leaves /convert open (--convert-without-client-cert).
// The apiserver presents that certificate through its
// --admission-control-config-file: an AdmissionConfiguration whose
// WebhookAdmissionConfiguration names a kubeconfig with a user for each
// webhook's host:port. The apiserver calls them directly, not through the
// recording proxy (a proxy would present a certificate of its own).
type clientCertHooks struct {
	caFile                      string // the CA paramctl --client-ca reads
	certFile, keyFile           string // the apiserver's client certificate
	strict, openConvert         string // base URLs, https://127.0.0.1:PORT
	strictAddr, openConvertAddr string // their host:port
	kubeconfig, admissionConfig string
}

func (c *cluster) startClientCertHooks(paramctl, hookCert, hookKey, schemas string, trust *http.Client) (*clientCertHooks, error) {
	ca, err := newAuthority("paramkit-e2e-apiserver-clients")
	if err != nil {
		return nil, err
	}
	h := &clientCertHooks{caFile: filepath.Join(c.dir, "client-ca.crt")}
	if err := os.WriteFile(h.caFile, ca.pem, 0o600); err != nil {
		return nil, err
	}
	if h.certFile, h.keyFile, err = ca.issueClient(c.dir, "kube-apiserver-client", 2); err != nil {
		return nil, err
	}
	start := func(name string, extra ...string) (string, error) {
		port, err := freePort()
		if err != nil {
			return "", err
		}
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		args := append([]string{"webhook", "--cert", hookCert, "--key", hookKey, "--addr", addr, "--schemas", schemas,
			"--client-ca", h.caFile, "-v"}, extra...)
		p, err := startProcess(c.dir, name, paramctl, args...)
		if err != nil {
			return "", err
		}
		c.procs = append(c.procs, p)
		// /healthz answers without a certificate: that is what probes do.
		if err := p.waitReady(time.Minute, func(ctx context.Context) error {
			return httpOK(ctx, trust, "https://"+addr+"/healthz", "", "")
		}); err != nil {
			return "", fmt.Errorf("%w\n(does %s know --client-ca? set %s to one that does)", err, paramctl, envParamctl)
		}
		return addr, nil
	}
	if h.strictAddr, err = start("paramctl-webhook-client-ca"); err != nil {
		return nil, err
	}
	if h.openConvertAddr, err = start("paramctl-webhook-client-ca-open-convert", "--convert-without-client-cert"); err != nil {
		return nil, err
	}
	h.strict, h.openConvert = "https://"+h.strictAddr, "https://"+h.openConvertAddr

	// The kubeconfig names a user per webhook host:port (the URL's, as the
	// apiserver matches it; a Service webhook would be NAME.NAMESPACE.svc:PORT,
	// or a pattern such as *.kudo-system.svc).
	var kc strings.Builder
	kc.WriteString("apiVersion: v1\nkind: Config\nusers:\n")
	for _, addr := range []string{h.strictAddr, h.openConvertAddr} {
		fmt.Fprintf(&kc, "- name: %q\n  user:\n    client-certificate: %s\n    client-key: %s\n", addr, h.certFile, h.keyFile)
	}
	h.kubeconfig = filepath.Join(c.dir, "webhook-kubeconfig.yaml")
	if err := os.WriteFile(h.kubeconfig, []byte(kc.String()), 0o600); err != nil {
		return nil, err
	}
	var ac strings.Builder
	ac.WriteString("apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n")
	for _, plugin := range []string{"ValidatingAdmissionWebhook", "MutatingAdmissionWebhook"} {
		fmt.Fprintf(&ac, "- name: %s\n  configuration:\n    apiVersion: apiserver.config.k8s.io/v1\n    kind: WebhookAdmissionConfiguration\n    kubeConfigFile: %q\n", plugin, h.kubeconfig)
	}
	h.admissionConfig = filepath.Join(c.dir, "admission-config.yaml")
	if err := os.WriteFile(h.admissionConfig, []byte(ac.String()), 0o600); err != nil {
		return nil, err
	}
	return h, nil
}

// caller is an HTTPS client that trusts the webhooks' serving certificate
// and presents the certificate in certFile and keyFile (none when "").
func (c *cluster) caller(t *testing.T, certFile, keyFile string) *http.Client {
	t.Helper()
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(c.caPEM)
	cfg := &tls.Config{RootCAs: roots}
	if certFile != "" {
		pair, err := tls.LoadX509KeyPair(certFile, keyFile)
		require.NoError(t, err)
		cfg.Certificates = []tls.Certificate{pair}
	}
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: cfg, ForceAttemptHTTP2: true, Proxy: nil}}
	t.Cleanup(hc.CloseIdleConnections)
	return hc
}

// review is a review of the kind path takes, of an Instance.
func review(t *testing.T, path string) []byte {
	t.Helper()
	obj := instance("direct", "kep-0.2.0", map[string]any{"clusterName": "a"})
	var r any
	switch path {
	case "/convert":
		r = map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
			"request": map[string]any{"uid": "e2e-direct", "desiredAPIVersion": "kudo.dev/v1beta1", "objects": []any{obj}}}
	default:
		r = map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
			"request": map[string]any{"uid": "e2e-direct", "operation": "CREATE", "namespace": "default", "name": "direct",
				"kind": map[string]any{"group": "kudo.dev", "version": "v1beta2", "kind": "Instance"}, "object": obj}}
	}
	b, err := json.Marshal(r)
	require.NoError(t, err)
	return b
}

// post sends path's review to base and returns the status, or the error
// of a refused handshake.
func post(t *testing.T, hc *http.Client, base, path string) (int, string, error) {
	t.Helper()
	var resp *http.Response
	var err error
	if path == "/healthz" {
		resp, err = hc.Get(base + path)
	} else {
		resp, err = hc.Post(base+path+"?timeout=30s", "application/json", bytes.NewReader(review(t, path)))
	}
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), nil
}

// TestClientCertificateDirectCallers: called directly, the webhooks
// started with --client-ca answer the apiserver's certificate on every
// path, refuse a caller without one (401) on the review paths (but
// /convert with --convert-without-client-cert), and end the handshake of
// a certificate their CA did not sign; /healthz answers anyone.
func TestClientCertificateDirectCallers(t *testing.T) {
	c := need(t)
	const refused = -1
	hooks := []struct {
		name, base string
		none       map[string]int
	}{
		{"strict", c.cc.strict, map[string]int{"/healthz": 200, "/validate": 401, "/mutate": 401, "/convert": 401}},
		{"open /convert", c.cc.openConvert, map[string]int{"/healthz": 200, "/validate": 401, "/mutate": 401, "/convert": 200}},
	}
	// The webhook's own serving certificate: signed by the other CA.
	callers := []struct {
		name string
		hc   *http.Client
		want func(none int) int
	}{
		{"no certificate", c.caller(t, "", ""), func(none int) int { return none }},
		{"the apiserver's certificate", c.caller(t, c.cc.certFile, c.cc.keyFile), func(int) int { return 200 }},
		{"a certificate of another CA", c.caller(t, filepath.Join(c.dir, "webhook.crt"), filepath.Join(c.dir, "webhook.key")), func(int) int { return refused }},
	}
	for _, h := range hooks {
		t.Run(h.name+"/the handshake of another CA's certificate ends", func(t *testing.T) {
			c.handshakeRefused(t, h.base, filepath.Join(c.dir, "webhook.crt"), filepath.Join(c.dir, "webhook.key"))
		})
		for _, who := range callers {
			for _, p := range []string{"/healthz", "/validate", "/mutate", "/convert"} {
				t.Run(h.name+"/"+who.name+p, func(t *testing.T) {
					code, body, err := post(t, who.hc, h.base, p)
					want := who.want(h.none[p])
					if want == refused {
						// The error the request meets depends on timing
						// (TLS 1.3 ends the client's side of the handshake
						// first); handshakeRefused reads the server's alert.
						require.Error(t, err, "answered %d %s", code, body)
						return
					}
					require.NoError(t, err)
					require.Equal(t, want, code, body)
					switch {
					case code == 401:
						assert.Contains(t, body, "needs a client certificate signed by the webhook's client CA")
					case p == "/convert":
						assert.Contains(t, body, `"status":"Success"`)
						assert.Contains(t, body, `"apiVersion":"kudo.dev/v1beta1"`)
					case p != "/healthz":
						assert.Contains(t, body, `"allowed":true`)
					}
				})
			}
		}
	}
}

// handshakeRefused shakes hands with the webhook at base presenting the
// certificate in certFile and keyFile and checks that the server ends the
// handshake over it: with TLS 1.3 the client's side completes first, and
// the server's alert is what the first read returns.
func (c *cluster) handshakeRefused(t *testing.T, base, certFile, keyFile string) {
	t.Helper()
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(c.caPEM)
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	require.NoError(t, err)
	for _, v := range []uint16{tls.VersionTLS12, tls.VersionTLS13} {
		conn, err := tls.Dial("tcp", strings.TrimPrefix(base, "https://"), &tls.Config{RootCAs: roots, Certificates: []tls.Certificate{pair}, MaxVersion: v})
		if err == nil {
			require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
			_, err = conn.Read(make([]byte, 1))
			conn.Close()
		}
		require.Error(t, err)
		assert.Contains(t, err.Error(), "tls: bad certificate", "TLS version %x", v)
	}
}

// labelledNamespace creates a namespace of the test's own labelled
// paramkit-e2e/webhook=VALUE: the run's main webhooks skip it, and the
// test's own webhook configurations select it.
func (c *cluster) labelledNamespace(t *testing.T, value string) string {
	t.Helper()
	name := fmt.Sprintf("client-cert-%s-%d", value, namespaces.Add(1))
	r, err := c.api.doJSON(context.Background(), http.MethodPost, "/api/v1/namespaces", map[string]any{
		"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]any{"name": name, "labels": map[string]any{"paramkit-e2e/webhook": value}}})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	return name
}

// installAdmission registers /validate and /mutate of base (a URL whose
// host:port the apiserver's kubeconfig may or may not name) for Instances
// in namespaces labelled paramkit-e2e/webhook=value.
func (c *cluster) installAdmission(t *testing.T, value, base string) {
	t.Helper()
	for _, kind := range []string{"Validating", "Mutating"} {
		endpoint := "/validate"
		if kind == "Mutating" {
			endpoint = "/mutate"
		}
		name := "paramkit-e2e-client-cert-" + value
		cfg := map[string]any{
			"apiVersion": "admissionregistration.k8s.io/v1", "kind": kind + "WebhookConfiguration",
			"metadata": map[string]any{"name": name},
			"webhooks": []any{map[string]any{
				"name":         strings.ToLower(kind) + "." + value + ".paramkit.dev",
				"clientConfig": map[string]any{"url": base + endpoint, "caBundle": base64.StdEncoding.EncodeToString(c.caPEM)},
				"rules": []any{map[string]any{"apiGroups": []any{"kudo.dev"}, "apiVersions": []any{"v1beta2"},
					"operations": []any{"CREATE", "UPDATE"}, "resources": []any{"instances"}, "scope": "Namespaced"}},
				"namespaceSelector":       map[string]any{"matchLabels": map[string]any{"paramkit-e2e/webhook": value}},
				"matchPolicy":             "Equivalent",
				"sideEffects":             "None",
				"admissionReviewVersions": []any{"v1"},
				"failurePolicy":           "Fail",
				"timeoutSeconds":          10,
			}},
		}
		path := "/apis/admissionregistration.k8s.io/v1/" + strings.ToLower(kind) + "webhookconfigurations/" + name + "?fieldManager=paramkit-e2e&force=true"
		body, err := json.Marshal(cfg)
		require.NoError(t, err)
		r, err := c.api.do(context.Background(), http.MethodPatch, path, "application/apply-patch+yaml", body)
		require.NoError(t, err)
		require.Contains(t, []int{http.StatusOK, http.StatusCreated}, r.code, "%s", r.body)
	}
}

// eventually retries check until it returns nil, for up to a minute (the
// apiserver picks up webhook configurations and CRD changes a moment
// after they are written), and fails with its last error.
func eventually(t *testing.T, what string, check func() error) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v", what, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// TestClientCertificateAdmission: the apiserver, configured with a client
// certificate for the webhook's host:port, gets admission answers from a
// webhook that refuses callers without one; the same webhook reached
// through a host:port its kubeconfig does not name (localhost instead of
// 127.0.0.1) refuses the apiserver, which then refuses the write.
func TestClientCertificateAdmission(t *testing.T) {
	c := need(t)
	ns := c.labelledNamespace(t, "client-cert")
	c.installAdmission(t, "client-cert", c.cc.strict)
	coll := path("v1beta2", "instances", ns, "")
	eventually(t, "the webhooks with a client certificate answer", func() error {
		r, err := c.api.doJSON(context.Background(), http.MethodPost, coll+"?dryRun=All", instance("probe", "kep-0.2.0", map[string]any{}))
		if err != nil {
			return err
		}
		if r.code != http.StatusCreated || !bytes.Contains(r.body, []byte(`"nodeCount":3`)) {
			return fmt.Errorf("not defaulted yet: %d %s", r.code, r.body)
		}
		return nil
	})

	created, resp := c.create(t, "v1beta2", "instances", ns, instance("kep", "kep-0.2.0", map[string]any{"clusterName": "prod"}))
	assert.Equal(t, plain(t, "3"), at(t, created, "spec.parameters.nodeCount"), "/mutate's default")
	assert.Contains(t, resp.warnings, "plan: deploy", "/validate's plan")
	msg := c.denied(t, http.MethodPost, coll, instance("bad", "kep-0.2.0", map[string]any{"nodeCount": 0}))
	assert.Contains(t, msg, "/spec/parameters/nodeCount")
	assert.Contains(t, msg, `"validating.client-cert.paramkit.dev" denied`)
	// Through v1beta1 too: converted for admission by the run's main
	// conversion webhook, then admitted by these.
	msg = c.denied(t, http.MethodPost, path("v1beta1", "instances", ns, ""), instance("bad", "kep-0.2.0", map[string]string{"nodeCount": "0"}))
	assert.Contains(t, msg, "/spec/parameters/nodeCount")

	t.Run("without a kubeconfig entry the apiserver is refused", func(t *testing.T) {
		anon := c.labelledNamespace(t, "anonymous")
		c.installAdmission(t, "anonymous", strings.Replace(c.cc.strict, "127.0.0.1", "localhost", 1))
		var last string
		eventually(t, "the webhook refuses the apiserver without a certificate", func() error {
			r, err := c.api.doJSON(context.Background(), http.MethodPost, path("v1beta2", "instances", anon, "")+"?dryRun=All", instance("probe", "kep-0.2.0", map[string]any{}))
			if err != nil {
				return err
			}
			if r.code < 400 {
				return fmt.Errorf("still admitted: %d", r.code)
			}
			last = string(r.body)
			return nil
		})
		assert.Contains(t, last, "failed calling webhook")
		assert.Contains(t, last, ".anonymous.paramkit.dev", "names the webhook")
		t.Logf("the apiserver's refusal: %s", last)
	})
}

// TestClientCertificateConversion: kube-apiserver presents no client
// certificate to a CRD conversion webhook (apiextensions-apiserver builds
// that client from an empty kubeconfig, whatever the AdmissionConfiguration
// says), so a /convert that requires one fails every read that needs a
// conversion; with --convert-without-client-cert the same read works while
// /validate and /mutate stay guarded (TestClientCertificateDirectCallers).
func TestClientCertificateConversion(t *testing.T) {
	c := need(t)
	ns := c.namespace(t)
	apply := func(base string) {
		tmpl, err := template.ParseFiles(filepath.Join("testdata", "manifests", "certprobes.yaml"))
		require.NoError(t, err)
		var doc bytes.Buffer
		require.NoError(t, tmpl.Execute(&doc, map[string]string{"URL": base, "CABundle": base64.StdEncoding.EncodeToString(c.caPEM)}))
		r, err := c.api.do(context.Background(), http.MethodPatch, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/certprobes.kudo.dev?fieldManager=paramkit-e2e&force=true", "application/apply-patch+yaml", doc.Bytes())
		require.NoError(t, err)
		require.Contains(t, []int{http.StatusOK, http.StatusCreated}, r.code, "%s", r.body)
	}
	probe := func(version string) map[string]any {
		return map[string]any{"apiVersion": "kudo.dev/" + version, "kind": "CertProbe", "metadata": map[string]any{"name": "p"}, "spec": map[string]any{"n": 1}}
	}
	read := func() *response {
		r, err := c.api.do(context.Background(), http.MethodGet, path("v1beta1", "certprobes", ns, "p"), "", nil)
		require.NoError(t, err)
		return r
	}

	apply(c.cc.strict)
	eventually(t, "the CRD serves", func() error {
		r, err := c.api.doJSON(context.Background(), http.MethodPost, path("v1beta2", "certprobes", ns, ""), probe("v1beta2"))
		if err != nil {
			return err
		}
		if r.code != http.StatusCreated && r.code != http.StatusConflict {
			return fmt.Errorf("%d %s", r.code, r.body)
		}
		return nil
	})
	var refusal string
	eventually(t, "a read through v1beta1 needs the conversion webhook", func() error {
		r := read()
		if r.code == http.StatusNotFound {
			return fmt.Errorf("not served yet: %s", r.body)
		}
		refusal = fmt.Sprintf("%d %s", r.code, r.body)
		// The CRD may exist from an earlier run in this process (-count)
		// with /convert open: the apiserver takes the new conversion
		// settings a moment after the apply.
		if r.code == http.StatusOK {
			return fmt.Errorf("still converted, the guarded /convert not in use yet: %s", refusal)
		}
		return nil
	})
	assert.Contains(t, refusal, "conversion webhook for kudo.dev/v1beta2, Kind=CertProbe failed", "a /convert that requires a client certificate fails the apiserver's conversion")
	t.Logf("the apiserver's answer with /convert guarded: %s", refusal)

	apply(c.cc.openConvert)
	eventually(t, "with --convert-without-client-cert the read converts", func() error {
		r := read()
		if r.code != http.StatusOK {
			return fmt.Errorf("%d %s", r.code, r.body)
		}
		o, err := decodeObject(r.body)
		if err != nil {
			return err
		}
		if o["apiVersion"] != "kudo.dev/v1beta1" {
			return fmt.Errorf("apiVersion %v", o["apiVersion"])
		}
		return nil
	})
	r, err := c.api.do(context.Background(), http.MethodGet, path("v1beta1", "certprobes", ns, ""), "", nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	assert.Contains(t, string(r.body), `"apiVersion":"kudo.dev/v1beta1"`)
}
