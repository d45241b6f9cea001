package lint_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/lint"
)

// TestSetsAreValues: the built-in sets are values a caller gets and
// owns. Changing what one call returned (the rules, a rule's severity or
// run function, the list) changes neither another call's set nor the
// findings of a run with a fresh set: the package holds no state a caller
// can change.
func TestSetsAreValues(t *testing.T) {
	doc := []byte("type: object\nproperties:\n  a: {type: string, trigger: [x]}\n")
	before, err := lint.Document(doc, lint.Kudo())
	require.NoError(t, err)
	require.NotEmpty(t, before)

	for _, get := range []func() *lint.Set{lint.Kudo, lint.ClusterApp, lint.Structural} {
		s := get()
		want := len(get().Rules)
		for _, r := range s.Rules {
			r.Severity = lint.Info
			r.Run = func(p *lint.Pass) { p.Report("", "changed") }
			r.ID = "changed"
		}
		s.Rules = s.Rules[:0]
		again := get()
		assert.Len(t, again.Rules, want)
		for _, r := range again.Rules {
			assert.NotEqual(t, "changed", r.ID)
		}
	}
	for _, s := range lint.Sets() {
		s.Rules = nil
	}
	for _, r := range lint.ChartRules() {
		r.ID = "changed"
	}
	after, err := lint.Document(doc, lint.Kudo())
	require.NoError(t, err)
	assert.Equal(t, before, after)
	names := []string{}
	for _, s := range lint.Sets() {
		names = append(names, s.Name)
		assert.NotEmpty(t, s.Rules)
	}
	assert.Equal(t, []string{"cluster-app", "kudo", "structural"}, names)
	for _, r := range lint.ChartRules() {
		assert.Contains(t, []string{"chart-values", "chart-values-drift", "chart-file"}, r.ID)
	}
}

// TestConfigResolvesAgainstTheSetsGiven: ReadConfig and CheckRuleGlob
// know the rules of the sets they are given (and the rules that run
// whatever the sets), nothing registered elsewhere.
func TestConfigResolvesAgainstTheSetsGiven(t *testing.T) {
	cfg := []byte("disable: [R18-empty-default]\n")
	_, err := lint.ReadConfig(cfg, lint.Sets()...)
	require.NoError(t, err)
	_, err = lint.ReadConfig(cfg, lint.Kudo())
	require.Error(t, err, "R18 is a cluster-app rule: kudo alone does not know it")
	mine := &lint.Set{Name: "mine", Rules: []*lint.Rule{{ID: "my-rule", Run: func(*lint.Pass) {}}}}
	require.NoError(t, lint.CheckRuleGlob("my-*", mine))
	require.Error(t, lint.CheckRuleGlob("my-*", lint.Sets()...))
	require.NoError(t, lint.CheckRuleGlob("kudo-params"), "kudo-params runs whatever the sets")
}
