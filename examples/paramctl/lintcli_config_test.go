package main

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/lint"
	"github.com/paramkit/paramkit/schema"
)

func TestReadLintConfig(t *testing.T) {
	known := lintKnownRules(lintBuiltinSets())
	c, err := readLintConfig([]byte(`
rules: cluster-app
disable: ["R5-*", R18-empty-default]
ignore:
  - rule: R17-root-unknown
    pointer: /properties/global
    reason: global holds the root properties
  - pointer: /properties/internal/**
  - file: values.yaml
words: [cert-manager, Pod Security Standards]
`), known)
	require.NoError(t, err)
	assert.Equal(t, &lintConfig{
		Rules:   []string{"cluster-app"},
		Disable: []string{"R5-*", "R18-empty-default"},
		Ignore: []lintIgnore{
			{Rule: "R17-root-unknown", Pointer: "/properties/global", Reason: "global holds the root properties"},
			{Pointer: "/properties/internal/**"},
			{File: "values.yaml"},
		},
		Words: []string{"cert-manager", "Pod Security Standards"},
	}, c)

	c, err = readLintConfig([]byte("# nothing yet\n"), known)
	require.NoError(t, err)
	assert.Equal(t, &lintConfig{}, c)

	tests := []struct {
		name, in string
		errs     []string // "LINE POINTER: message part"
	}{
		{"unknown key", "disabled: [R5-title]\n", []string{`1 /disabled: unknown key "disabled": did you mean disable?`}},
		{"unknown rule", "disable:\n  - R5-title\n  - R99\n", []string{`3 /disable/1: disable: unknown rule "R99"`}},
		{"glob matching nothing", "disable: ['X*']\n", []string{`1 /disable/0: disable: rule pattern "X*" matches no rule`}},
		{"malformed glob", "disable: ['R[']\n", []string{`1 /disable/0: disable: rule pattern "R[": syntax error in pattern`}},
		{"one unknown rule, not a list", "disable: R99\n", []string{`1 /disable: disable: unknown rule "R99"`}},
		{"unknown rule after a non-string", "disable: [1, R99]\n", []string{
			`1 /disable/0: disable: expected a string, not a number`,
			`1 /disable/1: disable: unknown rule "R99"`,
		}},
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
			_, err := readLintConfig([]byte(tt.in), known)
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
	_, err = readLintConfig([]byte("a: [1,\n"), known)
	var se *schema.Error
	require.True(t, errors.As(err, &se))
	assert.Equal(t, schema.KindSyntax, se.Kind)
}

func itoa(n int) string { return string(rune('0' + n)) }

func containsAll(got, want string) bool { return len(got) >= len(want) && got[:len(want)] == want }

func TestCheckRuleGlob(t *testing.T) {
	known := lintKnownRules(lintBuiltinSets())
	assert.NoError(t, checkRuleGlob("R5-*", known))
	assert.NoError(t, checkRuleGlob("kudo-params", known), "runs whatever the sets")
	assert.NoError(t, checkRuleGlob("chart-values", known), "runs whatever the sets")
	assert.NoError(t, checkRuleGlob("chart-values-drift", known), "a chart rule")
	assert.NoError(t, checkRuleGlob("chart-file", known), "a chart rule")
	mine := lintKnownRules([]*lint.Set{{Name: "mine", Rules: []*lint.Rule{{ID: "my-rule", Run: func(*lint.Pass) {}}}}})
	assert.NoError(t, checkRuleGlob("my-*", mine), "the rules given, nothing registered elsewhere")
	assert.Error(t, checkRuleGlob("my-*", known))
	assert.Error(t, checkRuleGlob("R18-empty-default", lintKnownRules([]*lint.Set{lint.Kudo()})), "R18 is a cluster-app rule")
	assert.NoError(t, checkRuleGlob("*", known))
	assert.EqualError(t, checkRuleGlob("R5-titel", known), `unknown rule "R5-titel": did you mean R5-title?`)
	assert.ErrorContains(t, checkRuleGlob("Q*", known), `rule pattern "Q*" matches no rule`)
	assert.ErrorContains(t, checkRuleGlob("R[", known), "syntax error in pattern")
}

// FuzzReadConfig: no input makes the configuration reader panic; what it
// accepts gives sets and a filter that work.
func FuzzReadConfig(f *testing.F) {
	for _, s := range []string{"disable: [R5-*]\n", "ignore:\n  - pointer: /a/**\n    rule: '*'\n", "words: [a, b]\nrules: kudo\n", "{}", "- 1", "ignore: [{file: '['}]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := readLintConfig(data, lintKnownRules(lintBuiltinSets()))
		if err != nil {
			assert.NotEmpty(t, err.Error())
			return
		}
		sets := c.lintSets([]*lint.Set{lint.Kudo()})
		require.Len(t, sets, 1)
		c.filter(nil).apply(lintReport{Findings: []lint.Finding{{Rule: "kudo-enum-default", Pointer: "/a"}}})
	})
}

// TestFilterSeverityAndUnused: a config's severity key changes what fails
// a run (an exact id before a glob, a longer glob before a shorter), and
// the entries that silenced nothing are reported as stale.
func TestFilterSeverityAndUnused(t *testing.T) {
	known := lintKnownRules(lintBuiltinSets())
	c, err := readLintConfig([]byte("severity:\n  R5-*: info\n  R5-title-case: warning\n  kudo-*: warning\nignore:\n  - rule: R5-title-case\n    pointer: /gone\n  - rule: kudo-enum-default\n"), known)
	require.NoError(t, err)
	f := c.filter([]lint.Finding{{Rule: "R6-description", Pointer: "/fixed"}, {Rule: "R7-x", Pointer: "/kept"}})
	r, n := f.apply(lintReport{File: "s.yaml", Findings: []lint.Finding{
		{Rule: "R5-title-case", Severity: lint.Error, Pointer: "/a"},
		{Rule: "R5-title-characters", Severity: lint.Error, Pointer: "/b"},
		{Rule: "kudo-enum-default", Severity: lint.Error, Pointer: "/c"},
		{Rule: "R7-x", Severity: lint.Error, Pointer: "/kept"},
		{Rule: "R8-y", Severity: lint.Error, Pointer: "/d"},
	}})
	assert.Equal(t, silenced{Ignored: 1, Baseline: 1}, n)
	var sevs []lint.Severity
	for _, fd := range r.Findings {
		sevs = append(sevs, fd.Severity)
	}
	assert.Equal(t, []lint.Severity{lint.Warning, lint.Info, lint.Error}, sevs)
	ignore, baseline := f.unused()
	assert.Equal(t, []int{0}, ignore)
	assert.Equal(t, []int{0}, baseline)

	_, err = readLintConfig([]byte("severity:\n  R5-*: fatal\n"), known)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `expected error, warning or info, not "fatal"`)
	_, err = readLintConfig([]byte("severity:\n  R99-*: info\n"), known)
	require.Error(t, err)
}
