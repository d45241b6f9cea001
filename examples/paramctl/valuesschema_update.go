package main

// Updating an existing values.schema.json in place (paramctl schema on a
// chart that has one): keys new in values.yaml (its comments, the
// overlays) are added with schema/edit's AddProperty, one level at a
// time, which splices the new text in and keeps every other byte of the
// file; keys the schema declares and values.yaml no longer has are kept.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/schema/edit"
)

// schemaUpdate is the outcome of updating a schema from values.yaml.
type schemaUpdate struct {
	out []byte
	// added are the values pointers of the properties added, parents
	// before their children.
	added []string
	// secrets are the added pointers whose key reads as a secret: added
	// writeOnly, without their value.
	secrets []string
	// left are the values pointers the schema declares and no source
	// (values.yaml, its comments, the overlays) has. They are kept and
	// not reported: nothing changed there.
	left []string
	// failed are additions schema/edit refused, as "POINTER: message".
	failed []string
}

// updater walks the existing schema beside the generated one.
type updater struct {
	doc any // the existing schema as plain values, for lookups
	u   schemaUpdate
}

// updateSchema adds to the schema document existing what gen declares
// and it lacks: keys of values.yaml, of its comments and of the
// overlays, typed by the same evidence as a generated schema (a null or
// empty value's key too, with no type). A closed root gets global, which
// Helm adds to a subchart's values.
//
// A document that is no usable schema is refused (schema.Parse's error),
// before anything is added.
func updateSchema(existing []byte, gen *jsonObject) (*schemaUpdate, error) {
	if _, err := schema.Parse(existing); err != nil {
		return nil, err
	}
	j, err := yaml.YAMLToJSON(existing)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	rootMap, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the schema is not a JSON object")
	}
	up := &updater{doc: doc, u: schemaUpdate{out: existing}}
	up.walk(doc, gen, "", true, false, 0)
	if rootMap["additionalProperties"] == false {
		if _, found := propertyIn(up.scope(doc), "global"); !found {
			g := newObject()
			g.set("type", "object")
			g.set("title", "Global")
			g.set("description", "Values Helm shares with every subchart; Helm adds it to the values of a chart used as a subchart.")
			up.add("/global", g, false)
		}
	}
	return &up.u, nil
}

// walk compares the object schema node (of the existing schema) with the
// generated object schema g at ptr.
//
// secret is set below a node the schema marks writeOnly or format:
// password: what is added there gets no default, so that no value of it
// is written into the schema.
func (up *updater) walk(node any, g *jsonObject, ptr string, root, secret bool, depth int) {
	if depth > 64 {
		return
	}
	scope := up.scope(node)
	secret = secret || isSecret(scope)
	if !root && !declaresProperties(scope) {
		return // a free-form object: its keys are the user's
	}
	generated := map[string]bool{}
	if props, ok := g.get("properties"); ok {
		po := props.(*jsonObject)
		for _, k := range po.keys {
			generated[k] = true
			child := po.vals[k].(*jsonObject)
			p := ptr + "/" + escapeToken(k)
			ex, found := propertyIn(scope, k)
			if !found {
				up.add(p, child, secret)
				continue
			}
			if _, ok := child.get("properties"); ok {
				up.walk(ex, child, p, false, secret, depth+1)
			}
		}
	}
	for _, k := range declaredNames(scope) {
		if !generated[k] {
			up.u.left = append(up.u.left, ptr+"/"+escapeToken(k))
		}
	}
}

// add adds the generated property g at ptr, then what lies below it;
// without defaults where secret.
func (up *updater) add(ptr string, g *jsonObject, secret bool) {
	var p edit.Property
	switch t, _ := g.get("type"); x := t.(type) {
	case string:
		p.Type = x
	case []any:
		for _, e := range x {
			p.Types = append(p.Types, e.(string))
		}
	default:
		p.AnyType = true
	}
	if v, ok := g.get("title"); ok {
		p.Title = v.(string)
	}
	if v, ok := g.get("description"); ok {
		p.Description = v.(string)
	}
	if v, ok := g.get("writeOnly"); ok && v == true {
		p.WriteOnly = true
	}
	if v, ok := g.get("default"); ok && !secret {
		p.Default, p.HasDefault = v, true
	}
	out, err := edit.AddProperty(up.u.out, ptr, p)
	if err != nil {
		up.u.failed = append(up.u.failed, fmt.Sprintf("%s: not added: %v", ptr, strings.TrimPrefix(err.Error(), ptr+": ")))
		return
	}
	up.u.out = out
	up.u.added = append(up.u.added, ptr)
	if p.WriteOnly {
		up.u.secrets = append(up.u.secrets, ptr)
	}
	if props, ok := g.get("properties"); ok {
		po := props.(*jsonObject)
		for _, k := range po.keys {
			up.add(ptr+"/"+escapeToken(k), po.vals[k].(*jsonObject), secret || p.WriteOnly)
		}
	}
}

// scope is a schema node and what it brings in through a local $ref and
// allOf, anyOf and oneOf branches.
func (up *updater) scope(node any) []map[string]any {
	var out []map[string]any
	seen := map[string]bool{}
	var visit func(n any, depth int)
	visit = func(n any, depth int) {
		m, ok := n.(map[string]any)
		if !ok || depth > 16 {
			return
		}
		out = append(out, m)
		if ref, ok := m["$ref"].(string); ok && strings.HasPrefix(ref, "#") && !seen[ref] {
			seen[ref] = true
			if target, ok := lookupPointer(up.doc, strings.TrimPrefix(ref, "#")); ok {
				visit(target, depth+1)
			}
		}
		for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
			if l, ok := m[kw].([]any); ok {
				for _, b := range l {
					visit(b, depth+1)
				}
			}
		}
	}
	visit(node, 0)
	return out
}

// isSecret reports whether a scope marks its node writeOnly or format:
// password.
func isSecret(scope []map[string]any) bool {
	for _, m := range scope {
		if m["writeOnly"] == true || m["format"] == "password" {
			return true
		}
	}
	return false
}

func declaresProperties(scope []map[string]any) bool {
	for _, m := range scope {
		if _, ok := m["properties"].(map[string]any); ok {
			return true
		}
	}
	return false
}

// propertyIn finds a property declared anywhere in a scope.
func propertyIn(scope []map[string]any, name string) (any, bool) {
	for _, m := range scope {
		if props, ok := m["properties"].(map[string]any); ok {
			if p, ok := props[name]; ok {
				return p, true
			}
		}
	}
	return nil, false
}

// declaredNames are the property names a scope declares, sorted.
func declaredNames(scope []map[string]any) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range scope {
		if props, ok := m["properties"].(map[string]any); ok {
			for k := range props {
				if !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// lookupPointer resolves a JSON pointer ("/$defs/x") in plain values.
func lookupPointer(doc any, ptr string) (any, bool) {
	if ptr == "" {
		return doc, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	cur := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[tok]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
