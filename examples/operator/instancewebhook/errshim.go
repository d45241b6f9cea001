package instancewebhook

// Temporary: (*schema.Error).FieldPath and (schema.Kind).Reason are being
// added to the core; until they are on main these stand in for them.
// Delete this file when they are.

import (
	"strings"

	"github.com/go-openapi/jsonpointer"

	"github.com/paramkit/paramkit/schema"
)

// fieldPath is e.FieldPath(prefix).
func fieldPath(e *schema.Error, prefix string) string {
	p, err := jsonpointer.New(e.Pointer)
	if err != nil {
		return prefix + "[" + e.Pointer + "]"
	}
	var b strings.Builder
	b.WriteString(prefix)
	for _, t := range p.DecodedTokens() {
		if isFieldName(t) {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(t)
			continue
		}
		b.WriteString("[" + t + "]")
	}
	return b.String()
}

func isFieldName(t string) bool {
	if t == "" {
		return false
	}
	for i, c := range t {
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || !(c == '-' || (c >= '0' && c <= '9'))) {
			return false
		}
	}
	return true
}

// reason is k.Reason().
func reason(k schema.Kind) string {
	var b strings.Builder
	upper := true
	for _, c := range string(k) {
		switch {
		case (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
			if upper {
				c = []rune(strings.ToUpper(string(c)))[0]
			}
			b.WriteRune(c)
			upper = false
		case c >= '0' && c <= '9' && b.Len() > 0:
			b.WriteRune(c)
			upper = true
		default:
			upper = true
		}
	}
	if b.Len() == 0 {
		return "Invalid"
	}
	return b.String()
}
