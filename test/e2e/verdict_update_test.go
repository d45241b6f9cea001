//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// updateCorpora are the update corpora of kube.Definition.Judge: every
// folder of kube/testdata/verdict with CRDs and an updates.yaml stream of
// pairs (an old object, then the new one). kube's
// TestJudgeUpdatesAgreeWithApiserver compares paramkit's verdicts with
// the apiserver's recorded here.
func updateCorpora(t *testing.T) []string {
	files, err := filepath.Glob("../../kube/testdata/verdict/*/updates.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	dirs := make([]string, len(files))
	for i, f := range files {
		dirs[i] = filepath.Dir(f)
	}
	return dirs
}

// updateVerdict is the apiserver's verdict on one pair of an update
// corpus: the old object was created for real, then the new one was sent
// as a server-side dry run of a PUT (with the stored resourceVersion)
// with fieldValidation=Strict, as kubectl replace sends it.
type updateVerdict struct {
	Pair int    `json:"pair"`
	Kind string `json:"kind"`
	// Valid is true when the dry run succeeded (200).
	Valid bool `json:"valid"`
	// Code is the HTTP status of the PUT.
	Code int `json:"code"`
	// Fields are the field paths the apiserver named, as for a create.
	Fields []string `json:"fields"`
	// Message is the apiserver's message, for a reader.
	Message string `json:"message,omitempty"`
	// Warnings are the apiserver's warnings (ratcheted errors among
	// them), for a reader.
	Warnings []string `json:"warnings,omitempty"`
}

// TestVerdictOracleUpdates records the apiserver's verdict on every pair
// of each update corpus (with -update-oracle), or checks that the
// recorded verdicts are still the apiserver's. In each corpus:
//
//  1. the CRDs are installed as they were before (a CRD of before/
//     replaces the folder's CRD of the same file name), and every old
//     object is created for real (fieldValidation=Ignore: unknown fields
//     of an old object are pruned as they are stored);
//  2. the folder's CRDs are installed, and the oracle waits until every
//     object of before/probe.yaml (one the new CRDs refuse and the old
//     ones accept, for each changed CRD) is refused;
//  3. each new object is sent as a dry-run PUT to its old object's path,
//     carrying the stored resourceVersion.
func TestVerdictOracleUpdates(t *testing.T) {
	k, _ := bareKube(t)
	for _, dir := range updateCorpora(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, "updates.yaml"))
			require.NoError(t, err)
			docs := splitYAMLDocs(data)
			require.Zero(t, len(docs)%2, "updates.yaml holds pairs: an old object, then the new one")

			// 1. The CRDs as they were, and the old objects stored.
			files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
			require.NoError(t, err)
			var before []string
			for _, f := range files {
				if b := filepath.Join(dir, "before", filepath.Base(f)); exists(b) {
					f = b
				}
				before = append(before, f)
			}
			plural := installCRDFiles(t, k, before)
			for i := 0; i < len(docs); i += 2 {
				createOld(t, k, plural, i/2, docs[i])
			}

			// 2. The CRDs as they are.
			plural = installCRDFiles(t, k, files)
			if probe := filepath.Join(dir, "before", "probe.yaml"); exists(probe) {
				waitRefused(t, k, plural, probe)
			}

			// 3. The updates.
			var got []updateVerdict
			for i := 0; i < len(docs); i += 2 {
				got = append(got, dryRunUpdate(t, k, plural, i/2, docs[i], docs[i+1]))
			}
			out, err := json.MarshalIndent(got, "", "  ")
			require.NoError(t, err)
			out = append(out, '\n')
			file := filepath.Join(dir, "updates.apiserver.json")
			if *updateOracle {
				require.NoError(t, os.WriteFile(file, out, 0o644))
				return
			}
			data, err = os.ReadFile(file)
			require.NoError(t, err, "record it with -update-oracle")
			var want []updateVerdict
			require.NoError(t, json.Unmarshal(data, &want))
			// Messages and warnings are for a reader: the apiserver lists
			// a message's errors in no fixed order.
			for _, l := range [][]updateVerdict{want, got} {
				for i := range l {
					l[i].Message, l[i].Warnings = "", nil
				}
			}
			require.Equal(t, want, got, "the apiserver's verdicts changed: rerun with -update-oracle and read the diff")
		})
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// installCRDFiles applies every CRD of files (other documents are
// skipped) and waits until each is established; it returns the resource
// of each group/kind.
func installCRDFiles(t *testing.T, k *kube, files []string) map[string]corpusResource {
	plural := map[string]corpusResource{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, doc := range splitYAMLDocs(data) {
			var crd struct {
				Kind     string
				Metadata struct{ Name string }
				Spec     struct {
					Group string
					Scope string
					Names struct{ Kind, Plural string }
				}
			}
			require.NoError(t, yaml.Unmarshal(doc, &crd), f)
			if crd.Kind != "CustomResourceDefinition" {
				continue
			}
			r, err := k.api.do(context.Background(), http.MethodPatch,
				"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"+crd.Metadata.Name+"?fieldManager=paramkit-e2e&force=true",
				"application/apply-patch+yaml", doc)
			require.NoError(t, err)
			require.Less(t, r.code, 300, "%s: %s", f, r.body)
			waitCRDEstablished(t, k, crd.Metadata.Name)
			plural[crd.Spec.Group+"/"+crd.Spec.Names.Kind] = corpusResource{
				plural: crd.Spec.Names.Plural, cluster: crd.Spec.Scope == "Cluster"}
		}
	}
	return plural
}

// objectHead is what the oracle reads of an object to send it.
type objectHead struct {
	APIVersion string
	Kind       string
	Metadata   struct{ Name, Namespace string }
}

func readHead(t *testing.T, doc []byte) (objectHead, []byte, corpusResourcePath) {
	js, err := yaml.YAMLToJSON(doc)
	require.NoError(t, err)
	var h objectHead
	require.NoError(t, json.Unmarshal(js, &h))
	group, version, _ := strings.Cut(h.APIVersion, "/")
	return h, js, corpusResourcePath{group: group, version: version}
}

type corpusResourcePath struct{ group, version string }

// createOld stores the old object of a pair; the corpus is broken if the
// apiserver refuses it.
func createOld(t *testing.T, k *kube, plural map[string]corpusResource, pair int, doc []byte) {
	h, js, gv := readHead(t, doc)
	p, ok := plural[gv.group+"/"+h.Kind]
	require.True(t, ok, "pair %d: no CRD of the corpus defines %s", pair, h.Kind)
	r, err := k.api.do(context.Background(), http.MethodPost,
		p.path(gv.group, gv.version, h.Metadata.Namespace)+"?fieldValidation=Ignore", "application/json", js)
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, r.code, "pair %d: the old object must be stored: %s", pair, r.body)
}

// waitRefused waits until a dry-run create of each probe object (one
// per changed CRD) is refused: the CRDs as they are now judge them (the
// apiserver picks up a changed CRD a little after it is established).
func waitRefused(t *testing.T, k *kube, plural map[string]corpusResource, probe string) {
	data, err := os.ReadFile(probe)
	require.NoError(t, err)
	for _, doc := range splitYAMLDocs(data) {
		h, js, gv := readHead(t, doc)
		p, ok := plural[gv.group+"/"+h.Kind]
		require.True(t, ok, "%s: no CRD of the corpus defines %s", probe, h.Kind)
		deadline := time.Now().Add(time.Minute)
		for {
			r, err := k.api.do(context.Background(), http.MethodPost,
				p.path(gv.group, gv.version, h.Metadata.Namespace)+"?dryRun=All", "application/json", js)
			require.NoError(t, err)
			if r.code == http.StatusUnprocessableEntity {
				break
			}
			require.True(t, time.Now().Before(deadline), "%s (%s) is still accepted: %s", probe, h.Kind, r.body)
			time.Sleep(200 * time.Millisecond)
		}
	}
}

// dryRunUpdate sends the new object of a pair as kubectl replace does, to
// its old object's path with the stored resourceVersion, and reads the
// verdict.
func dryRunUpdate(t *testing.T, k *kube, plural map[string]corpusResource, pair int, oldDoc, newDoc []byte) updateVerdict {
	oh, _, ogv := readHead(t, oldDoc)
	_, js, _ := readHead(t, newDoc)
	v := updateVerdict{Pair: pair, Kind: oh.Kind, Fields: []string{}}
	p := plural[ogv.group+"/"+oh.Kind]
	path := p.path(ogv.group, ogv.version, oh.Metadata.Namespace) + "/" + oh.Metadata.Name
	r, err := k.api.do(context.Background(), http.MethodGet, path, "", nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.code, "pair %d: %s", pair, r.body)
	var stored struct {
		Metadata struct{ ResourceVersion string }
	}
	require.NoError(t, json.Unmarshal(r.body, &stored))
	var obj map[string]any
	require.NoError(t, json.Unmarshal(js, &obj))
	meta, _ := obj["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		obj["metadata"] = meta
	}
	meta["resourceVersion"] = stored.Metadata.ResourceVersion
	body, err := json.Marshal(obj)
	require.NoError(t, err)
	r, err = k.api.do(context.Background(), http.MethodPut, path+"?dryRun=All&fieldValidation=Strict", "application/json", body)
	require.NoError(t, err)
	v.Code = r.code
	v.Valid = r.code == http.StatusOK
	v.Warnings = r.warnings
	if v.Valid {
		return v
	}
	var st struct {
		Message string
		Details struct {
			Causes []struct{ Field, Reason, Message string }
		}
	}
	if json.Unmarshal(r.body, &st) == nil {
		v.Message = st.Message
		for _, c := range st.Details.Causes {
			if c.Field != "" {
				v.Fields = append(v.Fields, c.Field)
			}
		}
		for _, m := range unknownField.FindAllStringSubmatch(st.Message, -1) {
			v.Fields = append(v.Fields, m[1])
		}
	} else {
		v.Message = strings.TrimSpace(string(r.body))
	}
	sort.Strings(v.Fields)
	return v
}
