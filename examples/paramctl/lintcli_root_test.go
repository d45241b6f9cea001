package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lintRepo makes a repository (a folder with .git, as git init leaves
// it) holding a copy of the web chart with a bad overlay and a schema
// file with findings, and returns its root.
func lintRepo(t *testing.T) string {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "repo")
	require.NoError(t, os.MkdirAll(filepath.Join(repo, ".git"), 0o755))
	copyDir(t, webChart, filepath.Join(repo, "charts", "web"))
	bad, err := os.ReadFile(webChart + "/bad-values.yaml")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(repo, "charts", "web", "ci", "bad-values.yaml"), bad, 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(repo, "schemas"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(repo, "schemas", "s.yaml"), []byte("type: object\nproperties:\n  a: {type: string, enum: [x], default: y}\n"), 0o644))
	return repo
}

// lintOutputs runs paramctl lint with args in each output format and
// returns the file names each names, and the -o json output.
func lintOutputs(t *testing.T, args ...string) (text, jsonFiles, sarif []string, js string) {
	t.Helper()
	code, out, errs := paramctl(t, "", append([]string{"lint"}, args...)...)
	require.Equal(t, 1, code, errs)
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		text = append(text, line[:strings.IndexByte(line, ':')])
	}
	code, js, errs = paramctl(t, "", append([]string{"lint", "-o", "json"}, args...)...)
	require.Equal(t, 1, code, errs)
	var fs []struct{ File string }
	require.NoError(t, json.Unmarshal([]byte(js), &fs))
	for _, f := range fs {
		jsonFiles = append(jsonFiles, f.File)
	}
	code, out, errs = paramctl(t, "", append([]string{"lint", "-o", "sarif"}, args...)...)
	require.Equal(t, 1, code, errs)
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &log))
	for _, r := range log.Runs[0].Results {
		sarif = append(sarif, r.Locations[0].PhysicalLocation.ArtifactLocation.URI)
	}
	return text, jsonFiles, sarif, js
}

// TestLintOneRoot (issue 27, item 5): text, -o json and -o sarif name a
// finding's file alike, from the repository root, whatever the working
// directory and however the arguments reach the files; so a baseline
// written in one directory silences the same findings from another, and
// a baseline entry or an ignore entry that silences nothing is named as
// stale.
func TestLintOneRoot(t *testing.T) {
	repo := lintRepo(t)
	want := []string{
		"charts/web/ci/bad-values.yaml", "charts/web/ci/bad-values.yaml", "charts/web/ci/bad-values.yaml",
		"schemas/s.yaml",
	}

	t.Chdir(repo)
	text, jsonFiles, sarif, base := lintOutputs(t, "charts/web", "schemas/s.yaml")
	assert.Equal(t, want, text)
	assert.Equal(t, want, jsonFiles)
	assert.Equal(t, want, sarif)
	baseline := filepath.Join(t.TempDir(), "baseline.json")
	require.NoError(t, os.WriteFile(baseline, []byte(base), 0o644))

	// From a subfolder, the arguments named from there: the same names.
	t.Chdir(filepath.Join(repo, "charts", "web", "ci"))
	text, jsonFiles, sarif, base2 := lintOutputs(t, "..", "./../../../schemas/s.yaml")
	assert.Equal(t, want, text)
	assert.Equal(t, want, jsonFiles)
	assert.Equal(t, want, sarif)
	assert.JSONEq(t, base, base2, "the -o json output (the baseline) is the same from either folder")

	// From outside the repository, with absolute paths: the same names.
	t.Chdir(t.TempDir())
	text, _, _, _ = lintOutputs(t, filepath.Join(repo, "schemas", "s.yaml"), filepath.Join(repo, "charts", "web"))
	assert.Equal(t, []string{"schemas/s.yaml", "charts/web/ci/bad-values.yaml", "charts/web/ci/bad-values.yaml", "charts/web/ci/bad-values.yaml"}, text)

	// The baseline written at the root works from the subfolder: every
	// finding silenced, no entry stale.
	t.Chdir(filepath.Join(repo, "charts"))
	code, out, errs := paramctl(t, "", "lint", "--baseline", baseline, "web", "../schemas/s.yaml")
	assert.Equal(t, 0, code, out+errs)
	assert.Empty(t, out)
	assert.Contains(t, errs, "0 errors, 0 warnings, 0 info; 4 silenced (4 by the baseline)\n")
	assert.NotContains(t, errs, "matches no finding")

	// One chart alone: its entries apply; the schema's speaks for a file
	// this run did not lint, so it is not called stale (issue 36).
	code, out, errs = paramctl(t, "", "lint", "--baseline", baseline, "web")
	assert.Equal(t, 0, code, out+errs)
	assert.NotContains(t, errs, "matches no finding")

	// A stale ignore entry is named too; one that silences is not.
	cfg := filepath.Join(t.TempDir(), "lint.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("ignore:\n  - file: charts/*/ci/bad-values.yaml\n  - rule: kudo-enum-default\n    pointer: /properties/gone/**\n"), 0o644))
	code, out, errs = paramctl(t, "", "lint", "--config", cfg, "web")
	assert.Equal(t, 0, code, out+errs)
	assert.Contains(t, errs, cfg+`: /ignore/1 (rule "kudo-enum-default", pointer "/properties/gone/**") silenced nothing: the finding is gone; remove the entry`)
	assert.NotContains(t, errs, "/ignore/0")
	assert.Contains(t, errs, "3 silenced (3 by ignore entries)")
}

// TestLintRootWithoutRepository: outside a repository the root is the
// arguments' common folder, the same from any working directory.
func TestLintRootWithoutRepository(t *testing.T) {
	dir := t.TempDir()
	chart := copyDir(t, webChart, filepath.Join(dir, "charts", "web"))
	args := []string{chart, "--values", filepath.Join(chart, "bad-values.yaml")}
	t.Chdir(dir)
	text, jsonFiles, sarif, _ := lintOutputs(t, args...)
	want := []string{"bad-values.yaml", "bad-values.yaml", "bad-values.yaml"}
	assert.Equal(t, want, text)
	assert.Equal(t, want, jsonFiles)
	assert.Equal(t, want, sarif)
	t.Chdir(chart)
	text, _, _, _ = lintOutputs(t, ".", "--values", "bad-values.yaml")
	assert.Equal(t, want, text)
	t.Chdir(filepath.Join(dir, "charts"))
	text, _, _, _ = lintOutputs(t, "web", "../charts/web/../web", "--values", "web/bad-values.yaml")
	assert.Len(t, text, 6, "the chart twice")
	assert.Equal(t, "bad-values.yaml", text[0])
}

func TestCommonDir(t *testing.T) {
	sep := string(filepath.Separator)
	j := func(p ...string) string { return sep + filepath.Join(p...) }
	assert.Equal(t, j("a", "b"), commonDir(j("a", "b", "c"), j("a", "b", "d")))
	assert.Equal(t, j("a"), commonDir(j("a", "bc"), j("a", "b")), "by whole names")
	assert.Equal(t, j("a", "b"), commonDir(j("a", "b"), j("a", "b", "c")))
	assert.Equal(t, sep, commonDir(j("a"), j("b")))
}

// TestLintPartialRun (issue 36 item 3): on a partial run (--charts, as
// the pre-commit hook and the Action's changed input run it) baseline
// and ignore entries of charts and overlays outside the run are neither
// applied nor reported stale; entries of what was linted still are.
func TestLintPartialRun(t *testing.T) {
	repo := lintRepo(t)
	copyDir(t, filepath.Join(repo, "charts", "web"), filepath.Join(repo, "charts", "other"))
	bad, err := os.ReadFile(filepath.Join(repo, "charts", "web", "ci", "bad-values.yaml"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(repo, "charts", "web", "ci", "bad2-values.yaml"), bad, 0o644))
	t.Chdir(repo)
	_, base, errs := paramctl(t, "", "lint", "-o", "json", "charts/web", "charts/other", "schemas/s.yaml")
	require.Contains(t, base, "charts/other/ci/bad-values.yaml", errs)
	require.Contains(t, base, "charts/web/ci/bad2-values.yaml")
	baseline := filepath.Join(t.TempDir(), "baseline.json")
	require.NoError(t, os.WriteFile(baseline, []byte(base), 0o644))

	for _, c := range []struct {
		name  string
		args  []string
		stale []string // files whose entries are stale
	}{
		{"one chart", []string{"--charts", "charts/web/values.yaml"}, nil},
		{"one overlay of one chart", []string{"--charts", "charts/web/ci/bad-values.yaml"}, nil},
		{"every chart, the schema left out", []string{"charts/web", "charts/other"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := paramctl(t, "", append([]string{"lint", "--baseline", baseline}, c.args...)...)
			assert.Equal(t, 0, code, out+errs)
			assert.NotContains(t, errs, "matches no finding")
		})
	}

	// A fixed overlay of the chart linted: its entries are stale, the
	// other chart's are not.
	require.NoError(t, os.Remove(filepath.Join(repo, "charts", "web", "ci", "bad2-values.yaml")))
	code, out, errs := paramctl(t, "", "lint", "--baseline", baseline, "--charts", "charts/web/values.yaml")
	assert.Equal(t, 0, code, out+errs)
	assert.Equal(t, 3, strings.Count(errs, "in charts/web/ci/bad2-values.yaml) matches no finding"), errs)
	assert.NotContains(t, errs, "charts/other")
	assert.NotContains(t, errs, "schemas/s.yaml")

	// An entry of another chart is not applied: the finding it would
	// silence is that chart's, and a baseline entry of one chart never
	// silences another's.
	onlyOther := strings.ReplaceAll(base, `"charts/web/ci/bad-values.yaml"`, `"charts/other/ci/bad-values.yaml"`)
	require.NoError(t, os.WriteFile(baseline, []byte(onlyOther), 0o644))
	code, _, errs = paramctl(t, "", "lint", "--baseline", baseline, "--charts", "charts/web/ci/bad-values.yaml")
	assert.Equal(t, 1, code, errs)
	assert.NotContains(t, errs, "in charts/other")

	// Ignore entries: one of another chart (by its file) is not stale,
	// one of the chart linted is.
	cfg := filepath.Join(t.TempDir(), "lint.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("ignore:\n  - file: charts/other/ci/*.yaml\n  - file: charts/web/ci/gone.yaml\n  - file: ci/bad-values.yaml\n"), 0o644))
	code, out, errs = paramctl(t, "", "lint", "--config", cfg, "--charts", "charts/web/values.yaml")
	assert.Equal(t, 0, code, out+errs)
	assert.NotContains(t, errs, "/ignore/0")
	assert.Contains(t, errs, `/ignore/1 (file "charts/web/ci/gone.yaml") silenced nothing`)
	assert.NotContains(t, errs, "/ignore/2", "applied: the chart's ci/bad-values.yaml")
}
