package lint

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Draft-04 names a schema's identifier "id": the misspelling rule must
// not offer "$id" there, and must keep doing so in later drafts, where
// "id" is no keyword. The document is linted both compiled and (with a
// broken keyword elsewhere) uncompiled.
func TestMisspeltKnowsDraft4ID(t *testing.T) {
	var misspelt *Rule
	for _, r := range kudoSet.Rules {
		if r.ID == "kudo-misspelt-keyword" {
			misspelt = r
		}
	}
	require.NotNil(t, misspelt)
	set := &Set{Name: "test", Rules: []*Rule{misspelt}}
	tests := []struct {
		name, doc string
		want      []string // pointers of findings
	}{
		{"draft-04", `{"$schema":"http://json-schema.org/draft-04/schema#","id":"http://example.com/s","properties":{"a":{"id":"#a","type":"string"}}}`, nil},
		{"draft-04 uncompiled", `{"$schema":"http://json-schema.org/draft-04/schema#","id":"http://example.com/s","properties":{"a":{"type":5}}}`, nil},
		{"draft-06", `{"$schema":"http://json-schema.org/draft-06/schema#","id":"http://example.com/s"}`, []string{"/id"}},
		{"2020-12", `{"id":"http://example.com/s"}`, []string{"/id"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs, err := Document([]byte(tt.doc), set)
			require.NoError(t, err)
			var got []string
			for _, f := range fs {
				got = append(got, f.Pointer)
				assert.Contains(t, f.Message, `did you mean "$id"`)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// The kudo set on a draft-04 document: a default against a boolean
// exclusive bound and one reached through an "id" anchor are checked,
// and the definition used through that anchor is not unused.
func TestKudoSetOnDraft4(t *testing.T) {
	doc := `{"$schema":"http://json-schema.org/draft-04/schema#","id":"http://example.com/s","type":"object",
"properties":{"r":{"type":"integer","minimum":0,"exclusiveMinimum":true,"default":0},"t":{"$ref":"#t"}},
"definitions":{"t":{"id":"#t","type":"string","default":5}}}`
	fs, err := Document([]byte(doc), kudoSet)
	require.NoError(t, err)
	var got []string
	for _, f := range fs {
		got = append(got, f.Rule+" "+f.Pointer)
	}
	assert.ElementsMatch(t, []string{"kudo-default-invalid /properties/r/default", "kudo-default-invalid /definitions/t/default"}, got)
}
