package paramkit_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// deployment is what an admin reads in an operator's Deployment.
type deployment struct {
	Spec struct {
		Replicas int
		Selector struct {
			MatchLabels map[string]string `yaml:"matchLabels"`
		}
		Template struct {
			Metadata struct{ Labels map[string]string }
			Spec     struct {
				SecurityContext struct {
					RunAsNonRoot bool `yaml:"runAsNonRoot"`
					RunAsUser    int  `yaml:"runAsUser"`
				} `yaml:"securityContext"`
				Affinity struct {
					PodAntiAffinity map[string]any `yaml:"podAntiAffinity"`
				}
				Containers []struct {
					Image          string
					Env            []struct{ Name, Value string }
					Args           []string
					LivenessProbe  map[string]any `yaml:"livenessProbe"`
					ReadinessProbe map[string]any `yaml:"readinessProbe"`
					Resources      struct {
						Limits map[string]string
					}
					SecurityContext struct {
						AllowPrivilegeEscalation *bool `yaml:"allowPrivilegeEscalation"`
						ReadOnlyRootFilesystem   bool  `yaml:"readOnlyRootFilesystem"`
					} `yaml:"securityContext"`
				}
			}
		}
	}
}

// certSpec is what a cert-manager Certificate says of its signer.
type certSpec struct {
	IsCA      bool                  `yaml:"isCA"`
	IssuerRef struct{ Name string } `yaml:"issuerRef"`
}

// configDocs reads every document of the YAML files of dir, by kind.
func configDocs(t *testing.T, dir string) map[string][][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	require.NoError(t, err)
	out := map[string][][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, doc := range bytes.Split(data, []byte("\n---\n")) {
			var head struct{ Kind string }
			require.NoError(t, yaml.Unmarshal(doc, &head), f)
			out[head.Kind] = append(out[head.Kind], doc)
		}
	}
	return out
}

// mebibytes reads a quantity such as 512Mi or 460MiB (GOMEMLIMIT's unit).
func mebibytes(t *testing.T, q string) int {
	t.Helper()
	q = strings.TrimSuffix(strings.TrimSuffix(q, "B"), "i")
	require.True(t, strings.HasSuffix(q, "M"), "%q in Mi", q)
	var n int
	for _, c := range strings.TrimSuffix(q, "M") {
		require.True(t, c >= '0' && c <= '9', q)
		n = n*10 + int(c-'0')
	}
	return n
}

// TestDeploymentsAnAdminAccepts: both operators ship config/default with
// what an admin asks of a webhook that guards writes: two replicas kept
// apart and never both drained, a memory limit with GOMEMLIMIT under it,
// a fixed non-root user, probes, no privilege, no :latest image, a
// NetworkPolicy, cert-manager's certificate with CA injection, and the
// client-certificate check as a component to add.
func TestDeploymentsAnAdminAccepts(t *testing.T) {
	for _, op := range []struct{ dir, name string }{
		{"examples/operator/config", "paramkit-operator"},
		{"examples/crd-operator/config", "crd-operator"},
	} {
		t.Run(op.name, func(t *testing.T) {
			manager := configDocs(t, filepath.Join(op.dir, "manager"))
			require.Len(t, manager["Deployment"], 1)
			var d deployment
			require.NoError(t, yaml.Unmarshal(manager["Deployment"][0], &d))
			s := d.Spec.Template.Spec
			assert.Equal(t, 2, d.Spec.Replicas)
			assert.NotEmpty(t, s.Affinity.PodAntiAffinity, "replicas on different nodes")
			assert.True(t, s.SecurityContext.RunAsNonRoot)
			assert.NotZero(t, s.SecurityContext.RunAsUser, "a fixed non-root user")
			require.Len(t, s.Containers, 1)
			c := s.Containers[0]
			assert.NotContains(t, c.Image, ":latest")
			assert.NotEmpty(t, c.LivenessProbe)
			assert.NotEmpty(t, c.ReadinessProbe)
			require.NotNil(t, c.SecurityContext.AllowPrivilegeEscalation)
			assert.False(t, *c.SecurityContext.AllowPrivilegeEscalation)
			assert.True(t, c.SecurityContext.ReadOnlyRootFilesystem)
			limit := mebibytes(t, c.Resources.Limits["memory"])
			goLimit := 0
			for _, e := range c.Env {
				if e.Name == "GOMEMLIMIT" {
					goLimit = mebibytes(t, e.Value)
				}
			}
			assert.Greater(t, goLimit, limit*3/4, "GOMEMLIMIT near the container's limit")
			assert.Less(t, goLimit, limit, "GOMEMLIMIT under the container's limit")

			require.Len(t, manager["PodDisruptionBudget"], 1)
			var pdb struct {
				Spec struct {
					MinAvailable int `yaml:"minAvailable"`
					Selector     struct {
						MatchLabels map[string]string `yaml:"matchLabels"`
					}
				}
			}
			require.NoError(t, yaml.Unmarshal(manager["PodDisruptionBudget"][0], &pdb))
			assert.Equal(t, 1, pdb.Spec.MinAvailable)
			assert.Equal(t, d.Spec.Selector.MatchLabels, pdb.Spec.Selector.MatchLabels, "the budget covers the operator's pods")
			assert.Equal(t, d.Spec.Template.Metadata.Labels, pdb.Spec.Selector.MatchLabels)

			np := configDocs(t, filepath.Join(op.dir, "network-policy"))
			require.Len(t, np["NetworkPolicy"], 1)
			assert.Contains(t, string(np["NetworkPolicy"][0]), "app.kubernetes.io/name: "+op.name)

			// The serving certificate is signed by a CA that outlives it, so
			// that a renewal does not change what the apiserver trusts.
			cm := configDocs(t, filepath.Join(op.dir, "certmanager"))
			certs := map[string]certSpec{}
			for _, doc := range cm["Certificate"] {
				var c struct {
					Metadata struct{ Name string }
					Spec     certSpec
				}
				require.NoError(t, yaml.Unmarshal(doc, &c))
				certs[c.Metadata.Name] = c.Spec
			}
			require.Contains(t, certs, op.name+"-serving-cert")
			require.Contains(t, certs, op.name+"-ca")
			assert.True(t, certs[op.name+"-ca"].IsCA)
			assert.Equal(t, op.name+"-ca", certs[op.name+"-serving-cert"].IssuerRef.Name, "the serving certificate comes from the CA issuer")
			assert.Len(t, cm["Issuer"], 2)
			for _, w := range [][]byte{configDocs(t, filepath.Join(op.dir, "webhook"))["MutatingWebhookConfiguration"][0], configDocs(t, filepath.Join(op.dir, "webhook"))["ValidatingWebhookConfiguration"][0]} {
				assert.Contains(t, string(w), "cert-manager.io/inject-ca-from: ")
			}

			def, err := os.ReadFile(filepath.Join(op.dir, "default", "kustomization.yaml"))
			require.NoError(t, err)
			assert.Contains(t, string(def), "../client-ca", "the client-certificate component is named")
			comp, err := os.ReadFile(filepath.Join(op.dir, "client-ca", "kustomization.yaml"))
			require.NoError(t, err)
			assert.Contains(t, string(comp), "--webhook-client-ca=")
			assert.Contains(t, string(comp), "kind: Component")
		})
	}
}
