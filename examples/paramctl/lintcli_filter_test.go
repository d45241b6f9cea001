package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/lint"
)

func TestPointerMatch(t *testing.T) {
	tests := []struct {
		pattern, ptr string
		want         bool
	}{
		{"/properties/*/title", "/properties/a/title", true},
		{"/properties/*/title", "/properties/a/properties/b/title", false},
		{"/properties/**/title", "/properties/a/properties/b/title", true},
		{"/properties/**/title", "/properties/title", true},
		{"/properties/internal/**", "/properties/internal", true},
		{"/properties/internal/**", "/properties/internal/properties/x", true},
		{"/properties/internal/**", "/properties/internalx", false},
		{"/properties/int*/**", "/properties/internalx/title", true},
		{"/**", "", true},
		{"/**", "/a/b", true},
		{"", "", true},
		{"", "/a", false},
		{"/properties/a~1b", "/properties/a~1b", true},
		{"/properties/*", "/properties/a~1b", true},
		{"/**/oneOf/**", "/$defs/pool/oneOf/0/properties/x", true},
		{"/**/oneOf/**", "/$defs/pool/anyOf/0", false},
		{"/a/[", "/a/[", false}, // malformed: matches nothing
		{"a/b", "/a/b", false},  // no leading slash: matches nothing
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, pointerMatch(tt.pattern, tt.ptr), "%q ~ %q", tt.pattern, tt.ptr)
	}
}

func TestFilterApply(t *testing.T) {
	// A chart's findings, named from the root as lintOne names them.
	r := lintReport{File: "charts/web", folder: true, Findings: []lint.Finding{
		{Rule: "R5-title-case", Pointer: "/properties/a/title", File: "charts/web/values.schema.json"},
		{Rule: "R5-title", Pointer: "/properties/internal/properties/b", File: "charts/web/values.schema.json"},
		{Rule: "R18-empty-default", Pointer: "/properties/c/default", File: "charts/web/values.schema.json"},
		{Rule: "chart-values", Pointer: "/replicas", File: "charts/web/values.yaml"},
		{Rule: "kudo-enum-default", Pointer: "/properties/d/default", File: "charts/web/values.schema.json"},
		{Rule: "kudo-enum-default", Pointer: "/properties/e/default", File: "charts/web/values.schema.json"},
	}}
	tests := []struct {
		name   string
		filter lintFilter
		kept   []string // rule pointer
		n      silenced
	}{
		{name: "zero filter keeps all", kept: []string{"R5-title-case /properties/a/title", "R5-title /properties/internal/properties/b", "R18-empty-default /properties/c/default", "chart-values /replicas", "kudo-enum-default /properties/d/default", "kudo-enum-default /properties/e/default"}},
		{name: "disable globs", filter: lintFilter{Disable: []string{"R5-*", "R18-empty-default"}},
			kept: []string{"chart-values /replicas", "kudo-enum-default /properties/d/default", "kudo-enum-default /properties/e/default"}, n: silenced{Disabled: 3}},
		{name: "disable a rule that runs whatever the sets", filter: lintFilter{Disable: []string{"chart-*"}},
			kept: []string{"R5-title-case /properties/a/title", "R5-title /properties/internal/properties/b", "R18-empty-default /properties/c/default", "kudo-enum-default /properties/d/default", "kudo-enum-default /properties/e/default"}, n: silenced{Disabled: 1}},
		{name: "ignore by pointer, any rule", filter: lintFilter{Ignore: []lintIgnore{{Pointer: "/properties/internal/**"}}},
			kept: []string{"R5-title-case /properties/a/title", "R18-empty-default /properties/c/default", "chart-values /replicas", "kudo-enum-default /properties/d/default", "kudo-enum-default /properties/e/default"}, n: silenced{Ignored: 1}},
		{name: "ignore by rule and pointer", filter: lintFilter{Ignore: []lintIgnore{{Rule: "R*", Pointer: "/properties/*/title"}}},
			kept: []string{"R5-title /properties/internal/properties/b", "R18-empty-default /properties/c/default", "chart-values /replicas", "kudo-enum-default /properties/d/default", "kudo-enum-default /properties/e/default"}, n: silenced{Ignored: 1}},
		{name: "ignore by file, in the folder", filter: lintFilter{Ignore: []lintIgnore{{File: "values.yaml"}}},
			kept: []string{"R5-title-case /properties/a/title", "R5-title /properties/internal/properties/b", "R18-empty-default /properties/c/default", "kudo-enum-default /properties/d/default", "kudo-enum-default /properties/e/default"}, n: silenced{Ignored: 1}},
		{name: "ignore by file, as the output names it", filter: lintFilter{Ignore: []lintIgnore{{File: "charts/*/values.yaml"}}},
			kept: []string{"R5-title-case /properties/a/title", "R5-title /properties/internal/properties/b", "R18-empty-default /properties/c/default", "kudo-enum-default /properties/d/default", "kudo-enum-default /properties/e/default"}, n: silenced{Ignored: 1}},
		{name: "baseline: same rule and pointer, any message", filter: lintFilter{Baseline: []lint.Finding{
			{Rule: "kudo-enum-default", Pointer: "/properties/d/default", Message: "an older message"},
			{Rule: "R5-title", Pointer: "/properties/a/title"}, // other rule: no match
		}}, kept: []string{"R5-title-case /properties/a/title", "R5-title /properties/internal/properties/b", "R18-empty-default /properties/c/default", "chart-values /replicas", "kudo-enum-default /properties/e/default"}, n: silenced{Baseline: 1}},
		{name: "baseline: a file must match where named", filter: lintFilter{Baseline: []lint.Finding{
			{Rule: "chart-values", Pointer: "/replicas", File: "charts/other/values.yaml"},
			{Rule: "kudo-enum-default", Pointer: "/properties/d/default", File: "charts/web/values.schema.json"},
			{Rule: "kudo-enum-default", Pointer: "/properties/e/default", File: "values.schema.json"}, // not from the root: no match
		}}, kept: []string{"R5-title-case /properties/a/title", "R5-title /properties/internal/properties/b", "R18-empty-default /properties/c/default", "chart-values /replicas", "kudo-enum-default /properties/e/default"}, n: silenced{Baseline: 1}},
		{name: "each finding counted once, first reason wins", filter: lintFilter{Disable: []string{"R5-title"}, Ignore: []lintIgnore{{Rule: "R5-*"}}, Baseline: []lint.Finding{{Rule: "R5-title-case", Pointer: "/properties/a/title"}}},
			kept: []string{"R18-empty-default /properties/c/default", "chart-values /replicas", "kudo-enum-default /properties/d/default", "kudo-enum-default /properties/e/default"}, n: silenced{Disabled: 1, Ignored: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, n := tt.filter.apply(r)
			got := []string{}
			for _, f := range out.Findings {
				got = append(got, f.Rule+" "+f.Pointer)
			}
			if tt.kept == nil {
				tt.kept = []string{}
			}
			assert.Equal(t, tt.kept, got)
			assert.Equal(t, tt.n, n)
			assert.Equal(t, len(r.Findings), len(out.Findings)+n.total())
			assert.Equal(t, "charts/web", out.File)
		})
	}
	assert.Len(t, r.Findings, 6, "the report given is not changed")
}

func TestReadBaseline(t *testing.T) {
	fs, err := readBaseline([]byte(`[
  {"rule": "R5-title", "severity": "error", "pointer": "/properties/a", "message": "m"},
  {"file": "chart/values.yaml", "rule": "chart-values", "severity": "error", "pointer": "", "message": "m", "line": 3}
]`))
	require.NoError(t, err)
	assert.Equal(t, []lint.Finding{
		{Rule: "R5-title", Severity: lint.Error, Pointer: "/properties/a", Message: "m"},
		{Rule: "chart-values", Severity: lint.Error, Pointer: "", Message: "m", File: "chart/values.yaml"},
	}, fs)
	fs, err = readBaseline([]byte("[]\n"))
	require.NoError(t, err)
	assert.Empty(t, fs)
	fs, err = readBaseline(nil)
	require.NoError(t, err)
	assert.Empty(t, fs)
	_, err = readBaseline([]byte(`{"rule": "x"}`))
	assert.ErrorContains(t, err, "a list of findings")
	_, err = readBaseline([]byte(`[{"rule": "x"}]`))
	assert.ErrorContains(t, err, `/0: a baseline entry is a finding with "rule" and "pointer"`)
	_, err = readBaseline([]byte(`[1,`))
	assert.Error(t, err)
}

// FuzzPointerMatch: a pointer always matches itself as a pattern once its
// glob characters are the only thing in it, and "/**" matches any
// pointer; no input panics.
func FuzzPointerMatch(f *testing.F) {
	f.Add("/properties/**/title", "/properties/a/title")
	f.Add("/*", "/a~1b")
	f.Add("/[", "/[")
	f.Fuzz(func(t *testing.T, pattern, ptr string) {
		pointerMatch(pattern, ptr)
		if _, err := globTokens(ptr); err == nil && ptr != "" && !containsGlob(ptr) {
			assert.True(t, pointerMatch(ptr, ptr), "%q", ptr)
		}
		if _, err := globTokens(ptr); err == nil || ptr == "" {
			if ptr == "" || ptr[0] == '/' {
				assert.True(t, pointerMatch("/**", ptr) || !validPointer(ptr), "%q", ptr)
			}
		}
	})
}

func containsGlob(s string) bool {
	for _, c := range s {
		if c == '*' || c == '?' || c == '[' || c == '\\' {
			return true
		}
	}
	return false
}

func validPointer(p string) bool {
	_, err := globTokens(p)
	return err == nil
}

// FuzzReadBaseline: no input makes the baseline reader panic; what it
// accepts has a rule for every entry.
func FuzzReadBaseline(f *testing.F) {
	f.Add([]byte(`[{"rule": "R5-title", "pointer": "/a", "file": "x"}]`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"rule": 1}`))
	f.Add([]byte("- rule: a\n  pointer: ''\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fs, err := readBaseline(data)
		if err != nil {
			return
		}
		for _, x := range fs {
			assert.NotEmpty(t, x.Rule)
		}
	})
}

// TestLintReportScope: which files and file globs a report speaks for
// (issue 36 item 3): its own file, the files below its folder but those
// the run left out.
func TestLintReportScope(t *testing.T) {
	web := lintReport{File: "charts/web", folder: true, skipped: []string{"charts/web/ci/b.yaml"}}
	schemaFile := lintReport{File: "schemas/s.yaml"}
	root := lintReport{File: ".", folder: true}
	for _, c := range []struct {
		r     lintReport
		file  string
		glob  bool
		match bool
	}{
		{web, "charts/web/values.yaml", false, true},
		{web, "charts/web/ci/a.yaml", false, true},
		{web, "charts/web/ci/b.yaml", false, false},
		{web, "charts/webapp/values.yaml", false, false},
		{web, "charts/other/values.yaml", false, false},
		{web, "schemas/s.yaml", false, false},
		{schemaFile, "schemas/s.yaml", false, true},
		{schemaFile, "schemas/t.yaml", false, false},
		{root, "values.yaml", false, true},
		{web, "values.yaml", true, true},
		{web, "charts/*/values.yaml", true, true},
		{web, "charts/other/**", true, false},
		{web, "**/values.yaml", true, true},
		{web, "ci/a.yaml", true, true},
		{web, "ci/b.yaml", true, false},
		{web, "charts/web/ci/b.yaml", true, false},
		{schemaFile, "charts/*/values.yaml", true, false},
		{schemaFile, "schemas/*.yaml", true, true},
	} {
		got := c.r.covers(c.file)
		if c.glob {
			got = c.r.mayCover(c.file)
		}
		assert.Equal(t, c.match, got, "%s %s", c.r.File, c.file)
	}
}
