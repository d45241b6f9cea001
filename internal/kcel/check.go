package kcel

// The checks kube-apiserver v1.37 makes on x-kubernetes-validations when
// a CRD is created or changed (apiextensions validation of the
// openAPIV3Schema, adapted: Apache License 2.0, the Kubernetes Authors):
// every rule and messageExpression compiles in the environment for new
// expressions, and the estimated cost of each (multiplied by how many
// times it may run) and of all together stays within the budgets.

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
)

// Check compiles every rule of the tree below root as the apiserver
// does for a CRD's openAPIV3Schema (root is the root of a resource). Its
// problems point at a rule's "rule" or "messageExpression" (Kind
// KindSchema for what does not compile, KindForbidden for a cost over
// the budget), in the order of the tree.
func Check(root *Node) []Problem {
	c := &check{}
	one := uint64(1)
	c.walk(root, true, &one, 0)
	var out []Problem
	out = append(out, c.out...)
	if c.total > StaticEstimatedCRDCostLimit {
		for _, e := range c.expensive {
			out = append(out, Problem{Pointer: e.ptr, Kind: KindForbidden, Keyword: e.ptr[strings.LastIndexByte(e.ptr, '/')+1:],
				Message: "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"})
		}
		out = append(out, Problem{Pointer: root.Ptr, Kind: KindForbidden, Keyword: "x-kubernetes-validations",
			Message: costMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", c.total, StaticEstimatedCRDCostLimit)})
	}
	return out
}

type ruleCost struct {
	ptr  string
	cost uint64
}

type check struct {
	out       []Problem
	total     uint64
	expensive []ruleCost
}

func (c *check) observe(ptr string, cost uint64) {
	c.total = addSat(c.total, cost)
	if cost < StaticEstimatedCRDCostLimit/100 {
		return
	}
	c.expensive = append(c.expensive, ruleCost{ptr, cost})
	sort.SliceStable(c.expensive, func(i, j int) bool { return c.expensive[i].cost > c.expensive[j].cost })
	if len(c.expensive) > 4 {
		c.expensive = c.expensive[:4]
	}
}

// walk checks the rules of n, whose values may occur card times in an
// object (nil: unbounded).
func (c *check) walk(n *Node, resourceRoot bool, card *uint64, depth int) {
	if n == nil || depth > maxDepth || !n.HasRules() {
		return
	}
	if len(n.rules) > 0 {
		c.rules(n, n.rules, resourceRoot, card)
	}
	for _, a := range n.allOf {
		if len(a.rules) > 0 {
			c.rules(n, a.rules, resourceRoot, card)
		}
	}
	child := childCardinality(n, card)
	names := make([]string, 0, len(n.props))
	for k := range n.props {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		p := n.props[k]
		c.walk(p, p.embedded, child, depth+1)
	}
	if a := n.AdditionalNode(); a != nil {
		c.walk(a, a.embedded, child, depth+1)
	}
	if n.items != nil {
		c.walk(n.items, n.items.embedded, child, depth+1)
	}
}

func (c *check) rules(n *Node, rules []*Rule, resourceRoot bool, card *uint64) {
	declType := SchemaDeclType(n, resourceRoot)
	if declType == nil {
		c.out = append(c.out, Problem{Pointer: pointer.Append(n.Ptr, "x-kubernetes-validations"), Kind: KindSchema, Keyword: "x-kubernetes-validations",
			Message: "internal error: failed to retrieve type information for x-kubernetes-validations"})
		return
	}
	results, envErr := compileRules(n, rules, declType, newEnv)
	if envErr != "" {
		c.out = append(c.out, Problem{Pointer: pointer.Append(n.Ptr, "x-kubernetes-validations"), Kind: KindSchema, Keyword: "x-kubernetes-validations", Message: envErr})
		return
	}
	for _, r := range results {
		rp := pointer.Append(r.rule.Ptr, "rule")
		if r.rule.RuleText == "" {
			continue
		}
		cost := expressionCost(r.maxCost, r.maxCard, card)
		if cost > StaticEstimatedCostLimit {
			c.out = append(c.out, Problem{Pointer: rp, Kind: KindForbidden, Keyword: "rule", SchemaPointer: r.rule.Ptr,
				Message: costMessage("estimated rule cost", cost, StaticEstimatedCostLimit)})
		}
		c.observe(rp, cost)
		if r.err != "" {
			c.out = append(c.out, Problem{Pointer: rp, Kind: KindSchema, Keyword: "rule", SchemaPointer: r.rule.Ptr, Message: r.err})
		}
		mp := pointer.Append(r.rule.Ptr, "messageExpression")
		switch {
		case r.msgErr != "":
			c.out = append(c.out, Problem{Pointer: mp, Kind: KindSchema, Keyword: "messageExpression", SchemaPointer: r.rule.Ptr, Message: r.msgErr})
		case r.msgProgram != nil:
			mcost := r.msgMaxCost // the apiserver does not multiply it by the cardinality
			if mcost > StaticEstimatedCostLimit {
				c.out = append(c.out, Problem{Pointer: mp, Kind: KindForbidden, Keyword: "messageExpression", SchemaPointer: r.rule.Ptr,
					Message: costMessage("estimated messageExpression cost", mcost, StaticEstimatedCostLimit)})
			}
			c.observe(mp, mcost)
		}
	}
}

// childCardinality is how many times a child of n may occur: n's
// count times what n multiplies by (maxItems, maxProperties; 1 for an
// object's properties), unbounded when either is.
func childCardinality(n *Node, card *uint64) *uint64 {
	if card == nil {
		return nil
	}
	var factor *int64
	switch n.typ {
	case "object":
		if n.addl != nil {
			factor = n.maxProperties
		} else {
			one := int64(1)
			factor = &one
		}
	case "array":
		factor = n.maxItems
	default:
		one := int64(1)
		factor = &one
	}
	if factor == nil {
		return nil
	}
	f := uint64(zeroIfNegative(*factor))
	r := mulSat(*card, f)
	return &r
}

func expressionCost(maxCost, maxCard uint64, card *uint64) uint64 {
	if card != nil {
		return mulSat(maxCost, *card)
	}
	return mulSat(maxCost, maxCard)
}

func mulSat(a, b uint64) uint64 {
	if a == 0 {
		return 0
	}
	if math.MaxUint64/a < b {
		return math.MaxUint64
	}
	return a * b
}

func addSat(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

func costMessage(name string, cost, limit uint64) string {
	f := float64(cost) / float64(limit)
	var factor string
	switch {
	case f > 100:
		factor = "more than 100x"
	case f < 1.5:
		factor = fmt.Sprintf("%fx", f)
	default:
		factor = fmt.Sprintf("%.1fx", f)
	}
	return fmt.Sprintf("%s exceeds budget by factor of %s (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)", name, factor)
}
