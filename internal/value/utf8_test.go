package value

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestInvalidUTF8(t *testing.T) {
	cases := []struct {
		v   any
		ptr string
		bad bool
	}{
		{map[string]any{"a": "ok", "b": []any{"é", 1}}, "", false},
		{"\xff", "", true},
		{map[string]any{"a": []any{"x", "\xfe"}}, "/a/1", true},
		{map[string]any{"k\xff": "v"}, "/k\xff", true},
		{map[string]any{"a/b": map[string]any{"c": "\xc3"}}, "/a~1b/c", true},
	}
	for _, c := range cases {
		p, bad := InvalidUTF8(c.v)
		assert.Equal(t, c.bad, bad, "%v", c.v)
		assert.Equal(t, c.ptr, p)
	}
}

func TestInvalidUTF8DoesNotAllocateOnValidValues(t *testing.T) {
	v := map[string]any{"a": "ok", "b": []any{"é", map[string]any{"c": "d"}}}
	assert.Zero(t, testing.AllocsPerRun(100, func() { InvalidUTF8(v) }))
}
