package schema

import (
	"fmt"
	"sort"
	"strings"

	"github.com/paramkit/paramkit/internal/keyword"
	"github.com/paramkit/paramkit/internal/kudoparams"
)

// schemaish reports whether a key of a schema's root object is something
// a schema could mean: a keyword of any supported draft (internal/keyword), an x- extension
// or a $ key.
func schemaish(k string) bool {
	return keyword.Is(k) || strings.HasPrefix(k, "x-") || strings.HasPrefix(k, "$")
}

// notSchema returns the error for a root object that is no schema (none
// of its keys, apiVersion and kind aside, is schemaish), or nil. {} and
// an object holding only apiVersion or kind are schemas.
func notSchema(m map[string]any) *Error {
	var keys []string
	scalars := true
	for k, v := range m {
		if schemaish(k) {
			return nil
		}
		switch v.(type) {
		case map[string]any, []any:
			if k != "apiVersion" && k != "kind" {
				scalars = false
			}
		}
		keys = append(keys, k)
	}
	others := 0
	for _, k := range keys {
		if k != "apiVersion" && k != "kind" {
			others++
		}
	}
	if others == 0 {
		return nil
	}
	sort.Strings(keys)
	shown, more := keys, ""
	if len(shown) > 5 {
		shown, more = shown[:5], fmt.Sprintf(" and %d more", len(keys)-5)
	}
	what := "a map of values"
	if scalars {
		what = "a flat map of values"
	}
	msg := fmt.Sprintf("expected a JSON Schema (an object of schema keywords such as type and properties, or {} or true); found %s (keys %s%s), none of them a schema keyword", what, strings.Join(shown, ", "), more)
	if hint := looksLike(m); hint != "" {
		msg += "; " + hint
	}
	return &Error{Kind: KindNotSchema, Message: msg}
}

// looksLike names what a root object that is no schema seems to be and
// where to read it, or "".
func looksLike(m map[string]any) string {
	kind, _ := m["kind"].(string)
	apiVersion, _ := m["apiVersion"].(string)
	_, params := m["parameters"]
	switch {
	case kind == "CustomResourceDefinition":
		return "this is a CustomResourceDefinition manifest: read it with convert.LoadSchema (its storage version) or kube.CRDVersions (every version)"
	case kind == "OperatorVersion":
		return "this is a KUDO OperatorVersion: read it with convert.LoadSchema"
	case kudoparams.IsOperatorFile(m):
		return "this is a KUDO operator.yaml: read its package folder with convert.ReadSchema (lint.ReadPackage for the whole package)"
	case params || strings.HasPrefix(apiVersion, "kudo.dev/"):
		return "this is a KUDO params file: read it with convert.LoadSchema"
	case kudoparams.FirstFormat(m, func(v any) any { return v }):
		return "this looks like a KUDO params file in KUDO's first format (a map from name to parameter): read it with convert.LoadSchema"
	}
	return ""
}
