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

const (
	webChart   = "testdata/charts/web"
	demoChart  = "testdata/charts/cluster-demo"
	gsConfig   = "configs/giantswarm-cluster-app.yaml"
	chartGlden = "testdata/charts/"
)

// TestLintChart: a chart folder (or its Chart.yaml) is linted as helm
// lint does: the schema with the rule sets, values.yaml against it, extra
// values files layered over it with --values; each finding names the file
// and line.
func TestLintChart(t *testing.T) {
	tests := []cliCase{
		{name: "clean chart", args: []string{"lint", webChart}, code: 0, err: []string{"0 errors, 0 warnings, 0 info\n"}},
		{name: "Chart.yaml stands for its chart", args: []string{"lint", webChart + "/Chart.yaml"}, code: 0},
		{name: "extra values, errors in the file that writes them", args: []string{"lint", webChart, "--values", webChart + "/ci/ci-values.yaml", "--values", webChart + "/bad-values.yaml"}, code: 1,
			out: []string{
				webChart + "/bad-values.yaml:1:1: /replicaCount: error chart-values: must be >= 1 but found 0\n",
				webChart + "/bad-values.yaml:3:3: /service/type: error chart-values: value must be one of ",
				webChart + "/bad-values.yaml:6:3: /sidecars/Logger: error chart-values: not allowed here: \"Logger\"", // the key and its line (issue 27)
			}, err: []string{"3 errors, 0 warnings, 0 info\n"}},
		{name: "--disable takes chart-values too", args: []string{"lint", webChart, "--values", webChart + "/bad-values.yaml", "--disable", "chart-*"}, code: 0,
			err: []string{"0 errors, 0 warnings, 0 info; 3 silenced (3 by disabled rules)\n"}},
		{name: "--values needs a chart", args: []string{"lint", demoSchema, "--values", webChart + "/values.yaml"}, code: 2, err: []string{"--values is for a Helm chart folder"}},
		{name: "rule sets on the chart's schema", args: []string{"lint", "--rules", "cluster-app", demoChart}, code: 1,
			out: []string{demoChart + "/values.schema.json:41:5: /properties/global: error R17-root-unknown: "}},
		{name: "a glob in --disable", args: []string{"lint", "--rules", "cluster-app", demoChart, "--disable", "R5-*,R17-*", "--disable", "R18-*"}, code: 1,
			notOut: []string{"R5-", "R17-", "R18-"}, out: []string{"R9-required-default"}},
		{name: "a glob matching no rule", args: []string{"lint", demoChart, "--disable", "R99-*"}, code: 2, err: []string{`--disable: rule pattern "R99-*" matches no rule`}},
		{name: "a misspelt rule", args: []string{"lint", demoChart, "--disable", "R5-titel"}, code: 2, err: []string{`unknown rule "R5-titel": did you mean R5-title?`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t) })
	}
}

// TestLintChartJSON: -o json findings of a chart carry the file (named
// from the run's root, as in every output) and the line; SARIF names the
// same file and lists chart-values among the rules.
func TestLintChartJSON(t *testing.T) {
	code, out, _ := paramctl(t, "", "lint", webChart, "--values", webChart+"/bad-values.yaml", "-o", "json")
	assert.Equal(t, 1, code)
	var fs []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &fs))
	require.Len(t, fs, 3)
	bad := lintName([]string{webChart}, webChart+"/bad-values.yaml")
	assert.Equal(t, map[string]any{"rule": "chart-values", "severity": "error", "pointer": "/replicaCount", "message": "must be >= 1 but found 0",
		"kind": "invalid", "file": bad, "line": float64(1)}, fs[0])

	code, out, _ = paramctl(t, "", "lint", webChart, "--values", webChart+"/bad-values.yaml", "-o", "sarif")
	assert.Equal(t, 1, code)
	assert.Contains(t, out, `"uri": "`+bad+`"`)
	assert.Contains(t, out, `"id": "chart-values"`)
}

// TestJSONSchemaFileMustBeJSON: a values.schema.json with a trailing
// comma is refused with its line everywhere a schema is read (Helm
// refuses the chart): lint of the chart and of the file, --schema of
// every command; the same text in a .yaml file is YAML and fine.
func TestJSONSchemaFileMustBeJSON(t *testing.T) {
	dir := t.TempDir()
	chart := filepath.Join(dir, "chart")
	require.NoError(t, os.MkdirAll(chart, 0o755))
	schemaText := "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"a\": {\"type\": \"string\"},\n  }\n}\n"
	require.NoError(t, os.WriteFile(filepath.Join(chart, "Chart.yaml"), []byte("name: chart\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(chart, "values.schema.json"), []byte(schemaText), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(chart, "values.yaml"), []byte("a: x\n"), 0o644))
	yamlFile := filepath.Join(dir, "schema.yaml")
	require.NoError(t, os.WriteFile(yamlFile, []byte(schemaText), 0o644))
	jsonFile := filepath.Join(chart, "values.schema.json")
	const msg = "line 4: a trailing comma before '}' is not JSON: remove it (a file named .json is read as JSON only)"
	for _, args := range [][]string{
		{"lint", chart},
		{"lint", jsonFile},
		{"validate", "--schema", jsonFile, filepath.Join(chart, "values.yaml")},
		{"validate", "--schema", chart, filepath.Join(chart, "values.yaml")},
		{"list", "--schema", jsonFile},
		{"defaults", "--schema", jsonFile},
		{"update", "--schema", jsonFile, "-p", "a=x"},
		{"add-param", "--schema", jsonFile, "--path", "/b", "--type", "string"},
		{"convert", jsonFile},
	} {
		code, out, errs := paramctl(t, "", args...)
		assert.Equal(t, 2, code, "%v\n%s%s", args, out, errs)
		assert.Contains(t, errs, jsonFile+": "+msg, "%v", args)
		assert.NotContains(t, errs, "paramctl lint", "a syntax error is not lint's to report")
	}
	code, _, errs := paramctl(t, "a: x\n", "validate", "--schema", yamlFile, "-")
	assert.Equal(t, 0, code, errs)
}

// TestSchemaFromChart: a chart folder where one schema is expected stands
// for its values.schema.json.
func TestSchemaFromChart(t *testing.T) {
	code, out, errs := paramctl(t, "replicaCount: 0\n", "validate", "--schema", webChart, "-")
	assert.Equal(t, 1, code, errs)
	assert.Empty(t, out)
	assert.Contains(t, errs, "/replicaCount: must be >= 1 but found 0")
	code, _, errs = paramctl(t, "", "list", "--schema", t.TempDir())
	assert.Equal(t, 2, code, "an empty folder is no package either")
	assert.Contains(t, errs, "not a KUDO package folder: it holds neither params.yaml nor operator.yaml")
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "Chart.yaml"), []byte("name: x\n"), 0o644))
	code, _, errs = paramctl(t, "", "list", "--schema", dir)
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, dir+": the Helm chart has no values.schema.json")
}

// TestValidateSeveralFiles: every file is validated and named, whatever
// the verdict on the others; the exit status is the worst one.
func TestValidateSeveralFiles(t *testing.T) {
	dir := t.TempDir()
	stream := filepath.Join(dir, "stream.yaml")
	require.NoError(t, os.WriteFile(stream, []byte("replicaCount: 2\n---\nreplicaCount: x\n"), 0o644))
	bad := webChart + "/bad-values.yaml"
	good := webChart + "/ci/ci-values.yaml"

	code, out, errs := paramctl(t, "", "validate", "--schema", webChart, good, bad, stream)
	assert.Equal(t, 1, code, errs)
	assert.Equal(t, good+": valid\n"+stream+": doc 0: valid\n", out)
	assert.Equal(t, bad+":1:1: /replicaCount: must be >= 1 but found 0\n"+
		bad+`:3:3: /service/type: value must be one of "ClusterIP", "NodePort", "LoadBalancer"`+"\n"+
		bad+`:6:3: /sidecars/Logger: not allowed here: "Logger" (the schema does not declare it)`+"\n"+
		stream+":3:1: doc 1: /replicaCount: expected integer, but got string \"x\"\n", errs)

	code, out, errs = paramctl(t, "", "validate", "--schema", webChart, good, "nope.yaml", bad)
	assert.Equal(t, 2, code, "a missing file is exit 2, the others are still validated")
	assert.Contains(t, out, good+": valid")
	assert.Contains(t, errs, "nope.yaml: no such file or directory")
	assert.Contains(t, errs, bad+":1:1: /replicaCount")

	code, out, _ = paramctl(t, "", "validate", "--schema", webChart, good, bad, "-o", "json")
	assert.Equal(t, 1, code)
	var rs []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rs))
	require.Len(t, rs, 2)
	assert.Equal(t, good, rs[0]["file"])
	assert.Equal(t, true, rs[0]["valid"])
	assert.Equal(t, bad, rs[1]["file"])
	assert.Len(t, rs[1]["errors"], 3)

	// One file: the output stays as it was, no file named.
	code, out, _ = paramctl(t, "", "validate", "--schema", webChart, good, "-o", "json")
	assert.Equal(t, 0, code)
	assert.NotContains(t, out, `"file"`)
	code, out, _ = paramctl(t, "", "validate", "--schema", webChart, good)
	assert.Equal(t, 0, code)
	assert.Equal(t, "valid\n", out)

	code, _, errs = paramctl(t, "", "validate", "--schema", webChart, "-", "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "standard input (-) once")
}

// TestLintConfigAndBaseline: a configuration file silences what the team
// accepted; a baseline (an earlier -o json) accepts today's findings, so
// only new ones print and fail.
func TestLintConfigAndBaseline(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "lint.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte(`rules: [cluster-app]
disable: [R17-*, R18-empty-default, R9-*]
ignore:
  - pointer: /$defs/**
  - rule: "R6-*"
    pointer: /properties/global/properties/*/description
words: [etcd, Pod Security Standards]
`), 0o644))
	code, out, errs := paramctl(t, "", "lint", "--config", cfg, demoChart)
	assert.Equal(t, 1, code, errs)
	assert.NotContains(t, out, "R17-")
	assert.NotContains(t, out, "/$defs/")
	assert.NotContains(t, out, "etcdVolumeSizeGB/title", "etcd is a word the title rules accept")
	assert.NotContains(t, out, "podSecurityStandards/title")
	assert.Contains(t, out, "/properties/global/properties/apps/properties/certManager/title: error R5-title-case: ")
	assert.Regexp(t, `errors, \d+ warnings, 0 info; \d+ silenced \(\d+ by ignore entries\)`, errs)

	// --rules on the command line wins over the file's rules.
	code, out, _ = paramctl(t, "", "lint", "--config", cfg, "--rules", "kudo", demoChart)
	assert.Equal(t, 0, code)
	assert.NotContains(t, out, "R5-")

	// The baseline: today's findings accepted, a new one fails.
	changed := copyDir(t, demoChart, filepath.Join(dir, "chart"))
	code, base, _ := paramctl(t, "", "lint", "--config", cfg, changed, "-o", "json")
	assert.Equal(t, 1, code)
	baseline := filepath.Join(dir, "baseline.json")
	require.NoError(t, os.WriteFile(baseline, []byte(base), 0o644))
	code, out, errs = paramctl(t, "", "lint", "--config", cfg, "--baseline", baseline, changed)
	assert.Equal(t, 0, code, out)
	assert.Empty(t, out)
	assert.Contains(t, errs, "by the baseline")
	assert.NotContains(t, errs, "matches no finding", "no stale entry")

	schemaFile := filepath.Join(changed, "values.schema.json")
	data, err := os.ReadFile(schemaFile)
	require.NoError(t, err)
	data = []byte(strings.Replace(string(data), `"title": "Enforced"`, `"title": "Enforced Everywhere"`, 1))
	require.NoError(t, os.WriteFile(schemaFile, data, 0o644))
	code, out, _ = paramctl(t, "", "lint", "--config", cfg, "--baseline", baseline, changed)
	assert.Equal(t, 1, code, "a new finding fails the run")
	assert.Equal(t, 1, strings.Count(out, "\n"), out)
	assert.Contains(t, out, `podSecurityStandards/properties/enforced/title: error R5-title-case: title "Enforced Everywhere"`)

	for _, bad := range []struct{ file, text, err string }{
		{"c1.yaml", "disabled: [R5-title]\n", `c1.yaml: /disabled: unknown key "disabled": did you mean disable?`},
		{"c2.yaml", "ignore:\n  - pointer: properties\n", `c2.yaml: /ignore/0/pointer: ignore: pointer pattern "properties" does not start with /`},
		{"c3.yaml", "disable: [R[]\n", "c3.yaml: line 1"},
	} {
		p := filepath.Join(dir, bad.file)
		require.NoError(t, os.WriteFile(p, []byte(bad.text), 0o644))
		code, _, errs := paramctl(t, "", "lint", "--config", p, demoChart)
		assert.Equal(t, 2, code)
		assert.Contains(t, errs, bad.err)
	}
	p := filepath.Join(dir, "b.json")
	require.NoError(t, os.WriteFile(p, []byte(`{"rule": "x"}`), 0o644))
	code, _, errs = paramctl(t, "", "lint", "--baseline", p, demoChart)
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "b.json: a baseline is the -o json output of an earlier lint run")
	code, _, errs = paramctl(t, "", "lint", "--config", filepath.Join(dir, "nope.yaml"), demoChart)
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "nope.yaml: no such file or directory")
}

// TestLintCharts: --charts maps the files pre-commit passes to the charts
// they belong to, each linted once.
func TestLintCharts(t *testing.T) {
	code, out, errs := paramctl(t, "", "lint", "--charts", webChart+"/values.yaml", webChart+"/bad-values.yaml", webChart+"/Chart.yaml", demoSchema, "-o", "json")
	assert.Equal(t, 0, code, errs)
	assert.Equal(t, "[]\n", out, "web linted once, alone")
	assert.Contains(t, errs, demoSchema+": in no Helm chart (no Chart.yaml above it): skipped")

	code, out, _ = paramctl(t, "", "lint", "--charts", "--rules", "cluster-app", webChart+"/values.schema.json", demoChart+"/values.yaml", "-o", "json")
	assert.Equal(t, 1, code)
	args := []string{webChart, demoChart}
	assert.Contains(t, out, `"file": "`+lintName(args, webChart+"/values.schema.json")+`"`)
	assert.Contains(t, out, `"file": "`+lintName(args, demoChart+"/values.schema.json")+`"`)

	code, out, _ = paramctl(t, "", "lint", "--charts", demoSchema)
	assert.Equal(t, 0, code, "nothing to lint is no failure")
	assert.Empty(t, out)
}

// TestShippedGiantSwarmConfig: the configuration the manual ships for
// Giant Swarm's cluster charts, on a synthetic chart in their layout:
// what it turns off stays off (R17 against the global layout, R9, R18,
// the subtrees schemalint leaves out, product names in titles), what
// schemalint misses is found (an example of the wrong type and a "ref"
// typo in a definition under patternProperties, a title not in sentence
// case). The copy in paramctl's manual (README.md here) is this file.
func TestShippedGiantSwarmConfig(t *testing.T) {
	code, out, errs := paramctl(t, "", "lint", "--config", gsConfig, demoChart, "--values", demoChart+"/ci/ci-values.yaml")
	assert.Equal(t, 1, code, errs)
	golden(t, chartGlden+"cluster-demo.lint.golden.txt", unroot(out)+"--- stderr\n"+errs)
	for _, off := range []string{"R17-", "R9-", "R18-", "/properties/internal/", "/apps/", "etcdVolumeSizeGB/title", "podSecurityStandards/title"} {
		assert.NotContains(t, out, off)
	}
	for _, found := range []string{"maxSize/examples/0: warning R7-examples-valid", "minSize/ref: warning kudo-misspelt-keyword", "instanceType/title: error R5-title-case"} {
		assert.Contains(t, out, found)
	}

	manual, err := os.ReadFile("README.md")
	require.NoError(t, err)
	cfg, err := os.ReadFile(gsConfig)
	require.NoError(t, err)
	assert.Contains(t, string(manual), "```yaml\n"+string(cfg)+"```\n", "the manual shows the shipped file as it is")
}

// copyDir copies a folder tree for a test to change.
func copyDir(t *testing.T, from, to string) string {
	t.Helper()
	require.NoError(t, filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	}))
	return to
}

// TestListMarkdownChart: the markdown of a chart's schema: no KUDO
// columns, enum values and examples, Markdown kept, long defaults cut,
// what lies under patternProperties, additionalProperties and oneOf.
func TestListMarkdownChart(t *testing.T) {
	for _, chart := range []string{webChart, demoChart} {
		code, out, errs := paramctl(t, "", "list", "--schema", chart, "-o", "markdown")
		require.Equal(t, 0, code, errs)
		golden(t, chart+".md.golden", out)
		assert.NotContains(t, out, "Trigger", "no KUDO keyword, no KUDO column")
		assert.NotContains(t, out, `\*`)
		assert.NotContains(t, out, "\\`")
	}
	_, out, _ := paramctl(t, "", "list", "--schema", webChart, "-o", "markdown")
	for _, want := range []string{
		"| `image.repository` | string | `\"nginx\"` |  | Image **repository**, such as `nginx` or `ghcr.io/acme/web`. |",
		"Allowed values: `\"Always\"`, `\"IfNotPresent\"`, `\"Never\"`.",
		"<br>Examples: `\"1.27\"`, `\"1.27-alpine\"`.",
		"Number of replicas \\| pods.",
		"the pod listens on &lt;PORT&gt; too.",
		"### `sidecars.*`\n\nKeys match `^[a-z][a-z0-9-]{0,19}$`.",
		"| `sidecars.*.mode` |  |  |  | Allowed values: `\"native\"` (Native sidecar), `\"classic\"` (Classic container). |",
		"| `extraEnv.*.secretRef` |",
		"| [`probe.httpGet`](#probehttpget) | object |  |  |  |", // required in one oneOf branch: not required
		"`\"server {\\n listen 80;\\n location / {…`",
	} {
		assert.Contains(t, out, want)
	}
	_, out, _ = paramctl(t, "", "list", "--schema", demoChart, "-o", "markdown")
	assert.Contains(t, out, "### `global.nodePools.*`\n\n**Node pool.** A group of worker nodes of the same instance type.\n\nKeys match `^[a-z0-9-]{3,10}$`.")
	assert.Contains(t, out, "| `global.nodePools.*.instanceType` |")
}

// TestListWriteCheck: --write puts the markdown between the markers and
// leaves the rest of the file as it was; --check exits 1 while the
// section is stale and 0 once written.
func TestListWriteCheck(t *testing.T) {
	dir := t.TempDir()
	readme := filepath.Join(dir, "README.md")
	orig, err := os.ReadFile(webChart + "/README.md")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(readme, orig, 0o640))

	code, out, errs := paramctl(t, "", "list", "--schema", webChart, "--check", readme)
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Contains(t, errs, readme+": the parameter docs between <!-- DOCS_START --> and <!-- DOCS_END --> are stale: run paramctl list -o markdown --write "+readme)

	code, out, errs = paramctl(t, "", "list", "--schema", webChart, "--write", readme)
	assert.Equal(t, 0, code, errs)
	assert.Empty(t, out)
	got, err := os.ReadFile(readme)
	require.NoError(t, err)
	golden(t, webChart+".README.golden.md", string(got))
	_, md, _ := paramctl(t, "", "list", "--schema", webChart, "-o", "markdown")
	start := strings.Index(string(orig), "<!-- DOCS_START -->")
	end := strings.Index(string(orig), "<!-- DOCS_END -->")
	assert.Equal(t, string(orig[:start])+"<!-- DOCS_START -->\n\n"+md+"\n"+string(orig[end:]), string(got), "only the section changes")
	fi, err := os.Stat(readme)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm(), "the file keeps its mode")

	code, _, errs = paramctl(t, "", "list", "--schema", webChart, "--check", readme)
	assert.Equal(t, 0, code, errs)
	assert.Contains(t, errs, "up to date")
	fi2, _ := os.Stat(readme)
	code, _, _ = paramctl(t, "", "list", "--schema", webChart, "--write", readme)
	assert.Equal(t, 0, code)
	fi3, _ := os.Stat(readme)
	assert.Equal(t, fi2.ModTime(), fi3.ModTime(), "an up-to-date file is not rewritten")

	// CRLF files stay CRLF.
	crlf := filepath.Join(dir, "crlf.md")
	require.NoError(t, os.WriteFile(crlf, []byte("# x\r\n<!-- DOCS_START -->\r\n<!-- DOCS_END -->\r\n"), 0o644))
	code, _, _ = paramctl(t, "", "list", "--schema", webChart, "--write", crlf)
	assert.Equal(t, 0, code)
	data, _ := os.ReadFile(crlf)
	assert.NotContains(t, strings.ReplaceAll(string(data), "\r\n", ""), "\n", "every line break is CRLF")
	code, _, _ = paramctl(t, "", "list", "--schema", webChart, "--check", crlf)
	assert.Equal(t, 0, code)

	for _, bad := range []struct{ text, err string }{
		{"# no markers\n", "no <!-- DOCS_START --> ... <!-- DOCS_END --> section"},
		{"<!-- DOCS_END -->\n<!-- DOCS_START -->\n", "<!-- DOCS_END --> comes before <!-- DOCS_START -->"},
		{"<!-- DOCS_START -->\n<!-- DOCS_END -->\n<!-- DOCS_START -->\n", "stands more than once"},
	} {
		f := filepath.Join(dir, "bad.md")
		require.NoError(t, os.WriteFile(f, []byte(bad.text), 0o644))
		code, _, errs := paramctl(t, "", "list", "--schema", webChart, "--write", f)
		assert.Equal(t, 2, code)
		assert.Contains(t, errs, bad.err)
		after, _ := os.ReadFile(f)
		assert.Equal(t, bad.text, string(after), "nothing written on an error")
	}
	code, _, errs = paramctl(t, "", "list", "--schema", webChart, "--write", readme, "--check", readme)
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "exclude each other")
	code, _, errs = paramctl(t, "", "list", "--schema", webChart, "--write", readme, "-o", "json")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "-o json does not go with them")
	code, _, errs = paramctl(t, "", "list", "--schema", webChart, "--write", filepath.Join(dir, "nope.md"))
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "nope.md: no such file or directory")
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		assert.False(t, strings.HasPrefix(e.Name(), "."), "no temporary file left: %s", e.Name())
	}
}

// FuzzReplaceSection: what stands outside the markers is kept byte for
// byte, the section holds the markdown, and writing it again changes
// nothing (so --check passes right after --write).
func FuzzReplaceSection(f *testing.F) {
	f.Add([]byte("# x\n<!-- DOCS_START -->\nold\n<!-- DOCS_END -->\nrest\n"), "## P\n\n| a |\n")
	f.Add([]byte("<!-- DOCS_START --><!-- DOCS_END -->"), "x")
	f.Add([]byte("a\r\n<!-- DOCS_START -->\r\n<!-- DOCS_END -->\r\n"), "## P\n")
	f.Add([]byte("<!-- DOCS_END --><!-- DOCS_START -->"), "x")
	f.Fuzz(func(t *testing.T, data []byte, md string) {
		out, err := replaceSection(data, md)
		if err != nil {
			return
		}
		s, e := strings.Index(string(data), docsStart), strings.Index(string(data), docsEnd)
		assert.True(t, strings.HasPrefix(string(out), string(data[:s+len(docsStart)])))
		assert.True(t, strings.HasSuffix(string(out), string(data[e:])))
		again, err := replaceSection(out, md)
		if strings.Contains(md, docsStart) || strings.Contains(md, docsEnd) {
			return // markdown holding a marker makes a second section
		}
		require.NoError(t, err)
		assert.Equal(t, string(out), string(again))
	})
}

// TestLintOverlays: a chart's ci/*.yaml are each checked on top of
// values.yaml, as chart-testing runs them, findings in the overlay's own
// lines; --values takes globs (each match on its own) and replaces
// ci/*.yaml; --charts checks only the overlays that changed, all of them
// when values.yaml, the schema or Chart.yaml changed.
func TestLintOverlays(t *testing.T) {
	chart := "testdata/helm/charts/overlays"
	tests := []cliCase{
		{name: "each overlay on its own", args: []string{"lint", chart}, code: 1,
			out: []string{
				chart + "/ci/drop-values.yaml:2:3: /image/tag: error chart-values: missing required property: \"tag\" (the null at ci/drop-values.yaml:2 removed the key: Helm deletes a key set to null; remove that line to keep the chart's default)\n",
				chart + "/ci/duplicate-values.yaml:2:1: /enabled: warning chart-values: \"enabled\" is given twice (lines 1 and 2): Helm keeps the last value",
				chart + "/ci/tag-values.yaml:3:3: /image/tag: error chart-values: Helm reads 1.10 as the number 1.1; the schema wants a string: write \"1.10\"\n",
			},
			notOut: []string{"comment-only-values.yaml", "yes-values.yaml"},
			err:    []string{"2 errors, 1 warning, 0 info\n"}},
		{name: "--values takes a glob", args: []string{"lint", chart, "--values", chart + "/ci/[ty]*-values.yaml"}, code: 1,
			out: []string{chart + "/ci/tag-values.yaml:3:3: /image/tag: error"}, notOut: []string{"drop-values", "duplicate-values"}},
		{name: "a glob matching nothing", args: []string{"lint", chart, "--values", chart + "/ci/nope*.yaml"}, code: 2, err: []string{"matches no file"}},
		{name: "--charts: only the overlays that changed", args: []string{"lint", "--charts", chart + "/ci/yes-values.yaml", chart + "/ci/tag-values.yaml"}, code: 1,
			out: []string{"tag-values.yaml:3:3"}, notOut: []string{"drop-values", "duplicate-values"}},
		{name: "--charts: a changed overlay that passes", args: []string{"lint", "--charts", chart + "/ci/yes-values.yaml"}, code: 0},
		{name: "--charts: values.yaml changed, every overlay", args: []string{"lint", "--charts", chart + "/values.yaml"}, code: 1,
			out: []string{"drop-values.yaml", "tag-values.yaml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t) })
	}
}

// TestValuesCommand: paramctl values prints Helm's values (keys sorted)
// and exits 0, or exits 1 with each error at FILE:LINE:COL of the file
// (or the --set) that wrote the value, or 2 for input Helm cannot read.
func TestValuesCommand(t *testing.T) {
	chart := "testdata/helm/charts/issue27"
	tests := []cliCase{
		{name: "values.yaml alone", args: []string{"values", chart}, code: 0,
			out: []string{"awsAccountId: \"000000000000\"\n", "image:\n  repository: nginx\n  tag: \"1.25\"\n"}, notOut: []string{"requests", "extra"}},
		{name: "-o json, numbers as Helm holds them", args: []string{"values", chart, "-f", "testdata/helm/overlays/big-numbers.yaml", "-o", "json"}, code: 0,
			out: []string{`"big": 9007199254740992`, `"ratio": 1.1`}},
		{name: "an error in the overlay's line", args: []string{"values", chart, "-f", "testdata/helm/overlays/tag-1.10.yaml"}, code: 1,
			err: []string{"testdata/helm/overlays/tag-1.10.yaml:2:3: /image/tag: error: Helm reads 1.10 as the number 1.1; the schema wants a string: write \"1.10\"\n"}},
		{name: "an error a --set wrote", args: []string{"values", chart, "--set", "image.tag=110"}, code: 1,
			err: []string{"--set image.tag=110: /image/tag: error: --set reads 110 as the number 110; the schema wants a string: give it with --set-string\n"}},
		{name: "a warning does not fail", args: []string{"values", chart, "-f", "testdata/helm/overlays/duplicate.yaml"}, code: 0,
			err: []string{"duplicate.yaml:2:1: /replicas: warning: \"replicas\" is given twice"}, out: []string{"replicas: 3\n"}},
		{name: "a --set Helm refuses", args: []string{"values", chart, "--set", "replicas"}, code: 2, err: []string{`key "replicas" has no value`}},
		{name: "a values file Helm cannot read", args: []string{"values", chart, "-f", "testdata/helm/overlays/a-list.yaml"}, code: 2, err: []string{"a-list.yaml"}},
		{name: "a missing file", args: []string{"values", chart, "-f", "nope.yaml"}, code: 2, err: []string{"nope.yaml: no such file or directory"}},
		{name: "no chart", args: []string{"values", "testdata"}, code: 2, err: []string{"not a Helm chart folder"}},
		{name: "a bad -o", args: []string{"values", chart, "-o", "xml"}, code: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t) })
	}
}

// TestLintSeverityAndStaleEntries: the config's severity key decides
// what fails the run; ignore and baseline entries that silenced nothing
// are named on standard error.
func TestLintSeverityAndStaleEntries(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "lint.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("severity:\n  chart-values: warning\nignore:\n  - rule: R5-title-case\n    pointer: /x\n"), 0o644))
	baseline := filepath.Join(dir, "baseline.json")
	require.NoError(t, os.WriteFile(baseline, []byte(`[{"rule":"chart-values","severity":"error","pointer":"/gone","message":"fixed"}]`), 0o644))
	chart := "testdata/helm/charts/overlays"
	cliCase{name: "severity", args: []string{"lint", chart, "--config", cfg, "--baseline", baseline}, code: 0,
		out: []string{"/image/tag: warning chart-values: Helm reads 1.10"},
		err: []string{
			cfg + `: /ignore/0 (rule "R5-title-case", pointer "/x") silenced nothing: the finding is gone; remove the entry`,
			baseline + ": /0 (rule chart-values at /gone) matches no finding: it was fixed; remove the entry",
			"0 errors, 3 warnings, 0 info",
		}}.run(t)
}

// TestListChartDocsFromValues: for a chart, list takes what helm-docs
// takes from values.yaml where the schema says nothing: the default Helm
// uses (values.yaml as Helm reads it: 1.10 is 1.1) and a `# --`
// comment's description; a secret's default stays hidden.
func TestListChartDocsFromValues(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "Chart.yaml"), []byte("apiVersion: v2\nname: x\nversion: 1.0.0\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "values.schema.json"), []byte(`{"type":"object","properties":{
  "image":{"type":"object","properties":{"tag":{"type":"number"},"pullPolicy":{"type":"string","description":"from the schema","default":"Always"}}},
  "password":{"type":"string","writeOnly":true},
  "gone":{"type":"string"}}}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "values.yaml"), []byte("image:\n  # -- the image tag,\n  # as Helm reads it\n  tag: 1.10\n  # -- not used: the schema has one\n  pullPolicy: IfNotPresent\npassword: hunter2\ngone: ~\n"), 0o644))
	code, out, errs := paramctl(t, "", "list", "--schema", dir, "-o", "json")
	require.Equal(t, 0, code, errs)
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	byName := map[string]map[string]any{}
	for _, r := range rows {
		byName[r["pointer"].(string)] = r
	}
	assert.Equal(t, 1.1, byName["/image/tag"]["default"])
	assert.Equal(t, "the image tag, as Helm reads it", byName["/image/tag"]["description"])
	assert.Equal(t, "Always", byName["/image/pullPolicy"]["default"], "the schema's default first")
	assert.Equal(t, "from the schema", byName["/image/pullPolicy"]["description"])
	assert.Equal(t, true, byName["/password"]["hidden"])
	assert.NotContains(t, out, "hunter2")
	assert.Nil(t, byName["/gone"]["default"], "a null in values.yaml is dropped, as Helm does")
	assert.Nil(t, byName["/image"]["default"], "an object's rows say what it holds")
}
