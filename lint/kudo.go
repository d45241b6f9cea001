package lint

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/paramkit/paramkit/internal/keyword"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/suggest"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/trigger"
)

// kudoSet checks the KUDO vocabulary of KEP-33 (trigger, immutable, oldName)
// and parameter hygiene: defaults that fail their own schema, required
// properties that can never be given, misspelt keywords.
var kudoSet = &Set{
	Name: "kudo",
	Doc:  "KUDO KEP-33 vocabulary (trigger, immutable, oldName) and parameter hygiene",
}

func init() {
	kudoSet.Rules = []*Rule{
		schemaCompile,
		kudoParams,
		{ID: "kudo-trigger-conflict", Severity: Error, Run: kudoTriggerConflict,
			Doc: "no node names a different plan than the trigger it inherits, also through $ref (the same plan repeated is fine; trigger.New, needs a schema that compiles)"},
		{ID: "kudo-keyword-placement", Severity: Warning, Run: kudoPlacement,
			Doc: "trigger, immutable and oldName stand where they act: on a parameter (not under not/if/contains, not on an anyOf/oneOf subschema, not in an unused definition); oldName not under items or additionalProperties"},
		{ID: "kudo-immutable-override", Severity: Warning, Run: kudoImmutableOverride,
			Doc: "immutable: false under an immutable ancestor has no effect: immutability covers the whole subtree"},
		{ID: "kudo-oldname-duplicate", Severity: Error, Run: kudoOldNameDuplicate,
			Doc: "each old name is claimed once: two claims would migrate one old value into two places"},
		{ID: "kudo-default-invalid", Severity: Error, Run: kudoDefaultInvalid,
			Doc: "a default satisfies its own node's schema (needs a schema that compiles)"},
		{ID: "kudo-enum-default", Severity: Error, Run: kudoEnumDefault,
			Doc: "a default is one of the node's enum values"},
		{ID: "kudo-required", Severity: Error, Run: kudoRequired,
			Doc: "every required property can be given: an error where the object forbids it (additionalProperties: false, a false schema), a warning where it is not declared (a misspelling?)"},
		{ID: "kudo-misspelt-keyword", Severity: Warning, Run: kudoMisspelt,
			Doc: "no unknown keyword that looks like a misspelt known one (trigers, imutable, oldname, descripton)"},
	}
	kudoSet.Rules = append(kudoSet.Rules, packageRules...)
	for _, r := range kudoSet.Rules {
		if r.Set == "" {
			r.Set = kudoSet.Name
			// These two need the compiled schema; the others read the document.
			r.DocOnly = r.ID != "kudo-default-invalid" && r.ID != "kudo-trigger-conflict"
		}
	}
}

// Value keywords: their subschemas describe values inside the value.
var valueKeywords = map[string]bool{
	"properties": true, "patternProperties": true, "additionalProperties": true,
	"items": true, "prefixItems": true, "additionalItems": true,
}

// walkActing visits the nodes where the KUDO keywords act, following the
// value structure from the root: value keywords lead to a parameter, $ref
// and allOf bring more keywords for the same value, anyOf/oneOf subschemas
// do not act themselves (which one governs is not known) but the
// properties inside them do. fn gets the node, whether it acts, the state
// and the context its parent passed on, and the edge that led here (a
// keyword, "$ref", or "" at the root); what it returns is passed on to the
// node's children. A node is visited once per edge and state: the context
// (where an inherited value was written, say) does not make it visit
// again, so shared definitions cost once per state, never once per path.
func walkActing[S comparable, C any](v *view, start S, ctx C, fn func(n *snode, acts bool, st S, ctx C, edge string) (S, C)) {
	type key struct {
		n    *snode
		acts bool
		st   S
		edge string
	}
	seen := make(map[key]bool, len(v.nodes))
	var walk func(n *snode, acts bool, st S, ctx C, edge string, depth int)
	walk = func(n *snode, acts bool, st S, ctx C, edge string, depth int) {
		k := key{n, acts, st, edge}
		if n == nil || n.m == nil || seen[k] || depth > 200 {
			return
		}
		seen[k] = true
		next, nctx := fn(n, acts, st, ctx, edge)
		if n.ref != nil {
			walk(n.ref, acts, next, nctx, "$ref", depth+1)
		}
		for _, c := range n.kids {
			switch {
			case c.via == "allOf":
				walk(c, acts, next, nctx, c.via, depth+1)
			case c.via == "anyOf" || c.via == "oneOf":
				walk(c, false, next, nctx, c.via, depth+1)
			case valueKeywords[c.via]:
				walk(c, true, next, nctx, c.via, depth+1)
			}
		}
	}
	walk(v.root, true, start, ctx, "", 0)
}

func kudoTriggerConflict(p *Pass) {
	if p.Schema == nil {
		return
	}
	_, err := trigger.New(p.Schema)
	for _, c := range schema.ErrorsOf(err) {
		if c.Kind != schema.KindConflict || c.Detail == nil || len(c.Detail.Plans) < 2 {
			continue
		}
		p.Report(pointer.Append(c.Pointer, "trigger"), fmt.Sprintf("trigger %q conflicts with trigger %q at %s: a node inherits its ancestor's plan and may only repeat it",
			c.Detail.Plans[0], c.Detail.Plans[1], pointer.Append(c.Detail.Other, "trigger")))
	}
}

func kudoPlacement(p *Pass) {
	v := p.view()
	acting := make([]bool, len(v.nodes)) // by snode.idx
	fixed := make([]bool, len(v.nodes))  // reached on a path of properties: one place for an old value
	walkActing(v, true, struct{}{}, func(n *snode, acts bool, fixedAbove bool, _ struct{}, edge string) (bool, struct{}) {
		f := fixedAbove
		switch edge {
		case "items", "prefixItems", "additionalItems", "additionalProperties", "patternProperties":
			f = false
		}
		if acts {
			acting[n.idx] = true
			if f {
				fixed[n.idx] = true
			}
		}
		return f, struct{}{}
	})
	for _, n := range v.nodes {
		for _, k := range []string{"trigger", "immutable", "oldName"} {
			if !n.has(k) {
				continue
			}
			if !acting[n.idx] {
				p.Report(n.kw(k), fmt.Sprintf("%s has no effect here: %s", k, whyNotActing(n)))
				continue
			}
			if k == "oldName" && !fixed[n.idx] {
				p.Report(n.kw(k), "oldName has no effect here: an old value cannot be placed under items, additionalProperties or patternProperties, which have no single place")
			}
		}
	}
}

func whyNotActing(n *snode) string {
	for m := n; m != nil; m = m.parent {
		switch {
		case constraintKeywords[m.via]:
			return fmt.Sprintf("it stands under %q, which only constrains values", m.via)
		case m.via == "anyOf" || m.via == "oneOf":
			return fmt.Sprintf("it stands on an %s subschema; put it on the property that holds the %s", m.via, m.via)
		case (m.via == "$defs" || m.via == "definitions") && m.uses == 0:
			return fmt.Sprintf("it stands in the definition %q, which no $ref uses", m.name)
		}
	}
	return "no parameter value is governed by this node"
}

func kudoImmutableOverride(p *Pass) {
	// State: under an immutable node; context: which.
	walkActing(p.view(), false, "", func(n *snode, acts bool, under bool, at string, _ string) (bool, string) {
		b, ok := n.m["immutable"].(bool)
		switch {
		case !ok || !acts:
		case !b && under:
			p.Report(n.kw("immutable"), fmt.Sprintf("immutable: false has no effect: %s is immutable and that covers everything under it", at))
		case b && !under:
			return true, n.ptr
		}
		return under, at
	})
}

func kudoOldNameDuplicate(p *Pass) {
	first := map[string]string{} // old name -> pointer of its first claim
	for _, n := range p.view().nodes {
		var claims []struct{ name, ptr string }
		switch o := n.m["oldName"].(type) {
		case string:
			claims = append(claims, struct{ name, ptr string }{o, n.kw("oldName")})
		case []any:
			for i, x := range o {
				if s, ok := x.(string); ok {
					claims = append(claims, struct{ name, ptr string }{s, pointer.AppendIndex(n.kw("oldName"), i)})
				}
			}
		}
		for _, c := range claims {
			if c.name == "" {
				continue
			}
			if at, dup := first[c.name]; dup {
				p.Report(c.ptr, fmt.Sprintf("old name %q is already claimed at %s: one old value can migrate to one place only", c.name, at))
				continue
			}
			first[c.name] = c.ptr
		}
	}
}

func kudoDefaultInvalid(p *Pass) {
	if p.Schema == nil {
		return
	}
	for _, n := range p.view().valueNodes() {
		d, ok := n.m["default"]
		if !ok {
			continue
		}
		err := p.Schema.ValidateAt(n.ptr, d)
		ve := schema.ErrorsOf(err)
		if len(ve) == 0 || ve[0].Kind == schema.KindNotFound || ve[0].Kind == schema.KindUsage || ve[0].Kind == schema.KindSchema {
			continue // valid, or no compiled subschema here
		}
		var reasons []string
		for _, e := range ve {
			if e.Detail != nil && e.Detail.SchemaPointer == n.kw("enum") {
				continue // kudo-enum-default says it better
			}
			r := e.Message
			if e.Pointer != "" {
				r = e.Pointer + ": " + r
			}
			reasons = append(reasons, r)
		}
		if len(reasons) > 3 {
			reasons = append(reasons[:3], fmt.Sprintf("and %d more", len(reasons)-3))
		}
		if len(reasons) > 0 {
			p.Report(n.kw("default"), fmt.Sprintf("the default %s does not satisfy its own schema: %s", compactSecret(p.Schema, n.ptr, d), strings.Join(reasons, "; ")))
		}
	}
}

func kudoEnumDefault(p *Pass) {
	for _, n := range p.view().valueNodes() {
		d, ok := n.m["default"]
		if !ok {
			continue
		}
		ev, _ := n.eff("enum")
		enum, ok := ev.([]any)
		if !ok {
			continue
		}
		found := false
		for _, e := range enum {
			if value.Equal(e, d) {
				found = true
				break
			}
		}
		if !found {
			p.Report(n.kw("default"), fmt.Sprintf("the default %s is not one of the enum values %s: add it to the enum or change the default", compact(d), compact(enum)))
		}
	}
}

// objectScopes returns the nodes whose properties apply to the object a
// node's "required" speaks of: the node's scope, and for a subschema
// (allOf, anyOf, oneOf, then, else, dependentSchemas) its parent's too.
func objectScopes(n *snode) []*snode {
	var out []*snode
	for m := n; m != nil; m = m.parent {
		m.scope(func(s *snode) bool {
			out = append(out, s)
			return true
		})
		switch m.via {
		case "allOf", "anyOf", "oneOf", "then", "else", "dependentSchemas":
			continue
		}
		break
	}
	return out
}

func kudoRequired(p *Pass) {
	for _, n := range p.view().nodes {
		req, ok := n.m["required"].([]any)
		if !ok || n.constraintOnlyExcept("then", "else", "dependentSchemas") {
			continue
		}
		scopes := objectScopes(n)
		for i, r := range req {
			name, ok := r.(string)
			if !ok {
				continue
			}
			at := pointer.AppendIndex(n.kw("required"), i)
			var prop *snode
			closed := false
			for _, s := range scopes {
				if c := s.child("properties", name); c != nil {
					prop = c
					break
				}
				for _, c := range s.kids {
					if c.via == "patternProperties" && matches(c.name, name) {
						prop = c
						break
					}
				}
				if prop != nil {
					break
				}
				if ap, ok := s.m["additionalProperties"]; ok {
					if ap == false {
						closed = true
					} else {
						prop = s.child("additionalProperties", "")
						break
					}
				}
			}
			switch {
			case prop != nil && prop.m == nil:
				if b, _ := valueAt(p.Doc, prop.ptr).(bool); !b {
					p.Report(at, fmt.Sprintf("%q is required but its schema (%s) is false: it can never be given", name, prop.ptr))
				}
			case prop != nil:
			case closed:
				p.Report(at, fmt.Sprintf("%q is required but not declared, and additionalProperties is false: it can never be given; declare it or fix the name", name))
			default:
				p.ReportSeverity(Warning, at, fmt.Sprintf("%q is required but not declared in properties: declare it or fix the name", name))
			}
		}
	}
}

// constraintOnlyExcept is constraintOnly, not counting the given keywords.
func (n *snode) constraintOnlyExcept(allowed ...string) bool {
	for m := n; m != nil; m = m.parent {
		if constraintKeywords[m.via] && !hasString(allowed, m.via) {
			return true
		}
	}
	return false
}

func hasString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func matches(pattern, s string) bool {
	re, err := regexp.Compile(pattern)
	return err == nil && re.MatchString(s)
}

func valueAt(doc any, ptr string) any {
	v, _ := pointer.Get(doc, ptr)
	return v
}

// knownKeywords are the keywords paramkit knows (internal/keyword): JSON
// Schema draft-04 to 2020-12 but draft-04's "id", the KUDO vocabulary and
// the OpenAPI and Kubernetes keywords schemas carry.
var knownKeywords = keyword.Known()

var knownSet = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range knownKeywords {
		m[k] = true
	}
	return m
}()

func kudoMisspelt(p *Pass) {
	draft4 := p.dialect() == "http://json-schema.org/draft-04/schema#"
	for _, n := range p.view().nodes {
		for _, k := range n.keys {
			if knownSet[k] || strings.HasPrefix(k, "x-") || (draft4 && k == "id") {
				continue
			}
			if s := suggestKeyword(k); s != "" {
				p.Report(n.kw(k), fmt.Sprintf("unknown keyword %q: did you mean %q?", k, s))
			}
		}
	}
}

// suggestKeyword returns the known keyword an unknown one is likely a
// misspelling of, or "".
func suggestKeyword(k string) string {
	var best string
	bestD := 3
	for _, known := range knownKeywords {
		if strings.EqualFold(k, known) || strings.EqualFold("$"+k, known) {
			return known
		}
		if len(known) < 5 {
			continue // too short to guess from
		}
		max := 1
		if len(known) >= 7 {
			max = 2
		}
		if abs(len(k)-len(known)) > max {
			continue // the distance is at least the difference in length
		}
		d := suggest.Distance(strings.ToLower(k), strings.ToLower(known))
		if d <= max && d < bestD {
			best, bestD = known, d
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
