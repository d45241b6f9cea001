package kube

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// depthByTokens is the nesting of valid JSON, as encoding/json's tokens
// see it.
func depthByTokens(b []byte) (int, bool) {
	d := json.NewDecoder(bytes.NewReader(b))
	depth, deepest := 0, 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return deepest, true
		}
		if err != nil {
			return 0, false
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
			deepest = max(deepest, depth)
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
}

func TestNesting(t *testing.T) {
	cases := []struct {
		in   string
		want int
	}{
		{`1`, 0},
		{`"[{"`, 0},
		{`{}`, 1},
		{`{"a":[1,{"b":"]]]}"}]}`, 3},
		{`{"a\"[":[]}`, 2},
		{strings.Repeat("[", 1000) + strings.Repeat("]", 1000), 1000},
		{strings.Repeat("[", 5000), 1001}, // looks no further
	}
	for _, c := range cases {
		assert.Equal(t, c.want, nesting([]byte(c.in)), c.in[:min(len(c.in), 40)])
	}
}

// FuzzNesting: on valid JSON, nesting agrees with encoding/json's tokens
// (up to one past the limit); on any input it does not panic.
func FuzzNesting(f *testing.F) {
	for _, s := range []string{`1`, `{"a":[1,{"b":"]]]}"}]}`, `{"a\"[":[]}`, `["\\"]`, `[[[[]]]]`, `{"\u005b":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got := nesting(b)
		if json.Valid(b) {
			if want, ok := depthByTokens(b); ok && min(want, maxDepth+1) != got {
				t.Fatalf("nesting(%q) = %d, want %d", b, got, want)
			}
		}
	})
}
