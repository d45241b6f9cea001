package lint

// The checks of x-kubernetes-validations rules: those that need no CEL
// (messages, reasons, fieldPath, where oldSelf may be used: a scan of the
// rule's tokens, skipping string literals and comments), and the
// compiling itself, as the apiserver compiles rules when a CRD is
// created (schema.CheckRules: cel-go configured as kube-apiserver v1.37
// configures it; syntax, undeclared references, types, estimated cost).

import (
	"bufio"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

var (
	newlineMatcher            = regexp.MustCompile(`[\n\r]+`)
	supportedValidationReason = []string{"FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"}
)

// validationRuleChecks mirrors the x-kubernetes-validations checks of
// ValidateCustomResourceDefinitionOpenAPISchema that do not need CEL, and
// approximates the two that do (oldSelf use) by scanning the rule's tokens.
func (a *sanalysis) validationRuleChecks(n *kNode, c sctx) {
	for _, r := range n.validations {
		rp := func(k string) string { return at(r.ptr, k) }
		rule := strings.TrimSpace(r.rule)
		msg := strings.TrimSpace(r.message)
		switch {
		case rule == "":
			a.add(ruleValidation, Error, rp("rule"), fRequired("rule is not specified"))
		case r.message != "" && msg == "":
			a.add(ruleValidation, Error, rp("message"), fInvalid(r.message, "message must be non-empty if specified"))
		case newlineMatcher.MatchString(msg):
			a.add(ruleValidation, Error, rp("message"), fInvalid(r.message, "message must not contain line breaks"))
		case newlineMatcher.MatchString(rule) && msg == "":
			a.add(ruleValidation, Error, rp("message"), fRequired("message must be specified if rule contains line breaks"))
		}
		if r.messageExpression != "" && strings.TrimSpace(r.messageExpression) == "" {
			a.add(ruleValidation, Error, rp("messageExpression"), fRequired("messageExpression must be non-empty if specified"))
		}
		if r.hasReason && !slices.Contains(supportedValidationReason, r.reason) {
			a.add(ruleValidation, Error, rp("reason"), fNotSupported(r.reason, supportedValidationReason))
		}
		if r.fieldPath != "" && strings.TrimSpace(r.fieldPath) == "" {
			a.add(ruleValidation, Error, rp("fieldPath"), fInvalid(r.fieldPath, "fieldPath must be non-empty if specified"))
		}
		if newlineMatcher.MatchString(r.fieldPath) {
			a.add(ruleValidation, Error, rp("fieldPath"), fInvalid(r.fieldPath, "fieldPath must not contain line breaks"))
		}
		if r.fieldPath != "" && !fieldPathValid(n, r.fieldPath) {
			a.add(ruleValidation, Error, rp("fieldPath"), fInvalid(r.fieldPath, "fieldPath must be a valid path"))
		}
		if rule == "" {
			continue
		}
		uses := usesOldSelf(r.rule)
		if uses && c.forbidOldSelf {
			a.add(ruleValidation, Error, rp("rule"), fInvalid(r.rule, fmt.Sprintf("oldSelf cannot be used on the uncorrelatable portion of the schema within %q", c.oldSelfPath)))
		} else if !uses && r.optionalOldSelf != nil {
			a.add(ruleValidation, Error, rp("optionalOldSelf"), fInvalid(*r.optionalOldSelf, "may not be set if oldSelf is not used in rule"))
		}
	}
}

// celChecks compiles every rule below root as the apiserver does when
// the CRD is created. As the apiserver, it leaves out the rules of a node
// where schema errors were found at it or below it (their types may be
// wrong, and the messages would not help).
func (a *sanalysis) celChecks(root *kNode) {
	sub, ok := pointer.Get(a.doc, root.ptr)
	if !ok {
		return
	}
	errs := schema.CheckRules(sub, root.ptr)
	if len(errs) == 0 {
		return
	}
	var schemaErrs []string
	for _, f := range a.findings {
		if f.sev == Error && f.rule != ruleCEL {
			schemaErrs = append(schemaErrs, f.ptr)
		}
	}
	for _, e := range errs {
		node := e.Pointer
		if i := strings.Index(node, "/x-kubernetes-validations"); i >= 0 {
			node = node[:i]
		}
		skip := false
		for _, p := range schemaErrs {
			if pointer.HasPrefix(p, node) {
				skip = true
				break
			}
		}
		if skip {
			continue
		}
		msg := e.Message
		switch e.Kind {
		case schema.KindForbidden:
			msg = fForbidden(msg)
		default:
			text, _ := pointer.Get(a.doc, e.Pointer)
			msg = fInvalid(text, msg)
		}
		a.add(ruleCEL, Error, e.Pointer, msg)
	}
}

// usesOldSelf reports whether a CEL expression refers to the oldSelf
// variable: an identifier token oldSelf outside string literals and
// comments that is not a field selection (self.oldSelf).
func usesOldSelf(expr string) bool {
	prevDot := false
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == '/' && i+1 < len(expr) && expr[i+1] == '/':
			for i < len(expr) && expr[i] != '\n' {
				i++
			}
			continue
		case c == '"' || c == '\'':
			i = skipCELString(expr, i)
			prevDot = false
			continue
		case (c == 'r' || c == 'R' || c == 'b' || c == 'B') && i+1 < len(expr) && (expr[i+1] == '"' || expr[i+1] == '\'') && (i == 0 || !isIdentByte(expr[i-1])):
			i = skipCELString(expr, i+1)
			prevDot = false
			continue
		case isIdentByte(c) && (c < '0' || c > '9'):
			j := i
			for j < len(expr) && isIdentByte(expr[j]) {
				j++
			}
			if expr[i:j] == "oldSelf" && !prevDot {
				return true
			}
			prevDot = false
			i = j
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		}
		prevDot = c == '.'
		i++
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// skipCELString returns the index after the string literal starting at i
// (single, double or triple quoted; a backslash escapes the next byte).
func skipCELString(s string, i int) int {
	q := s[i]
	if strings.HasPrefix(s[i:], strings.Repeat(string(q), 3)) {
		end := strings.Index(s[i+3:], strings.Repeat(string(q), 3))
		if end < 0 {
			return len(s)
		}
		return i + 3 + end + 3
	}
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(s)
}

// fieldPathValid mirrors pathValid: when the node converts to a
// structural schema, the path must be valid for it (cel.ValidFieldPath).
func fieldPathValid(n *kNode, path string) bool {
	if !structuralConvertible(n, 0) {
		return true
	}
	s := n
	scanner := bufio.NewScanner(strings.NewReader(path))
	scanner.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if len(data) > 0 {
			for i := 0; i < len(data); i++ {
				if data[0] == '\'' {
					if i > 0 && data[i] == '\'' && data[i-1] != '\\' {
						return i + 1, data[:i+1], nil
					}
					continue
				}
				switch data[i] {
				case '.', '[', ']':
					if i == 0 {
						return 1, data[:1], nil
					}
					return i, data[:i], nil
				}
			}
			if atEOF {
				return len(data), data, nil
			}
		}
		return 0, nil, nil
	})
	step := func(name string) bool {
		if s == nil {
			return false // the apiserver dereferences a missing schema here
		}
		if len(s.properties) > 0 {
			p, ok := s.properties[name]
			s = p
			return ok
		}
		if s.additionalProps != nil {
			s = s.additionalProps.schema
			return true
		}
		return false
	}
	for scanner.Scan() {
		switch tok := scanner.Text(); tok {
		case "[":
			if !scanner.Scan() {
				return false
			}
			tok = scanner.Text()
			if len(tok) < 2 || tok[0] != '\'' || tok[len(tok)-1] != '\'' {
				return false
			}
			name, ok := unescapeSingleQuote(tok[1 : len(tok)-1])
			if !ok || !step(name) {
				return false
			}
			if !scanner.Scan() || scanner.Text() != "]" {
				return false
			}
		case ".":
			if !scanner.Scan() || !step(scanner.Text()) {
				return false
			}
		default:
			return false
		}
	}
	return scanner.Err() == nil
}

func unescapeSingleQuote(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\'':
			b.WriteByte('\'')
		case '\\':
			b.WriteByte('\\')
		default:
			return "", false
		}
	}
	return b.String(), true
}
