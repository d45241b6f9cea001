package lint

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// TestCompileFindingsCarryTheErrorKind: what the engine refuses to
// compile becomes schema-compile findings of the error's kind.
func TestCompileFindingsCarryTheErrorKind(t *testing.T) {
	tests := []struct {
		name, doc, pointer string
		kind               schema.Kind
	}{
		{"wrong keyword value", `{"properties":{"a":{"type":5}}}`, "/properties/a/type", schema.KindSchema},
		{"KUDO keyword", `{"properties":{"a":{"immutable":"yes"}}}`, "/properties/a/immutable", schema.KindSchema},
		{"refused $ref", `{"properties":{"a":{"$ref":"http://example.com/x.json"}}}`, "/properties/a/$ref", schema.KindRefused},
		{"dangling $ref", `{"properties":{"a":{"$ref":"#/$defs/none"}}}`, "/properties/a/$ref", schema.KindSchema},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs, err := Document([]byte(tt.doc), kudoSet)
			require.NoError(t, err)
			var found *Finding
			for i, f := range fs {
				if f.Rule == schemaCompile.ID && f.Pointer == tt.pointer {
					found = &fs[i]
				}
			}
			require.NotNil(t, found, "%v", fs)
			assert.Equal(t, tt.kind, found.Kind)
			for _, f := range fs {
				if f.Rule != schemaCompile.ID {
					assert.Empty(t, f.Kind, "only compile findings carry a kind: %v", f)
				}
			}
		})
	}
}
