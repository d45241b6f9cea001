package lint

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
)

// The checks below mirror k8s.io/apiextensions-apiserver:
//   - apiWalk: ValidateCustomResourceDefinitionOpenAPISchema and
//     specStandardValidatorV3.validate (pkg/apis/apiextensions/validation/
//     validation.go), including validateMapListKeysMapSet and the
//     x-kubernetes-validations field checks;
//   - structWalk, valueValidation, nestedValidation: validateStructuralInvariants,
//     validateStructuralMetadataInvariants, validateValueValidation,
//     validateNestedValueValidation and validateExtensions
//     (pkg/apiserver/schema/validation.go);
//   - rootCompleteness: validateStructuralCompleteness (pkg/apiserver/schema/complete.go).
// Messages follow the apiserver's field errors ("Required value: ...",
// "Forbidden: ...", "Invalid value: X: ...", "Unsupported value: ...").

// Field error bodies as k8s.io/apimachinery/pkg/util/validation/field writes them.
func fRequired(detail string) string {
	if detail == "" {
		return "Required value"
	}
	return "Required value: " + detail
}

func fForbidden(detail string) string { return "Forbidden: " + detail }

func fInvalid(v any, detail string) string { return "Invalid value: " + showValue(v) + ": " + detail }

func fNotSupported(v any, allowed []string) string {
	q := make([]string, len(allowed))
	for i, s := range allowed {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "Unsupported value: " + showValue(v) + ": supported values: " + strings.Join(q, ", ")
}

// showValue renders a value in an error message: compact JSON, shortened.
func showValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	s := string(b)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

var openapiV3Types = []string{"array", "boolean", "integer", "number", "object", "string"}

func isV3Type(t string) bool {
	for _, x := range openapiV3Types {
		if x == t {
			return true
		}
	}
	return false
}

func metaField(name string) bool { return name == "metadata" || name == "kind" || name == "apiVersion" }

func at(ptr string, toks ...string) string {
	for _, t := range toks {
		ptr = pointer.Append(ptr, t)
	}
	return ptr
}

// sctx is the context specStandardValidatorV3 carries down the tree.
type sctx struct {
	allowDefaults  bool
	disallowReason string
	insideMeta     bool
	// oldSelfPath is the pointer of the highest ancestor whose values
	// cannot be correlated across updates (a non-map list); set when
	// forbidOldSelf is true.
	oldSelfPath   string
	forbidOldSelf bool
}

func (c sctx) forbidOld(ptr string) sctx {
	if c.forbidOldSelf {
		return c
	}
	c.forbidOldSelf, c.oldSelfPath = true, ptr
	return c
}

func mapCorrelatable(mapType *string) bool {
	return mapType == nil || *mapType == "granular" || *mapType == "atomic"
}

// apiWalk mirrors ValidateCustomResourceDefinitionOpenAPISchema.
func (a *sanalysis) apiWalk(n *kNode, c sctx, isRoot bool) {
	if n == nil {
		return
	}
	a.standardChecks(n, c)
	if n.uniqueItem {
		a.add(ruleUnsupported, Error, at(n.ptr, "uniqueItems"), fForbidden("uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
	}
	if ap := n.additionalProps; ap != nil {
		if len(n.properties) != 0 && (!ap.allows || ap.schema != nil) {
			a.add(ruleObject, Error, at(n.ptr, "additionalProperties"), fForbidden("additionalProperties and properties are mutual exclusive"))
		}
		sub := c
		if c.insideMeta {
			sub.allowDefaults, sub.disallowReason = false, "inside additionalProperties applying to object metadata"
		}
		a.apiWalk(ap.schema, sub, false)
	}
	for _, name := range n.propNames() {
		sub := c
		if !mapCorrelatable(n.mapType) {
			sub = sub.forbidOld(n.ptr)
		}
		if (isRoot || n.embedded) && metaField(name) {
			sub.insideMeta = true
			if isRoot {
				sub.allowDefaults, sub.disallowReason = false, "in top-level "+name
			}
		}
		a.apiWalk(n.properties[name], sub, false)
	}
	a.apiWalk(n.not, c, false)
	for _, list := range [][]*kNode{n.allOf, n.oneOf, n.anyOf} {
		for _, s := range list {
			a.apiWalk(s, c, false)
		}
	}
	for _, k := range sortedKeys(n.definitions) {
		a.apiWalk(n.definitions[k], c, false)
	}
	if n.items != nil {
		sub := c
		if n.listType == nil || *n.listType != "map" {
			sub = sub.forbidOld(n.ptr)
		}
		a.apiWalk(n.items.schema, sub, false)
		for _, s := range n.items.array {
			a.apiWalk(s, sub, false)
		}
	}
	for _, k := range sortedKeys(n.dependencies) {
		a.apiWalk(n.dependencies[k].schema, c, false)
	}
	a.extensionChecks(n)
	a.validationRuleChecks(n, c)
}

// standardChecks mirrors specStandardValidatorV3.validate, plus the
// '$schema' refusal of NewStructural (convert.go), which the apiserver
// reports at the root of the schema.
func (a *sanalysis) standardChecks(n *kNode, c sctx) {
	if n.typ != "" && !isV3Type(n.typ) {
		a.add(ruleType, Error, at(n.ptr, "type"), fNotSupported(n.typ, openapiV3Types))
	}
	if n.hasDef && !c.allowDefaults {
		detail := "must not be set"
		if c.disallowReason != "" {
			detail += " " + c.disallowReason
		}
		a.add(ruleDefault, Error, at(n.ptr, "default"), fForbidden(detail))
	}
	if n.id != "" {
		a.add(ruleUnsupported, Error, at(n.ptr, "id"), fForbidden("id is not supported"))
	}
	if n.additionalItems != nil {
		a.add(ruleUnsupported, Error, at(n.ptr, "additionalItems"), fForbidden("additionalItems is not supported"))
	}
	if len(n.patternProperties) != 0 {
		a.add(ruleUnsupported, Error, at(n.ptr, "patternProperties"), fForbidden("patternProperties is not supported"))
	}
	if len(n.definitions) != 0 {
		a.add(ruleUnsupported, Error, at(n.ptr, "definitions"), fForbidden("definitions is not supported"))
	}
	if n.hasDependencies {
		a.add(ruleUnsupported, Error, at(n.ptr, "dependencies"), fForbidden("dependencies is not supported"))
	}
	if n.ref != nil {
		a.add(ruleUnsupported, Error, at(n.ptr, "$ref"), fForbidden("$ref is not supported"))
	}
	if n.typ == "null" {
		a.add(ruleType, Error, at(n.ptr, "type"), fForbidden("type cannot be set to null, use nullable as an alternative"))
	}
	if n.items != nil && len(n.items.array) != 0 {
		a.add(ruleUnsupported, Error, at(n.ptr, "items"), fForbidden("items must be a schema object and not an array"))
	}
	if c.insideMeta && n.embedded {
		a.add(ruleMetadata, Error, at(n.ptr, "x-kubernetes-embedded-resource"), fForbidden("must not be used inside of resource meta"))
	}
	if n.schemaURL != "" {
		a.add(ruleUnsupported, Error, "", fInvalid("", fmt.Sprintf("OpenAPIV3Schema 'schema' is not supported (the $schema at %q)", n.ptr+"/$schema")))
	}
}

// extensionChecks mirrors the x-kubernetes-* checks of
// ValidateCustomResourceDefinitionOpenAPISchema and validateMapListKeysMapSet.
func (a *sanalysis) extensionChecks(n *kNode) {
	typeMust := func(want, ext string) {
		if n.bad["type"] {
			return
		}
		detail := fmt.Sprintf("must be %s if %s is specified", want, ext)
		if n.typ == "" {
			a.add(ruleExtension, Error, at(n.ptr, "type"), fRequired(detail))
		} else {
			a.add(ruleExtension, Error, at(n.ptr, "type"), fInvalid(n.typ, detail))
		}
	}
	if n.preserveUnknown != nil && !*n.preserveUnknown {
		a.add(ruleExtension, Error, at(n.ptr, "x-kubernetes-preserve-unknown-fields"), fInvalid(false, "must be true or undefined"))
	}
	if n.mapType != nil && n.typ != "object" {
		typeMust("object", "x-kubernetes-map-type")
	}
	if n.mapType != nil && *n.mapType != "atomic" && *n.mapType != "granular" {
		a.add(ruleExtension, Error, at(n.ptr, "x-kubernetes-map-type"), fNotSupported(*n.mapType, []string{"atomic", "granular"}))
	}
	is := n.itemSchema()
	if n.listType != nil && n.typ != "array" {
		typeMust("array", "x-kubernetes-list-type")
	} else if n.listType != nil && *n.listType == "set" && is != nil {
		switch is.typ {
		case "array":
			if is.listType != nil && *is.listType != "atomic" {
				a.add(ruleExtension, Error, at(is.ptr, "x-kubernetes-list-type"), fInvalid(*is.listType, "must be atomic as item of a list with x-kubernetes-list-type=set"))
			}
		case "object":
			if is.mapType == nil || *is.mapType != "atomic" {
				var v any
				if is.mapType != nil {
					v = *is.mapType
				}
				a.add(ruleExtension, Error, at(is.ptr, "x-kubernetes-map-type"), fInvalid(v, "must be atomic as item of a list with x-kubernetes-list-type=set"))
			}
		}
	}
	if n.listType != nil && *n.listType != "atomic" && *n.listType != "set" && *n.listType != "map" {
		a.add(ruleExtension, Error, at(n.ptr, "x-kubernetes-list-type"), fNotSupported(*n.listType, []string{"atomic", "set", "map"}))
	}
	if len(n.listMapKeys) > 0 {
		if n.listType == nil {
			a.add(ruleExtension, Error, at(n.ptr, "x-kubernetes-list-type"), fRequired("must be map if x-kubernetes-list-map-keys is non-empty"))
		} else if *n.listType != "map" {
			a.add(ruleExtension, Error, at(n.ptr, "x-kubernetes-list-type"), fInvalid(*n.listType, "must be map if x-kubernetes-list-map-keys is non-empty"))
		}
	}
	if n.listType != nil && *n.listType == "map" {
		if len(n.listMapKeys) == 0 {
			a.add(ruleExtension, Error, at(n.ptr, "x-kubernetes-list-map-keys"), fRequired("must not be empty if x-kubernetes-list-type is map"))
		}
		switch {
		case n.items == nil:
			if !n.bad["items"] {
				a.add(ruleExtension, Error, at(n.ptr, "items"), fRequired("must have a schema if x-kubernetes-list-type is map"))
			}
		case is == nil:
			a.add(ruleExtension, Error, at(n.ptr, "items"), fInvalid(n.raw["items"], "must only have a single schema if x-kubernetes-list-type is map"))
		case is.typ != "object":
			if !is.bad["type"] {
				a.add(ruleExtension, Error, at(is.ptr, "type"), fInvalid(is.typ, "must be object if parent array's x-kubernetes-list-type is map"))
			}
		default:
			seen := map[string]bool{}
			for _, k := range n.listMapKeys {
				if s, ok := is.properties[k]; ok {
					if s.typ == "array" || s.typ == "object" {
						a.add(ruleExtension, Error, at(s.ptr, "type"), fInvalid(is.typ, "must be a scalar type if parent array's x-kubernetes-list-type is map"))
					}
				} else {
					a.add(ruleExtension, Error, at(n.ptr, "x-kubernetes-list-map-keys"), fInvalid(n.listMapKeys, fmt.Sprintf("entries must all be names of item properties (%q is not)", k)))
				}
				if seen[k] {
					a.add(ruleExtension, Error, at(n.ptr, "x-kubernetes-list-map-keys"), fInvalid(n.listMapKeys, "must not contain duplicate entries"))
				}
				seen[k] = true
			}
		}
	}
	// validateMapListKeysMapSet
	if is != nil && n.listType != nil && (*n.listType == "set" || *n.listType == "map") {
		if is.nullable {
			a.add(ruleExtension, Error, at(is.ptr, "nullable"), fForbidden("cannot be nullable when x-kubernetes-list-type is "+*n.listType))
		}
		if *n.listType == "map" {
			req := map[string]bool{}
			for _, r := range is.required {
				req[r] = true
			}
			for _, k := range n.listMapKeys {
				s, ok := is.properties[k]
				if !ok {
					continue
				}
				if !req[k] && !s.hasDef {
					a.add(ruleExtension, Error, at(s.ptr, "default"), fRequired("this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"))
				}
				if s.nullable {
					a.add(ruleExtension, Error, at(s.ptr, "nullable"), fForbidden("this property is in x-kubernetes-list-map-keys, so it cannot be nullable"))
				}
			}
		}
	}
}

// structuralConvertible mirrors NewStructural failing: refused fields or a
// list of item schemas anywhere in the structural part of the tree.
func structuralConvertible(n *kNode, depth int) bool {
	if n == nil {
		return true
	}
	if depth > maxSchemaDepth {
		return false
	}
	if n.id != "" || n.schemaURL != "" || (n.ref != nil && *n.ref != "") || len(n.patternProperties) > 0 ||
		len(n.dependencies) > 0 || n.additionalItems != nil || len(n.definitions) > 0 ||
		(n.preserveUnknown != nil && !*n.preserveUnknown) {
		return false
	}
	if n.items != nil {
		if len(n.items.array) > 0 {
			return false
		}
		if !structuralConvertible(n.items.schema, depth+1) {
			return false
		}
	}
	for _, k := range n.propNames() {
		if !structuralConvertible(n.properties[k], depth+1) {
			return false
		}
	}
	if !structuralConvertible(n.apSchema(), depth+1) || !structuralConvertible(n.not, depth+1) {
		return false
	}
	for _, list := range [][]*kNode{n.allOf, n.anyOf, n.oneOf} {
		for _, s := range list {
			if !structuralConvertible(s, depth+1) {
				return false
			}
		}
	}
	return true
}

// level is where a structural node sits.
type level int

const (
	levelRoot level = iota
	levelItem
	levelField
)

// structWalk mirrors validateStructuralInvariants.
func (a *sanalysis) structWalk(n *kNode, lvl level) {
	if n == nil {
		return
	}
	is := n.itemSchema()
	// A list of item schemas is refused on its own (and stops the
	// apiserver before this check); an empty list decodes to no schema.
	if n.typ == "array" && is == nil && !(n.items != nil && len(n.items.array) > 0) && !n.bad["items"] {
		a.add(ruleObject, Error, at(n.ptr, "items"), fRequired("must be specified"))
	}
	a.structWalk(is, levelItem)
	for _, k := range n.propNames() {
		a.structWalk(n.properties[k], levelField)
	}
	if n.additionalProps != nil {
		if lvl == levelRoot {
			a.add(ruleObject, Error, at(n.ptr, "additionalProperties"), fForbidden("must not be used at the root"))
		}
		a.structWalk(n.additionalProps.schema, levelField)
	}
	preserve := n.preserveUnknown != nil && *n.preserveUnknown
	if n.intOrString && preserve {
		a.add(ruleExtension, Error, at(n.ptr, "x-kubernetes-preserve-unknown-fields"), fInvalid(true, "must be false if x-kubernetes-int-or-string is true"))
	}
	if n.intOrString && n.embedded {
		a.add(ruleExtension, Error, at(n.ptr, "x-kubernetes-embedded-resource"), fInvalid(true, "must be false if x-kubernetes-int-or-string is true"))
	}
	a.valueValidation(n, isIntOrStringAnyOf(n), isIntOrStringAllOf(n))
	if lvl != levelRoot {
		a.completeness(n, n, Warning)
	}
	checkMetadata := lvl == levelRoot || n.embedded
	if n.embedded && n.typ != "object" {
		if !n.bad["type"] {
			if n.typ == "" {
				a.add(ruleExtension, Error, at(n.ptr, "type"), fRequired("must be object if x-kubernetes-embedded-resource is true"))
			} else {
				a.add(ruleExtension, Error, at(n.ptr, "type"), fInvalid(n.typ, "must be object if x-kubernetes-embedded-resource is true"))
			}
		}
	} else if n.typ == "" && !n.intOrString && !preserve && !n.bad["type"] {
		detail := map[level]string{
			levelRoot:  "must not be empty at the root",
			levelItem:  "must not be empty for specified array items",
			levelField: "must not be empty for specified object fields",
		}[lvl]
		a.add(ruleType, Error, at(n.ptr, "type"), fRequired(detail))
	}
	if n.embedded && n.additionalProps != nil {
		a.add(ruleExtension, Error, at(n.ptr, "additionalProperties"), fForbidden("must not be used if x-kubernetes-embedded-resource is set"))
	}
	if lvl == levelRoot && n.typ != "" && n.typ != "object" {
		a.add(ruleType, Error, at(n.ptr, "type"), fInvalid(n.typ, "must be object at the root"))
	}
	if checkMetadata {
		for _, k := range []string{"apiVersion", "kind"} {
			if p, ok := n.properties[k]; ok && len(n.properties) > 0 && p.typ != "string" && !p.bad["type"] {
				a.add(ruleMetadata, Error, at(p.ptr, "type"), fInvalid(p.typ, "must be string"))
			}
		}
	}
	if m, ok := n.properties["metadata"]; ok {
		a.metadataInvariants(m, checkMetadata, lvl)
	}
	if n.embedded && !preserve && len(n.properties) == 0 {
		a.add(ruleExtension, Error, at(n.ptr, "properties"), fRequired("must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"))
	}
}

// metadataInvariants mirrors validateStructuralMetadataInvariants.
func (a *sanalysis) metadataInvariants(m *kNode, checkMetadata bool, lvl level) {
	if checkMetadata && m.typ != "object" && !m.bad["type"] {
		a.add(ruleMetadata, Error, at(m.ptr, "type"), fInvalid(m.typ, "must be object"))
	}
	if lvl != levelRoot {
		return
	}
	_, name := m.properties["name"]
	_, gen := m.properties["generateName"]
	cleared := (name && gen && len(m.properties) == 2) || ((name || gen) && len(m.properties) == 1)
	var extra []string
	for _, k := range setKeys(m, false) {
		if k == "type" || k == "default" || (k == "properties" && cleared) {
			continue
		}
		extra = append(extra, k)
	}
	if len(extra) > 0 {
		a.add(ruleMetadata, Error, m.ptr, fForbidden(fmt.Sprintf("must not specify anything other than name and generateName, but metadata is implicitly specified (found %s)", strings.Join(extra, ", "))))
	}
}

// setKeys lists the fields of n that a structural schema keeps and that
// are not zero, as reflect.DeepEqual over the apiserver's Structural or
// NestedValueValidation types sees them (nested selects the latter).
func setKeys(n *kNode, nested bool) []string {
	var out []string
	add := func(cond bool, k string) {
		if cond {
			out = append(out, k)
		}
	}
	add(n.description != "", "description")
	add(n.typ != "", "type")
	add(n.title != "", "title")
	add(n.hasDef, "default")
	add(n.additionalProps != nil, "additionalProperties")
	add(n.nullable, "nullable")
	add(n.preserveUnknown != nil, "x-kubernetes-preserve-unknown-fields")
	add(n.embedded, "x-kubernetes-embedded-resource")
	add(n.intOrString, "x-kubernetes-int-or-string")
	add(n.hasListMapKeys, "x-kubernetes-list-map-keys")
	add(n.listType != nil, "x-kubernetes-list-type")
	add(n.mapType != nil, "x-kubernetes-map-type")
	add(n.hasValidations, "x-kubernetes-validations")
	add(n.itemSchema() != nil, "items")
	if nested {
		add(n.hasProperties, "properties")
	} else {
		add(len(n.properties) > 0, "properties")
	}
	add(n.format != "", "format")
	add(n.maximum != "", "maximum")
	add(n.exclusiveMaximum, "exclusiveMaximum")
	add(n.minimum != "", "minimum")
	add(n.exclusiveMinimum, "exclusiveMinimum")
	add(n.maxLength != nil, "maxLength")
	add(n.minLength != nil, "minLength")
	add(n.pattern != "", "pattern")
	add(n.maxItems != nil, "maxItems")
	add(n.minItems != nil, "minItems")
	add(n.uniqueItem, "uniqueItems")
	add(n.multipleOf != "", "multipleOf")
	add(len(n.enum) > 0, "enum")
	add(n.maxProperties != nil, "maxProperties")
	add(n.minProperties != nil, "minProperties")
	add(n.hasRequired, "required")
	add(len(n.allOf) > 0, "allOf")
	add(len(n.oneOf) > 0, "oneOf")
	add(len(n.anyOf) > 0, "anyOf")
	add(n.not != nil, "not")
	sort.Strings(out)
	return out
}

// onlyType reports whether a junctor clause is exactly {type: t}.
func onlyType(n *kNode, t string) bool {
	keys := setKeys(n, true)
	return n.typ == t && len(keys) == 1 && keys[0] == "type"
}

func isIntOrStringAnyOf(n *kNode) bool {
	return len(n.anyOf) == 2 && onlyType(n.anyOf[0], "integer") && onlyType(n.anyOf[1], "string")
}

func isIntOrStringAllOf(n *kNode) bool {
	return len(n.allOf) >= 1 && len(n.allOf[0].anyOf) == 2 && onlyType(n.allOf[0].anyOf[0], "integer") && onlyType(n.allOf[0].anyOf[1], "string")
}

// valueValidation mirrors validateValueValidation.
func (a *sanalysis) valueValidation(v *kNode, skipAnyOf, skipFirstAllOfAnyOf bool) {
	if !skipAnyOf {
		for _, s := range v.anyOf {
			a.nestedValidation(s, false)
		}
	}
	for i, s := range v.allOf {
		a.nestedValidation(s, skipFirstAllOfAnyOf && i == 0)
	}
	for _, s := range v.oneOf {
		a.nestedValidation(s, false)
	}
	a.nestedValidation(v.not, false)
	if v.pattern != "" {
		if _, err := a.regexp(v.pattern); err != nil {
			a.add(rulePattern, Error, at(v.ptr, "pattern"), fInvalid(v.pattern, "must be a valid regular expression, but isn't: "+err.Error()))
		}
	}
}

// nestedValidation mirrors validateNestedValueValidation: inside
// allOf/anyOf/oneOf/not only value validations, items and properties
// may appear.
func (a *sanalysis) nestedValidation(v *kNode, skipAnyOf bool) {
	if v == nil {
		return
	}
	a.valueValidation(v, skipAnyOf, false)
	a.nestedValidation(v.itemSchema(), false)
	for _, k := range v.propNames() {
		a.nestedValidation(v.properties[k], false)
	}
	forbid := func(cond bool, key, detail string) {
		if cond {
			a.add(ruleJunctor, Error, at(v.ptr, key), fForbidden(detail))
		}
	}
	forbid(v.typ != "", "type", "must be empty to be structural")
	forbid(v.additionalProps != nil, "additionalProperties", "must be undefined to be structural")
	forbid(v.hasDef, "default", "must be undefined to be structural")
	forbid(v.title != "", "title", "must be empty to be structural")
	forbid(v.description != "", "description", "must be empty to be structural")
	forbid(v.nullable, "nullable", "must be false to be structural")
	forbid(v.preserveUnknown != nil && *v.preserveUnknown, "x-kubernetes-preserve-unknown-fields", "must be false to be structural")
	forbid(v.embedded, "x-kubernetes-embedded-resource", "must be false to be structural")
	forbid(v.intOrString, "x-kubernetes-int-or-string", "must be false to be structural")
	forbid(len(v.listMapKeys) > 0, "x-kubernetes-list-map-keys", "must be empty to be structural")
	forbid(v.listType != nil, "x-kubernetes-list-type", "must be undefined to be structural")
	forbid(v.mapType != nil, "x-kubernetes-map-type", "must be undefined to be structural")
	forbid(len(v.validations) > 0, "x-kubernetes-validations", "must be empty to be structural")
	if m, ok := v.properties["metadata"]; ok {
		a.add(ruleJunctor, Error, m.ptr, fForbidden("must not be specified in a nested context"))
	}
}

// rootCompleteness mirrors validateStructuralCompleteness, which the
// apiserver runs for the junctors of the root only.
func (a *sanalysis) rootCompleteness(root *kNode) { a.completeness(root, root, Error) }

// completeness checks that what the junctors of v name (properties,
// items) is specified in the structural schema s. Below the root the
// apiserver does not check it; there it is a warning, since pruning drops
// what only a junctor specifies.
func (a *sanalysis) completeness(v, s *kNode, sev Severity) {
	for _, list := range [][]*kNode{{v.not}, v.allOf, v.anyOf, v.oneOf} {
		for _, c := range list {
			a.nestedCompleteness(c, s, sev)
		}
	}
}

func (a *sanalysis) nestedCompleteness(v, s *kNode, sev Severity) {
	if v == nil {
		return
	}
	a.completeness(v, s, sev)
	report := func(spec, def string) {
		msg := fRequired(fmt.Sprintf("%q must be specified because it is defined in %q", spec, def))
		if sev != Error {
			msg += "; the apiserver checks this at the root only, but pruning drops what only allOf/anyOf/oneOf/not specify"
		}
		a.add(ruleJunctor, sev, def, msg)
	}
	if vi := v.itemSchema(); vi != nil {
		if si := s.itemSchema(); si == nil {
			report(at(s.ptr, "items"), vi.ptr)
		} else {
			a.nestedCompleteness(vi, si, sev)
		}
	}
	for _, k := range v.propNames() {
		vp := v.properties[k]
		if sp, ok := s.properties[k]; ok {
			a.nestedCompleteness(vp, sp, sev)
		} else {
			report(at(s.ptr, "properties", k), vp.ptr)
		}
	}
}
