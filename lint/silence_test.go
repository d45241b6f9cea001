package lint

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
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
	r := Report{File: "chart", Findings: []Finding{
		{Rule: "R5-title-case", Pointer: "/properties/a/title"},
		{Rule: "R5-title", Pointer: "/properties/internal/properties/b"},
		{Rule: "R18-empty-default", Pointer: "/properties/c/default"},
		{Rule: "chart-values", Pointer: "/replicas", File: "values.yaml"},
		{Rule: "kudo-enum-default", Pointer: "/properties/d/default", File: "values.schema.json"},
		{Rule: "kudo-enum-default", Pointer: "/properties/e/default", File: "values.schema.json"},
	}}
	tests := []struct {
		name   string
		filter Filter
		kept   []string // rule pointer
		n      Silenced
	}{
		{name: "zero filter keeps all", kept: []string{"R5-title-case /properties/a/title", "R5-title /properties/internal/properties/b", "R18-empty-default /properties/c/default", "chart-values /replicas", "kudo-enum-default /properties/d/default", "kudo-enum-default /properties/e/default"}},
		{name: "disable globs", filter: Filter{Disable: []string{"R5-*", "R18-empty-default"}},
			kept: []string{"chart-values /replicas", "kudo-enum-default /properties/d/default", "kudo-enum-default /properties/e/default"}, n: Silenced{Disabled: 3}},
		{name: "disable a rule that runs whatever the sets", filter: Filter{Disable: []string{"chart-*"}},
			kept: []string{"R5-title-case /properties/a/title", "R5-title /properties/internal/properties/b", "R18-empty-default /properties/c/default", "kudo-enum-default /properties/d/default", "kudo-enum-default /properties/e/default"}, n: Silenced{Disabled: 1}},
		{name: "ignore by pointer, any rule", filter: Filter{Ignore: []Ignore{{Pointer: "/properties/internal/**"}}},
			kept: []string{"R5-title-case /properties/a/title", "R18-empty-default /properties/c/default", "chart-values /replicas", "kudo-enum-default /properties/d/default", "kudo-enum-default /properties/e/default"}, n: Silenced{Ignored: 1}},
		{name: "ignore by rule and pointer", filter: Filter{Ignore: []Ignore{{Rule: "R*", Pointer: "/properties/*/title"}}},
			kept: []string{"R5-title /properties/internal/properties/b", "R18-empty-default /properties/c/default", "chart-values /replicas", "kudo-enum-default /properties/d/default", "kudo-enum-default /properties/e/default"}, n: Silenced{Ignored: 1}},
		{name: "ignore by file", filter: Filter{Ignore: []Ignore{{File: "values.yaml"}}},
			kept: []string{"R5-title-case /properties/a/title", "R5-title /properties/internal/properties/b", "R18-empty-default /properties/c/default", "kudo-enum-default /properties/d/default", "kudo-enum-default /properties/e/default"}, n: Silenced{Ignored: 1}},
		{name: "baseline: same rule and pointer, any message", filter: Filter{Baseline: []Finding{
			{Rule: "kudo-enum-default", Pointer: "/properties/d/default", Message: "an older message"},
			{Rule: "R5-title", Pointer: "/properties/a/title"}, // other rule: no match
		}}, kept: []string{"R5-title-case /properties/a/title", "R5-title /properties/internal/properties/b", "R18-empty-default /properties/c/default", "chart-values /replicas", "kudo-enum-default /properties/e/default"}, n: Silenced{Baseline: 1}},
		{name: "baseline: a file must match where named", filter: Filter{Baseline: []Finding{
			{Rule: "chart-values", Pointer: "/replicas", File: "other/values.yaml"},
			{Rule: "kudo-enum-default", Pointer: "/properties/d/default", File: "chart/values.schema.json"},
			{Rule: "kudo-enum-default", Pointer: "/properties/e/default", File: "values.schema.json"},
		}}, kept: []string{"R5-title-case /properties/a/title", "R5-title /properties/internal/properties/b", "R18-empty-default /properties/c/default", "chart-values /replicas"}, n: Silenced{Baseline: 2}},
		{name: "each finding counted once, first reason wins", filter: Filter{Disable: []string{"R5-title"}, Ignore: []Ignore{{Rule: "R5-*"}}, Baseline: []Finding{{Rule: "R5-title-case", Pointer: "/properties/a/title"}}},
			kept: []string{"R18-empty-default /properties/c/default", "chart-values /replicas", "kudo-enum-default /properties/d/default", "kudo-enum-default /properties/e/default"}, n: Silenced{Disabled: 1, Ignored: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, n := tt.filter.Apply(r)
			got := []string{}
			for _, f := range out.Findings {
				got = append(got, f.Rule+" "+f.Pointer)
			}
			if tt.kept == nil {
				tt.kept = []string{}
			}
			assert.Equal(t, tt.kept, got)
			assert.Equal(t, tt.n, n)
			assert.Equal(t, len(r.Findings), len(out.Findings)+n.Total())
			assert.Equal(t, "chart", out.File)
		})
	}
	assert.Len(t, r.Findings, 6, "the report given is not changed")
}

func TestReadConfig(t *testing.T) {
	c, err := ReadConfig([]byte(`
rules: cluster-app
disable: ["R5-*", R18-empty-default]
ignore:
  - rule: R17-root-unknown
    pointer: /properties/global
    reason: global holds the root properties
  - pointer: /properties/internal/**
  - file: values.yaml
words: [cert-manager, Pod Security Standards]
`), Sets()...)
	require.NoError(t, err)
	assert.Equal(t, &Config{
		Rules:   []string{"cluster-app"},
		Disable: []string{"R5-*", "R18-empty-default"},
		Ignore: []Ignore{
			{Rule: "R17-root-unknown", Pointer: "/properties/global", Reason: "global holds the root properties"},
			{Pointer: "/properties/internal/**"},
			{File: "values.yaml"},
		},
		Words: []string{"cert-manager", "Pod Security Standards"},
	}, c)

	c, err = ReadConfig([]byte("# nothing yet\n"), Sets()...)
	require.NoError(t, err)
	assert.Equal(t, &Config{}, c)

	tests := []struct {
		name, in string
		errs     []string // "LINE POINTER: message part"
	}{
		{"unknown key", "disabled: [R5-title]\n", []string{`1 /disabled: unknown key "disabled": did you mean disable?`}},
		{"unknown rule", "disable:\n  - R5-title\n  - R99\n", []string{`3 /disable/1: disable: unknown rule "R99"`}},
		{"glob matching nothing", "disable: ['X*']\n", []string{`1 /disable/0: disable: rule pattern "X*" matches no rule`}},
		{"malformed glob", "disable: ['R[']\n", []string{`1 /disable/0: disable: rule pattern "R[": syntax error in pattern`}},
		{"wrong types", "words: {a: 1}\nignore: [x, {rule: 1}]\n", []string{
			`2 /ignore/0: ignore: expected an entry with rule and pointer, not a string`,
			`2 /ignore/1/rule: ignore: rule: expected a string, not a number`,
			`2 /ignore/1: ignore: an entry needs a rule, a pointer or a file`,
			`1 /words: words: expected a list of strings`,
		}},
		{"pointer without slash", "ignore:\n  - pointer: properties/x\n", []string{`2 /ignore/0/pointer: ignore: pointer pattern "properties/x" does not start with /`}},
		{"unknown entry key", "ignore:\n  - rule: R5-title\n    reson: x\n", []string{`3 /ignore/0/reson: ignore: unknown key "reson"`}},
		{"not a mapping", "- a\n", []string{`0 a lint configuration is a mapping`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadConfig([]byte(tt.in), Sets()...)
			require.Error(t, err)
			list := schema.ErrorsOf(err)
			require.Len(t, list, len(tt.errs), "%v", err)
			for _, want := range tt.errs {
				found := false
				for _, e := range list {
					got := e.Message
					if e.Pointer != "" || e.Line > 0 {
						got = e.Pointer + ": " + e.Message
					}
					if containsAll(itoa(e.Line)+" "+got, want) {
						found = true
					}
				}
				assert.True(t, found, "want %q in %v", want, list)
			}
		})
	}
	_, err = ReadConfig([]byte("a: [1,\n"), Sets()...)
	var se *schema.Error
	require.True(t, errors.As(err, &se))
	assert.Equal(t, schema.KindSyntax, se.Kind)
}

func itoa(n int) string { return string(rune('0' + n)) }

func containsAll(got, want string) bool { return len(got) >= len(want) && got[:len(want)] == want }

func TestCheckRuleGlob(t *testing.T) {
	assert.NoError(t, CheckRuleGlob("R5-*", Sets()...))
	assert.NoError(t, CheckRuleGlob("kudo-params", Sets()...), "runs whatever the sets")
	assert.NoError(t, CheckRuleGlob("chart-values", Sets()...), "runs whatever the sets")
	assert.NoError(t, CheckRuleGlob("*", Sets()...))
	assert.EqualError(t, CheckRuleGlob("R5-titel", Sets()...), `unknown rule "R5-titel": did you mean R5-title?`)
	assert.ErrorContains(t, CheckRuleGlob("Q*", Sets()...), `rule pattern "Q*" matches no rule`)
	assert.ErrorContains(t, CheckRuleGlob("R[", Sets()...), "syntax error in pattern")
}

// TestConfigSets: disabled rules are left out, the title rules accept the
// words, a rule in several sets stays one rule (it runs once), and the
// sets given are left as they were.
func TestConfigSets(t *testing.T) {
	c := &Config{Disable: []string{"R18-*", "schema-compile"}, Words: []string{"etcd", "Pod Security Standards", "Node.js"}}
	before := len(clusterAppSet.Rules)
	sets := c.Sets(clusterAppSet, kudoSet)
	require.Len(t, sets, 2)
	assert.Len(t, clusterAppSet.Rules, before)
	var caseRule *Rule
	for _, r := range sets[0].Rules {
		assert.NotEqual(t, "R18-empty-default", r.ID)
		assert.NotEqual(t, "schema-compile", r.ID)
		if r.ID == "R5-title-case" {
			caseRule = r
		}
	}
	require.NotNil(t, caseRule)
	for _, r := range clusterAppSet.Rules {
		if r.ID == "R5-title-case" {
			assert.NotSame(t, r, caseRule, "a copy that knows the words")
		}
	}
	for _, r := range sets[1].Rules {
		assert.NotEqual(t, "schema-compile", r.ID, "disabled in every set")
	}

	schemaDoc := []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {
  "a": {"type": "string", "title": "etcd settings"},
  "b": {"type": "string", "title": "Enforced Pod Security Standards"},
  "c": {"type": "string", "title": "Node.js version"},
  "d": {"type": "string", "title": "Etcd Defrag"},
  "e": {"type": "string", "title": "etcdctl settings"}
}}`)
	titles := func(sets ...*Set) []string {
		fs, err := Document(schemaDoc, sets...)
		require.NoError(t, err)
		out := []string{}
		for _, f := range fs {
			if f.Rule == "R5-title-case" || f.Rule == "R5-title-characters" {
				out = append(out, f.Rule+" "+f.Pointer)
			}
		}
		return out
	}
	assert.Equal(t, []string{
		"R5-title-case /properties/a/title",
		"R5-title-case /properties/b/title",
		"R5-title-characters /properties/c/title",
		"R5-title-case /properties/d/title",
		"R5-title-case /properties/e/title",
	}, titles(clusterAppSet))
	assert.Equal(t, []string{
		"R5-title-case /properties/d/title", // "Defrag" is no word of the list
		"R5-title-case /properties/e/title", // etcd is a word, etcdctl is not
	}, titles(c.Sets(clusterAppSet)...))
}

func TestAcceptWords(t *testing.T) {
	words := []string{"etcd", "Pod Security Standards", "Pod", "cert-manager"}
	tests := map[string]string{
		"etcd settings":                   "X settings",
		"Enforced Pod Security Standards": "Enforced X",
		"Pod subnets":                     "X subnets",
		"cert-manager-crossplane":         "X-crossplane",
		"etcdctl":                         "etcdctl",
		"Metcd":                           "Metcd",
		"the etcd, the Pod":               "the X, the X",
		"":                                "",
	}
	for in, want := range tests {
		assert.Equal(t, want, acceptWords(in, words), in)
	}
	assert.Equal(t, "etcd", acceptWords("etcd", nil))
	assert.Equal(t, "etcd", acceptWords("etcd", []string{" ", ""}))
}

func TestReadBaseline(t *testing.T) {
	fs, err := ReadBaseline([]byte(`[
  {"rule": "R5-title", "severity": "error", "pointer": "/properties/a", "message": "m"},
  {"file": "chart/values.yaml", "rule": "chart-values", "severity": "error", "pointer": "", "message": "m", "line": 3}
]`))
	require.NoError(t, err)
	assert.Equal(t, []Finding{
		{Rule: "R5-title", Severity: Error, Pointer: "/properties/a", Message: "m"},
		{Rule: "chart-values", Severity: Error, Pointer: "", Message: "m", File: "chart/values.yaml"},
	}, fs)
	fs, err = ReadBaseline([]byte("[]\n"))
	require.NoError(t, err)
	assert.Empty(t, fs)
	fs, err = ReadBaseline(nil)
	require.NoError(t, err)
	assert.Empty(t, fs)
	_, err = ReadBaseline([]byte(`{"rule": "x"}`))
	assert.ErrorContains(t, err, "a list of findings")
	_, err = ReadBaseline([]byte(`[{"rule": "x"}]`))
	assert.ErrorContains(t, err, `/0: a baseline entry is a finding with "rule" and "pointer"`)
	_, err = ReadBaseline([]byte(`[1,`))
	assert.Error(t, err)
}

// FuzzReadConfig: no input makes the configuration reader panic; what it
// accepts gives sets and a filter that work.
func FuzzReadConfig(f *testing.F) {
	for _, s := range []string{"disable: [R5-*]\n", "ignore:\n  - pointer: /a/**\n    rule: '*'\n", "words: [a, b]\nrules: kudo\n", "{}", "- 1", "ignore: [{file: '['}]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ReadConfig(data, Sets()...)
		if err != nil {
			assert.NotEmpty(t, err.Error())
			return
		}
		sets := c.Sets(kudoSet)
		require.Len(t, sets, 1)
		c.Filter(nil).Apply(Report{Findings: []Finding{{Rule: "kudo-enum-default", Pointer: "/a"}}})
	})
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
		fs, err := ReadBaseline(data)
		if err != nil {
			return
		}
		for _, x := range fs {
			assert.NotEmpty(t, x.Rule)
		}
	})
}

// TestFilterSeverityAndUnused: a config's severity key changes what fails
// a run (an exact id before a glob, a longer glob before a shorter), and
// the entries that silenced nothing are reported as stale.
func TestFilterSeverityAndUnused(t *testing.T) {
	c, err := ReadConfig([]byte("severity:\n  R5-*: info\n  R5-title-case: warning\n  kudo-*: warning\nignore:\n  - rule: R5-title-case\n    pointer: /gone\n  - rule: kudo-enum-default\n"), Sets()...)
	require.NoError(t, err)
	f := c.Filter([]Finding{{Rule: "R6-description", Pointer: "/fixed"}, {Rule: "R7-x", Pointer: "/kept"}})
	r, n := f.Apply(Report{File: "s.yaml", Findings: []Finding{
		{Rule: "R5-title-case", Severity: Error, Pointer: "/a"},
		{Rule: "R5-title-characters", Severity: Error, Pointer: "/b"},
		{Rule: "kudo-enum-default", Severity: Error, Pointer: "/c"},
		{Rule: "R7-x", Severity: Error, Pointer: "/kept"},
		{Rule: "R8-y", Severity: Error, Pointer: "/d"},
	}})
	assert.Equal(t, Silenced{Ignored: 1, Baseline: 1}, n)
	var sevs []Severity
	for _, fd := range r.Findings {
		sevs = append(sevs, fd.Severity)
	}
	assert.Equal(t, []Severity{Warning, Info, Error}, sevs)
	ignore, baseline := f.Unused()
	assert.Equal(t, []int{0}, ignore)
	assert.Equal(t, []int{0}, baseline)

	_, err = ReadConfig([]byte("severity:\n  R5-*: fatal\n"), Sets()...)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `expected error, warning or info, not "fatal"`)
	_, err = ReadConfig([]byte("severity:\n  R99-*: info\n"), Sets()...)
	require.Error(t, err)
}
