package convert

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
)

// ErrNotSchema is wrapped by the error of FromV1beta1 and LoadSchema for a
// document that is neither a parameter schema nor a params file: a flat
// map of values, for instance (what a user passes to install, often also
// named params.yaml). Such a document is refused, never echoed back.
var ErrNotSchema = errors.New("not a parameter schema or params file")

// NotSchemaError says what a refused document holds.
type NotSchemaError struct {
	// Found describes the document ("a map of values with keys a, b").
	Found string
}

// Error says what was expected and what was found.
func (e *NotSchemaError) Error() string {
	return "expected a parameter schema, a v1beta1 params file (a list under parameters, or KUDO's first format: a map from name to parameter), an OperatorVersion, a CustomResourceDefinition or a KUDO package; found " + e.Found
}

// Unwrap returns ErrNotSchema.
func (e *NotSchemaError) Unwrap() error { return ErrNotSchema }

// schemaKeywords are the keywords of JSON Schema (drafts 4 to 2020-12),
// of OpenAPI and Kubernetes, and of paramkit (KEP-33). A mapping using
// none of them at its root (and no x- or $ key) is not a schema.
var schemaKeywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`id type enum const properties patternProperties
	additionalProperties required items prefixItems additionalItems contains minContains
	maxContains minItems maxItems uniqueItems minLength maxLength pattern format minimum
	maximum exclusiveMinimum exclusiveMaximum multipleOf minProperties maxProperties
	dependencies dependentRequired dependentSchemas propertyNames allOf anyOf oneOf not if
	then else title description default examples readOnly writeOnly deprecated
	contentEncoding contentMediaType contentSchema unevaluatedItems unevaluatedProperties
	definitions nullable discriminator example externalDocs xml trigger immutable oldName
	featureGate featureGates apiVersion kind parameters spec`) {
		schemaKeywords[k] = true
	}
}

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

// firstFormatFields are the fields of a parameter in KUDO's first params
// format (the list format's fields but the name, which is the key).
func isFirstFormatParam(v any) bool {
	if isNull(v) {
		return true
	}
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for k := range m {
		if !knownFields[k] || k == "name" {
			return false
		}
	}
	return true
}

// isFirstFormat reports whether a mapping is KUDO's first params format:
// every value is a parameter (a mapping of parameter fields, or empty)
// and at least one has a field.
func isFirstFormat(m map[string]any) bool {
	fields := false
	for _, v := range m {
		if !isFirstFormatParam(v) {
			return false
		}
		if pm, ok := v.(map[string]any); ok && len(pm) > 0 {
			fields = true
		}
	}
	return fields
}

// notSchema describes a mapping that is no schema for NotSchemaError.
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
	return &NotSchemaError{Found: fmt.Sprintf("%s (keys %s%s), none of them a schema keyword", what, strings.Join(keys, ", "), more)}
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
		return nil, errs
	}
	doc, order := assemble(ps, true)
	c.note("", "KUDO's first params format (a map from name to parameter) read as the v1beta1 list, in file order")
	return &Converted{Document: doc, Schema: doc, Changed: true, order: order, generated: true}, nil
}
