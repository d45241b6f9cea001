package migrate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/schema"
)

// TestVersionSetFits: which versions of a set a document is valid
// against, oldest first.
func TestVersionSetFits(t *testing.T) {
	parse := func(text string) *schema.Schema {
		s, err := schema.Parse([]byte(text))
		require.NoError(t, err)
		return s
	}
	set, err := NewVersionSet([]Version{
		{Name: "v1", Schema: parse(`{"type":"object","additionalProperties":false,"properties":{"name":{"type":"string"},"replicas":{"type":"integer"}}}`)},
		{Name: "v2", Schema: parse(`{"type":"object","additionalProperties":false,"properties":{"name":{"type":"string"},"replicaCount":{"type":"integer","oldName":"replicas"}}}`)},
	})
	require.NoError(t, err)
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"written for v1", `{"name":"a","replicas":3}`, []string{"v1"}},
		{"written for v2", `{"name":"a","replicaCount":3}`, []string{"v2"}},
		{"fits both", `{"name":"a"}`, []string{"v1", "v2"}},
		{"fits none", `{"name":1}`, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := document.Read([]byte(tt.doc), document.Options{})
			require.NoError(t, err)
			got, err := set.Fits(d.Value)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	var zero *VersionSet
	_, err = zero.Fits(map[string]any{})
	assert.Equal(t, schema.KindUsage, schema.ErrorsOf(err)[0].Kind)
	_, err = (&VersionSet{}).Fits(map[string]any{})
	assert.Error(t, err)
}

func BenchmarkVersionSetFits(b *testing.B) {
	set := loadThree(b)
	d, err := document.Read([]byte(`{"name":"a","replicas":3,"size":1.5,"labels":{"a":"b"},"legacyMode":true}`), document.Options{})
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := set.Fits(d.Value); err != nil {
			b.Fatal(err)
		}
	}
}
