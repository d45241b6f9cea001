package lint

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/pointer"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// allRules lists the rules of the kudo and cluster-app sets, each once.
func allRules() []*Rule {
	seen := map[*Rule]bool{}
	var out []*Rule
	for _, s := range []*Set{kudoSet, clusterAppSet} {
		for _, r := range s.Rules {
			if !seen[r] {
				seen[r] = true
				out = append(out, r)
			}
		}
	}
	return out
}

// lintOne runs one rule over a file and checks that every finding's
// pointer resolves in the document.
// A package rule (kudo-package-*) runs over a package folder instead
// (fail/ and pass/): every finding names its file, and a finding in the
// params file resolves there.
func lintOne(t *testing.T, r *Rule, path string) []Finding {
	t.Helper()
	set := &Set{Name: "test", Rules: []*Rule{r}}
	if dir := strings.TrimSuffix(path, ".yaml"); isDir(dir) {
		pkg, err := ReadPackage(os.DirFS(dir))
		require.NoError(t, err)
		fs, err := pkg.Lint(set)
		require.NoError(t, err)
		doc, _, err := decode(pkg.Params)
		require.NoError(t, err)
		for _, f := range fs {
			assert.Equal(t, r.ID, f.Rule)
			require.NotEmpty(t, f.File)
			if f.File == pkg.ParamsFile {
				_, ok := pointer.Get(doc, f.Pointer)
				assert.True(t, ok, "pointer %q of %s does not resolve in %s", f.Pointer, f.Rule, dir)
			} else {
				assert.Contains(t, pkg.Templates, f.File)
				assert.Positive(t, f.Line)
			}
			assert.NotEmpty(t, f.Message)
		}
		return fs
	}
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	fs, err := Document(data, set)
	require.NoError(t, err)
	doc, _, err := decode(data)
	require.NoError(t, err)
	for _, f := range fs {
		assert.Equal(t, r.ID, f.Rule)
		_, ok := pointer.Get(doc, f.Pointer)
		assert.True(t, ok, "pointer %q of %s does not resolve in %s", f.Pointer, f.Rule, path)
		assert.NotEmpty(t, f.Message)
	}
	return fs
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// TestRuleGolden runs each rule over its failing and its passing schema:
// the failing one gives the findings in fail.golden.json, the passing one
// none.
func TestRuleGolden(t *testing.T) {
	for _, r := range allRules() {
		t.Run(r.ID, func(t *testing.T) {
			dir := filepath.Join("testdata", "rules", r.ID)
			fail := lintOne(t, r, filepath.Join(dir, "fail.yaml"))
			require.NotEmpty(t, fail, "the failing schema gives no finding")
			got, err := json.MarshalIndent(fail, "", "  ")
			require.NoError(t, err)
			got = append(got, '\n')
			golden := filepath.Join(dir, "fail.golden.json")
			if *update {
				require.NoError(t, os.WriteFile(golden, got, 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test ./lint -run TestRuleGolden -update")
			assert.Equal(t, string(want), string(got))

			pass := lintOne(t, r, filepath.Join(dir, "pass.yaml"))
			assert.Empty(t, pass, "the passing schema gives findings")
		})
	}
}

// TestEveryRuleDocumented keeps ids unique and docs present.
func TestEveryRuleDocumented(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range allRules() {
		assert.False(t, ids[r.ID], "duplicate rule id %s", r.ID)
		ids[r.ID] = true
		assert.NotEmpty(t, r.Doc, r.ID)
		assert.NotEmpty(t, r.Set, r.ID)
		assert.Contains(t, []Severity{Error, Warning, Info}, r.Severity, r.ID)
	}
	for _, r := range clusterAppSet.Rules {
		if r != schemaCompile {
			assert.Regexp(t, `^R([1-9]|1[0-8])(-|$)`, r.ID)
		}
	}
}

func TestGoldenFilesHaveRules(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join("testdata", "rules"))
	require.NoError(t, err)
	ids := map[string]bool{}
	for _, r := range allRules() {
		ids[r.ID] = true
	}
	for _, e := range entries {
		assert.True(t, ids[e.Name()], "testdata/rules/%s has no rule", e.Name())
	}
	_ = bytes.MinRead
}
