// Package pointer implements RFC 6901 JSON pointers as paramkit uses them:
// the root is "", tokens are escaped with ~0 and ~1.
package pointer

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-openapi/jsonpointer"
)

// Escape escapes one reference token: "~" as "~0", "/" as "~1". A token
// that needs it is escaped by github.com/go-openapi/jsonpointer (as fast
// as hand-written code, one allocation fewer: BenchmarkAppend). The check
// before it keeps the common token that needs nothing off the library:
// calling it for every token made the token escape to the heap, 4 more
// allocations per document in batch migration (BenchmarkMigrateBatch:
// 140,010 instead of 100,010 for 10,000 documents). The rest of this
// package stays hand-written because the library is laxer than RFC 6901
// and slower (TestJSONPointerLibraryIsLaxer, BenchmarkGet, BenchmarkSplit).
func Escape(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return jsonpointer.Escape(tok)
}

// Unescape reverses Escape. It reports an error for a "~" not followed by 0 or 1.
func Unescape(tok string) (string, error) {
	if !strings.Contains(tok, "~") {
		return tok, nil
	}
	var b strings.Builder
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c != '~' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(tok) || (tok[i+1] != '0' && tok[i+1] != '1') {
			return "", fmt.Errorf("invalid escape %q in token %q (use ~0 for ~ and ~1 for /)", tok[i:min(i+2, len(tok))], tok)
		}
		if tok[i+1] == '0' {
			b.WriteByte('~')
		} else {
			b.WriteByte('/')
		}
		i++
	}
	return b.String(), nil
}

// Append returns p with one more token.
func Append(p, tok string) string { return p + "/" + Escape(tok) }

// AppendIndex returns p with one more array index token.
func AppendIndex(p string, i int) string { return p + "/" + strconv.Itoa(i) }

// Join builds a pointer from unescaped tokens.
func Join(toks ...string) string {
	n := len(toks)
	for _, t := range toks {
		n += len(t)
	}
	var b strings.Builder
	b.Grow(n) // one allocation unless a token needs escapes
	for _, t := range toks {
		b.WriteByte('/')
		b.WriteString(Escape(t))
	}
	return b.String()
}

// Split parses a pointer into unescaped tokens. "" is the root (no tokens).
func Split(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if p[0] != '/' {
		return nil, fmt.Errorf("JSON pointer %q must start with \"/\"", p)
	}
	raw := strings.Split(p[1:], "/")
	out := make([]string, len(raw))
	for i, r := range raw {
		t, err := Unescape(r)
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

// Index parses an array index token as RFC 6901 requires: digits, no
// leading zeros, and less than n.
func Index(tok string, n int) (int, error) {
	if tok == "-" {
		return 0, fmt.Errorf("index \"-\" (append) is not allowed here")
	}
	if tok == "" || (len(tok) > 1 && tok[0] == '0') {
		return 0, fmt.Errorf("%q is not an array index", tok)
	}
	for _, c := range tok {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%q is not an array index", tok)
		}
	}
	i, err := strconv.Atoi(tok)
	if err != nil || i >= n {
		return 0, fmt.Errorf("index %s is out of range (array has %d items)", tok, n)
	}
	return i, nil
}

// Get returns the value at p inside v (maps and slices of plain Go data).
func Get(v any, p string) (any, bool) {
	toks, err := Split(p)
	if err != nil {
		return nil, false
	}
	return GetTokens(v, toks)
}

// GetTokens is Get for a pointer already split into unescaped tokens.
func GetTokens(v any, toks []string) (any, bool) {
	for _, t := range toks {
		switch c := v.(type) {
		case map[string]any:
			x, ok := c[t]
			if !ok {
				return nil, false
			}
			v = x
		case []any:
			i, err := Index(t, len(c))
			if err != nil {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// HasPrefix reports whether p is prefix itself or lies below it.
func HasPrefix(p, prefix string) bool {
	return p == prefix || (strings.HasPrefix(p, prefix) && len(p) > len(prefix) && p[len(prefix)] == '/')
}

// MaxErrorPointer is the longest pointer an error message carries; a
// deeper one (a document nested a thousand levels, or with huge keys) is
// abbreviated by Abbrev so that errors stay short.
const MaxErrorPointer = 512

// Abbrev shortens p for an error message: at most MaxErrorPointer bytes,
// cut at a token boundary, with "/…" marking the cut.
func Abbrev(p string) string {
	if len(p) <= MaxErrorPointer {
		return p
	}
	cut := strings.LastIndexByte(p[:MaxErrorPointer], '/')
	if cut <= 0 {
		cut = MaxErrorPointer
		for cut > 0 && !utf8.RuneStart(p[cut]) {
			cut--
		}
	}
	return p[:cut] + "/…"
}

// Quote shows the root pointer as `""` so that it is visible in a message;
// any other pointer is returned as it is.
func Quote(p string) string {
	if p == "" {
		return `""`
	}
	return p
}

// Parent splits p into its parent's pointer and its last token,
// unescaped (/a/b~1c gives /a and b/c); ok is false for the root and for
// a pointer that is not RFC 6901.
func Parent(p string) (parent, last string, ok bool) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", "", false
	}
	tok, err := Unescape(p[i+1:])
	if err != nil {
		return "", "", false
	}
	return p[:i], tok, true
}
