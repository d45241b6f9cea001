package main

import (
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

// badKeys names the top-level keys a convert error points at.
func badKeys(err error) map[string]bool {
	var ves schema.ErrorList
	if !asList(err, &ves) {
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

// immutableErrors checks immutability between the old and the new values
// (defaulted inside) and returns one cause per violation.
func immutableErrors(s *schema.Schema, old, new any) []kube.StatusCause {
	err := params.CheckImmutable(s, old, new)
	if err == nil {
		return nil
	}
	var errs schema.ErrorList
	if !asList(err, &errs) {
		return []kube.StatusCause{{Type: "FieldValueForbidden", Field: paramPointer(""), Message: err.Error()}}
	}
	out := make([]kube.StatusCause, len(errs))
	for i, e := range errs {
		out[i] = kube.StatusCause{Type: "FieldValueForbidden", Field: paramPointer(e.Pointer), Message: e.Message}
	}
	return out
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
