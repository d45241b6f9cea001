package convert

import (
	"fmt"
	"sort"
	"strings"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/keyword"
	"github.com/paramkit/paramkit/internal/kudoparams"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// rootKeys are the root keys, beside the keywords schema knows
// (schema.Keywords), that make a mapping something convert reads: the
// fields of manifests and params files, draft-04's id and OpenAPI's xml.
var rootKeys = map[string]bool{
	"id": true, "xml": true, "apiVersion": true, "kind": true, "parameters": true, "spec": true,
	"featureGate": true, "featureGates": true,
}

var schemaKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range keyword.Known() {
		m[k] = true
	}
	for k := range rootKeys {
		m[k] = true
	}
	return m
}()

// usesKeyword reports whether a mapping has at least one key a schema
// could mean.
func usesKeyword(m map[string]any) bool {
	for k := range m {
		if schemaKeywords[k] || strings.HasPrefix(k, "$") || strings.HasPrefix(k, "x-") {
			return true
		}
	}
	return false
}

// isFirstFormat reports whether a mapping is KUDO's first params format
// (see kudoparams.FirstFormat: parameters may carry fields KUDO ignored,
// which become x-kudo-* keywords as in the list format).
func isFirstFormat(m map[string]any) bool {
	return kudoparams.FirstFormat(m, rawValue)
}

// rawValue is what a raw scalar means (nil for null).
func rawValue(v any) any {
	if t, ok := v.(document.Text); ok {
		return t.Value()
	}
	return v
}

// notSchema is the error for a mapping that is neither a schema nor a
// params file: a *schema.Error of kind schema.KindNotSchema saying what
// was expected and what was found.
func notSchema(m map[string]any) error {
	keys := make([]string, 0, len(m))
	scalars := true
	for k, v := range m {
		keys = append(keys, k)
		switch v.(type) {
		case map[string]any, []any:
			scalars = false
		}
	}
	sort.Strings(keys)
	more := ""
	if len(keys) > 5 {
		more = fmt.Sprintf(" and %d more", len(keys)-5)
		keys = keys[:5]
	}
	what := "a map of values"
	if scalars {
		what = "a flat map of values"
	}
	return &schema.Error{Kind: schema.KindNotSchema, Message: fmt.Sprintf("expected a parameter schema, a v1beta1 params file (a list under parameters, or KUDO's first format: a map from name to parameter), an OperatorVersion, a CustomResourceDefinition or a KUDO package; found %s (keys %s%s), none of them a schema keyword", what, strings.Join(keys, ", "), more)}
}

// firstFormat converts KUDO's first params format, a mapping from name to
// parameter, like the list format, in file order. Pointers in errors and
// notes point at the parameter's key.
func (c *flatConverter) firstFormat(root map[string]any) (*Converted, error) {
	var ps []param
	for _, name := range c.keysOf("", root) {
		ptr := pointer.Append("", name)
		m := map[string]any{}
		if pm, ok := root[name].(map[string]any); ok {
			for k, v := range pm {
				m[k] = v
			}
		}
		m["name"] = name
		if ks, ok := c.order[ptr]; ok {
			c.order[ptr] = append([]string{"name"}, ks...)
		}
		ps = append(ps, c.param(m, ptr))
	}
	if errs := append(c.errs, errsOf(ps)...); len(errs) > 0 {
		return nil, errs.Err()
	}
	doc, order := assemble(ps, true)
	c.note("", "KUDO's first params format (a map from name to parameter) read as the v1beta1 list, in file order")
	return &Converted{Document: doc, Schema: doc, Changed: true, order: order, generated: true}, nil
}
