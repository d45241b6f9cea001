package main

import (
	"unicode/utf8"

	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// This file is where the webhook meets the paramkit packages:
// immutability and the patch. What an operator version is (its schema,
// plans, plan resolution, oldName migration, an Instance's parameters
// and conversion) is convert/kudo's.

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

// The bounds of an answer's text (the warnings: kube.AdmissionReview.Respond).
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
