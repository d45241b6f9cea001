package migrate

import (
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/schema"
)

// TestMigrationErrorsAreSchemaErrors: a migration result's errors are one
// schema.ErrorList of *schema.Error with a Kind; a refused lossy change
// carries the value before and after.
func TestMigrationErrorsAreSchemaErrors(t *testing.T) {
	tests := []struct {
		name    string
		m       func(t *testing.T) *Migration
		doc     string
		kind    schema.Kind
		pointer string
		from    any
		to      any
	}{
		{"lossy through a chain", func(t *testing.T) *Migration { return chainMigration(t) }, "SPEED: 2.5\n", schema.KindType, "/perf/speed", json.Number("2.5"), json.Number("2")},
		{"lossy", func(t *testing.T) *Migration {
			m, err := New(mustSchema(t, `properties: {n: {type: integer}}`))
			require.NoError(t, err)
			return m
		}, "n: 2.5\n", schema.KindType, "/n", json.Number("2.5"), json.Number("2")},
		{"does not fit", func(t *testing.T) *Migration {
			m, err := New(mustSchema(t, `properties: {n: {type: object}}`))
			require.NoError(t, err)
			return m
		}, "n: 2\n", schema.KindType, "/n", nil, nil},
		{"validation of the result", func(t *testing.T) *Migration {
			m, err := New(mustSchema(t, `{required: [x], properties: {x: {type: string}}}`))
			require.NoError(t, err)
			return m
		}, "y: 1\n", schema.KindRequired, "/x", nil, nil},
		{"unreadable", func(t *testing.T) *Migration {
			m, err := New(mustSchema(t, `properties: {n: {type: integer}}`))
			require.NoError(t, err)
			return m
		}, "n: [1,\n", schema.KindSyntax, "", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := got(tt.m(t).MigrateDocument([]byte(tt.doc)))
			require.False(t, r.OK())
			err := r.Err()
			require.Error(t, err)
			var list schema.ErrorList
			require.True(t, problem.As(err, &list))
			var e *schema.Error
			require.True(t, errors.As(err, &e))
			assert.Equal(t, tt.kind, e.Kind, "%v", err)
			assert.Equal(t, tt.pointer, e.Pointer, "%v", err)
			if tt.from != nil { // a change of type with a loss
				require.NotNil(t, e.Detail)
				assert.Equal(t, tt.from, e.Detail.From)
				assert.Equal(t, tt.to, e.Detail.To)
			}
		})
	}
	ok := got(chainMigration(t).MigrateDocument([]byte("CLUSTER_NAME: prod\n")))
	assert.NoError(t, ok.Err())
}

// TestVersionSetRefusalIsASchemaError: a refused downgrade is a
// *schema.Error of KindRefused.
func TestVersionSetRefusalIsASchemaError(t *testing.T) {
	s, err := LoadVersionSet(os.DirFS("testdata/bmh/set"))
	require.NoError(t, err)
	err = s.Refused("v1alpha2", "v1alpha1")
	var e *schema.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, schema.KindRefused, e.Kind)
	assert.NoError(t, s.Refused("v1alpha1", "v1alpha2"))
}
