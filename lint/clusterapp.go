package lint

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// clusterAppSet is the rule set of the Giant Swarm RFC "Basic requirements
// for cluster app values schema" (R1 to R18), to the letter: every MUST is
// an error, every SHOULD a warning. Rule ids start with the requirement id.
// A "property" is a schema under properties or patternProperties, or an
// additionalProperties schema; array items are not properties. Schemas
// under not, if/then/else, contains, propertyNames and dependentSchemas
// only constrain and are not checked as properties. A title or
// description given at a $ref or at its target both count; what a shared
// definition lacks is reported once, at the definition.
var clusterAppSet = &Set{
	Name: "cluster-app",
	Doc:  "Giant Swarm cluster-app values schema RFC, requirements R1 to R18",
}

// Draft2020 is the dialect R1 requires.
const draft2020 = "https://json-schema.org/draft/2020-12/schema"

func init() {
	clusterAppSet.Rules = []*Rule{
		schemaCompile,
		{ID: "R1-dialect", Severity: Error, Run: r1Dialect,
			Doc: "the root $schema is https://json-schema.org/draft/2020-12/schema"},
		{ID: "R2-type", Severity: Error, Run: r2Type,
			Doc: "the root and every property declare a type (through $ref counts)"},
		{ID: "R2-single-type", Severity: Error, Run: r2SingleType,
			Doc: "type holds a single value (a list of one is fine)"},
		{ID: "R3-root-closed", Severity: Error, Run: r3RootClosed,
			Doc: "the root sets additionalProperties: false (whether every allowed property is covered cannot be checked by a program)"},
		{ID: "R3-closed", Severity: Warning, Run: r3Closed,
			Doc: "deeper objects set additionalProperties: false, or give a schema for the values of a map"},
		{ID: "R4-items", Severity: Error, Run: r4Items,
			Doc: "every array defines its items schema with items"},
		{ID: "R5-title", Severity: Error, Run: r5Title,
			Doc: "every property has a title, at the property or at the definition it refers to"},
		{ID: "R5-title-case", Severity: Error, Run: r5TitleCase,
			Doc: "titles use sentence case (proper nouns cannot all be recognised: acronyms, words with inner capitals and a few common names are accepted)"},
		{ID: "R5-title-characters", Severity: Error, Run: r5TitleCharacters,
			Doc: "titles hold no punctuation marks (hyphens and slashes inside words join words), leading or trailing white space, control characters, tabs or repeated white space"},
		{ID: "R5-title-parent", Severity: Warning, Run: r5TitleParent,
			Doc: "a property's title does not repeat the title of the object it belongs to"},
		{ID: "R6-description", Severity: Warning, Run: r6Description,
			Doc: "every property has a description, at the property or at the definition it refers to"},
		{ID: "R6-description-line-breaks", Severity: Error, Run: r6DescriptionLineBreaks,
			Doc: "descriptions hold no line breaks"},
		{ID: "R6-description-characters", Severity: Error, Run: r6DescriptionCharacters,
			Doc: "descriptions hold no Markdown or HTML, leading or trailing white space, control characters, tabs or repeated white space"},
		{ID: "R6-description-case", Severity: Error, Run: r6DescriptionCase,
			Doc: "descriptions are sentences: a capital first letter and closing punctuation (whether the language is simple cannot be checked by a program)"},
		{ID: "R6-description-title", Severity: Warning, Run: r6DescriptionTitle,
			Doc: "a description does not repeat the property's title or (identifier-like) name"},
		{ID: "R6-description-length", Severity: Warning, Run: r6DescriptionLength,
			Doc: "descriptions are 50 to 200 characters long"},
		{ID: "R7-examples", Severity: Warning, Run: r7Examples,
			Doc: "string properties restricted by pattern or format give at least one example"},
		{ID: "R7-examples-count", Severity: Warning, Run: r7ExamplesCount,
			Doc: "a property gives at most five examples"},
		{ID: "R7-examples-valid", Severity: Warning, Run: r7ExamplesValid,
			Doc: "examples satisfy the property's own schema (needs a schema that compiles)"},
		{ID: "R8-string-constraint", Severity: Warning, Run: r8StringConstraint,
			Doc: "string properties are constrained by const, enum, pattern, minLength, maxLength or format (or by branches that each set one)"},
		{ID: "R8-number-constraint", Severity: Warning, Run: r8NumberConstraint,
			Doc: "number and integer properties are constrained by minimum, exclusiveMinimum, maximum or exclusiveMaximum (const and enum constrain more and count too)"},
		{ID: "R9-required-default", Severity: Error, Run: r9RequiredDefault,
			Doc: "a property with a default is not required (whether the creator must set a property, or an external mechanism defaults it, cannot be checked by a program)"},
		{ID: "R10-subschemas", Severity: Error, Run: r10Subschemas,
			Doc: "anyOf/oneOf subschemas only add validation constraints (no type, title, description, examples, properties, patternProperties, additionalProperties, items, additionalItems), unless all but one are deprecated; labelled values (R12: title with const) are allowed"},
		{ID: "R11-deprecated-comment", Severity: Warning, Run: r11DeprecatedComment,
			Doc: "a deprecated property carries a $comment saying what replaces it and when it goes (whether a property is meant to be phased out cannot be checked by a program)"},
		{ID: "R12-labelled-values", Severity: Warning, Run: r12LabelledValues,
			Doc: "a oneOf of const values gives each a title as its label (whether a string has only a few valid values cannot be checked by a program)"},
		{ID: "R13-recursion", Severity: Error, Run: r13Recursion,
			Doc: "$dynamicRef, $dynamicAnchor and $recursiveRef are not used"},
		{ID: "R13-ref-cycle", Severity: Warning, Run: r13RefCycle,
			Doc: "no $ref leads back into itself (the same recursion the RFC avoids, spelled with $ref; the RFC's MUST names only the keywords)"},
		{ID: "R14-conditionals", Severity: Error, Run: keywordsRule("do not use %s: the RFC forbids if/then/else", "if", "then", "else"),
			Doc: "if, then and else are not used"},
		{ID: "R15-unevaluated", Severity: Error, Run: keywordsRule("do not use %s", "unevaluatedProperties", "unevaluatedItems"),
			Doc: "unevaluatedProperties and unevaluatedItems are not used"},
		{ID: "R16-items-type", Severity: Error, Run: r16ItemsType,
			Doc: "all items of an array have the same type: the items schema declares a single type"},
		{ID: "R16-tuples", Severity: Error, Run: r16Tuples,
			Doc: "contains, additionalItems and prefixItems (or items as a list) are not used"},
		{ID: "R17-root-properties", Severity: Error, Run: r17RootProperties,
			Doc: "the root offers metadata, connectivity and controlPlane (objects) and nodePools (array or object)"},
		{ID: "R17-root-recommended", Severity: Warning, Run: r17RootRecommended,
			Doc: "the root offers internal and providerSpecific (objects)"},
		{ID: "R17-root-unknown", Severity: Error, Run: r17RootUnknown,
			Doc: "the root defines no property beyond the required, recommended and compatibility ones"},
		{ID: "R18-empty-default", Severity: Error, Run: r18EmptyDefault,
			Doc: "a default is not the empty value of its type (false, \"\", 0, [], {})"},
	}
	for _, r := range clusterAppSet.Rules {
		if r.Set == "" {
			r.Set = clusterAppSet.Name
			r.DocOnly = r.ID != "R7-examples-valid" // the one that validates with the schema
		}
	}
}

// schemaCompile reports what the engine refuses to compile. It is listed
// in the kudo and cluster-app sets, which read the document as JSON
// Schema.
var schemaCompile = &Rule{
	ID: "schema-compile", Set: "kudo", Severity: Error,
	Doc: "the document compiles as a JSON Schema (draft-04, draft-06, draft-07, 2019-09 or 2020-12) with valid KUDO keywords",
	Run: func(p *Pass) {
		if p.Schema != nil {
			return
		}
		for _, e := range p.compileErrors() {
			p.reportError(e)
		}
	},
}

// property-level helpers

// properties returns the property nodes of the value tree. The list is
// shared by the rules of a run: do not modify it.
func (p *Pass) properties() []*snode {
	v := p.view()
	if v.props == nil {
		v.props = []*snode{}
		for _, n := range v.valueNodes() {
			if n.isProperty() {
				v.props = append(v.props, n)
			}
		}
	}
	return v.props
}

// reportSite reports what a property's schema lacks where that schema is
// defined (see site); format has one %s for the name of that place.
func (p *Pass) reportSite(n *snode, format string) {
	s := n.site()
	p.Report(s.ptr, fmt.Sprintf(format, label(s)))
}

// label names a node for a message.
func label(n *snode) string {
	switch {
	case n.ptr == "":
		return "the root schema"
	case n.isProperty() && n.via != "additionalProperties":
		return fmt.Sprintf("property %q", n.name)
	case n.via == "$defs" || n.via == "definitions":
		return fmt.Sprintf("definition %q", n.name)
	}
	return "this schema"
}

// singleType returns the node's type as a UI would read it: its declared
// type (through $ref and allOf), or, where all but one anyOf/oneOf branch
// is deprecated (R10), the type of the one that is not. owner is the node
// declaring it.
func singleType(n *snode) (types []string, owner *snode) {
	if ts, o := n.types(); o != nil {
		return ts, o
	}
	var found []string
	var fo *snode
	n.scope(func(m *snode) bool {
		for _, via := range []string{"anyOf", "oneOf"} {
			bs := m.branches(via)
			if len(bs) == 0 {
				continue
			}
			var live []*snode
			for _, b := range bs {
				if !deprecated(b) {
					live = append(live, b)
				}
			}
			if len(live) == 1 {
				found, fo = live[0].types()
				if fo != nil {
					return false
				}
			}
		}
		return true
	})
	return found, fo
}

func deprecated(n *snode) bool {
	v, _ := n.eff("deprecated")
	b, _ := v.(bool)
	return b
}

func r1Dialect(p *Pass) {
	root := p.view().root
	if root.m == nil {
		p.Report("", "the schema must be an object with \"$schema\": \""+draft2020+"\"")
		return
	}
	v, ok := root.m["$schema"]
	if !ok {
		p.Report("", "add \"$schema\": \""+draft2020+"\" at the top level")
		return
	}
	if s, _ := v.(string); s != draft2020 {
		p.Report(root.kw("$schema"), fmt.Sprintf("use the dialect %q instead of %s", draft2020, compact(v)))
	}
}

func r2Type(p *Pass) {
	check := func(n *snode) {
		if ts, _ := singleType(n); len(ts) == 0 {
			p.Report(n.ptr, fmt.Sprintf("%s has no type: declare a single type", label(n)))
		}
	}
	if root := p.view().root; root.m != nil {
		check(root)
	}
	for _, n := range p.properties() {
		check(n)
	}
}

func r2SingleType(p *Pass) {
	for _, n := range p.view().valueNodes() {
		if n.isBranch() || n.via == "items" || n.via == "allOf" {
			continue // branches: R10; items: R16; allOf parts add to their parent
		}
		if ts := typeNames(n.m["type"]); len(ts) > 1 {
			p.Report(n.kw("type"), fmt.Sprintf("%s declares %d types %s: declare a single type", label(n), len(ts), compact(n.m["type"])))
		}
	}
}

func r3RootClosed(p *Pass) {
	root := p.view().root
	if root.m == nil {
		return
	}
	v, owner := root.eff("additionalProperties")
	switch {
	case owner == nil:
		p.Report("", "set \"additionalProperties\": false at the top level so that no undefined property is accepted")
	case v != false:
		p.Report(owner.kw("additionalProperties"), "set \"additionalProperties\" to false at the top level so that no undefined property is accepted")
	}
}

func r3Closed(p *Pass) {
	for _, n := range p.view().valueNodes() {
		if n.ptr == "" || n.ownType() != "object" {
			continue
		}
		v, owner := n.eff("additionalProperties")
		switch t := v.(type) {
		case nil:
			if owner == nil {
				p.Report(n.ptr, fmt.Sprintf("%s does not set \"additionalProperties\": set it to false (or to a schema for the values of a map)", label(n)))
			}
		case bool:
			if t {
				p.Report(owner.kw("additionalProperties"), "set \"additionalProperties\" to false (or to a schema for the values of a map) instead of true")
			}
		case map[string]any:
			if len(t) == 0 {
				p.Report(owner.kw("additionalProperties"), "an empty \"additionalProperties\" schema allows anything: set it to false or give the values a schema")
			}
		}
	}
}

func r4Items(p *Pass) {
	for _, n := range p.view().valueNodes() {
		if n.ownType() != "array" {
			continue
		}
		if _, owner := n.eff("items"); owner == nil {
			p.Report(n.ptr, fmt.Sprintf("%s is an array without \"items\": define the schema of its items", label(n)))
		}
	}
}

func r5Title(p *Pass) {
	for _, n := range p.properties() {
		if t, _ := n.eff("title"); t == nil {
			p.reportSite(n, "%s has no title: add a user-friendly \"title\" (here or at the $ref that uses it)")
		}
	}
}

// texts calls fn for every title (or description) of the value tree, at
// the place it is written (n.kw(keyword)), so a shared definition is
// checked once. The labels of R12's labelled values (a oneOf branch with
// const) describe a value, not a property, and are left out.
func (p *Pass) texts(keyword string, fn func(n *snode, text string)) {
	for _, n := range p.view().valueNodes() {
		if n.isBranch() && n.has("const") {
			continue
		}
		if s, ok := n.str(keyword); ok {
			fn(n, s)
		}
	}
}

func r5TitleCase(p *Pass) {
	p.texts("title", func(n *snode, t string) {
		if prob := caseProblem(acceptWords(t, p.words)); prob != "" {
			p.Report(n.kw("title"), fmt.Sprintf("title %q is not in sentence case: %s", t, prob))
		}
	})
}

func r5TitleCharacters(p *Pass) {
	p.texts("title", func(n *snode, t string) {
		if strings.ContainsAny(t, "\n\r") {
			p.Report(n.kw("title"), fmt.Sprintf("title %q holds a line break: write it on one line", t))
			return
		}
		if prob := whitespaceProblem(t); prob != "" {
			p.Report(n.kw("title"), fmt.Sprintf("title %q: %s", t, prob))
			return
		}
		if r, ok := punctuationIn(acceptWords(t, p.words)); ok {
			p.Report(n.kw("title"), fmt.Sprintf("title %q holds the punctuation mark %q: remove it", t, string(r)))
		}
	})
}

// parentTitle returns the title of the object a property belongs to: the
// schema holding it, or the array or map property that schema describes
// the items or values of.
func parentTitle(n *snode) string {
	for o := n.parent; o != nil; o = o.parent {
		if t, ok := o.str("title"); ok {
			return t
		}
		if o.via != "items" && o.via != "additionalProperties" && o.via != "allOf" {
			return ""
		}
	}
	return ""
}

func r5TitleParent(p *Pass) {
	for _, n := range p.properties() {
		t, owner := n.eff("title")
		title, _ := t.(string)
		pt := parentTitle(n)
		if title == "" || pt == "" || !repeats(title, pt) {
			continue
		}
		p.Report(owner.kw("title"), fmt.Sprintf("title %q repeats the title %q of the object it belongs to: leave that part out", title, pt))
	}
}

func r6Description(p *Pass) {
	for _, n := range p.properties() {
		if d, _ := n.eff("description"); d == nil {
			p.reportSite(n, "%s has no description: add a \"description\" (here or at the $ref that uses it)")
		}
	}
}

func r6DescriptionLineBreaks(p *Pass) {
	p.texts("description", func(n *snode, d string) {
		if strings.ContainsAny(d, "\n\r\u2028\u2029") {
			p.Report(n.kw("description"), "the description holds a line break: write it as one line")
		}
	})
}

func r6DescriptionCharacters(p *Pass) {
	p.texts("description", func(n *snode, d string) {
		if m := markupIn(d); m != "" {
			p.Report(n.kw("description"), fmt.Sprintf("the description holds %s: write plain text without formatting", m))
			return
		}
		if strings.ContainsAny(d, "\r\n") {
			d = lineBreaksToSpaces.Replace(d)
		}
		if prob := whitespaceProblem(d); prob != "" {
			p.Report(n.kw("description"), "the description: "+prob)
		}
	})
}

// lineBreaksToSpaces lets whitespaceProblem judge a description whose line
// breaks R6-description-line-breaks reports.
var lineBreaksToSpaces = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

func r6DescriptionCase(p *Pass) {
	p.texts("description", func(n *snode, d string) {
		if strings.TrimSpace(d) == "" {
			p.Report(n.kw("description"), "the description is empty: write a sentence or remove it")
			return
		}
		if !startsSentence(d) {
			p.Report(n.kw("description"), "start the description with a capital letter (sentence case)")
		}
		if !endsSentence(d) {
			p.Report(n.kw("description"), "end the description with a full stop (or other sentence punctuation)")
		}
	})
}

func r6DescriptionTitle(p *Pass) {
	for _, n := range p.properties() {
		dv, downer := n.eff("description")
		d, _ := dv.(string)
		if d == "" {
			continue
		}
		tv, _ := n.eff("title")
		if t, _ := tv.(string); t != "" && repeats(d, t) {
			p.Report(downer.kw("description"), fmt.Sprintf("the description repeats the title %q: say what the property does without naming it", t))
			continue
		}
		if n.via != "additionalProperties" && identifierLike(n.name) && containsIdentifier(d, n.name) {
			p.Report(downer.kw("description"), fmt.Sprintf("the description repeats the property name %q: say what the property does without naming it", n.name))
		}
	}
}

func r6DescriptionLength(p *Pass) {
	p.texts("description", func(n *snode, d string) {
		switch l := utf8.RuneCountInString(d); {
		case l == 0:
		case l < 50:
			p.Report(n.kw("description"), fmt.Sprintf("the description is %d characters long: write 50 to 200", l))
		case l > 200:
			p.Report(n.kw("description"), fmt.Sprintf("the description is %d characters long: write 50 to 200", l))
		}
	})
}

func r7Examples(p *Pass) {
	for _, n := range p.properties() {
		if !n.is("string") {
			continue
		}
		var by string
		if _, o := n.eff("pattern"); o != nil {
			by = "pattern"
		} else if _, o := n.eff("format"); o != nil {
			by = "format"
		} else {
			continue
		}
		if ex, _ := n.eff("examples"); ex == nil {
			p.reportSite(n, "%s is restricted by "+by+": give at least one value in \"examples\"")
		}
	}
}

func r7ExamplesCount(p *Pass) {
	for _, n := range p.view().valueNodes() {
		if ex, ok := n.m["examples"].([]any); ok && len(ex) > 5 {
			p.Report(n.kw("examples"), fmt.Sprintf("%d examples: give at most five, chosen to show the range of values", len(ex)))
		}
	}
}

func r7ExamplesValid(p *Pass) {
	if p.Schema == nil {
		return
	}
	for _, n := range p.view().valueNodes() {
		ex, ok := n.m["examples"].([]any)
		if !ok {
			continue
		}
		for i, e := range ex {
			if err := p.Schema.ValidateAt(n.ptr, e); err != nil {
				p.Report(pointer.AppendIndex(n.kw("examples"), i), fmt.Sprintf("example %s does not satisfy the schema: %s", compactSecret(p.Schema, n.ptr, e), firstReason(err)))
			}
		}
	}
}

// firstReason returns the first validation error as one line.
func firstReason(err error) string {
	if ve := schema.ErrorsOf(err); len(ve) > 0 {
		if ve[0].Pointer != "" {
			return ve[0].Pointer + ": " + ve[0].Message
		}
		return ve[0].Message
	}
	return err.Error()
}

// constrained reports whether any of the keywords applies to the node, or
// every branch of one of its anyOf/oneOf lists sets one.
func constrained(n *snode, keywords ...string) bool {
	found := false
	n.scope(func(m *snode) bool {
		for _, k := range keywords {
			if m.has(k) {
				found = true
				return false
			}
		}
		for _, via := range []string{"anyOf", "oneOf"} {
			bs := m.branches(via)
			if len(bs) == 0 {
				continue
			}
			all := true
			for _, b := range bs {
				if !constrained(b, keywords...) {
					all = false
					break
				}
			}
			if all {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

func r8StringConstraint(p *Pass) {
	for _, n := range p.properties() {
		if n.is("string") && !constrained(n, "const", "enum", "pattern", "minLength", "maxLength", "format") {
			p.reportSite(n, "%s accepts any string: constrain it with enum, const, pattern, minLength, maxLength or format")
		}
	}
}

func r8NumberConstraint(p *Pass) {
	for _, n := range p.properties() {
		if (n.is("number") || n.is("integer")) && !constrained(n, "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "const", "enum") {
			p.reportSite(n, "%s accepts any number: bound it with minimum or exclusiveMinimum, maximum or exclusiveMaximum")
		}
	}
}

// propertyOf returns the schema of a named property of an object node,
// looking through $ref and allOf.
func propertyOf(n *snode, name string) *snode {
	var out *snode
	n.scope(func(m *snode) bool {
		if c := m.child("properties", name); c != nil {
			out = c
			return false
		}
		return true
	})
	return out
}

func r9RequiredDefault(p *Pass) {
	for _, n := range p.view().valueNodes() {
		req, ok := n.m["required"].([]any)
		if !ok {
			continue
		}
		for i, r := range req {
			name, ok := r.(string)
			if !ok {
				continue
			}
			prop := propertyOf(n, name)
			if prop == nil {
				continue
			}
			if _, owner := prop.eff("default"); owner != nil {
				p.Report(pointer.AppendIndex(n.kw("required"), i), fmt.Sprintf("%q has a default (at %s), so it must not be required: remove it from \"required\"", name, owner.kw("default")))
			}
		}
	}
}

// r10Forbidden are the keywords an anyOf/oneOf subschema may not hold
// when it only adds validation constraints.
var r10Forbidden = []string{"type", "title", "description", "examples", "properties", "patternProperties", "additionalProperties", "items", "additionalItems"}

func r10Subschemas(p *Pass) {
	for _, n := range p.view().valueNodes() {
		for _, via := range []string{"anyOf", "oneOf"} {
			bs := n.branches(via)
			if len(bs) == 0 {
				continue
			}
			live := 0
			for _, b := range bs {
				if !deprecated(b) {
					live++
				}
			}
			if live <= 1 {
				continue // all but one deprecated: the RFC's exception
			}
			for _, b := range bs {
				labelled := b.has("const")
				for _, k := range r10Forbidden {
					if labelled && (k == "title" || k == "description") {
						continue
					}
					if b.has(k) {
						p.Report(b.kw(k), fmt.Sprintf("an %s subschema may only add validation constraints: remove %q (or mark all subschemas but one \"deprecated\": true)", via, k))
					}
				}
				if b.ref != nil {
					for _, k := range r10Forbidden {
						if _, o := b.ref.eff(k); o != nil {
							p.Report(b.kw("$ref"), fmt.Sprintf("an %s subschema may only add validation constraints, but its $ref brings %q (from %s)", via, k, o.ptr))
							break
						}
					}
				}
			}
		}
	}
}

func r11DeprecatedComment(p *Pass) {
	for _, n := range p.properties() {
		if b, _ := n.m["deprecated"].(bool); !b {
			continue
		}
		if c, _ := n.eff("$comment"); c == nil {
			p.Report(n.kw("deprecated"), fmt.Sprintf("%s is deprecated: add a \"$comment\" saying what replaces it and when it will be removed", label(n)))
		}
	}
}

func r12LabelledValues(p *Pass) {
	for _, n := range p.view().valueNodes() {
		bs := n.branches("oneOf")
		if len(bs) == 0 {
			continue
		}
		all := true
		for _, b := range bs {
			if !b.has("const") {
				all = false
				break
			}
		}
		if !all {
			continue
		}
		for _, b := range bs {
			if !b.has("title") {
				p.Report(b.ptr, fmt.Sprintf("the value %s has no label: add a \"title\" beside its \"const\"", compact(b.m["const"])))
			}
		}
	}
}

func r13Recursion(p *Pass) {
	for _, n := range p.view().nodes {
		for _, k := range []string{"$dynamicRef", "$dynamicAnchor", "$recursiveRef"} {
			if n.has(k) {
				p.Report(n.kw(k), fmt.Sprintf("do not use %s: recursive schemas are not allowed", k))
			}
		}
	}
}

func r13RefCycle(p *Pass) {
	v := p.view()
	const (
		white = iota
		grey
		black
	)
	color := make([]int8, len(v.nodes)) // by snode.idx
	var visit func(n *snode)
	visit = func(n *snode) {
		color[n.idx] = grey
		for _, k := range n.kids {
			if color[k.idx] == white {
				visit(k)
			}
		}
		if t := n.ref; t != nil {
			switch color[t.idx] {
			case white:
				visit(t)
			case grey:
				p.Report(n.kw("$ref"), fmt.Sprintf("$ref %q leads back into itself: recursive schemas are to be avoided", n.m["$ref"]))
			}
		}
		color[n.idx] = black
	}
	for _, n := range v.nodes {
		if color[n.idx] == white {
			visit(n)
		}
	}
	refCyclesOutsideView(p, v)
}

// refCyclesOutsideView finds the cycles the schema view cannot see: a
// $ref into a part of the document that no schema keyword reaches
// (alertmanager's "#/definitions/config/route", where config is a plain
// object holding schemas), or a $ref held there. It follows every $ref
// of the document as a path: a ref held at or below pointer t to target
// u is an edge t -> u; a cycle through a ref the view did not resolve is
// reported at that ref, once.
func refCyclesOutsideView(p *Pass, v *view) {
	type ref struct{ at, target string }
	var refs []ref
	var walk func(x any, ptr string, depth int)
	walk = func(x any, ptr string, depth int) {
		if depth > 500 {
			return
		}
		switch t := x.(type) {
		case map[string]any:
			if r, ok := t["$ref"].(string); ok && (strings.HasPrefix(r, "#/") || r == "#") {
				refs = append(refs, ref{ptr, unescapeFragment(strings.TrimPrefix(r, "#"))})
			}
			for k, c := range t {
				walk(c, pointer.Append(ptr, k), depth+1)
			}
		case []any:
			for i, c := range t {
				walk(c, pointer.AppendIndex(ptr, i), depth+1)
			}
		}
	}
	if v.root == nil || v.root.m == nil {
		return
	}
	walk(v.root.m, "", 0)
	sort.Slice(refs, func(i, j int) bool { return refs[i].at < refs[j].at })
	unresolved := func(r ref) bool {
		n := v.byPtr[r.at]
		return n == nil || n.ref == nil
	}
	// From a target, the refs held at or below it.
	below := func(t string) []ref {
		var out []ref
		for _, r := range refs {
			if r.at == t || pointer.HasPrefix(r.at, t) {
				out = append(out, r)
			}
		}
		return out
	}
	reported := map[string]bool{}
	state := map[string]int8{} // 1 on the path, 2 done
	var visit func(t string)
	visit = func(t string) {
		state[t] = 1
		for _, r := range below(t) {
			switch state[r.target] {
			case 0:
				visit(r.target)
			case 1:
				if unresolved(r) && !reported[r.at] {
					reported[r.at] = true
					p.Report(pointer.Append(r.at, "$ref"), fmt.Sprintf("$ref %q leads back into itself: recursive schemas are to be avoided", "#"+r.target))
				}
			}
		}
		state[t] = 2
	}
	for _, r := range refs {
		if state[r.target] == 0 && unresolved(r) {
			visit(r.target)
		}
	}
}

// keywordsRule reports every use of the keywords.
func keywordsRule(format string, keywords ...string) func(p *Pass) {
	return func(p *Pass) {
		for _, n := range p.view().nodes {
			for _, k := range keywords {
				if n.has(k) {
					p.Report(n.kw(k), fmt.Sprintf(format, k))
				}
			}
		}
	}
}

func r16ItemsType(p *Pass) {
	for _, n := range p.view().valueNodes() {
		if n.via != "items" || n.index >= 0 {
			continue
		}
		ts, owner := singleType(n)
		switch {
		case len(ts) == 0:
			p.Report(n.ptr, "the items schema declares no type: declare the single type all items have")
		case len(ts) > 1:
			p.Report(owner.kw("type"), fmt.Sprintf("the items schema declares the types %s: all items must have the same type", compact(owner.m["type"])))
		}
	}
}

func r16Tuples(p *Pass) {
	for _, n := range p.view().nodes {
		for _, k := range []string{"contains", "additionalItems", "prefixItems"} {
			if n.has(k) {
				p.Report(n.kw(k), fmt.Sprintf("do not use %s: all array items must share one items schema", k))
			}
		}
		if isList(n.m["items"]) {
			p.Report(n.kw("items"), "items is a list (tuple validation): give one schema for all items")
		}
	}
}

// The root properties of R17.
var (
	r17Required    = []struct{ name, types string }{{"metadata", "object"}, {"connectivity", "object"}, {"controlPlane", "object"}, {"nodePools", "array or object"}}
	r17Recommended = []struct{ name, types string }{{"internal", "object"}, {"providerSpecific", "object"}}
	r17Compat      = []string{"managementCluster", "baseDomain", "provider", "cluster-shared", "defaultMachinePools", "kubectlImage"}
)

func hasType(n *snode, want string) bool {
	ts, _ := singleType(n)
	if len(ts) != 1 {
		return false
	}
	for _, w := range strings.Split(want, " or ") {
		if ts[0] == w {
			return true
		}
	}
	return false
}

func r17Check(p *Pass, props []struct{ name, types string }, verb string) {
	root := p.view().root
	if root.m == nil {
		return
	}
	at := ""
	if root.has("properties") {
		at = root.kw("properties")
	}
	for _, want := range props {
		prop := propertyOf(root, want.name)
		if prop == nil {
			p.Report(at, fmt.Sprintf("the root %s offer the property %q (%s)", verb, want.name, want.types))
			continue
		}
		if !hasType(prop, want.types) {
			p.Report(prop.site().ptr, fmt.Sprintf("the root property %q %s be of type %s", want.name, verb, want.types))
		}
	}
}

func r17RootProperties(p *Pass) { r17Check(p, r17Required, "must") }

func r17RootRecommended(p *Pass) { r17Check(p, r17Recommended, "should") }

func r17RootUnknown(p *Pass) {
	root := p.view().root
	if root.m == nil {
		return
	}
	allowed := map[string]bool{}
	for _, x := range r17Required {
		allowed[x.name] = true
	}
	for _, x := range r17Recommended {
		allowed[x.name] = true
	}
	for _, x := range r17Compat {
		allowed[x] = true
	}
	root.scope(func(m *snode) bool {
		for _, k := range m.kids {
			switch {
			case k.via == "properties" && !allowed[k.name]:
				p.Report(k.ptr, fmt.Sprintf("the root may not define %q: move it under an allowed root property such as internal or providerSpecific", k.name))
			case k.via == "patternProperties":
				p.Report(k.ptr, "the root may not define properties by pattern: name each allowed root property")
			}
		}
		return true
	})
}

func r18EmptyDefault(p *Pass) {
	for _, n := range p.view().valueNodes() {
		d, ok := n.m["default"]
		if !ok {
			continue
		}
		t := ""
		if ts, _ := singleType(n); len(ts) == 1 {
			t = ts[0]
		} else {
			t = value.TypeName(d)
		}
		if isEmptyValue(t, d) {
			p.Report(n.kw("default"), fmt.Sprintf("the default %s is the empty value of type %s: remove the default (an absent value is already empty)", compact(d), t))
		}
	}
}

// isEmptyValue reports whether v is the empty value of type t (R18).
func isEmptyValue(t string, v any) bool {
	switch t {
	case "boolean":
		return v == false
	case "string":
		return v == ""
	case "integer", "number":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		r, ok := number.Rat(n)
		return ok && r.Sign() == 0
	case "array":
		a, ok := v.([]any)
		return ok && len(a) == 0
	case "object":
		m, ok := v.(map[string]any)
		return ok && len(m) == 0
	}
	return false
}

// compact writes a value as compact JSON for a message.
func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
