package pointer

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplitJoin(t *testing.T) {
	tests := map[string][]string{
		"":          nil,
		"/a":        {"a"},
		"/a/b":      {"a", "b"},
		"/a~1b/c~0": {"a/b", "c~"},
		"/":         {""},
		"/0/1":      {"0", "1"},
	}
	for p, toks := range tests {
		got, err := Split(p)
		require.NoError(t, err, p)
		assert.Equal(t, toks, got, p)
		assert.Equal(t, p, Join(toks...), p)
	}
	for _, bad := range []string{"a", "/a~2", "/a~"} {
		_, err := Split(bad)
		assert.Error(t, err, bad)
	}
}

func TestIndexGetHasPrefix(t *testing.T) {
	_, err := Index("-", 3)
	assert.Error(t, err)
	_, err = Index("01", 3)
	assert.Error(t, err)
	_, err = Index("3", 3)
	assert.Error(t, err)
	i, err := Index("2", 3)
	require.NoError(t, err)
	assert.Equal(t, 2, i)
	doc := map[string]any{"a": []any{"x", map[string]any{"b/c": 1}}}
	v, ok := Get(doc, "/a/1/b~1c")
	assert.True(t, ok)
	assert.Equal(t, 1, v)
	_, ok = Get(doc, "/a/5")
	assert.False(t, ok)
	assert.True(t, HasPrefix("/a/b", "/a"))
	assert.True(t, HasPrefix("/a", "/a"))
	assert.True(t, HasPrefix("/a", ""))
	assert.False(t, HasPrefix("/ab", "/a"))
}

func TestQuote(t *testing.T) {
	assert.Equal(t, `""`, Quote(""))
	assert.Equal(t, "/a", Quote("/a"))
}
