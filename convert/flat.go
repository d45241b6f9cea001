package convert

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/kudoparams"
	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// The apiVersions of KUDO's two parameter formats (params.yaml files and
// the OperatorVersion and Instance objects alike).
const (
	V1beta1 = "kudo.dev/v1beta1"
	V1beta2 = "kudo.dev/v1beta2"
)

// ParametersAnnotation is the OperatorVersion annotation in which
// ToV1beta1 keeps the whole v1beta2 parameter schema (compact JSON, keys
// in their original order), because a flat v1beta1 list cannot hold it.
// FromV1beta1 restores the schema from it and removes it.
const ParametersAnnotation = "paramkit.dev/v1beta2-parameters"

// schemaTitle is the title the KEP gives a converted schema.
const schemaTitle = "Parameter Schema"

// Note is something a conversion decided that its reader should know (a
// type inferred from a string, a schema restored from the annotation, a
// value guessed without a schema). Pointer locates it in the input.
type Note struct {
	Pointer string
	Message string
}

// String shows the note as POINTER: message; a note about the whole
// document (the root pointer) is its message alone, since `"": ` before a
// remark reads as a quoted empty name rather than as a place.
func (n Note) String() string {
	if n.Pointer == "" {
		return n.Message
	}
	return n.Pointer + ": " + n.Message
}

type flatConfig struct {
	inferStrings bool
	keepList     bool
}

// ListAnnotation is the OperatorVersion annotation in which FromV1beta1,
// with KeepV1beta1List, keeps the v1beta1 parameter list exactly as it was
// written, so that ToV1beta1 gives an old client back its own list (its
// order, and fields it left out) while the schema is unchanged. A stored
// object keeps no key order, so the schema alone cannot carry the list's.
const ListAnnotation = "paramkit.dev/v1beta1-parameters"

// Converted is the outcome of a conversion: the document, what the
// converter decided, and the document written out with its keys in a
// stable order (the input's order where it had one).
type Converted struct {
	// Document is the whole output document as plain values (maps,
	// slices, strings, booleans, nil and json.Number numbers).
	Document any
	// Schema is the parameter schema within Document: Document itself for
	// a params file, an OperatorVersion's spec.parameters; nil when the
	// document holds no schema (values, or a v1beta1 OperatorVersion).
	Schema any
	// Changed is false when the input already was in the target format;
	// Document is then the input, and YAML returns the input bytes as
	// they were.
	Changed bool
	// Notes lists what the conversion decided, in input order.
	Notes []Note

	order     map[string][]string
	schemaPtr string // where Schema sits in Document
	input     []byte
	generated bool // Schema was built from a v1beta1 list (not kept or given)
}

// YAML writes the document as YAML with exact numbers; an unchanged input
// comes back byte for byte.
func (c *Converted) YAML() ([]byte, error) {
	if !c.Changed && c.input != nil {
		return append([]byte(nil), c.input...), nil
	}
	return encode.YAML(c.Document, encode.ByKeyOrder(c.order))
}

// JSON writes the document as JSON with exact numbers and the same key
// order as YAML; indent "" gives compact JSON.
func (c *Converted) JSON(indent string) []byte {
	return encode.JSON(c.Document, encode.ByKeyOrder(c.order), indent)
}

// schemaJSON writes the schema alone as compact JSON in document order.
func (c *Converted) schemaJSON() []byte {
	return encode.JSON(c.Schema, encode.ByKeyOrder(subOrder(c.order, c.schemaPtr)), "")
}

// FromV1beta1 converts KUDO v1beta1 parameters to a v1beta2 JSON Schema.
// The input (YAML or JSON) is one of:
//
//   - a params.yaml: `parameters`, a list of flat parameters, with
//     apiVersion kudo.dev/v1beta1 or none; the result is a schema
//     document with apiVersion kudo.dev/v1beta2;
//   - an OperatorVersion (`spec.parameters` a list); the result is the
//     same object with apiVersion kudo.dev/v1beta2 and the schema in
//     spec.parameters. If ToV1beta1 made it, the schema kept in the
//     ParametersAnnotation is restored; parameters an old client changed
//     in the list take the changed fields from the list;
//   - a params.yaml in KUDO's first format: a mapping from each
//     parameter's name to its fields (`memory: {default: 1Gi}`); it
//     converts as the list format would, in file order;
//   - something already v1beta2 (a schema, an OperatorVersion holding
//     one): it comes back unchanged (Changed false), so converting twice
//     equals converting once. An OperatorVersion whose spec.parameters is
//     a schema but whose apiVersion still says v1beta1 (as in the KEP's
//     example) is read as v1beta2 and its apiVersion corrected.
//
// Each parameter becomes a property of the root object, in list order:
// displayName becomes title; description, default, enum, trigger and
// immutable keep their names; required parameters are listed in the
// root's required; type (value-type in an OperatorVersion) names the JSON
// type, map becoming object. Without a type, the YAML type of the default
// decides (`3` integer, `1.5` number, `false` boolean, a list array, a
// mapping object) and everything else is a string — notably a quoted
// default such as "3" (see InferStringTypes). A null default means no
// default. Defaults and enum values written as text are converted to the
// type (`"3"` to 3 for an integer, '[a, b]' to a list for an array).
// Unknown parameter fields are kept as `x-kudo-<field>` keywords, unknown
// root fields of a params file likewise at the root.
//
// A property's keywords come in the order type, title, description,
// default, enum, trigger, immutable, then x-kudo-* in source order; the
// root's in the order (apiVersion,) title, $schema, type, required,
// properties. The $schema is draft 2019-09.
//
// A mapping none of whose root keys a schema could mean (a flat map of
// values, say) is refused with a *schema.Error of kind
// schema.KindNotSchema; {} and true are schemas.
//
// The options that apply: InferStringTypes and KeepV1beta1List.
//
// Input that is not YAML or JSON gives a *schema.Error; a parameter
// that cannot be converted (no name, an unknown type, a default that is
// not of its type, a name used twice) gives a schema.ErrorList holding
// every problem, each with a pointer into the input and the parameter's
// name.
func FromV1beta1(data []byte, opts ...Option) (*Converted, error) {
	var cfg flatConfig
	for _, opt := range opts {
		if opt != nil {
			opt(&cfg)
		}
	}
	raw, order, err := readRaw(data)
	if err != nil {
		return nil, err
	}
	c := &flatConverter{cfg: cfg, order: order}
	out, err := c.convert(raw)
	if err != nil {
		return nil, err
	}
	out.Notes = append(out.Notes, c.notes...)
	if !out.Changed {
		out.input = data
	}
	return out, nil
}

type flatConverter struct {
	cfg   flatConfig
	order map[string][]string // key order of the input
	errs  schema.ErrorList
	notes []Note
}

func (c *flatConverter) fail(ptr, format string, a ...any) {
	c.errs = append(c.errs, &schema.Error{Kind: schema.KindSchema, Pointer: ptr, Message: fmt.Sprintf(format, a...)})
}

func (c *flatConverter) note(ptr, format string, a ...any) {
	c.notes = append(c.notes, Note{Pointer: ptr, Message: fmt.Sprintf(format, a...)})
}

// keysOf returns m's keys in input order (sorted where none was recorded).
func (c *flatConverter) keysOf(ptr string, m map[string]any) []string {
	return document.KeysInOrder(c.order, ptr, m)
}

func (c *flatConverter) convert(raw any) (*Converted, error) {
	root, ok := raw.(map[string]any)
	if !ok {
		if _, isBool := document.Resolve(raw).(bool); isBool {
			return c.unchanged(raw, ""), nil
		}
		return nil, schema.ErrorList{{Kind: schema.KindSchema, Message: fmt.Sprintf("expected a v1beta1 params file, an OperatorVersion or a parameter schema, not %s", kindName(raw))}}
	}
	kind, _ := scalarText(root["kind"])
	apiVersion, _ := scalarText(root["apiVersion"])
	spec, _ := root["spec"].(map[string]any)
	_, hasParams := root["parameters"]
	switch {
	case kind == "OperatorVersion" || (kind == "" && !hasParams && spec != nil && !isNull(spec["parameters"])):
		return c.operatorVersion(root, apiVersion)
	case kind == "Instance":
		return nil, schema.ErrorList{{Kind: schema.KindSchema, Pointer: "/kind", Message: "an Instance holds parameter values, not their definitions: unwrap it instead"}}
	case kind != "":
		return nil, schema.ErrorList{{Kind: schema.KindSchema, Pointer: "/kind", Message: fmt.Sprintf("cannot convert kind %s: expected a params file or an OperatorVersion", kind)}}
	case hasParams:
		return c.paramsFile(root, apiVersion)
	case apiVersion == V1beta1 && !looksLikeSchema(root):
		// A v1beta1 params file declaring no parameters at all.
		return c.paramsFile(root, apiVersion)
	case apiVersion == V1beta1:
		// A schema labelled v1beta1, the KEP's typo: read it as v1beta2.
		doc := document.Resolve(root).(map[string]any)
		doc["apiVersion"] = V1beta2
		c.note("/apiVersion", "a schema is the v1beta2 format: apiVersion set to %s", V1beta2)
		return &Converted{Document: doc, Schema: doc, Changed: true, order: c.order}, nil
	case len(root) > 0 && !usesKeyword(root):
		if isFirstFormat(root) {
			return c.firstFormat(root)
		}
		return nil, notSchema(root)
	}
	return c.unchanged(raw, ""), nil
}

// looksLikeSchema reports whether a mapping uses JSON Schema keywords at its root.
func looksLikeSchema(m map[string]any) bool {
	for _, k := range []string{"$schema", "type", "properties", "$ref", "allOf", "anyOf", "oneOf", "$defs", "definitions", "additionalProperties"} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

func (c *flatConverter) unchanged(raw any, schemaPtr string) *Converted {
	doc := document.Resolve(raw)
	out := &Converted{Document: doc, order: c.order, schemaPtr: schemaPtr}
	out.Schema, _ = pointer.Get(doc, schemaPtr)
	return out
}

// paramsFile converts a v1beta1 params.yaml.
func (c *flatConverter) paramsFile(root map[string]any, apiVersion string) (*Converted, error) {
	if apiVersion != "" && apiVersion != V1beta1 {
		return nil, schema.ErrorList{{Kind: schema.KindSchema, Pointer: "/apiVersion", Message: fmt.Sprintf("a parameters list is the %s format, but apiVersion says %q", V1beta1, apiVersion)}}
	}
	converted := c.list(root["parameters"], "/parameters")
	var extras []string
	for _, k := range c.keysOf("", root) {
		if k != "apiVersion" && k != "parameters" {
			extras = append(extras, k)
		}
	}
	if errs := append(c.errs, errsOf(converted)...); len(errs) > 0 {
		return nil, errs
	}
	doc, order := assemble(converted, true)
	keys := order[""]
	for _, k := range extras {
		nk := "x-kudo-" + k
		doc[nk] = document.Resolve(root[k])
		keys = append(keys, nk)
		graft(order, subOrder(c.order, pointer.Append("", k)), pointer.Append("", nk))
	}
	order[""] = keys
	return &Converted{Document: doc, Schema: doc, Changed: true, order: order, generated: true}, nil
}

// operatorVersion converts an OperatorVersion object.
func (c *flatConverter) operatorVersion(root map[string]any, apiVersion string) (*Converted, error) {
	const listPtr = "/spec/parameters"
	if apiVersion != "" && apiVersion != V1beta1 && apiVersion != V1beta2 {
		return nil, schema.ErrorList{{Kind: schema.KindSchema, Pointer: "/apiVersion", Message: fmt.Sprintf("unknown apiVersion %q for an OperatorVersion: expected %s or %s", apiVersion, V1beta1, V1beta2)}}
	}
	spec, ok := root["spec"].(map[string]any)
	if !ok && !isNull(root["spec"]) {
		return nil, schema.ErrorList{{Kind: schema.KindSchema, Pointer: "/spec", Message: "spec must be a mapping"}}
	}
	var list any
	if spec != nil {
		list = scalar(spec["parameters"])
	}
	switch list.(type) {
	case map[string]any, bool:
		if apiVersion == V1beta2 {
			return c.unchanged(root, listPtr), nil
		}
		// The KEP's converted example still says v1beta1: its evident
		// intent is the v1beta2 object.
		doc := document.Resolve(root).(map[string]any)
		doc["apiVersion"] = V1beta2
		c.note("/apiVersion", "spec.parameters already holds a schema (the v1beta2 format): apiVersion set to %s", V1beta2)
		out := &Converted{Document: doc, Changed: true, order: withAPIVersionFirst(c.order), schemaPtr: listPtr}
		out.Schema, _ = pointer.Get(doc, listPtr)
		return out, nil
	case nil:
		if apiVersion == V1beta2 {
			return c.unchanged(root, listPtr), nil
		}
		// No parameters in v1beta1, none in v1beta2: absent stays absent,
		// so that ToV1beta1 and FromV1beta1 invert each other.
		doc := document.Resolve(root).(map[string]any)
		doc["apiVersion"] = V1beta2
		return &Converted{Document: doc, Changed: true, order: withAPIVersionFirst(c.order), schemaPtr: listPtr}, nil
	case []any:
		if apiVersion == V1beta2 {
			c.note("/apiVersion", "apiVersion says %s but spec.parameters is a v1beta1 list: converted", V1beta2)
		}
	default:
		return nil, schema.ErrorList{{Kind: schema.KindSchema, Pointer: listPtr, Message: fmt.Sprintf("spec.parameters must be a list (v1beta1) or a schema (v1beta2), not %s", kindName(list))}}
	}

	converted := c.list(list, listPtr)
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	doc := document.Resolve(root).(map[string]any)
	doc["apiVersion"] = V1beta2
	var schemaDoc any
	var sOrder map[string][]string
	generated := false
	if ann, ok := takeAnnotation(doc); ok {
		var errs schema.ErrorList
		schemaDoc, sOrder, errs = c.restore(ann, converted)
		if len(errs) > 0 {
			return nil, errs
		}
	} else {
		if errs := errsOf(converted); len(errs) > 0 {
			return nil, errs
		}
		schemaDoc, sOrder = assemble(converted, false)
		generated = true
	}
	docSpec, _ := doc["spec"].(map[string]any)
	if docSpec == nil {
		docSpec = map[string]any{}
		doc["spec"] = docSpec
	}
	if c.cfg.keepList {
		// Only where the schema would not give the same list back: a
		// v1beta2 object that went down and up stays exactly itself.
		if proj, _, _ := project(schemaDoc, sOrder); !value.Equal(any(proj), docSpec["parameters"]) {
			keepListAnnotation(doc, encode.JSON(docSpec["parameters"], nil, "")) // canonical: sorted keys
		}
	}
	docSpec["parameters"] = schemaDoc
	order := withAPIVersionFirst(withoutSubtree(c.order, listPtr))
	graft(order, sOrder, listPtr)
	out := &Converted{Document: doc, Schema: schemaDoc, Changed: true, order: order, schemaPtr: listPtr, generated: generated}
	return out, nil
}

// withAPIVersionFirst makes sure a root that gains an apiVersion shows it first.
func withAPIVersionFirst(order map[string][]string) map[string][]string {
	out := make(map[string][]string, len(order)+1)
	for k, v := range order {
		out[k] = v
	}
	keys := out[""]
	for _, k := range keys {
		if k == "apiVersion" {
			return out
		}
	}
	out[""] = append([]string{"apiVersion"}, keys...)
	return out
}

// takeAnnotation removes the ParametersAnnotation from an object's
// metadata and returns its text.
func takeAnnotation(doc map[string]any) (string, bool) {
	md, _ := doc["metadata"].(map[string]any)
	if md == nil {
		return "", false
	}
	anns, _ := md["annotations"].(map[string]any)
	if anns == nil {
		return "", false
	}
	v, ok := anns[ParametersAnnotation]
	if !ok {
		return "", false
	}
	// ToV1beta1 may have created annotations and metadata to hold it.
	delete(anns, ParametersAnnotation)
	if len(anns) == 0 {
		delete(md, "annotations")
	}
	if len(md) == 0 {
		delete(doc, "metadata")
	}
	s, _ := v.(string)
	return s, true
}

// v1Fields is a v1beta1 parameter reduced to what the v1beta1
// OperatorVersion can hold, in canonical form, so that a list entry can
// be compared with what ToV1beta1 wrote for it.
type v1Fields struct {
	Name, DisplayName, Description, Trigger string
	Type                                    string // as declared, "" when not; map for object
	Required, Immutable                     bool
	Default                                 *string
	Enum                                    []string
	HasEnum                                 bool
}

// changed names the fields of a that differ from b.
func (a v1Fields) changed(b v1Fields) map[string]bool {
	out := map[string]bool{}
	if a.DisplayName != b.DisplayName {
		out["displayName"] = true
	}
	if a.Description != b.Description {
		out["description"] = true
	}
	if a.Trigger != b.Trigger {
		out["trigger"] = true
	}
	if a.Type != b.Type {
		out["value-type"] = true
	}
	if a.Required != b.Required {
		out["required"] = true
	}
	if a.Immutable != b.Immutable {
		out["immutable"] = true
	}
	if (a.Default == nil) != (b.Default == nil) || (a.Default != nil && *a.Default != *b.Default) {
		out["default"] = true
	}
	if a.HasEnum != b.HasEnum || strings.Join(a.Enum, "\x00") != strings.Join(b.Enum, "\x00") || len(a.Enum) != len(b.Enum) {
		out["enum"] = true
	}
	return out
}

// param is one converted parameter.
type param struct {
	name     string
	ptr      string // in the input
	required bool
	prop     map[string]any
	order    map[string][]string // key order below the property, rooted at it
	fields   v1Fields
	errs     schema.ErrorList // what could not be converted
}

// errsOf gathers the conversion errors of every parameter.
func errsOf(ps []param) schema.ErrorList {
	var out schema.ErrorList
	for _, p := range ps {
		out = append(out, p.errs...)
	}
	return out
}

// v1Types maps v1beta1 type names to JSON Schema types.
var v1Types = kudoparams.Types

var knownFields = kudoparams.Fields

// list converts every parameter of a v1beta1 list. Each keeps its own
// errors (a restored schema may make some of them moot); errors about the
// list itself go to c.errs.
func (c *flatConverter) list(v any, ptr string) []param {
	if isNull(v) {
		return nil
	}
	items, ok := v.([]any)
	if !ok {
		c.fail(ptr, "parameters must be a list, not %s", kindName(v))
		return nil
	}
	out := make([]param, 0, len(items))
	seen := map[string]string{}
	for i, item := range items {
		p := c.param(item, pointer.AppendIndex(ptr, i))
		if p.fields.Name != "" {
			if first, dup := seen[p.name]; dup {
				p.errs = append(p.errs, &schema.Error{Kind: schema.KindSchema, Pointer: pointer.Append(p.ptr, "name"), Message: fmt.Sprintf("parameter %q is declared twice (first at %s)", p.name, first)})
			} else {
				seen[p.name] = p.ptr
			}
		}
		out = append(out, p)
	}
	return out
}

// param converts one v1beta1 parameter; p.errs says what could not be.
func (c *flatConverter) param(v any, ptr string) (p param) {
	p = param{ptr: ptr, prop: map[string]any{}, order: map[string][]string{}}
	before := len(c.errs)
	defer func() {
		p.errs = append(schema.ErrorList(nil), c.errs[before:]...)
		c.errs = c.errs[:before]
	}()
	m, ok := v.(map[string]any)
	if !ok {
		c.fail(ptr, "a parameter must be a mapping with at least a name, not %s", kindName(v))
		return p
	}
	name, ok := scalarText(m["name"])
	if !ok || name == "" {
		at := ptr
		if _, present := m["name"]; present {
			at = pointer.Append(ptr, "name")
		}
		c.fail(at, "a parameter needs a name (a non-empty string)")
		// Go on: the fields still tell whether a kept schema covers it.
	}
	p.name = name
	p.fields.Name = name
	who := fmt.Sprintf("parameter %q", name)

	text := func(k string) string {
		s, ok := scalarText(m[k])
		if !ok {
			c.fail(pointer.Append(ptr, k), "%s: %s must be text, not %s", who, k, kindName(m[k]))
		}
		return s
	}
	flag := func(k string) bool {
		v, present := m[k]
		if !present || isNull(v) {
			return false
		}
		if b, ok := v.(bool); ok {
			return b
		}
		if pl, ok := v.(document.Text); ok {
			if b, ok := document.Core(string(pl)).(bool); ok {
				return b
			}
		}
		c.fail(pointer.Append(ptr, k), "%s: %s must be true or false, not %s", who, k, describe(v))
		return false
	}
	p.fields.DisplayName = text("displayName")
	p.fields.Description = text("description")
	p.fields.Trigger = text("trigger")
	p.required = flag("required")
	p.fields.Required = p.required
	p.fields.Immutable = flag("immutable")

	// The declared type.
	typ := ""
	for _, k := range []string{"type", "value-type"} {
		tv, present := m[k]
		if !present || isNull(tv) {
			continue
		}
		s, _ := scalarText(tv)
		t, known := v1Types[s]
		if !known {
			c.fail(pointer.Append(ptr, k), "%s: unknown type %s: use string, integer, number, boolean, array or map", who, describe(tv))
			continue
		}
		if typ != "" && typ != t {
			c.fail(pointer.Append(ptr, k), "%s: type and value-type disagree (%s, %s)", who, typ, t)
			continue
		}
		typ = t
	}
	if typ != "" {
		p.fields.Type = typ
		if typ == "object" {
			p.fields.Type = "map"
		}
	}

	def, hasDef := m["default"]
	if hasDef && isNull(def) {
		hasDef = false
	}
	if hasDef {
		d := textOf(def)
		p.fields.Default = &d
	}
	enumV, hasEnum := m["enum"]
	var enumItems []any
	if hasEnum && !isNull(enumV) {
		var ok bool
		enumItems, ok = enumV.([]any)
		if !ok {
			c.fail(pointer.Append(ptr, "enum"), "%s: enum must be a list, not %s", who, kindName(enumV))
		}
		p.fields.HasEnum = true
		for _, e := range enumItems {
			p.fields.Enum = append(p.fields.Enum, textOf(e))
		}
	} else {
		hasEnum = false
	}

	// Without a declared type, the YAML type of the default decides.
	if typ == "" {
		typ = "string"
		if hasDef {
			t, fromString := c.inferType(def)
			if fromString && !c.convertsAll(t, def, enumItems) {
				t = "string"
			} else if fromString {
				c.note(pointer.Append(ptr, "default"), "%s: type %s inferred from the string default %q", who, t, def)
			}
			typ = t
		}
	}

	// The property, keywords in a fixed order.
	keys := []string{}
	set := func(k string, v any) {
		p.prop[k] = v
		keys = append(keys, k)
	}
	set("type", typ)
	if p.fields.DisplayName != "" {
		set("title", p.fields.DisplayName)
	}
	if p.fields.Description != "" {
		set("description", p.fields.Description)
	}
	if hasDef {
		d, msg := convertValue(def, typ)
		if msg != "" {
			c.fail(pointer.Append(ptr, "default"), "%s: default %s", who, msg)
		} else {
			set("default", d)
			graft(p.order, subOrder(c.order, pointer.Append(ptr, "default")), "/default")
		}
	}
	if hasEnum {
		vals := make([]any, 0, len(enumItems))
		for i, e := range enumItems {
			if isNull(e) {
				c.fail(pointer.AppendIndex(pointer.Append(ptr, "enum"), i), "%s: an enum value cannot be empty", who)
				continue
			}
			ev, msg := convertValue(e, typ)
			if msg != "" {
				c.fail(pointer.AppendIndex(pointer.Append(ptr, "enum"), i), "%s: enum value %s", who, msg)
				continue
			}
			vals = append(vals, ev)
		}
		set("enum", vals)
	}
	if p.fields.Trigger != "" {
		set("trigger", p.fields.Trigger)
	}
	if p.fields.Immutable {
		set("immutable", true)
	}
	for _, k := range c.keysOf(ptr, m) {
		if knownFields[k] {
			continue
		}
		nk := "x-kudo-" + k
		set(nk, document.Resolve(m[k]))
		graft(p.order, subOrder(c.order, pointer.Append(ptr, k)), pointer.Append("", nk))
	}
	p.order[""] = keys
	return p
}

// inferType gives the type a default's YAML type implies; fromString is
// true when it was narrowed from a quoted string (InferStringTypes).
func (c *flatConverter) inferType(def any) (typ string, fromString bool) {
	switch t := def.(type) {
	case document.Text:
		return coreType(document.Core(string(t))), false
	case json.Number, bool:
		return coreType(t), false
	case []any:
		return "array", false
	case map[string]any:
		return "object", false
	case string:
		if c.cfg.inferStrings {
			if nt := narrowString(t); nt != "" {
				return nt, true
			}
		}
	}
	return "string", false
}

func coreType(v any) string {
	switch t := v.(type) {
	case bool:
		return "boolean"
	case json.Number:
		if strings.ContainsAny(string(t), ".eE") {
			return "number"
		}
		return "integer"
	}
	return "string"
}

// narrowString is the type a quoted string reads as without doubt, or "".
func narrowString(s string) string {
	switch s {
	case "true", "false":
		return "boolean"
	}
	if !number.IsJSON(s) || strings.ContainsAny(s, "eE") || number.Check(json.Number(s)) != nil {
		return ""
	}
	if !strings.Contains(s, ".") {
		return "integer"
	}
	if strings.HasSuffix(s, "0") {
		return "" // 1.10 is a version more often than a number
	}
	return "number"
}

// convertsAll reports whether the default and every enum value convert to typ.
func (c *flatConverter) convertsAll(typ string, def any, enum []any) bool {
	if _, msg := convertValue(def, typ); msg != "" {
		return false
	}
	for _, e := range enum {
		if s, ok := e.(string); ok && narrowString(s) != typ {
			return false
		}
		if _, msg := convertValue(e, typ); msg != "" {
			return false
		}
	}
	return true
}

// convertValue converts a raw default or enum value to a JSON type,
// returning a message (without the parameter's name) when it cannot.
func convertValue(v any, typ string) (any, string) {
	switch typ {
	case "string":
		s, ok := scalarText(v)
		if !ok {
			return nil, fmt.Sprintf("is %s, but the parameter's type is string", kindName(v))
		}
		return s, ""
	case "integer", "number":
		var n json.Number
		switch t := v.(type) {
		case json.Number:
			n = t
		case document.Text, string:
			s, _ := scalarText(t)
			num, ok, err := number.ParseCore(s)
			if err != nil {
				return nil, fmt.Sprintf("%q: %v", s, err)
			}
			if !ok {
				return nil, fmt.Sprintf("%q is not %s", s, article(typ))
			}
			n = num
		default:
			return nil, fmt.Sprintf("is %s, not %s", kindName(v), article(typ))
		}
		if typ == "integer" && !number.IsInteger(n) {
			return nil, fmt.Sprintf("%s is not an integer", n)
		}
		return n, ""
	case "boolean":
		switch t := v.(type) {
		case bool:
			return t, ""
		case document.Text, string:
			s, _ := scalarText(t)
			if b, ok := document.Bool(s); ok {
				return b, ""
			}
			return nil, fmt.Sprintf("%q is not a boolean (true or false)", s)
		}
		return nil, fmt.Sprintf("is %s, not a boolean", kindName(v))
	case "array", "object":
		switch t := v.(type) {
		case []any, map[string]any:
			r := document.Resolve(t)
			if value.TypeName(r) != typ {
				return nil, fmt.Sprintf("is %s, not %s", kindName(v), article(typ))
			}
			return r, ""
		case document.Text, string:
			s, _ := scalarText(t)
			return textCollection(s, typ)
		}
		return nil, fmt.Sprintf("is %s, not %s", kindName(v), article(typ))
	}
	return nil, fmt.Sprintf("has an unknown type %s", typ)
}

// textCollection reads a list or mapping written as text: terse flow
// ('[a,b]', '{foo:"bar"}'), JSON, or block YAML as KUDO itself wrote them.
func textCollection(s, typ string) (any, string) {
	v, err := params.ParseText(nil, s)
	if err != nil || value.TypeName(v) != typ {
		v = nil
		if d, err := document.Read([]byte(s), document.Options{}); err == nil {
			v = d.Value
		}
	}
	if v != nil && value.TypeName(v) == typ {
		if expands(s, v) {
			return nil, fmt.Sprintf("%q: %s", s, errExpands)
		}
		return v, ""
	}
	what := "list"
	if typ == "object" {
		what = "mapping"
	}
	return nil, fmt.Sprintf("%q is not a YAML or JSON %s", s, what)
}

func article(typ string) string {
	switch typ {
	case "integer", "array", "object":
		return "an " + typ
	}
	return "a " + typ
}

// describe shows a raw value in a message.
func describe(v any) string {
	if s, ok := scalarText(v); ok {
		if _, isStr := v.(string); isStr {
			return fmt.Sprintf("the string %q", s)
		}
		if isNull(v) {
			return "null"
		}
		return s
	}
	return kindName(v)
}

// textOf is a raw value as v1beta1 text: scalars as written, collections
// as compact JSON.
func textOf(v any) string {
	if s, ok := scalarText(v); ok {
		return s
	}
	return string(encode.JSON(document.Resolve(v), nil, ""))
}

// assemble builds the root schema from the converted parameters.
func assemble(ps []param, withAPIVersion bool) (map[string]any, map[string][]string) {
	doc := map[string]any{}
	order := map[string][]string{}
	var keys []string
	set := func(k string, v any) {
		doc[k] = v
		keys = append(keys, k)
	}
	if withAPIVersion {
		set("apiVersion", V1beta2)
	}
	set("title", schemaTitle)
	set("$schema", string(schema.Draft2019))
	set("type", "object")
	var required []any
	for _, p := range ps {
		if p.required {
			required = append(required, p.name)
		}
	}
	if len(required) > 0 {
		set("required", required)
	}
	if len(ps) > 0 {
		props := make(map[string]any, len(ps))
		names := make([]string, 0, len(ps))
		for _, p := range ps {
			props[p.name] = p.prop
			names = append(names, p.name)
			graft(order, p.order, pointer.Join("properties", p.name))
		}
		set("properties", props)
		order["/properties"] = names
	}
	order[""] = keys
	return doc, order
}

// keepListAnnotation records the v1beta1 list text in the ListAnnotation.
func keepListAnnotation(doc map[string]any, list []byte) {
	md, _ := doc["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		doc["metadata"] = md
	}
	anns, _ := md["annotations"].(map[string]any)
	if anns == nil {
		anns = map[string]any{}
		md["annotations"] = anns
	}
	anns[ListAnnotation] = string(list)
}
