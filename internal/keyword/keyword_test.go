package keyword

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestKnownIsACopy: the keyword list cannot be changed from outside.
func TestKnownIsACopy(t *testing.T) {
	k := Known()
	assert.Greater(t, len(k), 60)
	assert.Equal(t, "$schema", k[0])
	assert.Contains(t, k, "properties")
	assert.Contains(t, k, "trigger")
	assert.NotContains(t, k, "id", "draft-04 only")
	k[0] = "changed"
	assert.NotEqual(t, "changed", Known()[0])
	assert.True(t, Is("id"), "draft-04's id is a keyword")
	assert.True(t, Is("oldName"))
	assert.False(t, Is("replicas"))
}
