package kube

import (
	"encoding/json"
	"math"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/lint"
	"github.com/paramkit/paramkit/schema"
)

// CRDSchema returns the structural schema a CustomResourceDefinition
// version gives the field a paramkit schema types (to sit at
// spec.properties.parameters of its openAPIV3Schema): what a
// kube-apiserver accepts (lint's structural set finds no error in it)
// and checks by itself when no webhook is reachable, with kubectl explain
// reading its descriptions.
//
//   - KUDO's keywords go (trigger, oldName, x-kudo-*); immutable: true
//     becomes the x-kubernetes-validations rule self == oldSelf with a
//     message naming the field (not below the items of a list, where the
//     apiserver has no old value to compare), and its parent gets the
//     transition rule has(self.x) == has(oldSelf.x), the field's root one
//     for each deeper immutable value (for a removed parent): the
//     apiserver evaluates a rule with oldSelf only where the value is in
//     both objects, so without them a value could be removed, then added
//     back changed, or added once absent.
//   - an object property with a default below it gets default: {} where
//     {} is valid for it (nothing required), as kubebuilder's markers
//     write it, so that the apiserver fills the defaults without any
//     webhook (parameters: {} gets them, and so does a missing field).
//   - integers get format: int64, as controller-gen writes them, so that
//     the apiserver refuses what it would otherwise round; a bound at or
//     beyond int64's range is left to the format (the apiserver keeps
//     bounds as float64 and refuses maximum: 9223372036854775807), one
//     that float64 cannot hold exactly is moved inward to one it can.
//   - $ref is inlined; const becomes a one-value enum, examples an
//     example; a list type with null becomes nullable, [integer, string]
//     x-kubernetes-int-or-string; exclusiveMinimum and exclusiveMaximum
//     take OpenAPI v3's boolean form.
//   - a closed object (additionalProperties: false beside properties)
//     loses the keyword, which the apiserver refuses there, and is a
//     plain structural object: the apiserver refuses a misspelled key
//     under strict field validation (kubectl's default) and prunes it
//     with a warning otherwise, webhook or not (so the admission webhook
//     does not see it: its "did you mean" is for keys the CRD lets
//     through). An open object with properties (additionalProperties:
//     true or a schema) and a free-form one get
//     x-kubernetes-preserve-unknown-fields.
//   - descriptions, titles, defaults, enums, bounds, patterns and formats
//     stay; annotations the apiserver does not know ($comment, readOnly,
//     writeOnly, deprecated, $schema, $id, definitions) go.
//   - a secret (writeOnly: true or format: password, and what is below
//     it) keeps no default and no example, and an object's default leaves
//     out the secrets below it: anyone who may list CRDs reads them (the
//     webhook's defaulting still applies them); a message about a
//     secret's enum members hides them.
//
// A keyword that validates and has no CRD equivalent (if, contains,
// patternProperties, dependencies, propertyNames, prefixItems, ...) is an
// error at its pointer, as is a recursive $ref: a CRD schema that
// silently checks less than the webhook would mislead. The result is
// plain data (maps, slices, json.Number).
func CRDSchema(s *schema.Schema) (map[string]any, error) {
	if s.Root() == nil {
		return nil, schema.NewError(schema.KindUsage, "", "kube: CRDSchema needs a schema made by schema.Parse or FromValue")
	}
	g := &crdGen{root: s.Document()}
	out := g.node(s.Document(), "", false, "", map[string]bool{})
	parentDefault(out)
	presenceRules(out, true)
	if len(g.errs) > 0 {
		sort.SliceStable(g.errs, func(i, j int) bool { return g.errs[i].Pointer < g.errs[j].Pointer })
		return nil, g.errs.Err()
	}
	var hidden []string
	hideSecrets(out, false, &hidden)
	settleParentDefaults(out)
	if err := checkStructural(wrapField(out, "/spec/parameters"), "/properties/spec/properties/parameters", hidden...); err != nil {
		return nil, err
	}
	return out, nil
}

// parentDefaultMark marks, while a CRD schema is made, a default: {}
// that parentDefault gave because of a default below, so that
// settleParentDefaults can take it back where hideSecrets dropped every
// default below it.
const parentDefaultMark = "\x00parentDefault"

// settleParentDefaults removes, bottom up, the default: {} parentDefault
// gave an object whose properties no longer have any default (each was a
// secret's), and the marks.
func settleParentDefaults(n map[string]any) {
	for _, k := range []string{"items", "additionalProperties"} {
		if c, ok := n[k].(map[string]any); ok {
			settleParentDefaults(c)
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		l, _ := n[k].([]any)
		for _, c := range l {
			if m, ok := c.(map[string]any); ok {
				settleParentDefaults(m)
			}
		}
	}
	props, _ := n["properties"].(map[string]any)
	for _, c := range props {
		if m, ok := c.(map[string]any); ok {
			settleParentDefaults(m)
		}
	}
	if marked, _ := n[parentDefaultMark].(bool); marked {
		delete(n, parentDefaultMark)
		for _, c := range props {
			if m, ok := c.(map[string]any); ok {
				if _, has := m["default"]; has {
					return
				}
			}
		}
		delete(n, "default")
	}
}

// crdSecretMark marks, while a CRD schema is made, a node whose paramkit
// schema said writeOnly: true (a keyword the CRD drops).
const crdSecretMark = "\x00secret"

// hideSecrets keeps secrets out of a CRD schema, which anyone who may
// list CRDs reads: a secret node (writeOnly: true or format: password,
// and everything below it) gets no default and no example, and the
// default of an object holding one leaves its value out. The webhook's
// defaulting, which reads the paramkit schema, still applies them. It
// reports whether the node is or holds a secret.
//
// The enum members of a secret node stay (they are the schema's, not a
// value's), and their texts are added to hidden, for messages about them
// to hide.
func hideSecrets(n map[string]any, secret bool, hidden *[]string) bool {
	if m, _ := n[crdSecretMark].(bool); m {
		secret = true
	}
	delete(n, crdSecretMark)
	if f, _ := n["format"].(string); f == "password" {
		secret = true
	}
	holds := secret
	var secretProps []string
	if props, ok := n["properties"].(map[string]any); ok {
		for k, p := range props {
			if pm, ok := p.(map[string]any); ok && hideSecrets(pm, secret, hidden) {
				holds = true
				secretProps = append(secretProps, k)
			}
		}
	}
	for _, k := range []string{"items", "additionalProperties", "not"} {
		if sub, ok := n[k].(map[string]any); ok && hideSecrets(sub, secret, hidden) {
			holds = true
			// Which items or values are secret is not known here:
			// the whole default goes.
			secretProps = append(secretProps, "*")
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if l, ok := n[k].([]any); ok {
			for _, e := range l {
				if em, ok := e.(map[string]any); ok && hideSecrets(em, secret, hidden) {
					holds = true
					secretProps = append(secretProps, "*")
				}
			}
		}
	}
	if secret {
		delete(n, "default")
		delete(n, "example")
		if l, ok := n["enum"].([]any); ok {
			for _, v := range l {
				if b, err := json.Marshal(v); err == nil {
					*hidden = append(*hidden, string(b))
					if str, ok := v.(string); ok && len(str) >= 4 {
						*hidden = append(*hidden, str)
					}
				}
			}
		}
		return true
	}
	if _, has := n["default"]; has && slices.Contains(secretProps, "*") {
		delete(n, "default")
	} else if d, ok := n["default"].(map[string]any); ok && len(secretProps) > 0 {
		{
			kept := make(map[string]any, len(d))
			for k, v := range d {
				if !slices.Contains(secretProps, k) {
					kept[k] = v
				}
			}
			n["default"] = kept
		}
	}
	if holds {
		delete(n, "example")
	}
	return holds
}

// checkStructural runs lint's structural set over a whole object schema:
// an error finding (a default the schema refuses, a pattern Go cannot
// compile) is a CRD the apiserver would refuse, reported at its pointer
// in the field's schema (below prefix), never written. Each text of
// hidden (a secret's, as hideSecrets collects them) is replaced by
// schema.Hidden in the messages.
func checkStructural(objectSchema map[string]any, prefix string, hidden ...string) error {
	sort.Slice(hidden, func(i, j int) bool { return len(hidden[i]) > len(hidden[j]) })
	var errs schema.ErrorList
	for _, f := range lint.Run(nil, objectSchema, lint.Structural()) {
		if f.Severity == lint.Error {
			ptr := strings.TrimPrefix(f.Pointer, prefix)
			msg := f.Message
			for _, h := range hidden {
				msg = strings.ReplaceAll(msg, h, schema.Hidden)
			}
			errs = append(errs, schema.NewError(schema.KindSchema, ptr, "the CRD schema would be refused: %s (%s)", msg, f.Rule))
		}
	}
	return errs.Err()
}

type crdGen struct {
	root any
	errs schema.ErrorList
}

func (g *crdGen) fail(ptr, format string, args ...any) {
	g.errs = append(g.errs, schema.NewError(schema.KindSchema, ptr, format, args...))
}

// dropped are keywords with no CRD field that only annotate: left out.
var crdDropped = map[string]bool{
	"$schema": true, "$id": true, "id": true, "$comment": true, "$anchor": true, "$dynamicAnchor": true,
	"definitions": true, "$defs": true, "readOnly": true, "writeOnly": true, "deprecated": true,
	"contentEncoding": true, "contentMediaType": true,
	"trigger": true, "oldName": true, "immutable": true, "$vocabulary": true,
}

// crdRefused are validating keywords without a CRD equivalent.
var crdRefused = map[string]string{
	"if": "use x-kubernetes-validations", "then": "use x-kubernetes-validations", "else": "use x-kubernetes-validations",
	"contains": "use x-kubernetes-validations", "minContains": "use x-kubernetes-validations", "maxContains": "use x-kubernetes-validations",
	"propertyNames": "use x-kubernetes-validations", "patternProperties": "use additionalProperties",
	"dependencies": "use x-kubernetes-validations", "dependentRequired": "use x-kubernetes-validations", "dependentSchemas": "use x-kubernetes-validations",
	"prefixItems": "use items with one schema", "additionalItems": "use items with one schema",
	"unevaluatedProperties": "use additionalProperties", "unevaluatedItems": "use items",
	"$dynamicRef": "inline the schema", "$recursiveRef": "inline the schema",
}

// node translates the schema node v at ptr. inItems is set below the
// items of a list (no oldSelf there); name is the node's property name,
// for messages; refs holds the $refs being inlined (cycles).
func (g *crdGen) node(v any, ptr string, inItems bool, name string, refs map[string]bool) map[string]any {
	switch b := v.(type) {
	case bool:
		if !b {
			g.fail(ptr, "kube: a CRD schema cannot say false (nothing is valid); remove the property instead")
			return map[string]any{}
		}
		return map[string]any{"x-kubernetes-preserve-unknown-fields": true}
	case nil:
		return map[string]any{"x-kubernetes-preserve-unknown-fields": true}
	}
	in, ok := v.(map[string]any)
	if !ok {
		g.fail(ptr, "kube: a schema is an object or a boolean")
		return map[string]any{}
	}
	if _, has := in["$ref"]; has {
		merged, followed := g.inline(in, ptr, refs)
		defer func() {
			for _, r := range followed {
				delete(refs, r)
			}
		}()
		if merged == nil {
			return map[string]any{}
		}
		in = merged
	}
	out := map[string]any{}
	for _, k := range crdSortedKeys(in) {
		x := in[k]
		kp := pointer.Append(ptr, k)
		switch {
		case crdDropped[k], strings.HasPrefix(k, "x-kudo-"), k == "$ref":
		case crdRefused[k] != "":
			g.fail(kp, "kube: %s has no equivalent in a CRD schema: %s", k, crdRefused[k])
		case k == "const":
			out["enum"] = []any{x}
		case k == "examples":
			if l, ok := x.([]any); ok && len(l) > 0 {
				out["example"] = l[0]
			}
		case k == "properties":
			props, ok := x.(map[string]any)
			if !ok {
				g.fail(kp, "kube: properties is an object")
				continue
			}
			po := make(map[string]any, len(props))
			for pk, pv := range props {
				child := g.node(pv, pointer.Append(kp, pk), inItems, pk, refs)
				parentDefault(child)
				po[pk] = child
			}
			out[k] = po
		case k == "items":
			if _, list := x.([]any); list {
				g.fail(kp, "kube: items is one schema in a CRD (a list of schemas has no equivalent)")
				continue
			}
			out[k] = g.node(x, kp, true, name, refs)
		case k == "additionalProperties":
			if sub, isSchema := x.(map[string]any); isSchema {
				out[k] = g.node(sub, kp, inItems, name, refs)
			} else {
				out[k] = x
			}
		case k == "not":
			out[k] = g.node(x, kp, inItems, name, refs)
		case k == "allOf" || k == "anyOf" || k == "oneOf":
			l, ok := x.([]any)
			if !ok {
				g.fail(kp, "kube: %s is a list of schemas", k)
				continue
			}
			lo := make([]any, len(l))
			for i, e := range l {
				lo[i] = g.node(e, pointer.AppendIndex(kp, i), inItems, name, refs)
			}
			out[k] = lo
		case k == "exclusiveMinimum" || k == "exclusiveMaximum":
			if n, isNum := x.(json.Number); isNum {
				out[strings.ToLower(k[9:10])+k[10:]] = n // minimum / maximum
				out[k] = true
			} else {
				out[k] = x
			}
		default:
			out[k] = x
		}
	}
	if w, _ := in["writeOnly"].(bool); w {
		out[crdSecretMark] = true // for hideSecrets; never written
	}
	g.types(out, ptr)
	g.objects(out)
	g.integers(out, ptr)
	if imm, _ := in["immutable"].(bool); imm {
		if inItems {
			// The apiserver has no old value for an item of a list.
		} else {
			rule := map[string]any{"rule": "self == oldSelf", "message": immutableMessage(name)}
			rules, _ := out["x-kubernetes-validations"].([]any)
			out["x-kubernetes-validations"] = append(rules, rule)
		}
	}
	if !inItems {
		presenceRules(out, false)
	}
	return out
}

// isImmutable reports whether a translated node carries the rule
// self == oldSelf (immutable: true, or the author's own rule).
func isImmutable(n map[string]any) bool {
	rules, _ := n["x-kubernetes-validations"].([]any)
	for _, r := range rules {
		if m, ok := r.(map[string]any); ok && m["rule"] == "self == oldSelf" {
			return true
		}
	}
	return false
}

// presenceRules adds to the object out, for every immutable property
// of it, a transition rule that its presence does not change: the
// apiserver evaluates self == oldSelf only where the value exists in the
// object and in the old object, so without it an immutable value could
// be removed, then added back changed (or added once absent). A rule is
// evaluated only where its node exists in both, so the rule for a
// property sits on its parent; deep (the field's root) adds one for each
// immutable value further below, for when a parent of it is removed or
// added (it holds whenever the value's parent is in both, where the
// parent's own rule judges, so that one change is one error). A parent
// that defaults (default: {}, see parentDefault) is present in both once
// defaulted. optionalOldSelf does not serve: it makes oldSelf an
// optional on a create as on an add, so a rule on the value cannot tell
// an add from a create. A property name CEL cannot reach is left to the
// value's own rule.
func presenceRules(out map[string]any, deep bool) {
	props, _ := out["properties"].(map[string]any)
	if len(props) == 0 {
		return
	}
	var paths [][]string
	var walk func(n map[string]any, path []string)
	walk = func(n map[string]any, path []string) {
		ps, _ := n["properties"].(map[string]any)
		for _, k := range crdSortedKeys(ps) {
			c, _ := ps[k].(map[string]any)
			if c == nil {
				continue
			}
			p := append(append([]string(nil), path...), k)
			if isImmutable(c) && (len(p) == 1) != deep {
				paths = append(paths, p)
			}
			if deep {
				walk(c, p)
			}
		}
	}
	walk(out, nil)
	rules, _ := out["x-kubernetes-validations"].([]any)
	for _, p := range paths {
		self, ok := celPresence("self", p)
		if !ok {
			continue
		}
		old, _ := celPresence("oldSelf", p)
		rule := self + " == " + old
		if len(p) > 1 {
			ps, ok := celPresence("self", p[:len(p)-1])
			if !ok {
				continue
			}
			po, _ := celPresence("oldSelf", p[:len(p)-1])
			rule = "(" + ps + " && " + po + ") || " + rule
		}
		rules = append(rules, map[string]any{
			"rule":    rule,
			"message": strings.Join(p, ".") + " is immutable, so it cannot be added or removed once the object exists",
		})
	}
	if len(rules) > 0 {
		out["x-kubernetes-validations"] = rules
	}
}

// celPresence is the CEL test that the value at path exists below v:
// has(v.a) && has(v.a.b); false when a name cannot be written in CEL.
func celPresence(v string, path []string) (string, bool) {
	var tests []string
	sel := v
	for _, k := range path {
		id, ok := celName(k)
		if !ok {
			return "", false
		}
		sel += "." + id
		tests = append(tests, "has("+sel+")")
	}
	if len(tests) > 1 {
		return "(" + strings.Join(tests, " && ") + ")", true
	}
	return tests[0], true
}

// celReserved are the names the apiserver's CEL escapes as __NAME__.
var celReserved = map[string]bool{
	"true": true, "false": true, "null": true, "in": true, "as": true, "break": true, "const": true, "continue": true,
	"else": true, "for": true, "function": true, "if": true, "import": true, "let": true, "loop": true, "package": true,
	"namespace": true, "return": true, "var": true, "void": true, "while": true,
}

// celName escapes a property name as the apiserver's CEL does (__ as
// __underscores__, . as __dot__, - as __dash__, / as __slash__, a
// reserved word as __WORD__); false for a name it cannot reach.
func celName(k string) (string, bool) {
	if k == "" {
		return "", false
	}
	for i, r := range k {
		ok := r == '_' || r == '.' || r == '-' || r == '/' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9')
		if !ok {
			return "", false
		}
	}
	if celReserved[k] {
		return "__" + k + "__", true
	}
	k = strings.ReplaceAll(k, "__", "__underscores__")
	k = strings.ReplaceAll(k, ".", "__dot__")
	k = strings.ReplaceAll(k, "-", "__dash__")
	k = strings.ReplaceAll(k, "/", "__slash__")
	return k, true
}

// parentDefault gives an object property default: {} when something
// below it has a default and {} is valid for it (nothing required, no
// minProperties), as kubebuilder's markers do: the apiserver creates a
// missing parent from its default and then fills the defaults below, so
// that without a webhook parameters: {} gets the schema's defaults. It
// also keeps an immutable value below present (presenceRules).
func parentDefault(n map[string]any) {
	if n["type"] != "object" {
		return
	}
	if _, has := n["default"]; has {
		return
	}
	if req, _ := n["required"].([]any); len(req) > 0 {
		return
	}
	if _, has := n["minProperties"]; has {
		return
	}
	props, _ := n["properties"].(map[string]any)
	for _, c := range props {
		if m, ok := c.(map[string]any); ok {
			if _, has := m["default"]; has {
				n["default"] = map[string]any{}
				n[parentDefaultMark] = true // hideSecrets may drop what called for it
				return
			}
		}
	}
}

func immutableMessage(name string) string {
	if name == "" {
		return "the parameters are immutable"
	}
	return name + " is immutable"
}

// inline resolves a local $ref (and a $ref it leads to) and merges the
// referring node's other keywords over it; the refs it followed are
// marked in refs, for the caller to unmark when the node is done.
func (g *crdGen) inline(in map[string]any, ptr string, refs map[string]bool) (map[string]any, []string) {
	var followed []string
	kp := pointer.Append(ptr, "$ref")
	for {
		ref, has := in["$ref"].(string)
		if !has {
			return in, followed
		}
		if !strings.HasPrefix(ref, "#") {
			g.fail(kp, "kube: only local $refs (#/...) can be inlined into a CRD schema, not %q", ref)
			return nil, followed
		}
		if refs[ref] {
			g.fail(kp, "kube: a recursive $ref (%s) cannot be inlined into a CRD schema", ref)
			return nil, followed
		}
		target, ok := pointer.Get(g.root, ref[1:])
		if !ok {
			g.fail(kp, "kube: $ref %q points nowhere", ref)
			return nil, followed
		}
		refs[ref] = true
		followed = append(followed, ref)
		var base map[string]any
		switch t := target.(type) {
		case map[string]any:
			base = t
		case bool:
			if !t {
				g.fail(kp, "kube: $ref %q is false: nothing is valid", ref)
				return nil, followed
			}
			base = map[string]any{}
		default:
			g.fail(kp, "kube: $ref %q is not a schema", ref)
			return nil, followed
		}
		merged := make(map[string]any, len(base)+len(in))
		for k, x := range base {
			merged[k] = x
		}
		for k, x := range in {
			if k != "$ref" {
				merged[k] = x
			}
		}
		if inner, has := base["$ref"]; has {
			merged["$ref"] = inner
		}
		in = merged
	}
}

// types makes type one string: [T, null] is nullable, [integer, string]
// int-or-string; a node without type gets the one its keywords imply, or
// keeps anything (x-kubernetes-preserve-unknown-fields).
func (g *crdGen) types(out map[string]any, ptr string) {
	if _, int0 := out["x-kubernetes-int-or-string"]; int0 {
		return
	}
	switch t := out["type"].(type) {
	case string:
		if t == "null" {
			g.fail(pointer.Append(ptr, "type"), "kube: type null has no CRD equivalent (use nullable on the property)")
		}
		return
	case []any:
		var ts []string
		null := false
		for _, x := range t {
			s, _ := x.(string)
			if s == "null" {
				null = true
				continue
			}
			ts = append(ts, s)
		}
		sort.Strings(ts)
		switch {
		case len(ts) == 1:
			out["type"] = ts[0]
		case len(ts) == 2 && ts[0] == "integer" && ts[1] == "string":
			delete(out, "type")
			out["x-kubernetes-int-or-string"] = true
		case len(ts) == 2 && ts[0] == "integer" && ts[1] == "number":
			out["type"] = "number"
		default:
			g.fail(pointer.Append(ptr, "type"), "kube: type %v has no CRD equivalent (one type, [T, null], or [integer, string])", t)
			return
		}
		if null {
			out["nullable"] = true
		}
		return
	}
	switch {
	case out["properties"] != nil || out["additionalProperties"] != nil || out["required"] != nil:
		out["type"] = "object"
	case out["items"] != nil:
		out["type"] = "array"
	case out["pattern"] != nil || out["minLength"] != nil || out["maxLength"] != nil:
		out["type"] = "string"
	default:
		if t, ok := enumType(out["enum"]); ok {
			out["type"] = t
			return
		}
		out["x-kubernetes-preserve-unknown-fields"] = true
	}
}

// enumType is the one type of an enum's values.
func enumType(v any) (string, bool) {
	l, ok := v.([]any)
	if !ok || len(l) == 0 {
		return "", false
	}
	t := ""
	for _, x := range l {
		var xt string
		switch n := x.(type) {
		case string:
			xt = "string"
		case bool:
			xt = "boolean"
		case json.Number:
			xt = "number"
			if !strings.ContainsAny(string(n), ".eE") {
				xt = "integer"
			}
		default:
			return "", false
		}
		if t != "" && t != xt {
			if (t == "integer" && xt == "number") || (t == "number" && xt == "integer") {
				t = "number"
				continue
			}
			return "", false
		}
		t = xt
	}
	return t, true
}

// objects fits objects and arrays to what structural schemas allow.
func (g *crdGen) objects(out map[string]any) {
	if out["type"] == "array" && out["items"] == nil {
		out["items"] = map[string]any{"x-kubernetes-preserve-unknown-fields": true}
	}
	if out["type"] != "object" {
		return
	}
	ap, hasAP := out["additionalProperties"]
	_, hasProps := out["properties"]
	switch {
	case hasProps && hasAP:
		// The apiserver refuses properties beside additionalProperties.
		// A closed object is what a structural schema is without
		// x-kubernetes-preserve-unknown-fields: a misspelled key is
		// refused under strict field validation (kubectl's default) and
		// pruned with a warning otherwise, webhook or not. An open one
		// keeps unknown keys.
		delete(out, "additionalProperties")
		if b, isBool := ap.(bool); !isBool || b {
			out["x-kubernetes-preserve-unknown-fields"] = true
		}
	case hasAP:
		if b, isBool := ap.(bool); isBool {
			delete(out, "additionalProperties")
			if b {
				out["x-kubernetes-preserve-unknown-fields"] = true
			} else {
				out["maxProperties"] = json.Number("0")
			}
		}
	case !hasProps:
		out["x-kubernetes-preserve-unknown-fields"] = true
	}
}

// int64's bounds.
var (
	maxInt64 = new(big.Float).SetInt64(math.MaxInt64)
	minInt64 = new(big.Float).SetInt64(math.MinInt64)
)

// integers gives integers format int64 and their bounds a float64 form.
func (g *crdGen) integers(out map[string]any, ptr string) {
	if out["type"] != "integer" {
		return
	}
	if _, has := out["format"]; !has {
		out["format"] = "int64"
	}
	for _, k := range []string{"minimum", "maximum"} {
		n, ok := out[k].(json.Number)
		if !ok {
			continue
		}
		f, _, err := big.ParseFloat(string(n), 10, 200, big.ToNearestEven)
		if err != nil {
			g.fail(pointer.Append(ptr, k), "kube: %s %s is not a number", k, n)
			continue
		}
		if (k == "maximum" && f.Cmp(maxInt64) >= 0) || (k == "minimum" && f.Cmp(minInt64) <= 0) {
			delete(out, k) // format int64 says it
			if ex, _ := out["exclusive"+strings.ToUpper(k[:1])+k[1:]].(bool); ex {
				delete(out, "exclusive"+strings.ToUpper(k[:1])+k[1:])
			}
			continue
		}
		mode := big.ToNegativeInf // a maximum moves down
		if k == "minimum" {
			mode = big.ToPositiveInf
		}
		f64, _ := new(big.Float).SetMode(mode).SetPrec(53).Set(f).Float64()
		if new(big.Float).SetFloat64(f64).Cmp(f) != 0 {
			i, _ := new(big.Float).SetFloat64(f64).Int(nil)
			out[k] = json.Number(i.String())
		}
	}
}

func crdSortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// wrapField builds a whole object's schema with the field's schema at
// its pointer (/spec/parameters), as a CRD version's openAPIV3Schema.
func wrapField(field map[string]any, ptr string) map[string]any {
	toks, _ := pointer.Split(ptr)
	cur := field
	for i := len(toks) - 1; i >= 1; i-- {
		cur = map[string]any{"type": "object", "properties": map[string]any{toks[i]: cur}}
		parentDefault(cur) // spec: {} when the field defaults
		delete(cur, parentDefaultMark)
	}
	props := map[string]any{
		"apiVersion": map[string]any{"type": "string", "description": "APIVersion defines the versioned schema of this representation of an object."},
		"kind":       map[string]any{"type": "string", "description": "Kind is a string value representing the REST resource this object represents."},
		"metadata":   map[string]any{"type": "object"},
	}
	if len(toks) > 0 {
		props[toks[0]] = cur
	}
	return map[string]any{"type": "object", "properties": props}
}
