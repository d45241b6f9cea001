package lint

import (
	"strings"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// snode is one schema object (or boolean schema) of the document as the
// rules see it: read straight from the plain document, so that the rules
// also run on a document the engine refuses to compile. It is built once
// per run and shared by every rule.
type snode struct {
	ptr    string
	m      map[string]any // nil for a boolean schema or a non-schema value
	keys   []string       // keyword names, in source order when known
	parent *snode
	via    string // keyword that holds the node in its parent
	name   string // property, pattern or definition name
	index  int    // position in a list keyword (allOf, prefixItems, ...), else -1
	kids   []*snode
	ref    *snode // resolved $ref target inside the document
	uses   int    // how many $refs resolve here
	idx    int    // position in view.nodes
}

// view is the document as a tree of schema objects.
type view struct {
	root  *snode
	nodes []*snode // document order, parents before children
	byPtr map[string]*snode
	vals  []*snode // valueNodes, once computed
	props []*snode // Pass.properties, once computed
}

// Keywords whose value is one subschema.
var schemaKeywords = map[string]bool{
	"additionalProperties": true, "additionalItems": true, "not": true, "if": true, "then": true, "else": true,
	"contains": true, "propertyNames": true, "unevaluatedProperties": true, "unevaluatedItems": true,
	"contentSchema": true, "items": true,
}

// Keywords whose value is an object of subschemas.
var schemaMapKeywords = map[string]bool{
	"properties": true, "patternProperties": true, "$defs": true, "definitions": true,
	"dependentSchemas": true, "dependencies": true,
}

// Keywords whose value is a list of subschemas.
var schemaListKeywords = map[string]bool{
	"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true,
}

// buildView reads the document into a tree. order gives the source order
// of object keys by pointer (nil: sorted). s, when not nil, resolves $refs
// the way the engine does; without it only same-document fragments
// (#/pointer, #anchor) resolve.
func buildView(doc any, order map[string][]string, s *schema.Schema) *view {
	v := &view{byPtr: map[string]*snode{}}
	anchors := map[string]*snode{}
	var add func(val any, ptr, via, name string, index int, parent *snode, depth int) *snode
	add = func(val any, ptr, via, name string, index int, parent *snode, depth int) *snode {
		n := &snode{ptr: ptr, parent: parent, via: via, name: name, index: index, idx: len(v.nodes)}
		v.nodes = append(v.nodes, n)
		v.byPtr[ptr] = n
		m, ok := val.(map[string]any)
		if !ok || depth > 500 {
			return n
		}
		n.m = m
		n.keys = document.KeysInOrder(order, ptr, m)
		if a, ok := m["$anchor"].(string); ok {
			anchors[a] = n
		}
		for _, k := range n.keys {
			kv := m[k]
			switch {
			case schemaMapKeywords[k]:
				mm, ok := kv.(map[string]any)
				if !ok {
					continue
				}
				kp := pointer.Append(ptr, k)
				for _, name := range document.KeysInOrder(order, kp, mm) {
					sv := mm[name]
					if _, isList := sv.([]any); isList && k == "dependencies" {
						continue
					}
					n.kids = append(n.kids, add(sv, pointer.Append(kp, name), k, name, -1, n, depth+1))
				}
			case schemaListKeywords[k] || (k == "items" && isList(kv)):
				arr, ok := kv.([]any)
				if !ok {
					continue
				}
				kp := pointer.Append(ptr, k)
				for i, sv := range arr {
					n.kids = append(n.kids, add(sv, pointer.AppendIndex(kp, i), k, "", i, n, depth+1))
				}
			case schemaKeywords[k]:
				if !isSchemaValue(kv) {
					continue
				}
				n.kids = append(n.kids, add(kv, pointer.Append(ptr, k), k, "", -1, n, depth+1))
			}
		}
		return n
	}
	v.root = add(doc, "", "", "", -1, nil, 0)
	for _, n := range v.nodes {
		ref, ok := n.m["$ref"].(string)
		if !ok {
			continue
		}
		var t *snode
		if s != nil {
			if sn := s.NodeAt(n.ptr); sn != nil && sn.RefTarget() != nil {
				t = v.byPtr[sn.RefTarget().Pointer()]
			}
		}
		if t == nil && strings.HasPrefix(ref, "#") {
			frag := ref[1:]
			if frag == "" || strings.HasPrefix(frag, "/") {
				t = v.byPtr[unescapeFragment(frag)]
			} else {
				t = anchors[frag]
			}
		}
		if t != nil {
			n.ref = t
			t.uses++
		}
	}
	return v
}

// unescapeFragment undoes the URI percent-encoding of a $ref fragment.
func unescapeFragment(f string) string {
	if !strings.Contains(f, "%") {
		return f
	}
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] == '%' && i+2 < len(f) && isHex(f[i+1]) && isHex(f[i+2]) {
			b.WriteByte(unhex(f[i+1])<<4 | unhex(f[i+2]))
			i += 2
			continue
		}
		b.WriteByte(f[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func isList(v any) bool {
	_, ok := v.([]any)
	return ok
}

func isSchemaValue(v any) bool {
	switch v.(type) {
	case bool, map[string]any:
		return true
	}
	return false
}

// has reports whether the node has the keyword itself.
func (n *snode) has(k string) bool {
	_, ok := n.m[k]
	return ok
}

// str returns a string keyword of the node itself.
func (n *snode) str(k string) (string, bool) {
	s, ok := n.m[k].(string)
	return s, ok
}

// kw returns the pointer of one of the node's keywords.
func (n *snode) kw(k string) string { return pointer.Append(n.ptr, k) }

// isProperty reports whether the node describes a member of an object:
// it stands under properties, patternProperties, or is an
// additionalProperties schema.
func (n *snode) isProperty() bool {
	switch n.via {
	case "properties", "patternProperties":
		return true
	case "additionalProperties":
		return n.m != nil
	}
	return false
}

// isSubschemaOf reports whether the node is a branch of anyOf or oneOf.
func (n *snode) isBranch() bool { return n.via == "anyOf" || n.via == "oneOf" }

// scope calls fn on the node and on what its $ref and allOf bring to the
// same value, nearest first, each once; fn returns false to stop.
func (n *snode) scope(fn func(m *snode) bool) {
	if n.ref == nil && !n.hasAllOf() {
		fn(n) // the common case: nothing brought in
		return
	}
	var seen []*snode
	var walk func(m *snode, depth int) bool
	walk = func(m *snode, depth int) bool {
		if m == nil || depth > 32 {
			return true
		}
		for _, s := range seen {
			if s == m {
				return true
			}
		}
		seen = append(seen, m)
		if !fn(m) {
			return false
		}
		if !walk(m.ref, depth+1) {
			return false
		}
		for _, k := range m.kids {
			if k.via == "allOf" && !walk(k, depth+1) {
				return false
			}
		}
		return true
	}
	walk(n, 0)
}

func (n *snode) hasAllOf() bool {
	_, ok := n.m["allOf"]
	return ok
}

// eff returns the first value of keyword k in the node's scope and the
// node that holds it.
func (n *snode) eff(k string) (any, *snode) {
	var val any
	var owner *snode
	n.scope(func(m *snode) bool {
		if v, ok := m.m[k]; ok {
			val, owner = v, m
			return false
		}
		return true
	})
	return val, owner
}

// types returns the node's declared types (through $ref and allOf), and
// the node declaring them.
func (n *snode) types() ([]string, *snode) {
	v, owner := n.eff("type")
	return typeNames(v), owner
}

func typeNames(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// is reports whether the node's single declared type is t.
func (n *snode) is(t string) bool {
	v, _ := n.eff("type")
	return singleTypeName(v) == t
}

// singleTypeName returns the one name typeNames(v) would list, or "" when
// it lists none or several.
func singleTypeName(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []any:
		one, n := "", 0
		for _, x := range t {
			if s, ok := x.(string); ok {
				one = s
				n++
			}
		}
		if n == 1 {
			return one
		}
	}
	return ""
}

// ownType returns the node's own single type, "" when it has none or more.
func (n *snode) ownType() string { return singleTypeName(n.m["type"]) }

// child returns the node's kid held by keyword via under name ("" for
// single-schema keywords).
func (n *snode) child(via, name string) *snode {
	for _, k := range n.kids {
		if k.via == via && k.name == name && k.index < 0 {
			return k
		}
	}
	return nil
}

// branches returns the node's anyOf or oneOf kids.
func (n *snode) branches(via string) []*snode {
	var out []*snode
	for _, k := range n.kids {
		if k.via == via && k.index >= 0 {
			out = append(out, k)
		}
	}
	return out
}

// Keywords whose subschemas only constrain a value: nothing under them
// describes a parameter a user sets or a UI shows.
var constraintKeywords = map[string]bool{
	"not": true, "if": true, "then": true, "else": true, "contains": true, "propertyNames": true,
	"dependentSchemas": true, "dependencies": true, "unevaluatedProperties": true,
	"unevaluatedItems": true, "contentSchema": true,
}

// constraintOnly reports whether the node lies under a keyword whose
// subschemas only constrain (not, if, contains, ...).
func (n *snode) constraintOnly() bool {
	for m := n; m != nil; m = m.parent {
		if constraintKeywords[m.via] {
			return true
		}
	}
	return false
}

// site returns where a property's schema is defined: the node that
// declares its type (the node itself, or the shared definition it refers
// to), else the node. Findings about what a schema lacks go there, so a
// shared definition is reported once, not once per use.
func (n *snode) site() *snode {
	if _, owner := n.eff("type"); owner != nil {
		return owner
	}
	return n
}

// valueNodes returns the schema objects that describe values.
func (v *view) valueNodes() []*snode {
	if v.vals == nil {
		v.vals = make([]*snode, 0, len(v.nodes))
		for _, n := range v.nodes {
			if n.m != nil && !n.constraintOnly() {
				v.vals = append(v.vals, n)
			}
		}
	}
	return v.vals
}
