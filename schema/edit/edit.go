package edit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/internal/secret"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// Property describes a parameter to add to a schema: what the KEP's
// add-parameter wizard asks for.
type Property struct {
	// Type is the JSON Schema type: string, integer, number, boolean,
	// object, array or null.
	Type string
	// Types, when set, is written in place of Type (which must then be
	// empty), as a list where it holds several: the property accepts a
	// value of any of them.
	Types []string
	// AnyType writes no type keyword at all (Type and Types must be
	// empty): the property accepts any value.
	AnyType     bool
	Title       string
	Description string
	// Default is the default value (plain values, json.Number for
	// numbers); it is written only when HasDefault is set.
	Default    any
	HasDefault bool
	// Required adds the name to the parent object's required list.
	Required bool
	// Trigger names the plan a change triggers; it must not differ from a
	// trigger above it.
	Trigger   string
	Immutable bool
	// WriteOnly marks the property a secret (writeOnly: true): its
	// values are never quoted in messages.
	WriteOnly bool
	// Enum lists the allowed values; the default must be one of them.
	Enum []any
}

// The order keywords of a new property are written in.
var specKeyOrder = []string{"type", "title", "description", "writeOnly", "default", "enum", "trigger", "immutable", "properties", "required"}

var jsonTypes = []string{"string", "integer", "number", "boolean", "object", "array", "null"}

// value returns the property's schema as plain values.
func (p Property) value() map[string]any {
	m := map[string]any{}
	if t := p.typeValue(); t != nil {
		m["type"] = t
	}
	if p.WriteOnly {
		m["writeOnly"] = true
	}
	if p.Title != "" {
		m["title"] = p.Title
	}
	if p.Description != "" {
		m["description"] = p.Description
	}
	if p.HasDefault {
		m["default"] = p.Default
	}
	if len(p.Enum) > 0 {
		m["enum"] = p.Enum
	}
	if p.Trigger != "" {
		m["trigger"] = p.Trigger
	}
	if p.Immutable {
		m["immutable"] = true
	}
	return m
}

// check validates the spec on its own: a known type, a default and enum
// values of that type, the default one of the enum values.
//
// hide is set where the property is a secret (an object above it says
// writeOnly or format: password): its values are then never quoted.
func (p Property) check(d string, hide bool) error {
	types := []string{p.Type}
	switch {
	case p.AnyType:
		if p.Type != "" || len(p.Types) > 0 {
			return fmt.Errorf("AnyType excludes a type (%q, %q)", p.Type, p.Types)
		}
		types = nil
	case len(p.Types) > 0:
		if p.Type != "" {
			return fmt.Errorf("give either Type or Types, not both")
		}
		types = p.Types
	}
	for _, t := range types {
		if !slices.Contains(jsonTypes, t) {
			return fmt.Errorf("type %q is not a JSON Schema type (use %s)", t, strings.Join(jsonTypes, ", "))
		}
	}
	hide = hide || p.WriteOnly
	if err := value.CheckNumbers(p.Default); err != nil {
		return fmt.Errorf("default: %v", err)
	}
	typeOnlyDoc := map[string]any{"$schema": d}
	if t := p.typeValue(); t != nil {
		typeOnlyDoc["type"] = t
	}
	typeOnly, err := schema.FromValue(typeOnlyDoc)
	if err != nil {
		return err
	}
	for i, e := range p.Enum {
		if err := typeOnly.Validate(e); err != nil {
			return fmt.Errorf("enum value %d (%s) is not of type %s", i, secret.Text(hide, compactJSON(e)), strings.Join(types, " or "))
		}
	}
	v := p.value()
	v["$schema"] = string(d)
	own, err := schema.FromValue(v)
	if err != nil {
		return err
	}
	if p.HasDefault {
		if err := own.Validate(p.Default); err != nil {
			if hide {
				return fmt.Errorf("default %s does not satisfy the property's schema (the parameter is a secret: its values are not shown)", secret.Hidden)
			}
			return fmt.Errorf("default %s does not satisfy the property's schema: %v", compactJSON(p.Default), firstMessage(err))
		}
	}
	return nil
}

// typeValue is the type keyword's value: nil for AnyType, a list for
// several Types, else Type.
func (p Property) typeValue() any {
	switch {
	case p.AnyType:
		return nil
	case len(p.Types) == 1:
		return p.Types[0]
	case len(p.Types) > 1:
		l := make([]any, len(p.Types))
		for i, t := range p.Types {
			l[i] = t
		}
		return l
	}
	return p.Type
}

func firstMessage(err error) string {
	var ve schema.ErrorList
	if problem.As(err, &ve) && len(ve) > 0 {
		return ve[0].Message
	}
	return err.Error()
}

func compactJSON(v any) string { return string(encode.JSON(v, nil, "")) }

// AddProperty adds a parameter to a schema document (YAML or JSON) and
// returns the new document. at is a JSON pointer into the values
// (/backup/retentionDays): the property is added to the properties of
// the object at its parent, creating missing intermediate objects. An
// existing property is never replaced. The default is validated against
// the new property's schema, and a trigger may not differ from a trigger
// above it.
//
// Everything else in the file stays as it was: the new text is spliced
// in, so key order, comments, quoting and layout are kept byte for byte.
// Where the layout defeats splicing (for example a YAML alias on the
// path), the YAML tree is re-encoded instead, which keeps order and
// comments but may change spacing. A parent defined through $ref gets the
// property in the definition it refers to (every use of it sees it).
//
// Every failure is a schema.ErrorList's Err (read it with
// schema.ErrorsOf): a document that is no usable schema gives
// schema.Parse's list (kinds KindSyntax, KindLimit, KindSchema,
// KindNotSchema, KindRefused); a property that cannot be added gives one
// entry whose Pointer is at (KindUsage for a malformed path or an edit
// that would not compile, KindConflict for a trigger other than the one
// above it, KindInvalid for a default the schema refuses there, KindUsage
// for any other refusal).
func AddProperty(doc []byte, at string, p Property) ([]byte, error) {
	s, err := schema.Parse(doc)
	if err != nil {
		return nil, err
	}
	// Every refusal below is about the property asked for at at.
	fail := func(kind schema.Kind, format string, a ...any) ([]byte, error) {
		return nil, schema.ErrorList{schema.NewError(kind, at, format, a...)}.Err()
	}
	toks, err := pointer.Split(at)
	if err != nil {
		return fail(schema.KindUsage, "%v", err)
	}
	if len(toks) == 0 {
		return fail(schema.KindUsage, "the path names no property: give one such as /backup/retentionDays")
	}
	for _, t := range toks {
		if t == "" {
			return fail(schema.KindUsage, "a property name may not be empty")
		}
	}
	hide := s.SecretAt(at)
	if err := p.check(s.Dialect(), hide); err != nil {
		return fail(schema.KindUsage, "%v", err)
	}
	plan, perr := planAddition(s, toks, p)
	if perr != nil {
		perr.Pointer = at
		return nil, schema.ErrorList{perr}.Err()
	}
	out, spliceErr, err := applyPlan(doc, plan)
	if err != nil {
		return fail(schema.KindUsage, "%v", err)
	}
	// The result must read back as exactly the intended document, compile,
	// and accept the default where the property now stands.
	ns, err := schema.Parse(out)
	if err != nil {
		return fail(schema.KindUsage, "the edited schema does not compile: %v", err)
	}
	if !value.Equal(ns.Document(), plan.want) {
		why := ""
		if spliceErr != nil {
			why = " (" + spliceErr.Error() + ")"
		}
		return fail(schema.KindUsage, "could not edit the file without changing other content%s; please add the property by hand", why)
	}
	if p.HasDefault {
		if err := ns.ValidateAt(plan.newPointer, p.Default); err != nil {
			return fail(schema.KindInvalid, "default %s does not satisfy the schema there: %v", secret.Text(hide || ns.SecretAt(at), compactJSON(p.Default)), firstMessage(err))
		}
	}
	return out, nil
}

// addition is what AddProperty changes: an entry added to the properties
// of the schema object at holder (created when missing), and maybe the
// name added to the holder's required list.
type addition struct {
	holder     string         // schema pointer of the object schema that gets the entry
	name       string         // key of the new entry under properties
	entry      map[string]any // the entry's schema (with intermediate objects)
	required   string         // name to add to holder's required list, or ""
	newPointer string         // schema pointer of the new property
	want       any            // the whole document after the edit, as plain values
}

// planAddition plans the edit. Its error is about the property asked for:
// AddProperty gives it that place.
func planAddition(s *schema.Schema, toks []string, p Property) (*addition, *schema.Error) {
	n := s.Root()
	ancestors := []*schema.Node{n}
	i := 0
	for ; i < len(toks)-1; i++ {
		c := ownOrScopeProperty(n, toks[i])
		if c == nil {
			break
		}
		n = c
		ancestors = append(ancestors, n)
	}
	if i == len(toks)-1 && ownOrScopeProperty(n, toks[i]) != nil {
		return nil, schema.NewError(schema.KindUsage, "", "the property already exists (at %s); remove it first to redefine it", pointer.Quote(ownOrScopeProperty(n, toks[i]).Pointer()))
	}
	// The parameter's parent must hold an object.
	if ts := n.Types(); ts != nil && !slices.Contains(ts, "object") {
		return nil, schema.NewError(schema.KindUsage, "", "%s is of type %s, not an object: a property cannot be added below it", pointer.Quote(n.Pointer()), strings.Join(ts, "|"))
	}
	// A trigger may only repeat the plan above it.
	if p.Trigger != "" {
		for _, a := range ancestors {
			for _, m := range a.Scope() {
				if m.Trigger() != "" && m.Trigger() != p.Trigger {
					return nil, schema.NewError(schema.KindConflict, "", "trigger %q conflicts with trigger %q at %s: a parameter inherits the plan above it", p.Trigger, m.Trigger(), m.Pointer()+"/trigger")
				}
			}
		}
	}
	holder := n
	for _, m := range n.Scope() {
		if _, ok := m.Keyword("properties"); ok {
			holder = m
			break
		}
	}
	if holder == n && n.Ref() != "" {
		if n.RefTarget() == nil {
			return nil, schema.NewError(schema.KindUsage, "", "%s is defined by $ref %q, which is not in this document", pointer.Quote(n.Pointer()), n.Ref())
		}
		holder = n.RefTarget()
	}
	if holder.Bool() != nil {
		return nil, schema.NewError(schema.KindUsage, "", "%s is a boolean schema: write it as an object schema first", pointer.Quote(holder.Pointer()))
	}

	// The entry: the property, wrapped in the objects still missing.
	missing := toks[i : len(toks)-1]
	name := toks[len(toks)-1]
	entry := p.value()
	requiredIn := ""
	if p.Required {
		requiredIn = name
	}
	for j := len(missing) - 1; j >= 0; j-- {
		obj := map[string]any{"type": "object", "properties": map[string]any{name: entry}}
		if requiredIn != "" {
			obj["required"] = []any{requiredIn}
			requiredIn = ""
		}
		name, entry = missing[j], obj
	}
	a := &addition{holder: holder.Pointer(), name: name, entry: entry, required: requiredIn}
	a.newPointer = pointer.Append(pointer.Append(holder.Pointer(), "properties"), toks[i])
	for _, t := range toks[i+1:] {
		a.newPointer = pointer.Append(pointer.Append(a.newPointer, "properties"), t)
	}

	// The document as it should read afterwards.
	want := value.DeepCopy(s.Document())
	hv, _ := pointer.Get(want, holder.Pointer())
	hm, ok := hv.(map[string]any)
	if !ok {
		return nil, schema.NewError(schema.KindUsage, "", "%s is not a schema object", pointer.Quote(holder.Pointer()))
	}
	props, ok := hm["properties"].(map[string]any)
	if !ok {
		if _, exists := hm["properties"]; exists {
			return nil, schema.NewError(schema.KindUsage, "", "%s/properties is not an object", holder.Pointer())
		}
		props = map[string]any{}
		hm["properties"] = props
	}
	if _, exists := props[name]; exists {
		return nil, schema.NewError(schema.KindUsage, "", "%s/properties/%s already exists", holder.Pointer(), pointer.Escape(name))
	}
	props[name] = value.DeepCopy(entry)
	if a.required != "" {
		req, exists := hm["required"]
		list, ok := req.([]any)
		if exists && !ok {
			return nil, schema.NewError(schema.KindUsage, "", "%s/required is not a list", holder.Pointer())
		}
		if !containsValue(list, a.required) {
			hm["required"] = append(list, a.required)
		} else {
			a.required = ""
		}
	}
	a.want = want
	return a, nil
}

func containsValue(l []any, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// ownOrScopeProperty finds a property of n, also where $ref and allOf
// bring it.
func ownOrScopeProperty(n *schema.Node, name string) *schema.Node {
	for _, m := range n.Scope() {
		if c := m.Property(name); c != nil {
			return c
		}
	}
	return nil
}

// applyPlan writes the addition into the source text: spliced in, or
// where that fails (spliceErr says why), by re-encoding the YAML tree.
func applyPlan(src []byte, a *addition) (out []byte, spliceErr, err error) {
	ed, err := newEditor(src)
	if err != nil {
		return nil, nil, err
	}
	out, spliceErr = ed.splice(a)
	if spliceErr == nil {
		return out, nil, nil
	}
	if ed.JSON {
		return nil, nil, spliceErr
	}
	out, err = ed.reencode(a)
	return out, spliceErr, err
}
