package kube_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params"
)

// updateCorpora are the folders of testdata/verdict holding CRDs and an
// updates.yaml stream of pairs, an old object then the new one, that the
// apiserver judged too (test/e2e's TestVerdictOracleUpdates finds them
// the same way; updates/README.md describes the form).
var updateCorpora = corpusDirs("updates.yaml")

// TestJudgeUpdates: each pair of an update corpus judged as an update
// (JudgeOptions.Old) by the CRD of its kind; the verdicts (lines in
// updates.yaml, field paths, cause types, messages, and the stored spec
// of the valid ones) are the golden file's.
func TestJudgeUpdates(t *testing.T) {
	require.NotEmpty(t, updateCorpora)
	for _, dir := range updateCorpora {
		t.Run(filepath.Base(dir), func(t *testing.T) { judgeUpdates(t, dir) })
	}
}

func judgeUpdates(t *testing.T, dir string) {
	defs := corpusDefinitions(t, dir, "updates.yaml")
	data, err := os.ReadFile(filepath.Join(dir, "updates.yaml"))
	require.NoError(t, err)
	var docs []params.Document[struct{}]
	err = params.MapStream(context.Background(), bytes.NewReader(data), 1,
		func(d params.Document[struct{}]) (struct{}, error) { return struct{}{}, nil },
		func(d params.Document[struct{}]) error { docs = append(docs, d); return nil })
	require.NoError(t, err)
	require.Zero(t, len(docs)%2, "updates.yaml holds pairs: an old object, then the new one")
	got := []realVerdict{}
	type ident struct{ kind, namespace, name string }
	seen := map[ident]int{}
	for i := 0; i < len(docs); i += 2 {
		old, cur := docs[i], docs[i+1]
		var head struct {
			Kind     string
			Metadata struct{ Name, Namespace string }
		}
		require.NoError(t, yaml.Unmarshal(old.Text, &head))
		id := ident{head.Kind, head.Metadata.Namespace, head.Metadata.Name}
		if p, dup := seen[id]; dup {
			t.Fatalf("pair %d: the old object %v is pair %d's too: the oracle stores every old object at once", i/2, id, p)
		}
		seen[id] = i / 2
		r := realVerdict{Document: i / 2, Kind: head.Kind, Errors: []realProblem{}}
		var def *kube.Definition
		for _, c := range defs {
			if c.Kind() == head.Kind {
				def = c
			}
		}
		require.NotNil(t, def, "pair %d: no CRD of the corpus defines %s", i/2, head.Kind)
		v, err := def.Judge(context.Background(), cur.Text, &kube.JudgeOptions{Old: old.Text})
		require.NoError(t, err)
		r.Valid = v.Valid()
		for _, e := range v.Errors {
			r.Errors = append(r.Errors, realProblem{Line: e.Line + cur.Line - 1, Field: e.FieldPath(""), Type: kube.CauseType(e), Message: e.Message})
		}
		for _, e := range v.Warnings {
			r.Warnings = append(r.Warnings, realProblem{Line: e.Line + cur.Line - 1, Field: e.FieldPath(""), Message: e.Message})
		}
		if r.Valid {
			r.Stored = v.Object["spec"]
		}
		got = append(got, r)
	}
	out, err := json.MarshalIndent(got, "", "  ")
	require.NoError(t, err)
	golden := filepath.Join(dir, "updates.golden.json")
	if *updateGolden {
		require.NoError(t, os.WriteFile(golden, append(out, '\n'), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(out))
}

// TestJudgeUpdatesAgreeWithApiserver: on every pair of the update
// corpora, the verdict is the apiserver's on the update (test/e2e's
// TestVerdictOracleUpdates records it in updates.apiserver.json from a
// real kube-apiserver), and every field the apiserver names is named.
func TestJudgeUpdatesAgreeWithApiserver(t *testing.T) {
	for _, dir := range updateCorpora {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			agreeFiles(t, filepath.Join(dir, "updates.apiserver.json"), filepath.Join(dir, "updates.golden.json"))
		})
	}
}
