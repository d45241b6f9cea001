package lint

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// compactSecret is compact, or schema.Hidden for a value of a node that
// is or holds a secret (writeOnly, format: password): findings that
// check a default or an example hide it as validation messages do.
func compactSecret(s *schema.Schema, schemaPtr string, v any) string {
	if s.NodeAt(schemaPtr).HoldsSecret() {
		return schema.Hidden
	}
	return compact(v)
}

// Secrets are hidden once for every rule, where findings leave a run
// (runState.finish): the rules quote defaults, enum members, consts and
// examples freely, and the redactor below replaces each quoted form of a
// value that a secret node of the document gives with schema.Hidden. A
// rule written tomorrow is covered without knowing about secrets.

// instanceKeywords are the keywords whose values are values of the node's
// instance (not schema text), which a message may quote.
var instanceKeywords = []string{"default", "enum", "const", "examples", "example", "x-kudo-default"}

// redactor hides the values of secret nodes in finding messages.
type redactor struct {
	// quoted are the texts of secret values as a message quotes them
	// (JSON and Go quoting of strings, compact JSON of objects and
	// arrays), longest first.
	quoted []string
	// scalars are the compact JSON of secret numbers, booleans and null
	// by the pointer of the node they belong to: replaced as whole words,
	// only in findings at or below that node.
	scalars map[string][]string
}

// newRedactor collects the values a schema document gives its secret
// nodes: a node marked writeOnly: true or format: password, everything
// below it, and every node that holds one (its default may quote the
// secret's). s, when not nil, adds what only the compiled schema knows
// ($ref, allOf).
func newRedactor(s *schema.Schema, doc any) *redactor {
	r := &redactor{scalars: map[string][]string{}}
	seen := map[string]bool{}
	r.walk(s, doc, "", false, seen)
	sort.Slice(r.quoted, func(i, j int) bool { return len(r.quoted[i]) > len(r.quoted[j]) })
	return r
}

// walk visits the schema object v at ptr and reports whether it is or
// holds a secret.
func (r *redactor) walk(s *schema.Schema, v any, ptr string, secret bool, seen map[string]bool) bool {
	switch t := v.(type) {
	case map[string]any:
		if w, _ := t["writeOnly"].(bool); w {
			secret = true
		}
		if f, _ := t["format"].(string); f == "password" {
			secret = true
		}
		if s != nil && s.NodeAt(ptr).Secret() {
			secret = true
		}
		holds := secret
		for k, c := range t {
			at := pointer.Append(ptr, k)
			switch {
			case schemaMapKeywords[k]:
				if m, ok := c.(map[string]any); ok {
					for name, sub := range m {
						holds = r.walk(s, sub, pointer.Append(at, name), secret, seen) || holds
					}
				}
			case isInstanceKeyword(k):
			default:
				holds = r.walk(s, c, at, secret, seen) || holds
			}
		}
		if !holds && s != nil && s.NodeAt(ptr).HoldsSecret() {
			holds = true
		}
		if holds {
			for _, k := range instanceKeywords {
				if c, ok := t[k]; ok {
					r.collect(c, pointer.Append(ptr, k), seen)
				}
			}
		}
		return holds
	case []any:
		holds := false
		for i, c := range t {
			holds = r.walk(s, c, pointer.AppendIndex(ptr, i), secret, seen) || holds
		}
		return holds
	}
	return false
}

func isInstanceKeyword(k string) bool {
	for _, v := range instanceKeywords {
		if k == v {
			return true
		}
	}
	return false
}

// collect records a secret value and every value inside it.
func (r *redactor) collect(v any, ptr string, seen map[string]bool) {
	add := func(q string) {
		if !seen[q] {
			seen[q] = true
			r.quoted = append(r.quoted, q)
		}
	}
	switch t := v.(type) {
	case string:
		add(compact(t))
		add(strconv.Quote(t))
		add(jsonNoHTML(t))
	case map[string]any:
		add(compact(t))
		add(jsonNoHTML(t))
		for _, c := range t {
			r.collect(c, ptr, seen)
		}
	case []any:
		add(compact(t))
		add(jsonNoHTML(t))
		for _, c := range t {
			r.collect(c, ptr, seen)
		}
	default:
		owner := ptr
		if i := strings.LastIndexByte(owner, '/'); i >= 0 {
			owner = owner[:i] // the node whose keyword holds it
		}
		r.scalars[owner] = append(r.scalars[owner], compact(t))
	}
}

// jsonNoHTML is compact JSON without HTML escaping.
func jsonNoHTML(v any) string {
	var b strings.Builder
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return compact(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// truncatedAt is how long a quoted secret must be before a message that
// shortens it ("…" or "..." after a prefix) is recognised by its first
// characters.
const truncatedAt = 24

// hide returns msg with every quoted secret value replaced.
func (r *redactor) hide(findingPtr, msg string) string {
	if r == nil {
		return msg
	}
	for _, q := range r.quoted {
		msg = strings.ReplaceAll(msg, q, schema.Hidden)
		if len(q) > truncatedAt && q[0] == '"' {
			msg = hideTruncated(msg, q[:truncatedAt])
		}
	}
	for owner, vals := range r.scalars {
		if findingPtr != owner && !strings.HasPrefix(findingPtr, owner+"/") {
			continue
		}
		for _, v := range vals {
			msg = replaceWord(msg, v, schema.Hidden)
		}
	}
	return msg
}

// hideTruncated replaces a quoted string that starts with prefix (which
// starts with its opening quote), up to its closing quote or the end of
// the shortening mark.
func hideTruncated(msg, prefix string) string {
	for {
		i := strings.Index(msg, prefix)
		if i < 0 {
			return msg
		}
		end := len(msg)
		for j := i + 1; j < len(msg); j++ {
			if msg[j] == '\\' {
				j++
				continue
			}
			if msg[j] == '"' {
				end = j + 1
				break
			}
			if strings.HasPrefix(msg[j:], "...") {
				end = j + 3
				if end < len(msg) && msg[end] == '"' {
					end++
				}
				break
			}
			if strings.HasPrefix(msg[j:], "…") {
				end = j + len("…")
				break
			}
		}
		msg = msg[:i] + schema.Hidden + msg[end:]
	}
}

// replaceWord replaces whole-word occurrences of w in s.
func replaceWord(s, w, by string) string {
	if w == "" {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, w)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		before := i == 0 || !isWordByte(s[i-1])
		after := i+len(w) == len(s) || !isWordByte(s[i+len(w)])
		b.WriteString(s[:i])
		if before && after {
			b.WriteString(by)
		} else {
			b.WriteString(w)
		}
		s = s[i+len(w):]
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// finish hides the secrets of the document in the run's findings and
// returns them sorted, each once. s is the compiled schema, or nil.
func (st *runState) finish(s *schema.Schema) []Finding {
	if len(st.findings) > 0 {
		r := newRedactor(s, st.doc)
		for i := range st.findings {
			st.findings[i].Message = r.hide(st.findings[i].Pointer, st.findings[i].Message)
		}
	}
	return uniqueFindings(st.findings)
}
