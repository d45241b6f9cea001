package kube

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/schema"
)

// TestMapBack: an error of the stored version is named in the writer's
// version through the oldName chain, whether the writer's version is
// older or newer than the stored one.
func TestMapBack(t *testing.T) {
	var versions []migrate.Version
	for i, doc := range []string{
		`{type: object, properties: {size: {type: integer}}}`,
		`{type: object, properties: {nodes: {type: integer, oldName: size}}}`,
		`{type: object, properties: {replicas: {type: integer, oldName: nodes}}}`,
	} {
		s, err := schema.Parse([]byte(doc))
		require.NoError(t, err)
		versions = append(versions, migrate.Version{Name: []string{"v1", "v2", "v3"}[i], Schema: s})
	}
	set, err := migrate.NewVersionSet(versions)
	require.NoError(t, err)
	for _, tc := range []struct{ p, from, to, want string }{
		{"/replicas", "v1", "v3", "/size"},
		{"/size", "v3", "v1", "/replicas"},
		{"/nodes", "v3", "v2", "/replicas"},
		{"/nodes", "v1", "v2", "/size"},
		{"/size", "v1", "v1", "/size"},
	} {
		got, ok := mapBack(set, tc.p, tc.from, tc.to)
		assert.True(t, ok, "%s from %s to %s", tc.p, tc.to, tc.from)
		assert.Equal(t, tc.want, got, "%s in %s named in %s", tc.p, tc.to, tc.from)
	}
}
