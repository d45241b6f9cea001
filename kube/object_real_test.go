package kube_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params"
)

const realDir = "testdata/verdict/real"

// verdictCorpora are the folders of testdata/verdict holding CRDs and an
// objects.yaml stream that the apiserver judged too (test/e2e's
// TestVerdictOracle finds them the same way): real CRDs with their
// sources in SOURCES.md, and one of paramkit's own (meta) for metadata,
// formats and Kubernetes' readings.
var verdictCorpora = corpusDirs("objects.yaml")

// corpusDirs are the folders of testdata/verdict holding a stream of the
// given name.
func corpusDirs(stream string) []string {
	files, err := filepath.Glob(filepath.Join("testdata/verdict/*", stream))
	if err != nil {
		panic(err)
	}
	dirs := make([]string, len(files))
	for i, f := range files {
		dirs[i] = filepath.Dir(f)
	}
	return dirs
}

// corpusDefinitions are the CRDs of a corpus folder: every YAML file in
// it but the stream (subfolders, such as updates/before, are not read).
func corpusDefinitions(t testing.TB, dir, stream string) []*kube.Definition {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	require.NoError(t, err)
	var defs []*kube.Definition
	for _, f := range files {
		if filepath.Base(f) == stream {
			continue
		}
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		d, err := kube.ReadDefinition(data)
		require.NoError(t, err, f)
		defs = append(defs, d)
	}
	require.NotEmpty(t, defs)
	return defs
}

type realVerdict struct {
	Document int           `json:"document"`
	Kind     string        `json:"kind"`
	Valid    bool          `json:"valid"`
	Errors   []realProblem `json:"errors"`
	Warnings []realProblem `json:"warnings,omitempty"`
	Stored   any           `json:"stored,omitempty"`
}

type realProblem struct {
	Line    int    `json:"line"`
	Field   string `json:"field"`
	Type    string `json:"type,omitempty"`
	Message string `json:"message"`
}

// TestJudgeRealCRDs: the objects of each corpus judged against its CRDs
// (published ones, their sources in SOURCES.md), each by the CRD of its
// kind; the verdicts (lines, field paths, cause types, messages, and the
// stored object of the valid ones) are the golden file's.
func TestJudgeRealCRDs(t *testing.T) {
	for _, dir := range verdictCorpora {
		t.Run(filepath.Base(dir), func(t *testing.T) { judgeCorpus(t, dir) })
	}
}

func judgeCorpus(t *testing.T, dir string) {
	defs := corpusDefinitions(t, dir, "objects.yaml")
	data, err := os.ReadFile(filepath.Join(dir, "objects.yaml"))
	require.NoError(t, err)
	var got []realVerdict
	err = params.MapStream(context.Background(), bytes.NewReader(data), 1,
		func(d params.Document[realVerdict]) (realVerdict, error) {
			var head struct{ APIVersion, Kind string }
			require.NoError(t, yaml.Unmarshal(d.Text, &head))
			r := realVerdict{Document: d.Index, Kind: head.Kind, Errors: []realProblem{}}
			var def *kube.Definition
			for _, c := range defs {
				if c.Kind() == head.Kind {
					def = c
				}
			}
			if def == nil {
				r.Errors = append(r.Errors, realProblem{Field: "kind", Message: "no CRD of the corpus defines it"})
				return r, nil
			}
			v, err := def.Judge(context.Background(), d.Text, nil)
			require.NoError(t, err)
			r.Valid = v.Valid()
			for _, e := range v.Errors {
				r.Errors = append(r.Errors, realProblem{Line: e.Line + d.Line - 1, Field: e.FieldPath(""), Type: kube.CauseType(e), Message: e.Message})
			}
			for _, e := range v.Warnings {
				r.Warnings = append(r.Warnings, realProblem{Line: e.Line + d.Line - 1, Field: e.FieldPath(""), Message: e.Message})
			}
			if r.Valid {
				r.Stored = v.Object["spec"]
			}
			return r, nil
		},
		func(d params.Document[realVerdict]) error { got = append(got, d.Value); return nil })
	require.NoError(t, err)
	out, err := json.MarshalIndent(got, "", "  ")
	require.NoError(t, err)
	golden := filepath.Join(dir, "objects.golden.json")
	if *updateGolden {
		require.NoError(t, os.WriteFile(golden, append(out, '\n'), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(out))
}

// BenchmarkJudgeHTTPRoute: one object of a stream judged against the
// Gateway API's HTTPRoute CRD (compiled once): the per-object cost of
// paramctl validate on a stream.
func BenchmarkJudgeHTTPRoute(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(realDir, "gateway.networking.k8s.io_httproutes.yaml"))
	require.NoError(b, err)
	def, err := kube.ReadDefinition(data)
	require.NoError(b, err)
	obj, err := os.ReadFile(filepath.Join(realDir, "objects.yaml"))
	require.NoError(b, err)
	first := obj[:bytes.Index(obj, []byte("\n---\n"))]
	b.ReportAllocs()
	for b.Loop() {
		v, err := def.Judge(context.Background(), first, nil)
		if err != nil || !v.Valid() {
			b.Fatal(err, v.Errors)
		}
	}
}

// atRoot are the apiserver's messages for the errors it gives at the
// object's root (field <nil>) naming the field in the text: a number
// out of its format's range (int32, int64, float), a fraction on an int-or-string ("(default format)"),
// and a failed oneOf, anyOf, allOf or not.
var atRoot = []*regexp.Regexp{
	regexp.MustCompile(`<nil>: Invalid value: "": Checked value must be of type (?:integer|number) (?:with format \w+|\(default format\)) in ([^\s,]+)`),
	regexp.MustCompile(`<nil>: Invalid value: "": "([^"]+)" must (?:validate one and only one schema \(oneOf\)|validate at least one schema \(anyOf\)|validate all the schemas \(allOf\)|not validate the schema \(not\))`),
}

// rootFields are the fields the apiserver names in the message of its
// errors at the root: those of atRoot (the other errors at the root, the
// rules not checked, are paramkit's "": agreeWithApiserver counts them).
func rootFields(message string) []string {
	var out []string
	for _, re := range atRoot {
		for _, m := range re.FindAllStringSubmatch(message, -1) {
			f := m[1]
			// The last error of a list ends with the list's "]".
			if strings.HasSuffix(f, "]") && strings.Count(f, "]") > strings.Count(f, "[") {
				f = f[:len(f)-1]
			}
			out = append(out, f)
		}
	}
	return out
}

// TestJudgeAgreesWithApiserver: on every object of the corpus, the
// verdict is the apiserver's (test/e2e's TestVerdictOracle records it in
// objects.apiserver.json from a real kube-apiserver), and every field the
// apiserver names is named.
func TestJudgeAgreesWithApiserver(t *testing.T) {
	for _, dir := range verdictCorpora {
		t.Run(filepath.Base(dir), func(t *testing.T) { agreeWithApiserver(t, dir) })
	}
}

func agreeWithApiserver(t *testing.T, dir string) {
	agreeFiles(t, filepath.Join(dir, "objects.apiserver.json"), filepath.Join(dir, "objects.golden.json"))
}

// agreeFiles holds paramkit's verdicts (a golden file of realVerdict)
// to the apiserver's (a file test/e2e recorded): the same verdict on
// every object or pair sent, every field the apiserver names named.
func agreeFiles(t *testing.T, apiserverFile, goldenFile string) {
	oracle, err := os.ReadFile(apiserverFile)
	if os.IsNotExist(err) {
		t.Skip(filepath.Base(apiserverFile) + " is not recorded yet: run test/e2e's TestVerdictOracle or TestVerdictOracleUpdates with -update-oracle")
	}
	require.NoError(t, err)
	var want []struct {
		Kind    string
		Valid   bool
		Code    int
		Fields  []string
		Message string
	}
	require.NoError(t, json.Unmarshal(oracle, &want))
	golden, err := os.ReadFile(goldenFile)
	require.NoError(t, err)
	var got []realVerdict
	require.NoError(t, json.Unmarshal(golden, &got))
	require.Len(t, got, len(want))
	agree, sent := 0, 0
	for i, w := range want {
		if w.Code == 0 {
			continue // no CRD of the corpus: nothing was sent
		}
		sent++
		g := got[i]
		named := map[string]bool{}
		for _, e := range g.Errors {
			named[e.Field] = true
		}
		ok := assert.Equal(t, w.Valid, g.Valid, "document %d (%s): the apiserver says %q", i, w.Kind, w.Message)
		// The apiserver prints the object's root field path as <nil>:
		// where the error's text names a field, paramkit names that field;
		// other errors at the root (the rules not run) are paramkit's "".
		fields, roots := []string{}, 0
		for _, f := range w.Fields {
			if f == "<nil>" {
				roots++
				continue
			}
			// The scale subresource's check names its field by the CRD's
			// specReplicasPath, a leading dot included (.spec.replicas).
			fields = append(fields, strings.TrimPrefix(f, "."))
		}
		inText := rootFields(w.Message)
		fields = append(fields, inText...)
		if roots > len(inText) {
			fields = append(fields, "")
		}
		for _, f := range fields {
			ok = assert.True(t, named[f], "document %d: the apiserver names %s (%q); paramkit names %v", i, f, w.Message, g.Errors) && ok
		}
		if ok {
			agree++
		}
	}
	t.Logf("%d of %d objects sent: the apiserver's verdict, and every field it names", agree, sent)
}
