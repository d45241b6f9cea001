package schema

import "slices"

// ChildNodes returns what the schema says about the value under key of an
// object governed by n, read so that no value the schema accepts is ruled
// out (Child picks one node; an edit that types text must weigh them all).
//
// nodes are every node that governs the value in some reading of the
// schema, each once, in this order: the property, the matching
// patternProperties or else the additionalProperties of n and of what
// $ref and allOf bring in (all of which apply to the value); then those of
// each branch of anyOf, oneOf and if's then/else that allows the key (at
// least one branch of each applies); then those of if, which tests the
// value without constraining it. open is true when some reading says
// nothing about the key (no properties, patterns or additionalProperties
// for it there), so that any value may do as far as the key's own schema
// goes.
//
// The schema refuses every value under key exactly when nodes is empty and
// open is false: a false property or additionalProperties in n, $ref or
// allOf, or in every branch of one anyOf, oneOf or then/else. A nil n says
// nothing: (nil, true). Branches nest at most 8 deep, and a node met a
// second time in one lookup counts as saying nothing (open).
func (n *Node) ChildNodes(key string) (nodes []*Node, open bool) {
	nodes, open, _ = n.governing(func(m *Node) []*Node { return m.ownChild(key) }, 0, nil)
	return nodes, open
}

// ElemNodes is ChildNodes for element i of an array governed by n:
// prefixItems (or items as an array), else additionalItems or items, of n
// and what $ref and allOf bring in, then of the branches.
func (n *Node) ElemNodes(i int) (nodes []*Node, open bool) {
	nodes, open, _ = n.governing(func(m *Node) []*Node { return m.ownElem(i) }, 0, nil)
	return nodes, open
}

// ownChild lists the nodes of m itself (not its $ref or allOf) that govern
// the value under key: the property and every matching pattern, else
// additionalProperties; nil when m says nothing about key.
func (m *Node) ownChild(key string) []*Node {
	var out []*Node
	if p := m.props[key]; p != nil {
		out = append(out, p)
	}
	for i, re := range m.patterns {
		if re != nil && re.MatchString(key) {
			out = append(out, m.patternProperties[i])
		}
	}
	if len(out) == 0 && m.additionalProperties != nil {
		out = append(out, m.additionalProperties)
	}
	return out
}

// ownElem lists the node of m itself that governs element i, or nil.
func (m *Node) ownElem(i int) []*Node {
	switch {
	case i < len(m.prefixItems):
		return []*Node{m.prefixItems[i]}
	case len(m.prefixItems) > 0 && m.additionalItems != nil:
		return []*Node{m.additionalItems}
	case m.items != nil:
		return []*Node{m.items}
	}
	return nil
}

// governing collects, for ChildNodes and ElemNodes, the nodes that own
// gives in n's scope and in its branches; forbidden reports that n allows
// no value there. seen holds the nodes already looked into by this lookup.
func (n *Node) governing(own func(*Node) []*Node, depth int, seen map[*Node]bool) (nodes []*Node, open, forbidden bool) {
	if n == nil || depth > 8 || seen[n] {
		return nil, true, false
	}
	if n.IsFalse() {
		return nil, false, true
	}
	for _, m := range n.scope {
		for _, c := range own(m) {
			if c.IsFalse() {
				return nil, false, true
			}
			nodes = appendNode(nodes, c)
		}
	}
	own0 := len(nodes)
	// open as the groups go: every group has a branch that says nothing.
	groupsOpen := true
	var tests []*Node
	for _, m := range n.scope {
		if !m.branched() && m.ifNode == nil {
			continue
		}
		if seen == nil {
			seen = map[*Node]bool{}
		}
		seen[n] = true
		groups := [][]*Node{m.anyOf, m.oneOf}
		if m.ifNode != nil && (m.thenNode != nil || m.elseNode != nil) {
			// A missing then or else is a branch that allows everything.
			groups = append(groups, []*Node{m.thenNode, m.elseNode})
		}
		for _, g := range groups {
			if len(g) == 0 {
				continue
			}
			allowed, gopen := false, false
			for _, b := range g {
				if b == nil {
					allowed, gopen = true, true
					continue
				}
				bn, bo, bf := b.governing(own, depth+1, seen)
				if bf {
					continue
				}
				allowed, gopen = true, gopen || bo
				nodes = appendNode(nodes, bn...)
			}
			if !allowed {
				return nil, false, true
			}
			groupsOpen = groupsOpen && gopen
		}
		if m.ifNode != nil {
			if in, _, inf := m.ifNode.governing(own, depth+1, seen); !inf {
				tests = append(tests, in...)
			}
		}
	}
	// A reading takes n's own nodes and one branch of each group: it says
	// nothing when n's own say nothing and so does its branch of each.
	open = own0 == 0 && groupsOpen
	nodes = appendNode(nodes, tests...)
	return nodes, open, false
}

// appendNode appends the nodes of add not yet in l.
func appendNode(l []*Node, add ...*Node) []*Node {
	for _, a := range add {
		if !slices.Contains(l, a) {
			l = append(l, a)
		}
	}
	return l
}
