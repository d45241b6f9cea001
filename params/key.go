package params

import (
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
)

// KeyOf writes the place at a JSON pointer as the KEY of a `-p KEY=VALUE`
// a user types for it, so that a message speaks as the user does:
// /nodes/count is nodes.count, /a.b/c is a\.b.c (`\.` a literal dot,
// `\\` a backslash, `\[` and `\]` literal brackets), an array element
// /tags/0 is tags.0 (the same place for -p as tags[0], without Helm's
// growing of the list). A place no dotted path can name (a key that is
// empty or holds a "/") is written as the JSON pointer itself, which -p
// also reads; the root, which -p never sets, and text that is no JSON
// pointer come back as they are. Reading the result as a -p KEY gives the
// same place, always (FuzzKeyOf); a key holding "=" cannot be typed in -p
// at all.
func KeyOf(ptr string) string {
	toks, err := pointer.Split(ptr)
	if err != nil || len(toks) == 0 {
		return ptr
	}
	var b strings.Builder
	for i, t := range toks {
		if t == "" || strings.Contains(t, "/") {
			return ptr
		}
		if i > 0 {
			b.WriteByte('.')
		}
		for j := 0; j < len(t); j++ {
			switch c := t[j]; c {
			case '.', '\\', '[', ']':
				b.WriteByte('\\')
				b.WriteByte(c)
			default:
				b.WriteByte(c)
			}
		}
	}
	return b.String()
}
