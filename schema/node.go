package schema

import (
	"encoding/json"
	"fmt"
	"iter"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
)

// Node is one subschema of the document, with the keywords paramkit uses
// read out and its children in the order of the source file. A Node is
// read-only: its accessors return copies or nodes of the same tree, so
// that nothing a compiled Schema hands out can change it (a Schema is
// immutable and safe for concurrent use).
type Node struct {
	// pointer is the node's JSON pointer in the schema document.
	pointer string
	// Name is the property name (or pattern, or definition name) under
	// which the parent holds this node; "" for other subschemas.
	name string
	// Via is the keyword that holds this node in its parent ("properties",
	// "items", "allOf", ...); "" for the root.
	via string
	// parent is the schema object that holds this node; nil for the root.
	parent *Node

	// bool is a copy of the value of a boolean schema (true or false);
	// nil for a schema object.
	boolean *bool

	typ         []string // the "type" keyword, one or more names
	title       string
	description string
	def         any // valid when HasDefault
	hasDefault  bool
	enum        []any
	format      string
	deprecated  bool
	nullable    bool // OpenAPI's nullable, as Kubernetes reads it
	// Required reports whether the parent object lists this property in
	// "required".
	required bool
	// requiredNames is this object's own "required" list.
	requiredNames []string

	// The KUDO vocabulary.
	trigger   string
	immutable bool
	oldNames  []string

	// Ref is the raw $ref string; RefTarget the node it resolves to inside
	// the document (nil for a dialect meta-schema or an unresolved ref).
	ref       string
	refTarget *Node

	properties                          []*Node // in source order
	patternProperties                   []*Node // Name holds the pattern
	additionalProperties                *Node
	prefixItems                         []*Node // prefixItems, or items as an array (draft-04 to 2019-09)
	items                               *Node   // items as one schema (all elements, or those after PrefixItems)
	additionalItems                     *Node   // additionalItems (draft-04 to 2019-09)
	allOf, anyOf, oneOf                 []*Node
	notNode, ifNode, thenNode, elseNode *Node
	defs                                []*Node // $defs and definitions

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
	return value.DeepCopy(v), ok
}

// Keywords returns the node's keyword names in source order.
func (n *Node) Keywords() []string {
	if n == nil {
		return nil
	}
	return append([]string(nil), n.keyOrder...)
}

// Subschemas returns every direct subschema in source order.
func (n *Node) Subschemas() []*Node {
	if n == nil || n.children == nil {
		return nil
	}
	return append([]*Node(nil), n.children...)
}

// Property returns the node's own property of that name (not through $ref).
func (n *Node) Property(name string) *Node {
	if n == nil {
		return nil
	}
	return n.props[name]
}

// Scope yields this node and the nodes whose keywords apply to the same
// value through $ref and allOf, nearest first, each with its index: `for
// _, m := range n.Scope()`. It copies nothing and allocates nothing, and
// gives the caller no slice of the node's to change. A nil node yields
// nothing.
func (n *Node) Scope() iter.Seq2[int, *Node] {
	return func(yield func(int, *Node) bool) {
		if n == nil {
			return
		}
		for i, m := range n.scope {
			if !yield(i, m) {
				return
			}
		}
	}
}

// Types returns the value types this node allows, looking through $ref
// and allOf, else the union of anyOf/oneOf branches. nil means any type.
func (n *Node) Types() []string {
	t := n.types(0, nil)
	if t == nil {
		return nil
	}
	return append([]string(nil), t...)
}

// types, child and elem look into anyOf/oneOf branches; seen keeps wide
// recursive schemas from multiplying the work.
func (n *Node) types(depth int, seen map[*Node]bool) []string {
	if n == nil || depth > 8 || seen[n] {
		return nil
	}
	for _, m := range n.scope {
		if len(m.typ) > 0 {
			return m.typ
		}
	}
	var union []string
	for _, m := range n.scope {
		if len(m.anyOf)+len(m.oneOf) > 0 && seen == nil {
			seen = map[*Node]bool{}
		}
		if seen != nil {
			seen[n] = true
		}
		for _, b := range append(append([]*Node(nil), m.anyOf...), m.oneOf...) {
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
	ts := n.types(0, nil) // read only: no copy
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
func (n *Node) IsFalse() bool { return n != nil && n.boolean != nil && !*n.boolean }

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
				return m.patternProperties[i]
			}
		}
	}
	for _, m := range n.scope {
		if m.additionalProperties != nil {
			return m.additionalProperties
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
	return len(n.anyOf)+len(n.oneOf) > 0 || (n.ifNode != nil && (n.thenNode != nil || n.elseNode != nil))
}

// branches lists n's own branches in the order Child tries them: anyOf,
// oneOf, then, else.
func (n *Node) branches() []*Node {
	out := make([]*Node, 0, len(n.anyOf)+len(n.oneOf)+2)
	out = append(append(out, n.anyOf...), n.oneOf...)
	if n.ifNode != nil {
		for _, b := range []*Node{n.thenNode, n.elseNode} {
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
		if i < len(m.prefixItems) {
			return m.prefixItems[i]
		}
	}
	for _, m := range n.scope {
		if len(m.prefixItems) > 0 && m.additionalItems != nil {
			return m.additionalItems
		}
		if m.items != nil {
			return m.items
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
		if m.items != nil || len(m.prefixItems) > 0 {
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
	draft     string
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
	n := &Node{pointer: ptr, name: name, via: via, parent: parent}
	b.s.nodes[ptr] = n
	n.scope = []*Node{n}
	switch t := v.(type) {
	case bool:
		n.boolean = &t
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
	legacy := b.draft == draft4 || b.draft == draft6 || b.draft == draft7
	idKey := "$id"
	if b.draft == draft4 {
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
		n.typ = []string{t}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				n.typ = append(n.typ, s)
			}
		}
	}
	n.title, _ = m["title"].(string)
	n.description, _ = m["description"].(string)
	n.def, n.hasDefault = m["default"]
	n.enum, _ = m["enum"].([]any)
	n.format, _ = m["format"].(string)
	n.deprecated, _ = m["deprecated"].(bool)
	n.nullable, _ = m["nullable"].(bool)
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				n.requiredNames = append(n.requiredNames, s)
			}
		}
	}
	n.ref, _ = m["$ref"].(string)
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
					n.properties = append(n.properties, c)
					if n.props == nil {
						n.props = map[string]*Node{}
					}
					n.props[name] = c
					c.required = contains(n.requiredNames, name)
				case "patternProperties":
					n.patternProperties = append(n.patternProperties, c)
					re, err := regexp.Compile(name)
					if err != nil {
						re = nil
					}
					n.patterns = append(n.patterns, re)
				case "$defs", "definitions":
					n.defs = append(n.defs, c)
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
					n.allOf = append(n.allOf, c)
				case "anyOf":
					n.anyOf = append(n.anyOf, c)
				case "oneOf":
					n.oneOf = append(n.oneOf, c)
				case "prefixItems":
					n.prefixItems = append(n.prefixItems, c)
				}
			}
		case "items":
			kp := pointer.Append(ptr, k)
			if arr, ok := kv.([]any); ok {
				for i, sv := range arr {
					c := b.node(sv, pointer.AppendIndex(kp, i), "", k, n, base)
					n.children = append(n.children, c)
					n.prefixItems = append(n.prefixItems, c)
				}
				continue
			}
			if !isSchemaValue(kv) {
				continue
			}
			n.items = b.node(kv, kp, "", k, n, base)
			n.children = append(n.children, n.items)
		case "additionalProperties", "additionalItems", "not", "if", "then", "else",
			"contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "contentSchema":
			if !isSchemaValue(kv) {
				continue
			}
			c := b.node(kv, pointer.Append(ptr, k), "", k, n, base)
			n.children = append(n.children, c)
			switch k {
			case "additionalProperties":
				n.additionalProperties = c
			case "additionalItems":
				n.additionalItems = c
			case "not":
				n.notNode = c
			case "if":
				n.ifNode = c
			case "then":
				n.thenNode = c
			case "else":
				n.elseNode = c
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
				b.errs = append(b.errs, &Error{Pointer: pointer.Append(n.pointer, k), Kind: KindSchema, Message: kudoMessage(k, v)})
			}
		}
		sort.Slice(b.errs, func(i, j int) bool { return b.errs[i].Pointer < b.errs[j].Pointer })
	}
	n.trigger, _ = m["trigger"].(string)
	n.immutable, _ = m["immutable"].(bool)
	switch o := m["oldName"].(type) {
	case string:
		if o != "" {
			n.oldNames = []string{o}
		}
	case []any:
		for _, x := range o {
			if s, ok := x.(string); ok && s != "" {
				n.oldNames = append(n.oldNames, s)
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
	if n.ref == "" {
		return
	}
	base := n.base
	if base == nil {
		return
	}
	u, err := base.Parse(n.ref)
	if err != nil {
		return
	}
	frag := u.Fragment
	u.Fragment = ""
	res := b.resources[u.String()]
	if res == nil {
		if d, _ := dialectOf(u.String()); d == "" {
			b.refErrs = append(b.refErrs, &Error{Pointer: pointer.Append(n.pointer, "$ref"), Kind: KindRefused, wrapped: errRefused,
				Message: fmt.Sprintf("$ref %q is refused: a $ref must resolve inside the document or to a dialect meta-schema; nothing is fetched or read", n.ref)})
		}
		return
	}
	switch {
	case frag == "":
		n.refTarget = res
	case strings.HasPrefix(frag, "/"):
		n.refTarget = b.s.nodes[res.pointer+frag]
	default:
		n.refTarget = b.anchors[u.String()+"#"+frag]
	}
	if n.refTarget == nil {
		b.refErrs = append(b.refErrs, &Error{Pointer: pointer.Append(n.pointer, "$ref"), Kind: KindSchema,
			Message: fmt.Sprintf("$ref %q does not resolve: nothing in the document is at #%s", n.ref, frag)})
	}
}

// scopeOf lists n and what $ref and allOf bring in, depth first, once each.
func scopeOf(n *Node) []*Node {
	if n.refTarget == nil && len(n.allOf) == 0 {
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
		add(m.refTarget)
		for _, a := range m.allOf {
			add(a)
		}
	}
	add(n)
	return out
}

// The accessors below read a node's keywords. A Node is read-only: what
// they return is a copy (slices, defaults, enum values) or a node of the
// same read-only tree, so that nothing a compiled Schema hands out
// changes it. Each returns the zero value for a nil Node.

// Pointer returns the node's JSON pointer in the schema document.
func (n *Node) Pointer() string {
	if n == nil {
		return ""
	}
	return n.pointer
}

// Name returns the property name (or pattern, or definition name) under
// which the parent holds this node; "" for other subschemas.
func (n *Node) Name() string {
	if n == nil {
		return ""
	}
	return n.name
}

// Via returns the keyword that holds this node in its parent
// ("properties", "items", "allOf", ...); "" for the root.
func (n *Node) Via() string {
	if n == nil {
		return ""
	}
	return n.via
}

// Parent returns the schema object that holds this node; nil for the root.
func (n *Node) Parent() *Node {
	if n == nil {
		return nil
	}
	return n.parent
}

// Bool returns a copy of the value of a boolean schema (true or false);
// nil for a schema object.
func (n *Node) Bool() *bool {
	if n == nil || n.boolean == nil {
		return nil
	}
	b := *n.boolean
	return &b
}

// Type returns the "type" keyword, one or more names.
func (n *Node) Type() []string {
	if n == nil || n.typ == nil {
		return nil
	}
	return append([]string(nil), n.typ...)
}

// Title returns the node's "title" keyword.
func (n *Node) Title() string {
	if n == nil {
		return ""
	}
	return n.title
}

// Description returns the node's "description" keyword.
func (n *Node) Description() string {
	if n == nil {
		return ""
	}
	return n.description
}

// Default returns a copy of the node's "default" (see HasDefault).
func (n *Node) Default() any {
	if n == nil {
		return nil
	}
	return value.DeepCopy(n.def)
}

// HasDefault reports whether the node has a "default" keyword.
func (n *Node) HasDefault() bool {
	if n == nil {
		return false
	}
	return n.hasDefault
}

// Enum returns a copy of the node's "enum" keyword.
func (n *Node) Enum() []any {
	if n == nil || n.enum == nil {
		return nil
	}
	return value.DeepCopy(n.enum).([]any)
}

// Format returns the node's "format" keyword.
func (n *Node) Format() string {
	if n == nil {
		return ""
	}
	return n.format
}

// Deprecated returns the node's "deprecated" keyword.
func (n *Node) Deprecated() bool {
	if n == nil {
		return false
	}
	return n.deprecated
}

// Nullable returns OpenAPI's nullable, as Kubernetes reads it.
func (n *Node) Nullable() bool {
	if n == nil {
		return false
	}
	return n.nullable
}

// Required reports whether the parent object lists this property in
// "required".
func (n *Node) Required() bool {
	if n == nil {
		return false
	}
	return n.required
}

// RequiredNames returns this object's own "required" list.
func (n *Node) RequiredNames() []string {
	if n == nil || n.requiredNames == nil {
		return nil
	}
	return append([]string(nil), n.requiredNames...)
}

// Trigger returns the KUDO "trigger" keyword (the plan a change here runs).
func (n *Node) Trigger() string {
	if n == nil {
		return ""
	}
	return n.trigger
}

// Immutable returns the KUDO "immutable" keyword.
func (n *Node) Immutable() bool {
	if n == nil {
		return false
	}
	return n.immutable
}

// OldNames returns the KUDO "oldName" keyword (one or more earlier names).
func (n *Node) OldNames() []string {
	if n == nil || n.oldNames == nil {
		return nil
	}
	return append([]string(nil), n.oldNames...)
}

// Ref returns the raw $ref string (see RefTarget).
func (n *Node) Ref() string {
	if n == nil {
		return ""
	}
	return n.ref
}

// RefTarget returns the node $ref resolves to inside the document (nil
// for a dialect meta-schema or an unresolved ref).
func (n *Node) RefTarget() *Node {
	if n == nil {
		return nil
	}
	return n.refTarget
}

// Properties yields the nodes of "properties" in source order, each with
// its name (the node's Name): `for name, p := range n.Properties()`. It
// copies nothing and allocates nothing. A nil node yields nothing.
func (n *Node) Properties() iter.Seq2[string, *Node] {
	return func(yield func(string, *Node) bool) {
		if n == nil {
			return
		}
		for _, p := range n.properties {
			if !yield(p.name, p) {
				return
			}
		}
	}
}

// PatternProperties returns the nodes of "patternProperties" (Name
// holds the pattern).
func (n *Node) PatternProperties() []*Node {
	if n == nil || n.patternProperties == nil {
		return nil
	}
	return append([]*Node(nil), n.patternProperties...)
}

// AdditionalProperties returns the node of "additionalProperties".
func (n *Node) AdditionalProperties() *Node {
	if n == nil {
		return nil
	}
	return n.additionalProperties
}

// PrefixItems returns the nodes of prefixItems, or of items as an array
// (draft-04 to 2019-09).
func (n *Node) PrefixItems() []*Node {
	if n == nil || n.prefixItems == nil {
		return nil
	}
	return append([]*Node(nil), n.prefixItems...)
}

// Items returns the node of items as one schema (all elements, or those
// after PrefixItems).
func (n *Node) Items() *Node {
	if n == nil {
		return nil
	}
	return n.items
}

// AdditionalItems returns the node of additionalItems (draft-04 to
// 2019-09).
func (n *Node) AdditionalItems() *Node {
	if n == nil {
		return nil
	}
	return n.additionalItems
}

// AllOf returns the subschemas of "allOf".
func (n *Node) AllOf() []*Node {
	if n == nil || n.allOf == nil {
		return nil
	}
	return append([]*Node(nil), n.allOf...)
}

// AnyOf returns the subschemas of "anyOf".
func (n *Node) AnyOf() []*Node {
	if n == nil || n.anyOf == nil {
		return nil
	}
	return append([]*Node(nil), n.anyOf...)
}

// OneOf returns the subschemas of "oneOf".
func (n *Node) OneOf() []*Node {
	if n == nil || n.oneOf == nil {
		return nil
	}
	return append([]*Node(nil), n.oneOf...)
}

// Not returns the subschema of "not".
func (n *Node) Not() *Node {
	if n == nil {
		return nil
	}
	return n.notNode
}

// If returns the subschema of "if".
func (n *Node) If() *Node {
	if n == nil {
		return nil
	}
	return n.ifNode
}

// Then returns the subschema of "then".
func (n *Node) Then() *Node {
	if n == nil {
		return nil
	}
	return n.thenNode
}

// Else returns the subschema of "else".
func (n *Node) Else() *Node {
	if n == nil {
		return nil
	}
	return n.elseNode
}

// Defs returns the nodes of $defs and definitions.
func (n *Node) Defs() []*Node {
	if n == nil || n.defs == nil {
		return nil
	}
	return append([]*Node(nil), n.defs...)
}
