package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/secret"
)

// Validate checks a plain value (maps, slices, strings, bools, nil and
// json.Number numbers) against the schema. It returns nil when the value
// is valid, else an ErrorList ordered by pointer, each entry's Kind
// derived from the failing keyword.
func (s *Schema) Validate(v any) error {
	if f := s.fastCheck(); f != nil {
		if ok, sure := fastValid(f, v); ok && sure {
			return nil
		}
	}
	return engineErrors(s.compiled.Validate(v), v, s.doc, true, s.secretLeaf)
}

// engineErrors turns the engine's verdict on v into an ErrorList, or nil;
// doc is the schema document (an enum or const is quoted from it);
// showValue adds the offending scalar to a type error's message; isSecret
// reports whether a failure at an instance pointer, raised by the keyword
// at a schema pointer, must not quote the value.
func engineErrors(err error, v any, doc any, showValue bool, isSecret func(inst, kw string) bool) error {
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return ErrorList{{Kind: KindInvalid, Message: err.Error()}}
	}
	var out ErrorList
	seen := map[string]bool{}
	for _, leaf := range leaves(ve) {
		kw, alt := keywordOf(leaf.KeywordLocation)
		kind := kindOf(kw)
		if alt {
			// One alternative of anyOf/oneOf failed: no single keyword
			// is the reason the value is refused.
			kind = KindComposition
		}
		e := &Error{Pointer: leaf.InstanceLocation, Kind: kind, Message: humanize(kw, leaf.Message),
			Detail: &ErrorDetail{Keyword: pointerOf(leaf.AbsoluteKeywordLocation)}}
		if kw == "enum" || kw == "const" {
			if allowed, ok := pointer.Get(doc, e.Detail.Keyword); ok {
				e.Message = allowedMessage(kw, allowed)
			}
		}
		hidden := isSecret(e.Pointer, e.Detail.Keyword)
		if hidden {
			e.Message = hideValue(e.Message)
		}
		if showValue && kw == "type" {
			// Show the offending scalar: `expected boolean, but got string "yes"`.
			if got, ok := pointer.Get(v, leaf.InstanceLocation); ok {
				if sv := scalarText(got); sv != "" {
					e.Message += " " + secret.Text(hidden, sv)
				}
			}
		}
		k := e.Pointer + "\x00" + e.Message
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	return out
}

// scalarText quotes an offending value for a message; it is the one place
// validation messages show a value.
func scalarText(v any) string {
	switch t := v.(type) {
	case string:
		if len(t) > 60 {
			t = t[:57] + "..."
		}
		return strconv.Quote(t)
	case json.Number:
		if len(t) > 60 {
			return string(t[:57]) + "..."
		}
		return string(t)
	case bool:
		return strconv.FormatBool(t)
	}
	return ""
}

// allowedMessage says which values an enum or const allows, each written
// as JSON (`3, 5, 6`; strings quoted), not in the engine's Go syntax, which
// quotes numbers as if they were strings.
func allowedMessage(kw string, allowed any) string {
	if kw == "const" {
		return "value must be " + jsonText(allowed)
	}
	list, _ := allowed.([]any)
	if len(list) == 1 {
		return "value must be " + jsonText(list[0])
	}
	parts := make([]string, len(list))
	for i, a := range list {
		parts[i] = jsonText(a)
	}
	return "value must be one of " + strings.Join(parts, ", ")
}

// jsonText writes a schema value as JSON, shortened past 60 bytes.
func jsonText(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return "?"
	}
	b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}

// Valid reports whether v satisfies the schema.
func (s *Schema) Valid(v any) bool { return s.compiled.Validate(v) == nil }

// leaves returns the innermost causes: the specific reasons.
func leaves(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		return []*jsonschema.ValidationError{ve}
	}
	var out []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// humanize rewrites the engine's terse messages where a person would be
// left guessing. The decision is the failing keyword's; the names of the
// missing or extra properties are only in the engine's message text
// (santhosh-tekuri/jsonschema/v5 gives them in no field), so they are taken
// from it.
func humanize(kw, m string) string {
	m = strings.ReplaceAll(m, "'", "\"")
	switch kw {
	case "required":
		if _, names, ok := strings.Cut(m, ": "); ok {
			return "missing required " + plural(m, "propert") + ": " + names
		}
	case "additionalProperties":
		if rest, ok := strings.CutPrefix(m, "additionalProperties "); ok {
			return "not allowed here: " + strings.TrimSuffix(rest, " not allowed") + " (the schema does not declare it)"
		}
	}
	return m
}

// keywordOf reads the failing keyword from the engine's keyword location
// (a JSON pointer through the schema, across $refs): the last keyword in
// it, or "" when the location ends at a subschema itself (a false schema
// failed). alt reports that the failure lies inside one alternative of
// anyOf or oneOf.
func keywordOf(loc string) (kw string, alt bool) {
	toks, err := pointer.Split(loc)
	if err != nil {
		return "", false
	}
	for i := 0; i < len(toks); {
		t := toks[i]
		i++
		kw = t
		switch t {
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
			i++ // a name, then a subschema
			kw = ""
		case "dependencies", "dependentRequired":
			// The array form fails at dependencies/NAME/INDEX; the
			// schema form goes on into the subschema at NAME.
			if i+1 >= len(toks) || (i+2 == len(toks) && isIndex(toks[i+1])) {
				return t, alt
			}
			i++
			kw = ""
		case "allOf", "anyOf", "oneOf", "prefixItems", "items":
			if i < len(toks) && isIndex(toks[i]) {
				if (t == "anyOf" || t == "oneOf") && i+1 < len(toks) {
					alt = true
				}
				i++
				kw = ""
			}
		case "$ref", "$dynamicRef", "$recursiveRef":
			kw = "" // into the referenced schema
		}
	}
	return kw, alt
}

func isIndex(t string) bool {
	if t == "" {
		return false
	}
	for _, c := range t {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// keywordKinds maps each validation keyword to the Kind of its failure.
var keywordKinds = map[string]Kind{
	"required": KindRequired,
	"type":     KindType,
	"enum":     KindEnum,
	"const":    KindConst,

	"minimum": KindRange, "maximum": KindRange, "exclusiveMinimum": KindRange,
	"exclusiveMaximum": KindRange, "multipleOf": KindRange,

	"minLength": KindLength, "maxLength": KindLength, "minItems": KindLength,
	"maxItems": KindLength, "minProperties": KindLength, "maxProperties": KindLength,
	"contains": KindLength, "minContains": KindLength, "maxContains": KindLength,

	"pattern":       KindPattern,
	"propertyNames": KindPattern,

	"format": KindFormat, "contentEncoding": KindFormat, "contentMediaType": KindFormat,
	"contentSchema": KindFormat,

	"additionalProperties": KindAdditional, "additionalItems": KindAdditional,
	"unevaluatedProperties": KindAdditional, "unevaluatedItems": KindAdditional,
	"items": KindAdditional, // items: false (2020-12) refuses items past prefixItems

	"uniqueItems": KindUnique,

	"dependentRequired": KindDependency, "dependencies": KindDependency,

	"anyOf": KindComposition, "oneOf": KindComposition, "allOf": KindComposition,
	"not": KindComposition, "if": KindComposition, "then": KindComposition,
	"else": KindComposition,
	"":     KindComposition, // a false schema
}

// kindOf is the Kind of a failure of keyword kw.
func kindOf(kw string) Kind {
	if k, ok := keywordKinds[kw]; ok {
		return k
	}
	return KindInvalid
}

func plural(m, stem string) string {
	if strings.Count(m, ",") > 0 {
		return stem + "ies"
	}
	return stem + "y"
}

// fastCheck builds the fast check once, on first use.
func (s *Schema) fastCheck() *fastNode {
	s.fastOnce.Do(func() {
		if s.compiled != nil {
			s.fast, _ = compileFast(s.compiled, s.formatsAsserted)
		}
	})
	return s.fast
}
