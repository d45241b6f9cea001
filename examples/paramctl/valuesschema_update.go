package main

// Updating an existing values.schema.json in place (paramctl schema on a
// chart that has one): keys new in values.yaml are added with
// schema/edit's AddProperty, one level at a time, which splices the new
// text in and keeps every other byte of the file; keys the schema
// declares and values.yaml no longer has are reported, never removed.

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
	// skipped are keys new in values.yaml that were not added, with why
	// (a null value says nothing of its type).
	skipped []string
	// left are the values pointers the schema declares and values.yaml
	// does not have.
	left []string
	// failed are additions schema/edit refused, as "POINTER: message".
	failed []string
}

// updater walks the existing schema beside the generated one.
type updater struct {
	doc any // the existing schema as plain values, for lookups
	u   schemaUpdate
}

// updateSchema adds to the schema document existing what gen (generated
// from values) declares and it lacks.
//
// A document that is no usable schema is refused (schema.Parse's error),
// before anything is added.
func updateSchema(existing []byte, gen *jsonObject, values map[string]any) (*schemaUpdate, error) {
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
	if _, ok := doc.(map[string]any); !ok {
		return nil, fmt.Errorf("the schema is not a JSON object")
	}
	up := &updater{doc: doc, u: schemaUpdate{out: existing}}
	up.walk(doc, gen, values, "", true, false, 0)
	return &up.u, nil
}

// walk compares the object schema node (of the existing schema) with the
// generated object schema g for the values m at ptr.
//
// secret is set below a node the schema marks writeOnly or format:
// password: what is added there gets no default, so that no value of it
// is written into the schema.
func (up *updater) walk(node any, g *jsonObject, m map[string]any, ptr string, root, secret bool, depth int) {
	if depth > 64 {
		return
	}
	scope := up.scope(node)
	secret = secret || isSecret(scope)
	if !root && !declaresProperties(scope) {
		return // a free-form object: its keys are the user's
	}
	if props, ok := g.get("properties"); ok {
		po := props.(*jsonObject)
		for _, k := range po.keys {
			child := po.vals[k].(*jsonObject)
			p := ptr + "/" + escapeToken(k)
			ex, found := propertyIn(scope, k)
			if !found {
				up.add(p, child, secret)
				continue
			}
			if cm, ok := m[k].(map[string]any); ok {
				up.walk(ex, child, cm, p, false, secret, depth+1)
			}
		}
	}
	for _, k := range declaredNames(scope) {
		if _, ok := m[k]; !ok {
			up.u.left = append(up.u.left, ptr+"/"+escapeToken(k))
		}
	}
}

// add adds the generated property g at ptr, then what lies below it;
// without defaults where secret.
func (up *updater) add(ptr string, g *jsonObject, secret bool) {
	t, _ := g.get("type")
	ts, _ := t.(string)
	if ts == "" {
		up.u.skipped = append(up.u.skipped, ptr+": not added: values.yaml gives null, which says nothing of its type (add it by hand)")
		return
	}
	p := edit.Property{Type: ts}
	if v, ok := g.get("title"); ok {
		p.Title = v.(string)
	}
	if v, ok := g.get("description"); ok {
		p.Description = v.(string)
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
	if props, ok := g.get("properties"); ok {
		po := props.(*jsonObject)
		for _, k := range po.keys {
			up.add(ptr+"/"+escapeToken(k), po.vals[k].(*jsonObject), secret)
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
