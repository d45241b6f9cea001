package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"
)

// configObjects reads every object of config/DIR (kustomization.yaml
// aside), keyed by kind and name.
func configObjects(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("config", dir, "*.yaml"))
	require.NoError(t, err)
	out := map[string][]byte{}
	for _, f := range files {
		if filepath.Base(f) == "kustomization.yaml" {
			continue
		}
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, doc := range bytes.Split(data, []byte("\n---\n")) {
			var head struct {
				Kind     string `json:"kind"`
				Metadata struct {
					Name        string            `json:"name"`
					Annotations map[string]string `json:"annotations"`
				} `json:"metadata"`
			}
			require.NoError(t, yaml.Unmarshal(doc, &head), f)
			if head.Kind != "" {
				out[head.Kind+"/"+head.Metadata.Name] = doc
			}
		}
	}
	return out
}

// TestRBACIsLeastPrivilege: the ClusterRole holds only the kudo.dev
// rights the reconciler uses; leases and events are a namespaced Role's,
// the lease's get and update limited to its name; both bound to the
// ServiceAccount that ships.
func TestRBACIsLeastPrivilege(t *testing.T) {
	objs := configObjects(t, "rbac")
	var cr rbacv1.ClusterRole
	require.NoError(t, yaml.Unmarshal(objs["ClusterRole/paramkit-operator"], &cr))
	for _, r := range cr.Rules {
		assert.Equal(t, []string{"kudo.dev"}, r.APIGroups, "the ClusterRole grants only kudo.dev")
		assert.NotContains(t, r.Verbs, "*")
		for _, v := range r.Verbs {
			assert.Contains(t, []string{"get", "list", "watch", "update", "patch"}, v)
		}
		if slices.Contains(r.Verbs, "update") || slices.Contains(r.Verbs, "patch") {
			assert.Equal(t, []string{"instances/status"}, r.Resources, "writes only Instances' status")
		}
	}
	var role rbacv1.Role
	require.NoError(t, yaml.Unmarshal(objs["Role/paramkit-operator-leader-election"], &role))
	for _, r := range role.Rules {
		switch {
		case slices.Contains(r.Resources, "leases"):
			assert.Equal(t, []string{"coordination.k8s.io"}, r.APIGroups)
			if !slices.Equal(r.Verbs, []string{"create"}) {
				assert.Equal(t, []string{"paramkit-operator.kudo.dev"}, r.ResourceNames, "get and update only the operator's lease")
				assert.ElementsMatch(t, []string{"get", "update"}, r.Verbs)
			}
		case slices.Contains(r.Resources, "events"):
			assert.ElementsMatch(t, []string{"create", "patch"}, r.Verbs)
		default:
			t.Errorf("the Role grants %v", r.Resources)
		}
	}
	require.Contains(t, objs, "ServiceAccount/paramkit-operator")
	var crb rbacv1.ClusterRoleBinding
	require.NoError(t, yaml.Unmarshal(objs["ClusterRoleBinding/paramkit-operator"], &crb))
	assert.Equal(t, rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "paramkit-operator"}, crb.RoleRef)
	var rb rbacv1.RoleBinding
	require.NoError(t, yaml.Unmarshal(objs["RoleBinding/paramkit-operator-leader-election"], &rb))
	assert.Equal(t, rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "paramkit-operator-leader-election"}, rb.RoleRef)
	for _, s := range append(crb.Subjects, rb.Subjects...) {
		assert.Equal(t, rbacv1.Subject{Kind: "ServiceAccount", Name: "paramkit-operator", Namespace: "paramkit-system"}, s)
	}
}

// TestCAInjection: every object the apiserver calls the operator for
// (both webhook configurations, both CRDs, which convert by webhook)
// asks cert-manager for the CA of the Certificate that ships.
func TestCAInjection(t *testing.T) {
	const want = "paramkit-system/paramkit-operator-serving-cert"
	certs := configObjects(t, "certmanager")
	require.Contains(t, certs, "Certificate/paramkit-operator-serving-cert")
	require.Contains(t, certs, "Issuer/paramkit-operator-selfsigned")
	for dir, names := range map[string][]string{
		"webhook": {"MutatingWebhookConfiguration/paramkit-operator-mutating", "ValidatingWebhookConfiguration/paramkit-operator-validating"},
		"crd":     {"CustomResourceDefinition/instances.kudo.dev", "CustomResourceDefinition/operatorversions.kudo.dev"},
	} {
		objs := configObjects(t, dir)
		for _, n := range names {
			var o struct {
				Metadata struct {
					Annotations map[string]string `json:"annotations"`
				} `json:"metadata"`
			}
			require.NoError(t, yaml.Unmarshal(objs[n], &o), n)
			assert.Equal(t, want, o.Metadata.Annotations["cert-manager.io/inject-ca-from"], n)
		}
	}
}

// TestKustomizationsListEveryFile: each folder's kustomization names
// every manifest beside it (a new file is not silently left out of
// kubectl apply -k config/default), and config/default every folder.
func TestKustomizationsListEveryFile(t *testing.T) {
	read := func(dir string) []string {
		data, err := os.ReadFile(filepath.Join("config", dir, "kustomization.yaml"))
		require.NoError(t, err, dir)
		var k struct {
			Resources []string `json:"resources"`
		}
		require.NoError(t, yaml.Unmarshal(data, &k), dir)
		return k.Resources
	}
	var folders []string
	for _, r := range read("default") {
		folders = append(folders, filepath.Base(r))
	}
	assert.ElementsMatch(t, []string{"crd", "rbac", "manager", "webhook", "certmanager", "network-policy"}, folders)
	for _, dir := range folders {
		files, err := filepath.Glob(filepath.Join("config", dir, "*.yaml"))
		require.NoError(t, err)
		var want []string
		for _, f := range files {
			if b := filepath.Base(f); b != "kustomization.yaml" {
				want = append(want, b)
			}
		}
		assert.ElementsMatch(t, want, read(dir), dir)
	}
}
