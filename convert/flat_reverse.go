package convert

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// errNotOperatorVersion starts the message of ToV1beta1's error for
// input that is not an OperatorVersion manifest.
const errNotOperatorVersion = "converting to v1beta1 needs an OperatorVersion manifest"

// ToV1beta1 converts a v1beta2 OperatorVersion (YAML or JSON) back to
// v1beta1, as a conversion webhook must for old clients once v1beta2 is
// stored. spec.parameters becomes a flat list with one entry per property
// of the schema's root: title as displayName, description, required,
// default and enum values as text (a string verbatim, anything else as
// compact JSON), the type as value-type where v1beta1 has a name for it
// (object as map), trigger and immutable. Only the fields the v1beta1
// OperatorVersion type has are written, so an apiserver that prunes
// unknown fields changes nothing.
//
// The whole schema, which the list cannot hold, goes into the
// [ParametersAnnotation] so that FromV1beta1 restores it exactly; every
// other field of the object stays as it was, apart from apiVersion.
// An OperatorVersion that already holds a list comes back unchanged.
// Input that is not an OperatorVersion manifest gives a *schema.Error of
// kind schema.KindNotSchema (ToV1beta1's only error of that kind).
func ToV1beta1(data []byte) (*Converted, error) {
	raw, order, err := readRaw(data)
	if err != nil {
		return nil, err
	}
	root, ok := raw.(map[string]any)
	if !ok {
		return nil, schema.NewError(schema.KindNotSchema, "", errNotOperatorVersion+": the input is %s", kindName(raw))
	}
	kind, _ := document.ScalarText(root["kind"])
	if kind != "" && kind != "OperatorVersion" {
		return nil, schema.NewError(schema.KindNotSchema, "/kind", errNotOperatorVersion+": the input is of kind %s", kind)
	}
	if _, hasSpec := root["spec"]; kind == "" && !hasSpec {
		return nil, schema.NewError(schema.KindNotSchema, "", errNotOperatorVersion+": the input has neither kind nor spec (a schema or params.yaml has no v1beta1 form of its own)")
	}
	const listPtr = "/spec/parameters"
	c := &flatConverter{order: order}
	spec, ok := root["spec"].(map[string]any)
	if !ok {
		if isNull(root["spec"]) {
			return nil, schema.ErrorList{{Kind: schema.KindSchema, Pointer: "/spec", Message: "an OperatorVersion needs a spec"}}.Err()
		}
		return nil, schema.ErrorList{{Kind: schema.KindSchema, Pointer: "/spec", Message: "spec must be a mapping"}}.Err()
	}
	doc := document.Resolve(root).(map[string]any)
	docSpec := doc["spec"].(map[string]any)
	switch scalar(spec["parameters"]).(type) {
	case []any:
		out := c.unchanged(root, "")
		out.Schema = nil
		out.input = data
		return out, nil
	case nil:
		doc["apiVersion"] = apiV1beta1
		return &Converted{Document: doc, Changed: true, order: withAPIVersionFirst(order)}, nil
	case map[string]any, bool:
	default:
		return nil, schema.ErrorList{{Kind: schema.KindSchema, Pointer: listPtr, Message: fmt.Sprintf("spec.parameters must be a schema, not %s", kindName(spec["parameters"]))}}.Err()
	}
	schemaDoc := docSpec["parameters"]
	sOrder := subOrder(order, listPtr)
	list, listOrder, _ := project(schemaDoc, sOrder)
	var listAny []any = list

	md, ok := doc["metadata"].(map[string]any)
	if !ok {
		if doc["metadata"] != nil { // resolved: null is nil
			return nil, schema.ErrorList{{Kind: schema.KindSchema, Pointer: "/metadata", Message: "metadata must be a mapping"}}.Err()
		}
		md = map[string]any{}
		doc["metadata"] = md
	}
	anns, ok := md["annotations"].(map[string]any)
	if !ok {
		if md["annotations"] != nil {
			return nil, schema.ErrorList{{Kind: schema.KindSchema, Pointer: "/metadata/annotations", Message: "annotations must be a mapping"}}.Err()
		}
		anns = map[string]any{}
		md["annotations"] = anns
	}
	anns[ParametersAnnotation] = string(encode.JSON(schemaDoc, encode.ByKeyOrder(sOrder), ""))
	if kept, keptOrder, ok := keptList(anns, schemaDoc); ok {
		// The schema is what this very list converts to: give the old
		// client its own list back, in its order and with its fields.
		listAny, listOrder = kept, keptOrder
	}
	delete(anns, ListAnnotation)
	docSpec["parameters"] = listAny
	doc["apiVersion"] = apiV1beta1

	outOrder := withAPIVersionFirst(withoutSubtree(order, listPtr))
	graft(outOrder, listOrder, listPtr)
	return &Converted{Document: doc, Changed: true, order: outOrder}, nil
}

// entryKeys is the order of a v1beta1 parameter's fields as ToV1beta1 writes them.
var entryKeys = []string{"name", "displayName", "description", "required", "default", "value-type", "enum", "trigger", "immutable"}

// v1TypeNames maps JSON Schema types to the v1beta1 names.
var v1TypeNames = map[string]string{
	"string": "string", "integer": "integer", "number": "number", "boolean": "boolean",
	"array": "array", "object": "map",
}

// project writes a schema's root properties as a v1beta1 list. order is
// the schema's key order (rooted at the schema); the list's key order
// comes back rooted at the list. fields holds each entry's canonical
// fields by name.
func project(schemaDoc any, order map[string][]string) ([]any, map[string][]string, map[string]v1Fields) {
	list := []any{}
	listOrder := map[string][]string{}
	fields := map[string]v1Fields{}
	root, ok := schemaDoc.(map[string]any)
	if !ok {
		return list, listOrder, fields
	}
	props, _ := root["properties"].(map[string]any)
	required := map[string]bool{}
	if req, ok := root["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	for i, name := range orderedKeys(props, order["/properties"]) {
		entry, f := projectProperty(name, props[name], required[name])
		list = append(list, entry)
		fields[name] = f
		keys := make([]string, 0, len(entry))
		for _, k := range entryKeys {
			if _, ok := entry[k]; ok {
				keys = append(keys, k)
			}
		}
		listOrder[pointer.AppendIndex("", i)] = keys
	}
	return list, listOrder, fields
}

func projectProperty(name string, prop any, required bool) (map[string]any, v1Fields) {
	entry := map[string]any{"name": name}
	f := v1Fields{Name: name}
	m, _ := prop.(map[string]any)
	if s, ok := m["title"].(string); ok && s != "" {
		entry["displayName"] = s
		f.DisplayName = s
	}
	if s, ok := m["description"].(string); ok && s != "" {
		entry["description"] = s
		f.Description = s
	}
	if required {
		entry["required"] = true
		f.Required = true
	}
	if d, ok := m["default"]; ok {
		t := wrapText(d)
		entry["default"] = t
		f.Default = &t
	}
	if t, ok := m["type"].(string); ok && v1TypeNames[t] != "" {
		entry["value-type"] = v1TypeNames[t]
		f.Type = v1TypeNames[t]
	}
	if e, ok := m["enum"].([]any); ok {
		texts := make([]any, len(e))
		f.HasEnum = true
		for i, x := range e {
			t := wrapText(x)
			texts[i] = t
			f.Enum = append(f.Enum, t)
		}
		entry["enum"] = texts
	}
	if s, ok := m["trigger"].(string); ok && s != "" {
		entry["trigger"] = s
		f.Trigger = s
	}
	if b, ok := m["immutable"].(bool); ok && b {
		entry["immutable"] = true
		f.Immutable = true
	}
	return entry, f
}

// wrapText is a value as v1beta1 text: a string verbatim, anything else
// as compact JSON.
func wrapText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return string(encode.JSON(v, nil, ""))
}

// orderedKeys lists m's keys in the recorded order, the rest sorted.
func orderedKeys(m map[string]any, rec []string) []string {
	out := make([]string, 0, len(m))
	seen := make(map[string]bool, len(m))
	for _, k := range rec {
		if _, ok := m[k]; ok && !seen[k] {
			out = append(out, k)
			seen[k] = true
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// keywordOf maps a v1beta1 field to the schema keyword it becomes.
var keywordOf = map[string]string{
	"displayName": "title", "description": "description", "trigger": "trigger", "immutable": "immutable",
	"value-type": "type", "default": "default", "enum": "enum",
}

// restore rebuilds the schema ToV1beta1 kept in the annotation. Where the
// v1beta1 list still says what ToV1beta1 wrote, the kept schema comes back
// exactly, even where v1beta1 could not have converted it (a default the
// type refuses); a field an old client changed in the list replaces the
// keyword it maps to (a changed type also re-types default and enum), a
// parameter added to the list is converted afresh, one removed from it is
// gone. Only conversion errors in what changed count.
func (c *flatConverter) restore(ann string, ps []param) (any, map[string][]string, schema.ErrorList) {
	annPtr := pointer.Join("metadata", "annotations", ParametersAnnotation)
	fresh := func() (any, map[string][]string, schema.ErrorList) {
		if errs := errsOf(ps); len(errs) > 0 {
			return nil, nil, errs
		}
		doc, order := assemble(ps, false)
		return doc, order, nil
	}
	d, err := document.Read([]byte(ann), document.Options{Order: true})
	if err == nil && !d.JSON {
		err = errors.New("it is not JSON")
	}
	if err != nil {
		c.note(annPtr, "the kept v1beta2 schema cannot be read (%v): the list was converted instead", err)
		return fresh()
	}
	kept, annOrder := d.Value, d.Order
	keptList, _, projected := project(kept, annOrder)
	keptMap, isMap := kept.(map[string]any)
	if !isMap {
		if len(ps) == 0 {
			c.note(annPtr, "restored the v1beta2 schema kept by ToV1beta1")
			return kept, annOrder, nil
		}
		c.note(annPtr, "the kept v1beta2 schema has no properties for the listed parameters: the list was converted instead")
		return fresh()
	}

	// Nothing changed: the kept schema exactly.
	same := len(ps) == len(keptList)
	for i := 0; same && i < len(ps); i++ {
		f, ok := projected[ps[i].fields.Name]
		same = ok && ps[i].fields.Name == keptList[i].(map[string]any)["name"] && len(ps[i].fields.changed(f)) == 0
	}
	if same {
		c.note(annPtr, "restored the v1beta2 schema kept by ToV1beta1")
		return kept, annOrder, nil
	}

	keptProps, _ := keptMap["properties"].(map[string]any)
	out := make(map[string]any, len(keptMap))
	for k, v := range keptMap {
		if k != "properties" && k != "required" {
			out[k] = v
		}
	}
	order := withoutSubtree(annOrder, "/properties")
	props := make(map[string]any, len(ps))
	names := make([]string, 0, len(ps))
	listed := make(map[string]bool, len(ps))
	var errs schema.ErrorList
	for _, p := range ps {
		kp, inKept := keptProps[p.fields.Name]
		f, projectedToo := projected[p.fields.Name]
		if !inKept || !projectedToo || listed[p.fields.Name] {
			if len(p.errs) > 0 {
				errs = append(errs, p.errs...)
				continue
			}
			c.note(pointer.Append(p.ptr, "name"), "parameter %q is new in the v1beta1 list: converted", p.name)
			listed[p.name] = true
			names = append(names, p.name)
			props[p.name] = p.prop
			graft(order, p.order, pointer.Join("properties", p.name))
			continue
		}
		listed[p.name] = true
		names = append(names, p.name)
		propPtr := pointer.Join("properties", p.name)
		ch := p.fields.changed(f)
		if ch["value-type"] {
			ch["default"], ch["enum"] = true, true
		}
		if e := errsIn(p, ch); len(e) > 0 {
			errs = append(errs, e...)
			continue
		}
		kpMap, kpIsMap := kp.(map[string]any)
		if len(ch) == 0 || !kpIsMap {
			props[p.name] = kp
			graft(order, subOrder(annOrder, propPtr), propPtr)
			if len(ch) > 0 && !(len(ch) == 1 && ch["required"]) {
				c.note(p.ptr, "parameter %q changed through v1beta1, but its kept schema is not an object: kept as it was", p.name)
			}
			continue
		}
		merged := make(map[string]any, len(kpMap))
		for k, v := range kpMap {
			merged[k] = v
		}
		propOrder := subOrder(annOrder, propPtr)
		keys := append([]string(nil), propOrder[""]...)
		var what []string
		for _, field := range entryKeys {
			if !ch[field] {
				continue
			}
			what = append(what, field)
			kw, maps := keywordOf[field]
			if !maps {
				continue
			}
			for k := range propOrder {
				if pointer.HasPrefix(k, pointer.Append("", kw)) {
					delete(propOrder, k)
				}
			}
			if v, ok := p.prop[kw]; ok {
				if _, had := merged[kw]; !had {
					keys = append(keys, kw)
				}
				merged[kw] = v
				graft(propOrder, subOrder(p.order, pointer.Append("", kw)), pointer.Append("", kw))
			} else {
				delete(merged, kw)
			}
		}
		propOrder[""] = keys
		props[p.name] = merged
		graft(order, propOrder, propPtr)
		if !(len(what) == 1 && what[0] == "required") {
			c.note(p.ptr, "parameter %q changed through v1beta1 (%s): those fields converted afresh, the rest of its kept schema restored", p.name, strings.Join(what, ", "))
		}
	}
	if len(errs) > 0 {
		return nil, nil, errs
	}
	for _, name := range orderedKeys(keptProps, subOrder(annOrder, "/properties")[""]) {
		if !listed[name] {
			c.note(annPtr, "parameter %q is no longer in the v1beta1 list: removed from the schema", name)
		}
	}
	if _, had := keptMap["properties"]; had || len(props) > 0 {
		out["properties"] = props
		order["/properties"] = names
	}

	// required: the kept list when the set of required parameters did
	// not change, else rebuilt from the v1beta1 list (keeping names the
	// kept schema requires without declaring them).
	keptReq, _ := keptMap["required"].([]any)
	var freshReq []any
	for _, p := range ps {
		if p.required && listed[p.name] {
			freshReq = append(freshReq, p.name)
		}
	}
	keptDeclared := map[string]bool{}
	var undeclared []any
	for _, r := range keptReq {
		s, _ := r.(string)
		if _, ok := keptProps[s]; ok {
			keptDeclared[s] = true
		} else {
			undeclared = append(undeclared, r)
		}
	}
	sameReq := len(keptDeclared) == len(freshReq)
	for _, r := range freshReq {
		sameReq = sameReq && keptDeclared[r.(string)]
	}
	switch {
	case sameReq && keptReq != nil:
		out["required"] = keptReq
	case len(freshReq)+len(undeclared) > 0:
		out["required"] = append(freshReq, undeclared...)
	}
	return out, order, nil
}

// fieldOfKey maps the input keys of a v1beta1 parameter to the field
// of v1Fields they fill.
var fieldOfKey = map[string]string{"type": "value-type"}

// errsIn keeps the errors of p that lie in a changed field (or in the
// parameter as a whole): the rest are moot where the kept schema stays.
func errsIn(p param, ch map[string]bool) schema.ErrorList {
	var out schema.ErrorList
	for _, e := range p.errs {
		rest := strings.TrimPrefix(e.Pointer, p.ptr)
		if rest == "" || rest == e.Pointer {
			out = append(out, e)
			continue
		}
		toks, _ := pointer.Split(rest)
		field := toks[0]
		if f, ok := fieldOfKey[field]; ok {
			field = f
		}
		if ch[field] {
			out = append(out, e)
		}
	}
	return out
}

// keptList returns the v1beta1 list kept in the ListAnnotation when it
// still converts to exactly schemaDoc.
func keptList(anns map[string]any, schemaDoc any) ([]any, map[string][]string, bool) {
	text, _ := anns[ListAnnotation].(string)
	if text == "" {
		return nil, nil, false
	}
	d, err := document.Read([]byte(text), document.Options{Order: true})
	if err != nil || !d.JSON {
		return nil, nil, false
	}
	list, ok := d.Value.([]any)
	if !ok {
		return nil, nil, false
	}
	probe := map[string]any{"apiVersion": apiV1beta1, "kind": "OperatorVersion", "spec": map[string]any{"parameters": list}}
	c, err := FromV1beta1(encode.JSON(probe, nil, ""))
	if err != nil {
		return nil, nil, false
	}
	got, _ := c.Document.(map[string]any)["spec"].(map[string]any)
	if got == nil || !value.Equal(got["parameters"], schemaDoc) {
		return nil, nil, false
	}
	return list, d.Order, true
}
