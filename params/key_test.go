package params_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/params"
)

// TestKeyOf: a pointer written as the -p KEY a user types, and read back
// as a KEY to the same place.
func TestKeyOf(t *testing.T) {
	tests := []struct{ ptr, key string }{
		{"/nodes/count", "nodes.count"},
		{"/a.b/c", `a\.b.c`},
		{"/tags/0", "tags.0"},
		{"/back\\slash", `back\\slash`},
		{"/hosts[1]", `hosts\[1\]`},
		{"/with space/ünï", "with space.ünï"},
		{"/a~1b/c", "/a~1b/c"}, // a key holding "/": the pointer
		{"/a//b", "/a//b"},     // an empty key: the pointer
		{"/~0tilde", "~tilde"}, // "~" needs no escape in a dotted path
		{"", ""},               // the root
		{"no-pointer", "no-pointer"},
	}
	for _, tt := range tests {
		t.Run(tt.ptr, func(t *testing.T) {
			got := params.KeyOf(tt.ptr)
			assert.Equal(t, tt.key, got)
			if tt.ptr == "" || tt.ptr[0] != '/' {
				return
			}
			a, err := params.ParseAssignment(got + "=1")
			require.NoError(t, err)
			assert.Equal(t, tt.ptr, a.Pointer(), "read back as a -p KEY")
		})
	}
}

// FuzzKeyOf: KeyOf's KEY, read as a -p KEY, is the place of the pointer.
func FuzzKeyOf(f *testing.F) {
	for _, s := range []string{"/nodes/count", "/a.b/c", "/a~1b", "/x\\", "/[0]", "/a//b", "/.", "/\\.", "/a]b[", "/0/1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ptr string) {
		toks, err := pointer.Split(ptr)
		key := params.KeyOf(ptr)
		if err != nil || len(toks) == 0 {
			assert.Equal(t, ptr, key)
			return
		}
		for _, tok := range toks {
			if containsByte(tok, '=') {
				return // no -p KEY holds "="
			}
		}
		a, err := params.ParseAssignment(key + "=1")
		require.NoError(t, err, "KEY %q of %q", key, ptr)
		assert.Equal(t, pointer.Join(toks...), a.Pointer(), "KEY %q", key)
	})
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}
