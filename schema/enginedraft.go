package schema

import "github.com/santhosh-tekuri/jsonschema/v5"

// The engine (jsonschema/v5) compiles a 2020-12 schema in time quadratic
// in its number of subschemas: for each one it scans every subschema of
// the document for $dynamicAnchor. 20,000 properties took 19 s to compile
// against 1.1 s as 2019-09, which does the same work for every keyword
// the two drafts share. So a 2020-12 document that uses no keyword whose
// meaning differs between them is compiled as 2019-09; its compiled
// validation is the same. Anything else, and any document the engine
// refuses that way, is compiled as written, so that every message stays
// the one the engine gives for the document's own dialect.

// draftOnly2020 are the keys whose meaning differs between 2019-09 and
// 2020-12 (or that only one of them knows), plus $schema below the root
// (a resource of its own dialect) and $vocabulary.
var draftOnly2020 = map[string]bool{
	"$dynamicAnchor": true, "$dynamicRef": true, "$recursiveAnchor": true, "$recursiveRef": true,
	"prefixItems": true, "additionalItems": true, "unevaluatedItems": true, "$vocabulary": true, "$schema": true,
}

// maxShortcutKeys bounds the document scanned for the shortcut's keys:
// beyond it (an unusual document) the scan costs more than it saves.
const maxShortcutKeys = 1 << 22

// engineShortcut returns the draft to compile doc with and the document to
// give the engine: Draft2019 and doc without its root $schema where
// compiling as 2019-09 means the same as 2020-12 (a root $schema then
// names 2019-09); draft and doc otherwise.
// It only ever looks at keys (anywhere in the document, also inside
// defaults and enums: a false alarm only costs speed).
func engineShortcut(doc any, draft *jsonschema.Draft) (*jsonschema.Draft, any) {
	if draft != jsonschema.Draft2020 {
		return draft, doc
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return draft, doc
	}
	budget := maxShortcutKeys
	var differs func(v any, top bool) bool
	differs = func(v any, top bool) bool {
		switch t := v.(type) {
		case map[string]any:
			for k, c := range t {
				budget--
				if budget < 0 || (draftOnly2020[k] && !(top && k == "$schema")) {
					return true
				}
				if _, isList := c.([]any); isList && k == "items" {
					return true // 2019-09's tuple form
				}
				if differs(c, false) {
					return true
				}
			}
		case []any:
			for _, c := range t {
				if differs(c, false) {
					return true
				}
			}
		}
		return false
	}
	if differs(root, true) {
		return draft, doc
	}
	if _, has := root["$schema"]; has {
		// Named, the dialect's meta-schema makes format an annotation;
		// 2019-09's does the same (without $schema the engine asserts
		// formats, whichever the draft).
		cp := make(map[string]any, len(root))
		for k, v := range root {
			cp[k] = v
		}
		cp["$schema"] = draft2019
		doc = cp
	}
	return jsonschema.Draft2019, doc
}
