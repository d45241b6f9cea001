package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// Walkers over values that may leave the schema (convert's typing of
// text, say) ask a nil node for its children: it governs nothing.
func TestChildAndElemOfNoNode(t *testing.T) {
	var none *schema.Node
	assert.Nil(t, none.Child("a"))
	assert.Nil(t, none.Elem(0))

	s, err := schema.Parse([]byte(`{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}}}}`))
	require.NoError(t, err)
	a := s.Root().Child("a")
	require.NotNil(t, a)
	require.NotNil(t, a.Elem(3))
	assert.Nil(t, a.Elem(3).Child("x"), "a string node has no children")
}
