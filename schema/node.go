package schema

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/pointer"
)

// Node is one subschema of the document, with the keywords paramkit uses
// read out and its children in the order of the source file.
type Node struct {
	// Pointer is the node's JSON pointer in the schema document.
	Pointer string
	// Name is the property name (or pattern, or definition name) under
	// which the parent holds this node; "" for other subschemas.
	Name string
	// Via is the keyword that holds this node in its parent ("properties",
	// "items", "allOf", ...); "" for the root.
	Via string
	// Parent is the schema object that holds this node; nil for the root.
	Parent *Node

	// Bool is set for a boolean schema (true or false).
	Bool *bool

	Type        []string // the "type" keyword, one or more names
	Title       string
	Description string
	Default     any // valid when HasDefault
	HasDefault  bool
	Enum        []any
	Format      string
	Deprecated  bool
	Nullable    bool // OpenAPI's nullable, as Kubernetes reads it
	// Required is true when the parent object lists this property in "required".
	Required bool
	// RequiredNames is this object's own "required" list.
	RequiredNames []string

	// The KUDO vocabulary.
	Trigger   string
	Immutable bool
	OldNames  []string

	// Ref is the raw $ref string; RefTarget the node it resolves to inside
	// the document (nil for a dialect meta-schema or an unresolved ref).
	Ref       string
	RefTarget *Node

	Properties           []*Node // in source order
	PatternProperties    []*Node // Name holds the pattern
	AdditionalProperties *Node
	PrefixItems          []*Node // prefixItems, or items as an array (draft-04 to 2019-09)
	Items                *Node   // items as one schema (all elements, or those after PrefixItems)
	AdditionalItems      *Node   // additionalItems (draft-04 to 2019-09)
	AllOf, AnyOf, OneOf  []*Node
	Not, If, Then, Else  *Node
	Defs                 []*Node // $defs and definitions

	keywords map[string]any
	keyOrder []string
	children []*Node // every subschema, in source order
	props    map[string]*Node
	patterns []*regexp.Regexp
	scope    []*Node  // this node, then what $ref and allOf bring in
	base     *url.URL // base URI for resolving $ref, while building
}

// Keyword returns a raw keyword value of this node.
func (n *Node) Keyword(name string) (any, bool) {
	if n == nil {
		return nil, false
	}
	v, ok := n.keywords[name]
	return v, ok
}

// Keywords returns the node's keyword names in source order.
func (n *Node) Keywords() []string {
	if n == nil {
		return nil
	}
	return n.keyOrder
}

// Subschemas returns every direct subschema in source order.
func (n *Node) Subschemas() []*Node {
	if n == nil {
		return nil
	}
	return n.children
}

// Property returns the node's own property of that name (not through $ref).
func (n *Node) Property(name string) *Node {
	if n == nil {
		return nil
	}
	return n.props[name]
}

// Scope returns this node and the nodes whose keywords apply to the same
// value through $ref and allOf, nearest first.
func (n *Node) Scope() []*Node {
	if n == nil {
		return nil
	}
	return n.scope
}

// Types returns the value types this node allows, looking through $ref
// and allOf, else the union of anyOf/oneOf branches. nil means any type.
func (n *Node) Types() []string {
	return n.types(0, nil)
}

// types, child and elem look into anyOf/oneOf branches; seen keeps wide
// recursive schemas from multiplying the work.
func (n *Node) types(depth int, seen map[*Node]bool) []string {
	if n == nil || depth > 8 || seen[n] {
		return nil
	}
	for _, m := range n.scope {
		if len(m.Type) > 0 {
			return m.Type
		}
	}
	var union []string
	for _, m := range n.scope {
		if len(m.AnyOf)+len(m.OneOf) > 0 && seen == nil {
			seen = map[*Node]bool{}
		}
		if seen != nil {
			seen[n] = true
		}
		for _, b := range append(append([]*Node(nil), m.AnyOf...), m.OneOf...) {
			bt := b.types(depth+1, seen)
			if bt == nil {
				return nil // one branch allows anything
			}
			for _, t := range bt {
				if !contains(union, t) {
					union = append(union, t)
				}
			}
		}
	}
	return union
}

// Allows reports whether the node's types include t ("integer" is allowed
// by "number"). A node without a type allows everything.
func (n *Node) Allows(t string) bool {
	ts := n.Types()
	if ts == nil {
		return true
	}
	for _, x := range ts {
		if x == t || (t == "integer" && x == "number") {
			return true
		}
	}
	return false
}

// IsFalse reports whether the node is the boolean schema false.
func (n *Node) IsFalse() bool { return n != nil && n.Bool != nil && !*n.Bool }

// Child returns the node governing the value under key of an object
// governed by n: properties, then patternProperties, then
// additionalProperties, through $ref and allOf, then the branches of
// anyOf, oneOf and then/else, where a branch that allows the key wins
// over one that forbids it (so the false additionalProperties of one
// oneOf branch does not hide the property another branch declares).
// A nil n (no node) governs nothing: the result is nil. ChildNodes gives
// every node that may govern the value, for callers that must weigh them
// all.
func (n *Node) Child(key string) *Node { return n.child(key, 0, nil) }

func (n *Node) child(key string, depth int, seen map[*Node]bool) *Node {
	if n == nil || depth > 8 || seen[n] {
		return nil
	}
	for _, m := range n.scope {
		if p := m.props[key]; p != nil {
			return p
		}
	}
	for _, m := range n.scope {
		for i, re := range m.patterns {
			if re != nil && re.MatchString(key) {
				return m.PatternProperties[i]
			}
		}
	}
	for _, m := range n.scope {
		if m.AdditionalProperties != nil {
			return m.AdditionalProperties
		}
	}
	return n.inBranches(seen, func(b *Node, seen map[*Node]bool) *Node { return b.child(key, depth+1, seen) })
}

// inBranches returns what next finds in the branches of n's scope (anyOf,
// oneOf, then/else): the first node that allows the value, else the first
// false one that forbids it, else nil. seen guards against cycles; n is
// marked in it.
func (n *Node) inBranches(seen map[*Node]bool, next func(b *Node, seen map[*Node]bool) *Node) *Node {
	var forbidden *Node
	for _, m := range n.scope {
		if !m.branched() {
			continue
		}
		if seen == nil {
			seen = map[*Node]bool{}
		}
		seen[n] = true
		for _, b := range m.branches() {
			c := next(b, seen)
			switch {
			case c == nil:
			case c.IsFalse():
				if forbidden == nil {
					forbidden = c
				}
			default:
				return c
			}
		}
	}
	return forbidden
}

// branched reports whether n has branches: anyOf, oneOf, or then or else
// beside an if (without an if they have no effect).
func (n *Node) branched() bool {
	return len(n.AnyOf)+len(n.OneOf) > 0 || (n.If != nil && (n.Then != nil || n.Else != nil))
}

// branches lists n's own branches in the order Child tries them: anyOf,
// oneOf, then, else.
func (n *Node) branches() []*Node {
	out := make([]*Node, 0, len(n.AnyOf)+len(n.OneOf)+2)
	out = append(append(out, n.AnyOf...), n.OneOf...)
	if n.If != nil {
		for _, b := range []*Node{n.Then, n.Else} {
			if b != nil {
				out = append(out, b)
			}
		}
	}
	return out
}

// Elem returns the node governing element i of an array governed by n:
// prefixItems (or items as an array), then additionalItems or items,
// through $ref and allOf, then the branches as for Child.
// A nil n governs nothing: the result is nil.
func (n *Node) Elem(i int) *Node { return n.elem(i, 0, nil) }

func (n *Node) elem(i int, depth int, seen map[*Node]bool) *Node {
	if n == nil || depth > 8 || seen[n] {
		return nil
	}
	for _, m := range n.scope {
		if i < len(m.PrefixItems) {
			return m.PrefixItems[i]
		}
	}
	for _, m := range n.scope {
		if len(m.PrefixItems) > 0 && m.AdditionalItems != nil {
			return m.AdditionalItems
		}
		if m.Items != nil {
			return m.Items
		}
	}
	return n.inBranches(seen, func(b *Node, seen map[*Node]bool) *Node { return b.elem(i, depth+1, seen) })
}

// isArrayish reports whether values under n are arrays by the schema.
func (n *Node) isArrayish() bool {
	ts := n.Types()
	if contains(ts, "array") {
		return true
	}
	for _, m := range n.scope {
		if m.Items != nil || len(m.PrefixItems) > 0 {
			return true
		}
	}
	return false
}

// Lookup returns the node that governs the value at a JSON pointer into a
// value document (for example /topology/0/labels/1/key), or nil where the
// schema says nothing (also for a nil schema).
func (s *Schema) Lookup(valuePointer string) *Node {
	if s == nil {
		return nil
	}
	toks, err := pointer.Split(valuePointer)
	if err != nil {
		return nil
	}
	n := s.root
	for _, t := range toks {
		if n == nil {
			return nil
		}
		if i, err := strconv.Atoi(t); err == nil && i >= 0 && n.isArrayish() {
			n = n.Elem(i)
		} else {
			n = n.Child(t)
		}
	}
	return n
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// treeBuilder builds the node tree and resolves $ref inside the document.
type treeBuilder struct {
	s         *Schema
	order     map[string][]string
	draft     Dialect
	errs      ErrorList
	refErrs   ErrorList        // $refs that leave the document
	resources map[string]*Node // absolute URL without fragment
	anchors   map[string]*Node // absolute URL#anchor
}

func (b *treeBuilder) build(doc any) *Node {
	b.resources = map[string]*Node{}
	b.anchors = map[string]*Node{}
	base, _ := url.Parse(baseURL)
	root := b.node(doc, "", "", "", nil, base)
	for _, n := range b.s.nodes {
		b.resolve(n)
	}
	for _, n := range b.s.nodes {
		n.scope = scopeOf(n)
		n.base = nil
	}
	return root
}

func (b *treeBuilder) keys(ptr string, m map[string]any) []string {
	return document.KeysInOrder(b.order, ptr, m)
}

func (b *treeBuilder) node(v any, ptr, name, via string, parent *Node, base *url.URL) *Node {
	n := &Node{Pointer: ptr, Name: name, Via: via, Parent: parent}
	b.s.nodes[ptr] = n
	n.scope = []*Node{n}
	switch t := v.(type) {
	case bool:
		n.Bool = &t
		n.base = base
		return n
	case map[string]any:
		n.keywords = t
		n.keyOrder = b.keys(ptr, t)
	default:
		n.base = base
		return n // the engine reports a non-schema here
	}
	m := n.keywords
	// Base URI and anchors.
	// Before 2019-09 an identifier beside $ref is ignored and one with a
	// fragment names a plain-name anchor; draft-04 spells it "id".
	_, hasRef := m["$ref"]
	legacy := b.draft == Draft4 || b.draft == Draft6 || b.draft == Draft7
	idKey := "$id"
	if b.draft == Draft4 {
		idKey = "id"
	}
	if id, ok := m[idKey].(string); ok && !(legacy && hasRef) {
		if strings.HasPrefix(id, "#") && legacy {
			b.anchors[base.String()+id] = n
		} else if u, err := base.Parse(id); err == nil {
			frag := u.Fragment
			u.Fragment = ""
			base = u
			b.resources[u.String()] = n
			if frag != "" && legacy {
				b.anchors[u.String()+"#"+frag] = n
			}
		}
	}
	if ptr == "" {
		b.resources[base.String()] = n
		b.resources[baseURL] = n
	}
	for _, k := range []string{"$anchor", "$dynamicAnchor"} {
		if a, ok := m[k].(string); ok {
			b.anchors[base.String()+"#"+a] = n
		}
	}
	n.base = base

	// Annotations and vocabulary.
	switch t := m["type"].(type) {
	case string:
		n.Type = []string{t}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				n.Type = append(n.Type, s)
			}
		}
	}
	n.Title, _ = m["title"].(string)
	n.Description, _ = m["description"].(string)
	n.Default, n.HasDefault = m["default"]
	n.Enum, _ = m["enum"].([]any)
	n.Format, _ = m["format"].(string)
	n.Deprecated, _ = m["deprecated"].(bool)
	n.Nullable, _ = m["nullable"].(bool)
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				n.RequiredNames = append(n.RequiredNames, s)
			}
		}
	}
	n.Ref, _ = m["$ref"].(string)
	b.kudo(n, m)

	// Subschemas, in source order of their keywords.
	for _, k := range n.keyOrder {
		kv := m[k]
		switch k {
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies":
			mm, ok := kv.(map[string]any)
			if !ok {
				continue
			}
			kp := pointer.Append(ptr, k)
			for _, name := range b.keys(kp, mm) {
				sv := mm[name]
				if k == "dependencies" {
					if _, isArr := sv.([]any); isArr {
						continue
					}
				}
				c := b.node(sv, pointer.Append(kp, name), name, k, n, base)
				n.children = append(n.children, c)
				switch k {
				case "properties":
					n.Properties = append(n.Properties, c)
					if n.props == nil {
						n.props = map[string]*Node{}
					}
					n.props[name] = c
					c.Required = contains(n.RequiredNames, name)
				case "patternProperties":
					n.PatternProperties = append(n.PatternProperties, c)
					re, err := regexp.Compile(name)
					if err != nil {
						re = nil
					}
					n.patterns = append(n.patterns, re)
				case "$defs", "definitions":
					n.Defs = append(n.Defs, c)
				}
			}
		case "allOf", "anyOf", "oneOf", "prefixItems":
			arr, ok := kv.([]any)
			if !ok {
				continue
			}
			kp := pointer.Append(ptr, k)
			for i, sv := range arr {
				c := b.node(sv, pointer.AppendIndex(kp, i), "", k, n, base)
				n.children = append(n.children, c)
				switch k {
				case "allOf":
					n.AllOf = append(n.AllOf, c)
				case "anyOf":
					n.AnyOf = append(n.AnyOf, c)
				case "oneOf":
					n.OneOf = append(n.OneOf, c)
				case "prefixItems":
					n.PrefixItems = append(n.PrefixItems, c)
				}
			}
		case "items":
			kp := pointer.Append(ptr, k)
			if arr, ok := kv.([]any); ok {
				for i, sv := range arr {
					c := b.node(sv, pointer.AppendIndex(kp, i), "", k, n, base)
					n.children = append(n.children, c)
					n.PrefixItems = append(n.PrefixItems, c)
				}
				continue
			}
			if !isSchemaValue(kv) {
				continue
			}
			n.Items = b.node(kv, kp, "", k, n, base)
			n.children = append(n.children, n.Items)
		case "additionalProperties", "additionalItems", "not", "if", "then", "else",
			"contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "contentSchema":
			if !isSchemaValue(kv) {
				continue
			}
			c := b.node(kv, pointer.Append(ptr, k), "", k, n, base)
			n.children = append(n.children, c)
			switch k {
			case "additionalProperties":
				n.AdditionalProperties = c
			case "additionalItems":
				n.AdditionalItems = c
			case "not":
				n.Not = c
			case "if":
				n.If = c
			case "then":
				n.Then = c
			case "else":
				n.Else = c
			}
		}
	}
	// With items as an array, additionalItems governs the rest; a lone
	// items schema in 2020-12 governs the elements after prefixItems.
	return n
}

func isSchemaValue(v any) bool {
	switch v.(type) {
	case bool, map[string]any:
		return true
	}
	return false
}

// kudo checks the KUDO keywords against their meta-schema, at the node's
// pointer, and reads them.
func (b *treeBuilder) kudo(n *Node, m map[string]any) {
	sub := map[string]any{}
	for _, k := range []string{"trigger", "immutable", "oldName"} {
		if v, ok := m[k]; ok {
			sub[k] = v
		}
	}
	if len(sub) == 0 {
		return
	}
	if err := kudoMeta.Validate(sub); err != nil {
		for k, v := range sub {
			if kudoMeta.Validate(map[string]any{k: v}) != nil {
				b.errs = append(b.errs, &Error{Pointer: pointer.Append(n.Pointer, k), Kind: KindSchema, Message: kudoMessage(k, v)})
			}
		}
		sort.Slice(b.errs, func(i, j int) bool { return b.errs[i].Pointer < b.errs[j].Pointer })
	}
	n.Trigger, _ = m["trigger"].(string)
	n.Immutable, _ = m["immutable"].(bool)
	switch o := m["oldName"].(type) {
	case string:
		if o != "" {
			n.OldNames = []string{o}
		}
	case []any:
		for _, x := range o {
			if s, ok := x.(string); ok && s != "" {
				n.OldNames = append(n.OldNames, s)
			}
		}
	}
}

func kudoMessage(k string, v any) string {
	raw, _ := json.Marshal(v)
	switch k {
	case "trigger":
		return "trigger must be a non-empty string naming a plan, not " + string(raw)
	case "immutable":
		return "immutable must be a boolean (true or false), not " + string(raw)
	default:
		return "oldName must be a non-empty string or a list of non-empty strings, not " + string(raw)
	}
}

// resolve finds the target of n's $ref inside the document.
func (b *treeBuilder) resolve(n *Node) {
	if n.Ref == "" {
		return
	}
	base := n.base
	if base == nil {
		return
	}
	u, err := base.Parse(n.Ref)
	if err != nil {
		return
	}
	frag := u.Fragment
	u.Fragment = ""
	res := b.resources[u.String()]
	if res == nil {
		if d, _ := dialectOf(u.String()); d == "" {
			b.refErrs = append(b.refErrs, &Error{Pointer: pointer.Append(n.Pointer, "$ref"), Kind: KindRefused, wrapped: ErrRefused,
				Message: fmt.Sprintf("$ref %q is refused: a $ref must resolve inside the document or to a dialect meta-schema; nothing is fetched or read", n.Ref)})
		}
		return
	}
	switch {
	case frag == "":
		n.RefTarget = res
	case strings.HasPrefix(frag, "/"):
		n.RefTarget = b.s.nodes[res.Pointer+frag]
	default:
		n.RefTarget = b.anchors[u.String()+"#"+frag]
	}
	if n.RefTarget == nil {
		b.refErrs = append(b.refErrs, &Error{Pointer: pointer.Append(n.Pointer, "$ref"), Kind: KindSchema,
			Message: fmt.Sprintf("$ref %q does not resolve: nothing in the document is at #%s", n.Ref, frag)})
	}
}

// scopeOf lists n and what $ref and allOf bring in, depth first, once each.
func scopeOf(n *Node) []*Node {
	if n.RefTarget == nil && len(n.AllOf) == 0 {
		return n.scope // just n, as node set it
	}
	var out []*Node
	seen := map[*Node]bool{}
	var add func(m *Node)
	add = func(m *Node) {
		if m == nil || seen[m] {
			return
		}
		seen[m] = true
		out = append(out, m)
		add(m.RefTarget)
		for _, a := range m.AllOf {
			add(a)
		}
	}
	add(n)
	return out
}
