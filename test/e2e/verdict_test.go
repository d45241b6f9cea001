//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

var updateOracle = flag.Bool("update-oracle", false, "rewrite kube/testdata/verdict/*/objects.apiserver.json from the apiserver's verdicts")

// oracleDirs are the corpora of kube.Definition.Judge: every folder of
// kube/testdata/verdict with CRDs and an objects.yaml stream. kube's
// TestJudgeAgreesWithApiserver compares paramkit's verdicts with the
// apiserver's recorded here.
func oracleDirs(t *testing.T) []string {
	files, err := filepath.Glob("../../kube/testdata/verdict/*/objects.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	dirs := make([]string, len(files))
	for i, f := range files {
		dirs[i] = filepath.Dir(f)
	}
	return dirs
}

// oracleVerdict is the apiserver's verdict on one object of a corpus: a
// server-side dry run of a create with fieldValidation=Strict (kubectl's
// default), the object sent as kubectl sends it (sigs.k8s.io/yaml).
type oracleVerdict struct {
	Document int    `json:"document"`
	Kind     string `json:"kind"`
	// Valid is true when the dry run succeeded (201).
	Valid bool `json:"valid"`
	// Code is the HTTP status (0 where no CRD of the corpus defines the
	// kind: nothing was sent).
	Code int `json:"code"`
	// Fields are the field paths the apiserver named: its causes' fields,
	// and the fields of a strict decoding error's "unknown field" list.
	Fields []string `json:"fields"`
	// Message is the apiserver's message, for a reader.
	Message string `json:"message,omitempty"`
}

// TestVerdictOracle records the apiserver's verdict on every object of
// each corpus (with -update-oracle), or checks that the recorded verdicts
// are still the apiserver's.
func TestVerdictOracle(t *testing.T) {
	k, _ := bareKube(t)
	for _, dir := range oracleDirs(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			plural := installCorpusCRDs(t, k, dir)
			data, err := os.ReadFile(filepath.Join(dir, "objects.yaml"))
			require.NoError(t, err)
			var got []oracleVerdict
			for i, doc := range splitYAMLDocs(data) {
				got = append(got, dryRunCreate(t, k, plural, i, doc))
			}
			out, err := json.MarshalIndent(got, "", "  ")
			require.NoError(t, err)
			out = append(out, '\n')
			file := filepath.Join(dir, "objects.apiserver.json")
			if *updateOracle {
				require.NoError(t, os.WriteFile(file, out, 0o644))
				return
			}
			data, err = os.ReadFile(file)
			require.NoError(t, err, "record it with -update-oracle")
			var want []oracleVerdict
			require.NoError(t, json.Unmarshal(data, &want))
			// The messages are for a reader: the apiserver lists a
			// message's errors in no fixed order.
			for i := range want {
				want[i].Message = ""
			}
			for i := range got {
				got[i].Message = ""
			}
			require.Equal(t, want, got, "the apiserver's verdicts changed: rerun with -update-oracle and read the diff")
		})
	}
}

// installCorpusCRDs applies every CRD of dir (server-side apply) and
// waits until each is established; it returns the resource of each
// group/kind.
func installCorpusCRDs(t *testing.T, k *kube, dir string) map[string]corpusResource {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	require.NoError(t, err)
	files = slices.DeleteFunc(files, func(f string) bool { return filepath.Base(f) == "objects.yaml" })
	return installCRDFiles(t, k, files)
}

// corpusResource is what the oracle needs of a CRD to send its objects.
type corpusResource struct {
	plural  string
	cluster bool // cluster-scoped: no namespaces/NS/ in the path
}

// path is the collection's path for objects of version in namespace ns
// (ignored when the resource is cluster-scoped).
func (r corpusResource) path(group, version, ns string) string {
	if r.cluster {
		return fmt.Sprintf("/apis/%s/%s/%s", group, version, r.plural)
	}
	if ns == "" {
		ns = "default"
	}
	return fmt.Sprintf("/apis/%s/%s/namespaces/%s/%s", group, version, ns, r.plural)
}

func waitCRDEstablished(t *testing.T, k *kube, name string) {
	deadline := time.Now().Add(time.Minute)
	for {
		r, err := k.api.do(context.Background(), http.MethodGet, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"+name, "", nil)
		require.NoError(t, err)
		var crd struct {
			Status struct {
				Conditions []struct{ Type, Status string }
			}
		}
		require.NoError(t, json.Unmarshal(r.body, &crd))
		for _, c := range crd.Status.Conditions {
			if c.Type == "Established" && c.Status == "True" {
				// Discovery of the new resource lags a little behind.
				time.Sleep(500 * time.Millisecond)
				return
			}
		}
		require.True(t, time.Now().Before(deadline), "CRD %s not established: %s", name, r.body)
		time.Sleep(200 * time.Millisecond)
	}
}

// splitYAMLDocs splits a stream at lines "---", skipping documents of
// blanks and comments only.
func splitYAMLDocs(data []byte) [][]byte {
	var out [][]byte
	for _, d := range regexp.MustCompile(`(?m)^---[ \t]*$`).Split(string(data), -1) {
		keep := false
		for _, l := range strings.Split(d, "\n") {
			if s := strings.TrimSpace(l); s != "" && !strings.HasPrefix(s, "#") {
				keep = true
			}
		}
		if keep {
			out = append(out, []byte(d))
		}
	}
	return out
}

var unknownField = regexp.MustCompile(`unknown field "([^"]+)"`)

// dryRunCreate sends one object as kubectl does and reads the verdict.
func dryRunCreate(t *testing.T, k *kube, plural map[string]corpusResource, i int, doc []byte) oracleVerdict {
	js, err := yaml.YAMLToJSON(doc)
	require.NoError(t, err)
	var head struct {
		APIVersion string
		Kind       string
		Metadata   json.RawMessage // any JSON: an object may get it wrong
	}
	require.NoError(t, json.Unmarshal(js, &head))
	var meta struct{ Namespace string }
	_ = json.Unmarshal(head.Metadata, &meta) // not an object: the default namespace
	v := oracleVerdict{Document: i, Kind: head.Kind, Fields: []string{}}
	group, version, _ := strings.Cut(head.APIVersion, "/")
	p, ok := plural[group+"/"+head.Kind]
	if !ok {
		v.Message = "no CRD of the corpus defines it"
		return v
	}
	path := p.path(group, version, meta.Namespace) + "?dryRun=All&fieldValidation=Strict"
	r, err := k.api.do(context.Background(), http.MethodPost, path, "application/json", js)
	require.NoError(t, err)
	v.Code = r.code
	v.Valid = r.code == http.StatusCreated
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
		v.Message = string(bytes.TrimSpace(r.body))
	}
	sort.Strings(v.Fields)
	return v
}
