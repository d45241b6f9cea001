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

	for _, get := range []func() *lint.Set{lint.Kudo, func() *lint.Set { return lint.ClusterApp() }, lint.Structural} {
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
	for _, r := range (*lint.Chart)(nil).Rules() {
		r.ID = "changed"
	}
	after, err := lint.Document(doc, lint.Kudo())
	require.NoError(t, err)
	assert.Equal(t, before, after)
	names := []string{}
	for _, s := range []*lint.Set{lint.ClusterApp(), lint.Kudo(), lint.Structural()} {
		names = append(names, s.Name)
		assert.NotEmpty(t, s.Rules)
	}
	assert.Equal(t, []string{"cluster-app", "kudo", "structural"}, names)
	ids := []string{}
	for _, r := range (&lint.Chart{}).Rules() {
		ids = append(ids, r.ID)
		assert.Equal(t, "chart", r.Set)
		assert.NotEmpty(t, r.Doc)
	}
	assert.Equal(t, []string{"chart-values", "chart-values-drift", "chart-file"}, ids)
}

// TestClusterAppWords: the title rules of ClusterApp(words...) accept the
// words as written (phrases too, as whole words only); the other rules
// and a set made without words are unchanged.
func TestClusterAppWords(t *testing.T) {
	schemaDoc := []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {
  "a": {"type": "string", "title": "etcd settings"},
  "b": {"type": "string", "title": "Enforced Pod Security Standards"},
  "c": {"type": "string", "title": "Node.js version"},
  "d": {"type": "string", "title": "Etcd Defrag"},
  "e": {"type": "string", "title": "etcdctl settings"}
}}`)
	titles := func(set *lint.Set) []string {
		fs, err := lint.Document(schemaDoc, set)
		require.NoError(t, err)
		out := []string{}
		for _, f := range fs {
			if f.Rule == "R5-title-case" || f.Rule == "R5-title-characters" {
				out = append(out, f.Rule+" "+f.Pointer)
			}
		}
		return out
	}
	all := []string{
		"R5-title-case /properties/a/title",
		"R5-title-case /properties/b/title",
		"R5-title-characters /properties/c/title",
		"R5-title-case /properties/d/title",
		"R5-title-case /properties/e/title",
	}
	words := []string{"etcd", "Pod Security Standards", "Node.js"}
	withWords := lint.ClusterApp(words...)
	words[0] = "changed" // the set keeps its own copy
	assert.Equal(t, []string{
		"R5-title-case /properties/d/title", // "Defrag" is no word of the list
		"R5-title-case /properties/e/title", // etcd is a word, etcdctl is not
	}, titles(withWords))
	assert.Equal(t, all, titles(lint.ClusterApp()), "a set without words is the plain set")
	assert.Len(t, withWords.Rules, len(lint.ClusterApp().Rules))
}
