package lint

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"

	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/internal/pointer"
)

// This file models how a kube-apiserver decodes a schema document into the
// apiextensions.k8s.io/v1 JSONSchemaProps type (types_jsonschema.go and
// marshal.go in k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1)
// under strict field validation: every key must be a field of the type
// (case-sensitive, as sigs.k8s.io/json decodes), every field must have the
// JSON kind its Go type accepts, and a null is the same as an absent field.
// What decodes becomes a kNode, the typed view the other checks walk.

// fieldKind is the Go type a JSONSchemaProps field decodes into.
type fieldKind int

const (
	kString        fieldKind = iota // string, *string
	kBool                           // bool, *bool
	kFloat                          // *float64
	kInt                            // *int64
	kJSON                           // *JSON: any value, null means absent
	kStrings                        // []string
	kSchema                         // *JSONSchemaProps
	kSchemas                        // []JSONSchemaProps
	kSchemaMap                      // map[string]JSONSchemaProps
	kSchemaOrBool                   // *JSONSchemaPropsOrBool
	kSchemaOrArray                  // *JSONSchemaPropsOrArray
	kDependencies                   // JSONSchemaDependencies
	kExternalDocs                   // *ExternalDocumentation
	kRules                          // ValidationRules
)

// schemaFields lists every JSON field of v1.JSONSchemaProps with its kind
// and the Go type named in decoding errors.
var schemaFields = map[string]struct {
	kind   fieldKind
	goType string
}{
	"id":                                   {kString, "string"},
	"$schema":                              {kString, "v1.JSONSchemaURL"},
	"$ref":                                 {kString, "string"},
	"description":                          {kString, "string"},
	"type":                                 {kString, "string"},
	"format":                               {kString, "string"},
	"title":                                {kString, "string"},
	"default":                              {kJSON, "v1.JSON"},
	"maximum":                              {kFloat, "float64"},
	"exclusiveMaximum":                     {kBool, "bool"},
	"minimum":                              {kFloat, "float64"},
	"exclusiveMinimum":                     {kBool, "bool"},
	"maxLength":                            {kInt, "int64"},
	"minLength":                            {kInt, "int64"},
	"pattern":                              {kString, "string"},
	"maxItems":                             {kInt, "int64"},
	"minItems":                             {kInt, "int64"},
	"uniqueItems":                          {kBool, "bool"},
	"multipleOf":                           {kFloat, "float64"},
	"enum":                                 {kJSON, "[]v1.JSON"},
	"maxProperties":                        {kInt, "int64"},
	"minProperties":                        {kInt, "int64"},
	"required":                             {kStrings, "[]string"},
	"items":                                {kSchemaOrArray, "v1.JSONSchemaPropsOrArray"},
	"allOf":                                {kSchemas, "[]v1.JSONSchemaProps"},
	"oneOf":                                {kSchemas, "[]v1.JSONSchemaProps"},
	"anyOf":                                {kSchemas, "[]v1.JSONSchemaProps"},
	"not":                                  {kSchema, "v1.JSONSchemaProps"},
	"properties":                           {kSchemaMap, "map[string]v1.JSONSchemaProps"},
	"additionalProperties":                 {kSchemaOrBool, "v1.JSONSchemaPropsOrBool"},
	"patternProperties":                    {kSchemaMap, "map[string]v1.JSONSchemaProps"},
	"dependencies":                         {kDependencies, "v1.JSONSchemaDependencies"},
	"additionalItems":                      {kSchemaOrBool, "v1.JSONSchemaPropsOrBool"},
	"definitions":                          {kSchemaMap, "v1.JSONSchemaDefinitions"},
	"externalDocs":                         {kExternalDocs, "v1.ExternalDocumentation"},
	"example":                              {kJSON, "v1.JSON"},
	"nullable":                             {kBool, "bool"},
	"x-kubernetes-preserve-unknown-fields": {kBool, "bool"},
	"x-kubernetes-embedded-resource":       {kBool, "bool"},
	"x-kubernetes-int-or-string":           {kBool, "bool"},
	"x-kubernetes-list-map-keys":           {kStrings, "[]string"},
	"x-kubernetes-list-type":               {kString, "string"},
	"x-kubernetes-map-type":                {kString, "string"},
	"x-kubernetes-validations":             {kRules, "v1.ValidationRules"},
}

// ruleFields lists the JSON fields of v1.ValidationRule.
var ruleFields = map[string]struct {
	kind   fieldKind
	goType string
}{
	"rule":              {kString, "string"},
	"message":           {kString, "string"},
	"messageExpression": {kString, "string"},
	"reason":            {kString, "v1.FieldValueErrorReason"},
	"fieldPath":         {kString, "string"},
	"optionalOldSelf":   {kBool, "bool"},
}

// unknownFieldHints says what to do instead of a keyword the apiserver
// does not know, for the keywords people reach for most.
var unknownFieldHints = map[string]string{
	"$defs":                 "CRD schemas cannot share definitions; inline the schema",
	"$id":                   "CRD schemas have no identifiers",
	"$anchor":               "CRD schemas cannot reference other schemas",
	"$comment":              "use description",
	"const":                 "use enum with a single value",
	"prefixItems":           "use items with one schema",
	"unevaluatedProperties": "use additionalProperties",
	"unevaluatedItems":      "arrays are described by items alone",
	"deprecated":            "say it in the description",
	"readOnly":              "say it in the description",
	"writeOnly":             "say it in the description",
	"examples":              "use example (one value)",
	"if":                    "use allOf/anyOf/oneOf/not or x-kubernetes-validations",
	"then":                  "use allOf/anyOf/oneOf/not or x-kubernetes-validations",
	"else":                  "use allOf/anyOf/oneOf/not or x-kubernetes-validations",
	"contains":              "use x-kubernetes-validations",
	"propertyNames":         "use x-kubernetes-validations",
	"dependentRequired":     "use x-kubernetes-validations",
	"dependentSchemas":      "use x-kubernetes-validations",
	"trigger":               "a KUDO keyword, not part of a CRD schema",
	"immutable":             "a KUDO keyword, not part of a CRD schema; use x-kubernetes-validations with self == oldSelf",
	"oldName":               "a KUDO keyword, not part of a CRD schema",
}

// kOrBool is a decoded JSONSchemaPropsOrBool.
type kOrBool struct {
	allows bool
	schema *kNode
}

// kItems is a decoded JSONSchemaPropsOrArray. Both fields are empty when
// items held a value that is neither an object nor an array (the
// apiserver's decoder accepts and ignores it).
type kItems struct {
	schema  *kNode
	array   []*kNode
	isArray bool
}

// kDep is one decoded entry of dependencies.
type kDep struct {
	schema *kNode
}

// kRule is one decoded x-kubernetes-validations entry.
type kRule struct {
	ptr                                      string
	present                                  map[string]bool
	rule, message, messageExpression, reason string
	fieldPath                                string
	hasReason                                bool
	optionalOldSelf                          *bool
}

// kNode is one schema object as the apiserver sees it after decoding.
type kNode struct {
	ptr string
	raw map[string]any
	// bad holds keys that failed to decode; checks that complain about a
	// missing field stay quiet for them (the decoding error says it all).
	bad map[string]bool

	id, schemaURL, description, typ, format, title, pattern string
	ref                                                     *string
	listType, mapType                                       *string

	def, example       any
	hasDef, hasExample bool

	maximum, minimum, multipleOf                   json.Number
	exclusiveMaximum, exclusiveMinimum, uniqueItem bool
	nullable, embedded, intOrString                bool
	preserveUnknown                                *bool

	maxLength, minLength, maxItems, minItems, maxProperties, minProperties *int64

	enum                        []any
	hasEnum                     bool
	required, listMapKeys       []string
	hasRequired, hasListMapKeys bool

	items             *kItems
	allOf, oneOf      []*kNode
	anyOf             []*kNode
	not               *kNode
	properties        map[string]*kNode
	hasProperties     bool
	additionalProps   *kOrBool
	patternProperties map[string]*kNode
	definitions       map[string]*kNode
	dependencies      map[string]*kDep
	hasDependencies   bool
	additionalItems   *kOrBool
	hasExternalDocs   bool
	validations       []*kRule
	hasValidations    bool
}

// propNames returns the property names, sorted.
func (n *kNode) propNames() []string { return sortedKeys(n.properties) }

// itemSchema is the single items schema, nil when there is none.
func (n *kNode) itemSchema() *kNode {
	if n == nil || n.items == nil {
		return nil
	}
	return n.items.schema
}

// apSchema is the additionalProperties schema, nil when there is none.
func (n *kNode) apSchema() *kNode {
	if n == nil || n.additionalProps == nil {
		return nil
	}
	return n.additionalProps.schema
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// sdecoder decodes schema documents and records decoding findings.
type sdecoder struct {
	a     *sanalysis
	depth int
	// lax is set below items, additionalProperties, additionalItems and
	// dependencies: their v1 types decode themselves with a plain
	// json.Unmarshal, so strict field validation does not reach there and
	// unknown fields are silently dropped (kubernetes/kubernetes#128033).
	lax bool
}

// laxSchema decodes a subschema that the apiserver decodes non-strictly.
func (d *sdecoder) laxSchema(v any, ptr string) *kNode {
	saved := d.lax
	d.lax = true
	defer func() { d.lax = saved }()
	return d.schema(v, ptr)
}

// unknownField reports a field the v1 types do not have: an error where
// strict decoding applies, a warning where the apiserver drops it.
func (d *sdecoder) unknownField(ptr, key string, hints bool) {
	msg := fmt.Sprintf("unknown field %q: the apiserver refuses it under strict field validation (kubectl apply's default)", key)
	sev := Error
	if d.lax {
		sev = Warning
		msg = fmt.Sprintf("unknown field %q: the apiserver accepts it here but silently drops it (below items, additionalProperties, additionalItems and dependencies its decoder is not strict)", key)
	}
	if h, ok := unknownFieldHints[key]; ok && hints {
		msg += "; " + h
	}
	d.a.add(ruleUnknownField, sev, ptr, msg)
}

// maxSchemaDepth bounds recursion on hostile documents; deeper nesting is
// reported rather than walked.
const maxSchemaDepth = 500

// jsonKind names a plain value's JSON kind as encoding/json does in its
// "cannot unmarshal X into" errors.
func jsonKind(v any) string {
	switch t := v.(type) {
	case string:
		return "string"
	case bool:
		return "bool"
	case json.Number:
		return "number " + string(t)
	case float64, float32, int, int64, int32, uint, uint64:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// asNumber returns v as a JSON number when it is one.
func asNumber(v any) (json.Number, bool) {
	switch t := v.(type) {
	case json.Number:
		return t, true
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return "", false
		}
		return json.Number(strconv.FormatFloat(t, 'g', -1, 64)), true
	case float32:
		return json.Number(strconv.FormatFloat(float64(t), 'g', -1, 32)), true
	case int:
		return json.Number(strconv.Itoa(t)), true
	case int64:
		return json.Number(strconv.FormatInt(t, 10)), true
	case int32:
		return json.Number(strconv.FormatInt(int64(t), 10)), true
	case uint64:
		return json.Number(strconv.FormatUint(t, 10)), true
	case uint:
		return json.Number(strconv.FormatUint(uint64(t), 10)), true
	}
	return "", false
}

// numRat converts a JSON number to an exact rational; numbers outside
// paramkit's bounds (huge exponents, thousands of digits) give false.
func numRat(n json.Number) (*big.Rat, bool) {
	if !number.IsJSON(string(n)) {
		return nil, false
	}
	return number.Rat(n)
}

func (d *sdecoder) typeError(ptr, field string, v any, goType string) {
	d.a.add(ruleFieldType, Error, ptr, fmt.Sprintf("json: cannot unmarshal %s into Go struct field JSONSchemaProps.%s of type %s", jsonKind(v), field, goType))
}

// root decodes the document root (the openAPIV3Schema field).
func (d *sdecoder) root(doc any) *kNode {
	switch doc.(type) {
	case nil:
		d.a.add(ruleFieldType, Error, "", "Required value: schemas are required (the document is empty or null)")
		return nil
	case map[string]any:
		return d.schema(doc, "")
	}
	d.a.add(ruleFieldType, Error, "", fmt.Sprintf("json: cannot unmarshal %s into Go struct field CustomResourceValidation.openAPIV3Schema of type v1.JSONSchemaProps", jsonKind(doc)))
	return nil
}

// schema decodes one schema object; v must be a map or nil (a null
// decodes into the zero schema).
func (d *sdecoder) schema(v any, ptr string) *kNode {
	n := &kNode{ptr: ptr, bad: map[string]bool{}}
	m, _ := v.(map[string]any)
	n.raw = m
	if m == nil {
		return n
	}
	if d.depth >= maxSchemaDepth {
		d.a.add(ruleFieldType, Error, ptr, fmt.Sprintf("schema nesting deeper than %d levels is not checked", maxSchemaDepth))
		return n
	}
	d.depth++
	defer func() { d.depth-- }()
	for _, key := range sortedKeys(m) {
		val := m[key]
		kp := pointer.Append(ptr, key)
		f, known := schemaFields[key]
		if !known {
			d.unknownField(kp, key, true)
			continue
		}
		if val == nil {
			continue // a null decodes to the zero value: the field is absent
		}
		if !d.field(n, key, f.kind, f.goType, val, kp) {
			n.bad[key] = true
		}
	}
	return n
}

// field decodes one field into n, reporting a decoding error and returning
// false when the value has the wrong JSON kind.
func (d *sdecoder) field(n *kNode, key string, kind fieldKind, goType string, val any, kp string) bool {
	switch kind {
	case kString:
		s, ok := val.(string)
		if !ok {
			d.typeError(kp, key, val, goType)
			return false
		}
		switch key {
		case "id":
			n.id = s
		case "$schema":
			n.schemaURL = s
		case "$ref":
			n.ref = &s
		case "description":
			n.description = s
		case "type":
			n.typ = s
		case "format":
			n.format = s
		case "title":
			n.title = s
		case "pattern":
			n.pattern = s
		case "x-kubernetes-list-type":
			n.listType = &s
		case "x-kubernetes-map-type":
			n.mapType = &s
		}
	case kBool:
		b, ok := val.(bool)
		if !ok {
			d.typeError(kp, key, val, goType)
			return false
		}
		switch key {
		case "exclusiveMaximum":
			n.exclusiveMaximum = b
		case "exclusiveMinimum":
			n.exclusiveMinimum = b
		case "uniqueItems":
			n.uniqueItem = b
		case "nullable":
			n.nullable = b
		case "x-kubernetes-preserve-unknown-fields":
			n.preserveUnknown = &b
		case "x-kubernetes-embedded-resource":
			n.embedded = b
		case "x-kubernetes-int-or-string":
			n.intOrString = b
		}
	case kFloat:
		num, ok := asNumber(val)
		if !ok {
			d.typeError(kp, key, val, goType)
			return false
		}
		if f, err := strconv.ParseFloat(string(num), 64); err != nil || math.IsInf(f, 0) {
			d.typeError(kp, key, val, goType)
			return false
		}
		switch key {
		case "maximum":
			n.maximum = num
		case "minimum":
			n.minimum = num
		case "multipleOf":
			n.multipleOf = num
		}
	case kInt:
		num, ok := asNumber(val)
		var i int64
		if ok {
			// YAML reaches the apiserver through kubectl's YAML-to-JSON
			// conversion, which writes 1.0 or 1e2 as integers; accept any
			// integral value that fits int64.
			r, good := numRat(num)
			ok = good && r.IsInt() && r.Num().IsInt64()
			if ok {
				i = r.Num().Int64()
			}
		}
		if !ok {
			d.typeError(kp, key, val, goType)
			return false
		}
		switch key {
		case "maxLength":
			n.maxLength = &i
		case "minLength":
			n.minLength = &i
		case "maxItems":
			n.maxItems = &i
		case "minItems":
			n.minItems = &i
		case "maxProperties":
			n.maxProperties = &i
		case "minProperties":
			n.minProperties = &i
		}
	case kJSON:
		switch key {
		case "default":
			n.def, n.hasDef = val, true
		case "example":
			n.example, n.hasExample = val, true
		case "enum":
			arr, ok := val.([]any)
			if !ok {
				d.typeError(kp, key, val, goType)
				return false
			}
			n.enum, n.hasEnum = arr, true
		}
	case kStrings:
		ss, ok := d.strings(key, val, kp, goType)
		if !ok {
			return false
		}
		switch key {
		case "required":
			n.required, n.hasRequired = ss, true
		case "x-kubernetes-list-map-keys":
			n.listMapKeys, n.hasListMapKeys = ss, true
		}
	case kSchema:
		if _, ok := val.(map[string]any); !ok {
			d.typeError(kp, key, val, goType)
			return false
		}
		n.not = d.schema(val, kp)
	case kSchemas:
		list, ok := d.schemaList(key, val, kp, goType)
		if !ok {
			return false
		}
		switch key {
		case "allOf":
			n.allOf = list
		case "anyOf":
			n.anyOf = list
		case "oneOf":
			n.oneOf = list
		}
	case kSchemaMap:
		mp, ok := d.schemaMap(key, val, kp, goType)
		if !ok {
			return false
		}
		switch key {
		case "properties":
			n.properties, n.hasProperties = mp, true
		case "patternProperties":
			n.patternProperties = mp
		case "definitions":
			n.definitions = mp
		}
	case kSchemaOrBool:
		var ob *kOrBool
		switch t := val.(type) {
		case bool:
			ob = &kOrBool{allows: t}
		case map[string]any:
			ob = &kOrBool{allows: true, schema: d.laxSchema(t, kp)}
		default:
			d.a.add(ruleFieldType, Error, kp, fmt.Sprintf("%s: boolean or JSON schema expected", key))
			return false
		}
		if key == "additionalProperties" {
			n.additionalProps = ob
		} else {
			n.additionalItems = ob
		}
	case kSchemaOrArray:
		it := &kItems{}
		switch t := val.(type) {
		case map[string]any:
			it.schema = d.laxSchema(t, kp)
		case []any:
			it.isArray = true
			saved := d.lax
			d.lax = true
			list, ok := d.schemaList(key, t, kp, "[]v1.JSONSchemaProps")
			d.lax = saved
			if !ok {
				return false
			}
			it.array = list
		}
		n.items = it
	case kDependencies:
		m, ok := val.(map[string]any)
		if !ok {
			d.typeError(kp, key, val, goType)
			return false
		}
		n.dependencies, n.hasDependencies = map[string]*kDep{}, true
		good := true
		for _, k := range sortedKeys(m) {
			ep := pointer.Append(kp, k)
			dep := &kDep{}
			switch t := m[k].(type) {
			case map[string]any:
				dep.schema = d.laxSchema(t, ep)
			case []any:
				if _, ok := d.strings(key, t, ep, "[]string"); !ok {
					good = false
				}
			}
			n.dependencies[k] = dep
		}
		return good
	case kExternalDocs:
		m, ok := val.(map[string]any)
		if !ok {
			d.typeError(kp, key, val, goType)
			return false
		}
		n.hasExternalDocs = true
		good := true
		for _, k := range sortedKeys(m) {
			ep := pointer.Append(kp, k)
			if k != "description" && k != "url" {
				d.unknownField(ep, k, false)
				continue
			}
			if _, ok := m[k].(string); !ok && m[k] != nil {
				d.a.add(ruleFieldType, Error, ep, fmt.Sprintf("json: cannot unmarshal %s into Go struct field ExternalDocumentation.%s of type string", jsonKind(m[k]), k))
				good = false
			}
		}
		return good
	case kRules:
		arr, ok := val.([]any)
		if !ok {
			d.typeError(kp, key, val, goType)
			return false
		}
		n.hasValidations = true
		good := true
		for i, e := range arr {
			ep := pointer.AppendIndex(kp, i)
			r := &kRule{ptr: ep, present: map[string]bool{}}
			n.validations = append(n.validations, r)
			if e == nil {
				continue
			}
			m, ok := e.(map[string]any)
			if !ok {
				d.a.add(ruleFieldType, Error, ep, fmt.Sprintf("json: cannot unmarshal %s into Go struct field JSONSchemaProps.%s of type v1.ValidationRule", jsonKind(e), key))
				good = false
				continue
			}
			for _, k := range sortedKeys(m) {
				rp := pointer.Append(ep, k)
				f, known := ruleFields[k]
				if !known {
					d.unknownField(rp, k, false)
					continue
				}
				if m[k] == nil {
					continue
				}
				if f.kind == kBool {
					b, ok := m[k].(bool)
					if !ok {
						d.a.add(ruleFieldType, Error, rp, fmt.Sprintf("json: cannot unmarshal %s into Go struct field ValidationRule.%s of type %s", jsonKind(m[k]), k, f.goType))
						good = false
						continue
					}
					r.optionalOldSelf = &b
					r.present[k] = true
					continue
				}
				s, ok := m[k].(string)
				if !ok {
					d.a.add(ruleFieldType, Error, rp, fmt.Sprintf("json: cannot unmarshal %s into Go struct field ValidationRule.%s of type %s", jsonKind(m[k]), k, f.goType))
					good = false
					continue
				}
				r.present[k] = true
				switch k {
				case "rule":
					r.rule = s
				case "message":
					r.message = s
				case "messageExpression":
					r.messageExpression = s
				case "reason":
					r.reason, r.hasReason = s, true
				case "fieldPath":
					r.fieldPath = s
				}
			}
		}
		return good
	}
	return true
}

// strings decodes a []string field; a null element decodes to "".
func (d *sdecoder) strings(key string, val any, kp, goType string) ([]string, bool) {
	arr, ok := val.([]any)
	if !ok {
		d.typeError(kp, key, val, goType)
		return nil, false
	}
	out := make([]string, 0, len(arr))
	good := true
	for i, e := range arr {
		if e == nil {
			out = append(out, "")
			continue
		}
		s, ok := e.(string)
		if !ok {
			d.typeError(pointer.AppendIndex(kp, i), key, e, "string")
			good = false
			continue
		}
		out = append(out, s)
	}
	return out, good
}

// schemaList decodes a []JSONSchemaProps field; a null element decodes to
// the empty schema.
func (d *sdecoder) schemaList(key string, val any, kp, goType string) ([]*kNode, bool) {
	arr, ok := val.([]any)
	if !ok {
		d.typeError(kp, key, val, goType)
		return nil, false
	}
	out := make([]*kNode, 0, len(arr))
	good := true
	for i, e := range arr {
		ep := pointer.AppendIndex(kp, i)
		if _, ok := e.(map[string]any); !ok && e != nil {
			d.typeError(ep, key, e, "v1.JSONSchemaProps")
			good = false
			continue
		}
		out = append(out, d.schema(e, ep))
	}
	return out, good
}

// schemaMap decodes a map[string]JSONSchemaProps field.
func (d *sdecoder) schemaMap(key string, val any, kp, goType string) (map[string]*kNode, bool) {
	m, ok := val.(map[string]any)
	if !ok {
		d.typeError(kp, key, val, goType)
		return nil, false
	}
	out := make(map[string]*kNode, len(m))
	good := true
	for _, k := range sortedKeys(m) {
		ep := pointer.Append(kp, k)
		if _, ok := m[k].(map[string]any); !ok && m[k] != nil {
			d.typeError(ep, key, m[k], "v1.JSONSchemaProps")
			good = false
			continue
		}
		out[k] = d.schema(m[k], ep)
	}
	return out, good
}
