package convert

// Converting one v1beta1 parameter: its fields, its type (given or
// inferred from the default) and its values, which v1beta1 writes as text.

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
	name, ok := document.ScalarText(m["name"])
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
		s, ok := document.ScalarText(m[k])
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
		s, _ := document.ScalarText(tv)
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
		s, ok := document.ScalarText(v)
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
			s, _ := document.ScalarText(t)
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
			s, _ := document.ScalarText(t)
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
			s, _ := document.ScalarText(t)
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
	if s, ok := document.ScalarText(v); ok {
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
	if s, ok := document.ScalarText(v); ok {
		return s
	}
	return string(encode.JSON(document.Resolve(v), nil, ""))
}
