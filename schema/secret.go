package schema

import (
	"strconv"
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/secret"
)

// Hidden is what a message says in place of a secret value.
const Hidden = secret.Hidden

// marked reports whether the node itself says its value is a secret:
// writeOnly: true or format: password.
func (n *Node) marked() bool {
	if n == nil {
		return false
	}
	if n.format == "password" {
		return true
	}
	w, _ := n.keywords["writeOnly"].(bool)
	return w
}

// markedHere reports whether a value governed by n is marked secret by n,
// by what n brings in through $ref and allOf, or by one of its anyOf or
// oneOf branches (a secret in any branch hides the value).
func (n *Node) markedHere() bool {
	if n == nil {
		return false
	}
	for _, m := range n.scope {
		if m.marked() {
			return true
		}
		for _, b := range m.anyOf {
			if b.marked() || b.refTarget.marked() {
				return true
			}
		}
		for _, b := range m.oneOf {
			if b.marked() || b.refTarget.marked() {
				return true
			}
		}
	}
	return false
}

// Secret reports whether values governed by n are secrets that no message
// may quote: n, a node it brings in through $ref or allOf, one of its
// anyOf/oneOf branches, or an ancestor in the schema document says
// writeOnly: true or format: password. A node reached from a secret
// parent through a $ref is a secret at that place, which only the path of
// the value shows: ask Schema.SecretAt there. A nil node is no secret.
func (n *Node) Secret() bool {
	for m := n; m != nil; m = m.parent {
		if m.markedHere() {
			return true
		}
	}
	return false
}

// SecretAt reports whether the value at a JSON pointer into a value
// document is a secret: whether any node on the way from the root to it
// (through properties, items, additionalProperties, $ref and allOf, as
// Lookup goes) is Secret. A nil schema knows no secrets.
func (s *Schema) SecretAt(valuePointer string) bool {
	if !s.hasSecrets() {
		return false
	}
	toks, err := pointer.Split(valuePointer)
	if err != nil {
		return false
	}
	return s.root.secretBelow(toks)
}

// HoldsSecretAt reports whether the value at a JSON pointer into a value
// document is or may hold a secret: SecretAt, or the node there
// HoldsSecret. Use it where a whole value is quoted.
func (s *Schema) HoldsSecretAt(valuePointer string) bool {
	if !s.hasSecrets() {
		return false
	}
	return s.SecretAt(valuePointer) || s.Lookup(valuePointer).HoldsSecret()
}

// hasSecrets reports whether any node of the schema is marked secret,
// worked out once, so that a schema without secrets costs nothing.
func (s *Schema) hasSecrets() bool {
	if s == nil || s.root == nil {
		return false
	}
	s.secretsOnce.Do(func() {
		for _, n := range s.nodes {
			if n.marked() {
				s.secrets = true
				return
			}
		}
	})
	return s.secrets
}

// SecretAt reports whether the value at a JSON pointer relative to a value
// governed by n is a secret (see Schema.SecretAt).
func (n *Node) SecretAt(relPointer string) bool {
	toks, err := pointer.Split(relPointer)
	if err != nil {
		return false
	}
	return n.secretBelow(toks)
}

func (n *Node) secretBelow(toks []string) bool {
	if n.Secret() {
		return true
	}
	for _, t := range toks {
		if n == nil {
			return false
		}
		if i, err := strconv.Atoi(t); err == nil && i >= 0 && n.isArrayish() {
			n = n.Elem(i)
		} else {
			n = n.Child(t)
		}
		if n.Secret() {
			return true
		}
	}
	return false
}

// secretLeaf reports whether a validation failure at an instance pointer,
// raised by the keyword at a schema pointer, is about a secret value.
func (s *Schema) secretLeaf(instancePtr, keywordPtr string) bool {
	if s.HoldsSecretAt(instancePtr) {
		// The second: a value given where an object holding secrets
		// belongs (text instead of the object) may be one.
		return true
	}
	return s.keywordNode(keywordPtr).Secret()
}

// keywordNode returns the node that holds the keyword at a schema pointer.
func (s *Schema) keywordNode(keywordPtr string) *Node {
	p := keywordPtr
	for {
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return nil
		}
		p = p[:i]
		if n := s.nodes[p]; n != nil {
			return n
		}
	}
}

// hideValue rewrites an engine message that quotes the instance value so
// that it says Hidden instead; messages that quote only schema text (a
// pattern, a bound) are kept. The allowed values of enum and const are
// values of the secret too: engineErrors replaces those messages whole.
func hideValue(msg string) string {
	for _, cut := range []string{" is not valid ", " not multipleOf "} {
		if i := strings.LastIndex(msg, cut); i >= 0 {
			return Hidden + msg[i:]
		}
	}
	if i := strings.Index(msg, " but found "); i >= 0 && strings.HasPrefix(msg, "must be ") {
		return msg[:i] + " but found " + Hidden
	}
	return msg
}

// HoldsSecret reports whether a value governed by n is or may hold a
// secret: n is Secret, or a node below it (through properties, items,
// additionalProperties and the other subschema keywords, $ref and allOf)
// is marked. Use it where a whole value is quoted, such as the text of an
// assignment that sets an object.
func (n *Node) HoldsSecret() bool {
	if n.Secret() {
		return true
	}
	seen := map[*Node]bool{}
	var below func(m *Node) bool
	below = func(m *Node) bool {
		if m == nil || seen[m] {
			return false
		}
		seen[m] = true
		if m.marked() {
			return true
		}
		if below(m.refTarget) {
			return true
		}
		for _, c := range m.children {
			if below(c) {
				return true
			}
		}
		return false
	}
	return below(n)
}
