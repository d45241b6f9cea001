package main

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/go-openapi/jsonpointer"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/kube"
	"github.com/paramkit/paramkit/schema"
)

// This file is where the webhook meets the paramkit packages:
// immutability, unwrapping and wrapping values and OperatorVersion
// conversion. What an operator version is (its schema, plans, plan
// resolution and oldName migration) is convert/kudo's.

// schemaUnwrapper types v1beta1 text by the schema as convert.UnwrapValues
// does. Text that cannot take its node's type stays the string it was, so
// that a stored object with a bad value still converts (and converts back
// to the same text); validation reports it where it matters.
func schemaUnwrapper(s *schema.Schema) unwrapper {
	return func(texts map[string]string) map[string]any {
		out, err := convert.UnwrapValues(s, texts)
		if err == nil {
			return out
		}
		bad := badKeys(err)
		rest := make(map[string]string, len(texts))
		for k, t := range texts {
			// An error without pointers keeps every text.
			if len(bad) > 0 && !bad[k] {
				rest[k] = t
			}
		}
		if out, err = convert.UnwrapValues(s, rest); err != nil {
			out, rest = map[string]any{}, nil
		}
		for k, t := range texts {
			if _, done := rest[k]; !done {
				out[k] = t
			}
		}
		return out
	}
}

// schemaWrapper writes values as v1beta1 text by the schema as
// convert.WrapValues does, returning the values no text carries.
func schemaWrapper(s *schema.Schema) wrapper {
	return func(values map[string]any) (map[string]string, map[string]any) {
		return wrapWith(s, values)
	}
}

// guessWrapper writes values as text that guessUnwrapper reads back: a
// string verbatim where it reads back as itself, else as a JSON string
// literal; anything else as compact JSON. What reads back otherwise (a
// number the apiserver would not keep exactly) goes into the bag.
func guessWrapper(values map[string]any) (map[string]string, map[string]any) {
	texts := make(map[string]string, len(values))
	var bag map[string]any
	for k, v := range values {
		var candidates []string
		if s, ok := v.(string); ok {
			candidates = []string{s, string(mustBytes(params.MarshalJSON(nil, s, "")))}
		} else {
			candidates = []string{string(mustBytes(params.MarshalJSON(nil, v, "")))}
		}
		done := false
		for _, c := range candidates {
			if back := guessOne(c); sameType(back, v) && params.Equal(back, v) {
				texts[k], done = c, true
				break
			}
		}
		if !done {
			if bag == nil {
				bag = map[string]any{}
			}
			bag[k] = v
			texts[k] = canonicalText(v)
		}
	}
	return texts, bag
}

// sameType is true when a and b are both strings or both not strings
// (params.Equal already tells the other types apart).
func sameType(a, b any) bool {
	_, as := a.(string)
	_, bs := b.(string)
	return as == bs
}

func wrapWith(s *schema.Schema, values map[string]any) (map[string]string, map[string]any) {
	texts, err := convert.WrapValues(s, values)
	if err == nil {
		return texts, nil
	}
	bad := badKeys(err)
	bag := make(map[string]any, len(bad))
	rest := make(map[string]any, len(values))
	for k, v := range values {
		if _, isBad := bad[k]; isBad || len(bad) == 0 {
			bag[k] = v
		} else {
			rest[k] = v
		}
	}
	if texts, err = convert.WrapValues(s, rest); err != nil {
		texts, bag = map[string]string{}, values
	}
	for k, v := range bag {
		texts[k] = canonicalText(v)
	}
	return texts, bag
}

// badKeys names the top-level keys a convert error points at.
func badKeys(err error) map[string]bool {
	var ves schema.ErrorList
	if !errors.As(err, &ves) {
		return nil
	}
	out := map[string]bool{}
	for _, e := range ves {
		if p, err := jsonpointer.New(e.Pointer); err == nil && !p.IsEmpty() {
			toks := p.DecodedTokens()
			out[toks[0]] = true
		}
	}
	return out
}

// guessOne types one text by convert.GuessValues' rules, keeping only
// what an apiserver stores exactly (see guessUnwrapper).
func guessOne(text string) any {
	v, _ := convert.GuessValues(map[string]string{"v": text})
	if storable(v["v"]) {
		return v["v"]
	}
	return text
}

// storable reports whether every number in v survives a kube-apiserver,
// which reads numbers as int64 or float64 and writes them back.
func storable(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for _, x := range t {
			if !storable(x) {
				return false
			}
		}
	case []any:
		for _, x := range t {
			if !storable(x) {
				return false
			}
		}
	case string, bool, nil:
	default:
		return storedExactly(v, canonicalText(v))
	}
	return true
}

// immutableErrors checks immutability between the old and the new values
// (defaulted inside) and returns one cause per violation.
func immutableErrors(s *schema.Schema, old, new any) []kube.StatusCause {
	err := params.CheckImmutable(s, old, new)
	if err == nil {
		return nil
	}
	var errs schema.ErrorList
	if !errors.As(err, &errs) {
		return []kube.StatusCause{{Type: "FieldValueForbidden", Field: paramPointer(""), Message: err.Error()}}
	}
	out := make([]kube.StatusCause, len(errs))
	for i, e := range errs {
		out[i] = kube.StatusCause{Type: "FieldValueForbidden", Field: paramPointer(e.Pointer), Message: e.Message}
	}
	return out
}

// convertOperatorVersion converts an OperatorVersion between the v1beta1
// parameter list and the v1beta2 schema (the whole schema rides in
// convert.ParametersAnnotation on the way down, so the way up restores
// it exactly).
func convertOperatorVersion(raw []byte, to string) ([]byte, error) {
	var c *convert.Converted
	var err error
	if to == V1beta2 {
		c, err = convert.FromV1beta1(raw, convert.KeepV1beta1List())
	} else {
		c, err = convert.ToV1beta1(raw)
	}
	if err != nil {
		return nil, err
	}
	doc, ok := c.Document.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the OperatorVersion converted to %s, not an object", aType(c.Document))
	}
	doc["apiVersion"] = to
	return c.JSON("")
}

// encodePatch writes operations as JSON, or nil when there are none.
func encodePatch(ops []any) []byte {
	if len(ops) == 0 {
		return nil
	}
	return mustBytes(params.MarshalJSON(nil, ops, ""))
}

// The bounds of an answer's text (the warnings: kube.CapWarnings).
const (
	maxFieldBytes   = 256
	maxMessageBytes = 512
	maxDenialBytes  = 32 << 10
)

// clip cuts s to at most n bytes on a character boundary, marking the
// cut with "…": a key or value quoted in a message stays short.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
