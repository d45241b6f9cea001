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
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bareKube is an etcd and a kube-apiserver of the test's own, nothing
// installed, and an admin kubeconfig (system:masters) for it.
func bareKube(t *testing.T) (*kube, string) {
	need(t)
	bins, reason := findBinaries()
	if reason != "" {
		t.Skip(reason)
	}
	dir := t.TempDir()
	ca, err := newAuthority("paramkit-e2e-deploy-ca")
	require.NoError(t, err)
	apiCert, apiKey, err := ca.issue(dir, "kube-apiserver", 2)
	require.NoError(t, err)
	k, err := startKube(dir, bins, ca, apiCert, apiKey)
	t.Cleanup(func() {
		if k == nil {
			return
		}
		for i := len(k.procs) - 1; i >= 0; i-- {
			k.procs[i].stop()
		}
	})
	require.NoError(t, err)
	kubeconfig := filepath.Join(dir, "kubeconfig")
	require.NoError(t, os.WriteFile(kubeconfig, []byte(fmt.Sprintf(`apiVersion: v1
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
`, k.api.base, base64.StdEncoding.EncodeToString(ca.pem), k.token)), 0o600))
	return k, kubeconfig
}

// kubectl finds kubectl (with its built-in kustomize): in
// PARAMKIT_E2E_BIN, else on PATH. The test skips without it, saying so.
func kubectl(t *testing.T) string {
	if dir := os.Getenv(envBin); dir != "" {
		if p := filepath.Join(dir, "kubectl"); executable(p) == nil {
			return p
		}
	}
	p, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl not found (in " + envBin + " or on PATH): it renders config/default with its kustomize and applies it, as a user does")
	}
	return p
}

// minimalCertManagerCRDs makes the kinds Certificate and Issuer
// (cert-manager.io/v1) exist, so that the apiserver accepts a dry run of
// them. They are not cert-manager's CRDs: their schema keeps any field,
// so they check kind, version, scope and names, not the fields of the
// Certificate (the network here reaches the Go module proxy only, and
// cert-manager ships its CRDs as a release asset).
func minimalCertManagerCRDs() []map[string]any {
	var out []map[string]any
	for _, kind := range []string{"Certificate", "Issuer"} {
		plural := strings.ToLower(kind) + "s"
		out = append(out, map[string]any{
			"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
			"metadata": map[string]any{"name": plural + ".cert-manager.io"},
			"spec": map[string]any{
				"group": "cert-manager.io", "scope": "Namespaced",
				"names": map[string]any{"kind": kind, "listKind": kind + "List", "plural": plural, "singular": strings.ToLower(kind)},
				"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true,
					"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}},
			},
		})
	}
	return out
}

// TestOperatorDeployment applies each example operator's
// config/default to a real kube-apiserver as a user would, with kubectl
// apply -k, as a server-side dry run: every object (CRDs, RBAC,
// ServiceAccount, Namespace, Deployment, PodDisruptionBudget, Service,
// webhook configurations, NetworkPolicy, cert-manager Certificates and
// Issuers) passes the apiserver's validation and admission (PodSecurity
// "restricted" included: the namespace is created for real with the
// label the kustomization gives it, and any warning fails the test), and
// nothing is stored.
func TestOperatorDeployment(t *testing.T) {
	for _, op := range []struct {
		dir, name, ns string
		crds          []string
	}{
		{operatorDir, "paramkit-operator", "paramkit-system", []string{"instances.kudo.dev", "operatorversions.kudo.dev"}},
		{crdOperatorDir, "crd-operator", "crd-operator-system", []string{"caches.example.paramkit.dev"}},
	} {
		t.Run(op.name, func(t *testing.T) { dryRunDeployment(t, op.dir, op.name, op.ns, op.crds) })
	}
}

// dryRunDeployment is TestOperatorDeployment for one operator.
func dryRunDeployment(t *testing.T, dir, name, ns string, crds []string) {
	kc := kubectl(t)
	k, kubeconfig := bareKube(t)
	ctx := context.Background()
	for _, crd := range minimalCertManagerCRDs() {
		body, err := json.Marshal(crd)
		require.NoError(t, err)
		r, err := k.api.do(ctx, http.MethodPatch, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"+crd["metadata"].(map[string]any)["name"].(string)+"?fieldManager=paramkit-e2e", "application/apply-patch+yaml", body)
		require.NoError(t, err)
		require.Contains(t, []int{200, 201}, r.code, "%s", r.body)
	}
	require.Eventually(t, func() bool {
		for _, p := range []string{"certificates", "issuers"} {
			r, err := k.api.do(ctx, http.MethodGet, "/apis/cert-manager.io/v1/"+p, "", nil)
			if err != nil || r.code != http.StatusOK {
				return false
			}
		}
		return true
	}, time.Minute, 100*time.Millisecond, "cert-manager's kinds served")

	run := func(args ...string) (string, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(kc, append([]string{"--kubeconfig", kubeconfig}, args...)...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		require.NoError(t, cmd.Run(), "kubectl %s\n%s%s", strings.Join(args, " "), stdout.String(), stderr.String())
		return stdout.String(), stderr.String()
	}
	config := filepath.Join(dir, "config")
	// The namespace for real: a dry run creates nothing, and the
	// namespaced objects' dry run needs their namespace.
	run("apply", "--server-side", "--field-manager=paramkit-e2e", "-f", filepath.Join(config, "manager", "namespace.yaml"))

	out, stderr := run("apply", "-k", filepath.Join(config, "default"), "--server-side", "--dry-run=server", "--field-manager="+name, "-o", "name")
	t.Logf("kubectl apply -k config/default --server-side --dry-run=server:\n%s", out)
	assert.Empty(t, strings.TrimSpace(stderr), "no warning (PodSecurity, deprecated API, ...)")
	got := strings.Fields(out)
	sort.Strings(got)
	want := []string{
		"certificate.cert-manager.io/" + name + "-ca",
		"certificate.cert-manager.io/" + name + "-serving-cert",
		"clusterrole.rbac.authorization.k8s.io/" + name,
		"clusterrolebinding.rbac.authorization.k8s.io/" + name,
		"deployment.apps/" + name,
		"issuer.cert-manager.io/" + name + "-ca",
		"issuer.cert-manager.io/" + name + "-selfsigned",
		"mutatingwebhookconfiguration.admissionregistration.k8s.io/" + name + "-mutating",
		"namespace/" + ns,
		"networkpolicy.networking.k8s.io/" + name + "-allow-webhook-traffic",
		"poddisruptionbudget.policy/" + name,
		"role.rbac.authorization.k8s.io/" + name + "-leader-election",
		"rolebinding.rbac.authorization.k8s.io/" + name + "-leader-election",
		"service/" + name + "-webhook",
		"serviceaccount/" + name,
		"validatingwebhookconfiguration.admissionregistration.k8s.io/" + name + "-validating",
	}
	for _, c := range crds {
		want = append(want, "customresourcedefinition.apiextensions.k8s.io/"+c)
	}
	sort.Strings(want)
	assert.Equal(t, want, got)

	// A dry run stores nothing.
	for _, p := range []string{
		"/apis/apps/v1/namespaces/" + ns + "/deployments/" + name,
		"/apis/rbac.authorization.k8s.io/v1/clusterroles/" + name,
		"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + crds[0],
		"/apis/cert-manager.io/v1/namespaces/" + ns + "/certificates/" + name + "-serving-cert",
	} {
		r, err := k.api.do(ctx, http.MethodGet, p, "", nil)
		require.NoError(t, err)
		assert.Equal(t, http.StatusNotFound, r.code, p)
	}
}
