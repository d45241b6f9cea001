package kcel

import (
	"encoding/json"
	"strconv"

	"github.com/paramkit/paramkit/internal/pointer"
)

// Node is one node of a structural schema as CEL sees it, read from a
// plain schema document (maps, slices, json.Number numbers). It
// implements Schema. Keywords the apiserver's structural schemas do not
// have ($ref, oneOf, anyOf, not) are ignored: a node reached only through
// them has no CEL type.
type Node struct {
	// Ptr is the node's JSON pointer in the document read.
	Ptr string

	typ, format    string
	nullable       bool
	items          *Node
	properties     map[string]Schema
	props          map[string]*Node
	addl           *addlProps
	def            any
	hasDefault     bool
	required       []string
	enum           []any
	pattern        string
	maxItems       *int64
	maxLength      *int64
	maxProperties  *int64
	minItems       *int64
	minLength      *int64
	minProperties  *int64
	uniqueItems    bool
	intOrString    bool
	embedded       bool
	preserve       bool
	listType       string
	listMapKeys    []string
	mapType        string
	rules          []*Rule
	allOf          []*Node
	allOfSchemas   []Schema
	secret         bool
	withMetaCached Schema
}

// Rule is one x-kubernetes-validations entry.
type Rule struct {
	// Ptr is the rule's JSON pointer in the document read.
	Ptr               string
	RuleText          string
	MessageText       string
	MessageExpr       string
	Reason            string
	FieldPathText     string
	OptionalOldSelf   bool
	HasReason         bool
	OptionalOldSelfOK bool // optionalOldSelf was given (true or false)
}

// Rule, Message, MessageExpression and FieldPath make Rule a ValidationRule.
func (r *Rule) Rule() string              { return r.RuleText }
func (r *Rule) Message() string           { return r.MessageText }
func (r *Rule) MessageExpression() string { return r.MessageExpr }
func (r *Rule) FieldPath() string         { return r.FieldPathText }

type addlProps struct {
	schema *Node
	allows bool
}

func (a *addlProps) Schema() Schema {
	if a.schema == nil {
		return nil
	}
	return a.schema
}
func (a *addlProps) Allows() bool { return a.allows }

// Read reads the structural schema of a document rooted at ptr (its
// pointer in the whole document, for Node.Ptr and Rule.Ptr). Nodes that
// are not objects read as empty nodes; Read never fails.
func Read(doc any, ptr string) *Node {
	return read(doc, ptr, 0)
}

const maxDepth = 200

func read(doc any, ptr string, depth int) *Node {
	n := &Node{Ptr: ptr}
	m, ok := doc.(map[string]any)
	if !ok || depth > maxDepth {
		return n
	}
	switch t := m["type"].(type) {
	case string:
		n.typ = t
	case []any:
		for _, e := range t {
			if s, _ := e.(string); s == "null" {
				n.nullable = true
			} else if n.typ == "" {
				n.typ = s
			}
		}
	}
	n.format, _ = m["format"].(string)
	if b, _ := m["nullable"].(bool); b {
		n.nullable = true
	}
	if wo, _ := m["writeOnly"].(bool); wo || n.format == "password" {
		n.secret = true
	}
	if it, ok := m["items"].(map[string]any); ok {
		n.items = read(it, pointer.Append(ptr, "items"), depth+1)
	}
	if ps, ok := m["properties"].(map[string]any); ok {
		n.props = map[string]*Node{}
		n.properties = map[string]Schema{}
		for k, v := range ps {
			c := read(v, pointer.Append(pointer.Append(ptr, "properties"), k), depth+1)
			n.props[k] = c
			n.properties[k] = c
		}
	}
	switch a := m["additionalProperties"].(type) {
	case bool:
		n.addl = &addlProps{allows: a}
	case map[string]any:
		n.addl = &addlProps{allows: true, schema: read(a, pointer.Append(ptr, "additionalProperties"), depth+1)}
	}
	n.def, n.hasDefault = m["default"]
	if rs, ok := m["required"].([]any); ok {
		for _, r := range rs {
			if s, ok := r.(string); ok {
				n.required = append(n.required, s)
			}
		}
	}
	n.enum, _ = m["enum"].([]any)
	n.pattern, _ = m["pattern"].(string)
	n.maxItems = intOf(m["maxItems"])
	n.maxLength = intOf(m["maxLength"])
	n.maxProperties = intOf(m["maxProperties"])
	n.minItems = intOf(m["minItems"])
	n.minLength = intOf(m["minLength"])
	n.minProperties = intOf(m["minProperties"])
	n.uniqueItems, _ = m["uniqueItems"].(bool)
	n.intOrString, _ = m["x-kubernetes-int-or-string"].(bool)
	n.embedded, _ = m["x-kubernetes-embedded-resource"].(bool)
	n.preserve, _ = m["x-kubernetes-preserve-unknown-fields"].(bool)
	n.listType, _ = m["x-kubernetes-list-type"].(string)
	if ks, ok := m["x-kubernetes-list-map-keys"].([]any); ok {
		for _, k := range ks {
			if s, ok := k.(string); ok {
				n.listMapKeys = append(n.listMapKeys, s)
			}
		}
	}
	n.mapType, _ = m["x-kubernetes-map-type"].(string)
	if vs, ok := m["x-kubernetes-validations"].([]any); ok {
		vptr := pointer.Append(ptr, "x-kubernetes-validations")
		for i, v := range vs {
			rm, ok := v.(map[string]any)
			if !ok {
				continue
			}
			r := &Rule{Ptr: pointer.Append(vptr, strconv.Itoa(i))}
			r.RuleText, _ = rm["rule"].(string)
			r.MessageText, _ = rm["message"].(string)
			r.MessageExpr, _ = rm["messageExpression"].(string)
			r.Reason, r.HasReason = rm["reason"].(string)
			r.FieldPathText, _ = rm["fieldPath"].(string)
			if b, ok := rm["optionalOldSelf"].(bool); ok {
				r.OptionalOldSelf, r.OptionalOldSelfOK = b, true
			}
			n.rules = append(n.rules, r)
		}
	}
	if all, ok := m["allOf"].([]any); ok {
		for i, a := range all {
			c := read(a, pointer.Append(pointer.Append(ptr, "allOf"), strconv.Itoa(i)), depth+1)
			n.allOf = append(n.allOf, c)
			n.allOfSchemas = append(n.allOfSchemas, c)
		}
	}
	return n
}

func intOf(v any) *int64 {
	num, ok := v.(json.Number)
	if !ok {
		return nil
	}
	i, ok := exactInt(num)
	if !ok {
		return nil
	}
	return &i
}

// Rules are the node's x-kubernetes-validations.
func (n *Node) Rules() []*Rule { return n.rules }

// Prop is the node of a declared property, or nil.
func (n *Node) Prop(name string) *Node { return n.props[name] }

// ItemsNode is the node of array items, or nil.
func (n *Node) ItemsNode() *Node { return n.items }

// AdditionalNode is the node of additionalProperties, or nil.
func (n *Node) AdditionalNode() *Node {
	if n.addl == nil {
		return nil
	}
	return n.addl.schema
}

// AllOfNodes are the nodes of allOf.
func (n *Node) AllOfNodes() []*Node { return n.allOf }

// ListType, ListMapKeys and Secret give what their keywords say.
func (n *Node) ListType() string      { return n.listType }
func (n *Node) ListMapKeys() []string { return n.listMapKeys }

// Secret reports whether the node is writeOnly or format password.
func (n *Node) Secret() bool { return n.secret }

// HasRules reports whether the node or any below it carries
// x-kubernetes-validations.
func (n *Node) HasRules() bool {
	if n == nil {
		return false
	}
	if len(n.rules) > 0 || n.items.HasRules() || n.AdditionalNode().HasRules() {
		return true
	}
	for _, p := range n.props {
		if p.HasRules() {
			return true
		}
	}
	for _, a := range n.allOf {
		if a.HasRules() {
			return true
		}
	}
	return false
}

// Schema interface.

func (n *Node) Type() string                  { return n.typ }
func (n *Node) Format() string                { return n.format }
func (n *Node) Properties() map[string]Schema { return n.properties }
func (n *Node) Default() any                  { return n.def }
func (n *Node) Pattern() string               { return n.pattern }
func (n *Node) Minimum() *float64             { return nil }
func (n *Node) IsExclusiveMinimum() bool      { return false }
func (n *Node) Maximum() *float64             { return nil }
func (n *Node) IsExclusiveMaximum() bool      { return false }
func (n *Node) MultipleOf() *float64          { return nil }
func (n *Node) MinItems() *int64              { return n.minItems }
func (n *Node) MaxItems() *int64              { return n.maxItems }
func (n *Node) MinLength() *int64             { return n.minLength }
func (n *Node) MaxLength() *int64             { return n.maxLength }
func (n *Node) MinProperties() *int64         { return n.minProperties }
func (n *Node) MaxProperties() *int64         { return n.maxProperties }
func (n *Node) Required() []string            { return n.required }
func (n *Node) Enum() []any                   { return n.enum }
func (n *Node) Nullable() bool                { return n.nullable }
func (n *Node) UniqueItems() bool             { return n.uniqueItems }
func (n *Node) AllOf() []Schema               { return n.allOfSchemas }
func (n *Node) OneOf() []Schema               { return nil }
func (n *Node) AnyOf() []Schema               { return nil }
func (n *Node) Not() Schema                   { return nil }
func (n *Node) IsXIntOrString() bool          { return n.intOrString }
func (n *Node) IsXEmbeddedResource() bool     { return n.embedded }
func (n *Node) IsXPreserveUnknownFields() bool {
	return n.preserve
}
func (n *Node) XListType() string      { return n.listType }
func (n *Node) XListMapKeys() []string { return n.listMapKeys }
func (n *Node) XMapType() string       { return n.mapType }

// XValidations gives the rules as ValidationRules.
func (n *Node) XValidations() []ValidationRule {
	out := make([]ValidationRule, len(n.rules))
	for i, r := range n.rules {
		out[i] = r
	}
	return out
}

// Items gives the items node as a Schema (nil when absent).
func (n *Node) Items() Schema {
	if n.items == nil {
		return nil
	}
	return n.items
}

// AdditionalProperties gives additionalProperties (nil when absent).
func (n *Node) AdditionalProperties() SchemaOrBool {
	if n.addl == nil {
		return nil
	}
	return n.addl
}

// WithTypeAndObjectMeta is the node with apiVersion, kind and
// metadata.name and metadata.generateName declared, as the root of a
// resource is seen by CEL.
func (n *Node) WithTypeAndObjectMeta() Schema {
	if n.withMetaCached != nil {
		return n.withMetaCached
	}
	has := func(p *Node, name, typ string) bool {
		c := p.props[name]
		return c != nil && c.typ == typ
	}
	if has(n, "kind", "string") && has(n, "apiVersion", "string") && has(n, "metadata", "object") &&
		has(n.props["metadata"], "name", "string") && has(n.props["metadata"], "generateName", "string") {
		return n
	}
	c := *n
	c.props = map[string]*Node{}
	c.properties = map[string]Schema{}
	for k, v := range n.props {
		c.props[k] = v
		c.properties[k] = v
	}
	str := func() *Node { return &Node{typ: "string"} }
	meta := &Node{typ: "object", props: map[string]*Node{"name": str(), "generateName": str()}}
	meta.properties = map[string]Schema{"name": meta.props["name"], "generateName": meta.props["generateName"]}
	for k, v := range map[string]*Node{"kind": str(), "apiVersion": str(), "metadata": meta} {
		c.props[k] = v
		c.properties[k] = v
	}
	c.withMetaCached = nil
	n.withMetaCached = &c
	return &c
}
