package convert

import (
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/kudoparams"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// The apiVersions of KUDO's two parameter formats.
const (
	apiV1beta1 = kudoparams.V1beta1
	apiV1beta2 = kudoparams.V1beta2
)

// The annotations stored on KUDO objects in a cluster, keeping what the
// other parameter format cannot hold. Their keys are part of the API: a
// stored object carries them across upgrades.
const (
	// ParametersAnnotation is the annotation in which ToV1beta1 keeps
	// the whole v1beta2 parameter schema of an OperatorVersion (compact
	// JSON, keys in their original order) because a flat v1beta1 list
	// cannot hold it; FromV1beta1 restores the schema from it and removes
	// it. On an Instance, kudo.ConvertObject keeps in it the v1beta2
	// values that have no exact v1beta1 text.
	ParametersAnnotation = kudoparams.ParametersAnnotation
	// ListAnnotation is the OperatorVersion annotation in which a
	// conversion webhook (kudo.ConvertObject) keeps the v1beta1 parameter
	// list an old client wrote, so that ToV1beta1 gives that client back
	// its own list (its order, and fields it left out) while the schema is
	// unchanged. A stored object keeps no key order, so the schema alone
	// cannot carry the list's.
	ListAnnotation = kudoparams.ListAnnotation
)

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
	if c == nil {
		return nil, schema.NewError(schema.KindUsage, "", "convert: no Converted document")
	}
	if !c.Changed && c.input != nil {
		return append([]byte(nil), c.input...), nil
	}
	return encode.YAML(c.Document, encode.ByKeyOrder(c.order))
}

// JSON writes the document as JSON with exact numbers and the same key
// order as YAML; indent "" gives compact JSON.
func (c *Converted) JSON(indent string) ([]byte, error) {
	if c == nil {
		return nil, schema.NewError(schema.KindUsage, "", "convert: no Converted document")
	}
	v, err := value.Plain(c.Document)
	if err != nil {
		return nil, notPlainError(err)
	}
	return encode.JSON(v, encode.ByKeyOrder(c.order), indent), nil
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
//     [ParametersAnnotation] is restored; parameters an old client changed
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
// The option that applies: InferStringTypes.
//
// Input that is not YAML or JSON gives a *schema.Error; a parameter
// that cannot be converted (no name, an unknown type, a default that is
// not of its type, a name used twice) gives a schema.ErrorList holding
// every problem, each with a pointer into the input and the parameter's
// name.
func FromV1beta1(data []byte, opts ...Option) (*Converted, error) {
	var cfg options
	for _, opt := range opts {
		if opt != nil {
			opt(&cfg)
		}
	}
	raw, order, err := readRaw(data)
	if err != nil {
		return nil, err
	}
	return fromRaw(raw, order, data, cfg)
}

// fromRaw is FromV1beta1 on a document already read as readRaw reads it
// (LoadSchema reads its input once and dispatches by shape).
func fromRaw(raw any, order map[string][]string, data []byte, cfg options) (*Converted, error) {
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
	cfg   options
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
		return nil, schema.ErrorList{{Kind: schema.KindSchema, Message: fmt.Sprintf("expected a v1beta1 params file, an OperatorVersion or a parameter schema, not %s", kindName(raw))}}.Err()
	}
	kind, _ := document.ScalarText(root["kind"])
	apiVersion, _ := document.ScalarText(root["apiVersion"])
	spec, _ := root["spec"].(map[string]any)
	_, hasParams := root["parameters"]
	switch {
	case kind == "OperatorVersion" || (kind == "" && !hasParams && spec != nil && !isNull(spec["parameters"])):
		return c.operatorVersion(root, apiVersion)
	case kind == "Instance":
		return nil, schema.ErrorList{{Kind: schema.KindSchema, Pointer: "/kind", Message: "an Instance holds parameter values, not their definitions: unwrap it instead"}}.Err()
	case kind != "":
		return nil, schema.ErrorList{{Kind: schema.KindSchema, Pointer: "/kind", Message: fmt.Sprintf("cannot convert kind %s: expected a params file or an OperatorVersion", kind)}}.Err()
	case hasParams:
		return c.paramsFile(root, apiVersion)
	case apiVersion == apiV1beta1 && !looksLikeSchema(root):
		// A v1beta1 params file declaring no parameters at all.
		return c.paramsFile(root, apiVersion)
	case apiVersion == apiV1beta1:
		// A schema labelled v1beta1, the KEP's typo: read it as v1beta2.
		doc := document.Resolve(root).(map[string]any)
		doc["apiVersion"] = apiV1beta2
		c.note("/apiVersion", "a schema is the v1beta2 format: apiVersion set to %s", apiV1beta2)
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
	if apiVersion != "" && apiVersion != apiV1beta1 {
		return nil, schema.ErrorList{{Kind: schema.KindSchema, Pointer: "/apiVersion", Message: fmt.Sprintf("a parameters list is the %s format, but apiVersion says %q", apiV1beta1, apiVersion)}}.Err()
	}
	converted := c.list(root["parameters"], "/parameters")
	var extras []string
	for _, k := range c.keysOf("", root) {
		if k != "apiVersion" && k != "parameters" {
			extras = append(extras, k)
		}
	}
	if errs := append(c.errs, errsOf(converted)...); len(errs) > 0 {
		return nil, errs.Err()
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
	if apiVersion != "" && apiVersion != apiV1beta1 && apiVersion != apiV1beta2 {
		return nil, schema.ErrorList{{Kind: schema.KindSchema, Pointer: "/apiVersion", Message: fmt.Sprintf("unknown apiVersion %q for an OperatorVersion: expected %s or %s", apiVersion, apiV1beta1, apiV1beta2)}}.Err()
	}
	spec, ok := root["spec"].(map[string]any)
	if !ok && !isNull(root["spec"]) {
		return nil, schema.ErrorList{{Kind: schema.KindSchema, Pointer: "/spec", Message: "spec must be a mapping"}}.Err()
	}
	var list any
	if spec != nil {
		list = scalar(spec["parameters"])
	}
	switch list.(type) {
	case map[string]any, bool:
		if apiVersion == apiV1beta2 {
			return c.unchanged(root, listPtr), nil
		}
		// The KEP's converted example still says v1beta1: its evident
		// intent is the v1beta2 object.
		doc := document.Resolve(root).(map[string]any)
		doc["apiVersion"] = apiV1beta2
		c.note("/apiVersion", "spec.parameters already holds a schema (the v1beta2 format): apiVersion set to %s", apiV1beta2)
		out := &Converted{Document: doc, Changed: true, order: withAPIVersionFirst(c.order), schemaPtr: listPtr}
		out.Schema, _ = pointer.Get(doc, listPtr)
		return out, nil
	case nil:
		if apiVersion == apiV1beta2 {
			return c.unchanged(root, listPtr), nil
		}
		// No parameters in v1beta1, none in v1beta2: absent stays absent,
		// so that ToV1beta1 and FromV1beta1 invert each other.
		doc := document.Resolve(root).(map[string]any)
		doc["apiVersion"] = apiV1beta2
		return &Converted{Document: doc, Changed: true, order: withAPIVersionFirst(c.order), schemaPtr: listPtr}, nil
	case []any:
		if apiVersion == apiV1beta2 {
			c.note("/apiVersion", "apiVersion says %s but spec.parameters is a v1beta1 list: converted", apiV1beta2)
		}
	default:
		return nil, schema.ErrorList{{Kind: schema.KindSchema, Pointer: listPtr, Message: fmt.Sprintf("spec.parameters must be a list (v1beta1) or a schema (v1beta2), not %s", kindName(list))}}.Err()
	}

	converted := c.list(list, listPtr)
	if len(c.errs) > 0 {
		return nil, c.errs.Err()
	}
	doc := document.Resolve(root).(map[string]any)
	doc["apiVersion"] = apiV1beta2
	var schemaDoc any
	var sOrder map[string][]string
	generated := false
	if ann, ok := takeAnnotation(doc); ok {
		var errs schema.ErrorList
		schemaDoc, sOrder, errs = c.restore(ann, converted)
		if len(errs) > 0 {
			return nil, errs.Err()
		}
	} else {
		if errs := errsOf(converted); len(errs) > 0 {
			return nil, errs.Err()
		}
		schemaDoc, sOrder = assemble(converted, false)
		generated = true
	}
	docSpec, _ := doc["spec"].(map[string]any)
	if docSpec == nil {
		docSpec = map[string]any{}
		doc["spec"] = docSpec
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
		set("apiVersion", apiV1beta2)
	}
	set("title", schemaTitle)
	set("$schema", "https://json-schema.org/draft/2019-09/schema")
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
