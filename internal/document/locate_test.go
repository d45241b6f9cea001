package document

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLocate(t *testing.T) {
	n, err := ParseNode([]byte("a:\n  b: [x, {c: 1}]\n  \"d/e\": 2\nbase: &b\n  k: v\nuse: *b\n"))
	require.NoError(t, err)
	for _, tc := range []struct {
		ptr       string
		line, col int
		ok        bool
	}{
		{"", 1, 1, true},
		{"/a", 1, 1, true},
		{"/a/b", 2, 3, true},
		{"/a/b/1", 2, 10, true},
		{"/a/b/1/c", 2, 11, true},
		{"/a/d~1e", 3, 3, true},
		{"/use/k", 5, 3, true}, // through the alias, where the anchored text is
		{"/a/b/7", 2, 3, false},
		{"/a/nope/deeper", 1, 1, false},
		{"bad", 1, 1, false},
	} {
		line, col, ok := Locate(n, tc.ptr)
		assert.Equal(t, tc.ok, ok, tc.ptr)
		assert.Equal(t, tc.line, line, tc.ptr)
		assert.Equal(t, tc.col, col, tc.ptr)
	}
	line, col, ok := Locate(nil, "")
	assert.False(t, ok)
	assert.Zero(t, line+col)
}
