// Package keyword is the list of JSON Schema keywords paramkit knows,
// shared by schema, convert and lint.
package keyword

// keywords are the keywords of JSON Schema draft-04 to 2020-12 (but
// draft-04's "id", a keyword of draft-04 only), the KUDO vocabulary, and
// the OpenAPI and Kubernetes keywords schemas carry. Lint's rules,
// convert's reading of KUDO's first params format and schema.Parse's test
// of what is a schema at all read this one list.
var keywords = []string{
	"$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor",
	"$vocabulary", "$comment", "$defs", "definitions",
	"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies",
	"prefixItems", "items", "additionalItems", "contains", "properties", "patternProperties",
	"additionalProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties",
	"type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
	"maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
	"maxProperties", "minProperties", "required", "dependentRequired",
	"format", "contentEncoding", "contentMediaType", "contentSchema",
	"title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples",
	"trigger", "immutable", "oldName",
	"nullable", "example", "discriminator", "externalDocs",
}

var keywordSet = func() map[string]bool {
	m := map[string]bool{"id": true} // draft-04
	for _, k := range keywords {
		m[k] = true
	}
	return m
}()

// Known returns the keywords paramkit knows: those of JSON Schema
// draft-04 to 2020-12, the KUDO vocabulary (trigger, immutable, oldName)
// and the OpenAPI and Kubernetes keywords schemas carry (nullable,
// example, discriminator, externalDocs). Draft-04's "id" is left out, as
// it is a keyword of draft-04 only. The slice is a copy.
func Known() []string { return append([]string(nil), keywords...) }

// Is reports whether k is a keyword of any supported draft: one of Known,
// or draft-04's "id".
func Is(k string) bool { return keywordSet[k] }
