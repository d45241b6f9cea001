package main

import (
	"encoding/json"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// encodeValues writes values as YAML or JSON, keys in schema order.
func (e *env) encodeValues(s *schema.Schema, v any, format string) ([]byte, error) {
	if format == "json" {
		out, err := params.MarshalJSON(s, v, "  ")
		if err != nil {
			return nil, err
		}
		return append(out, '\n'), nil
	}
	return params.MarshalYAML(s, v)
}

// writeJSON prints v as indented JSON, strings as they are (no HTML
// escapes: a message "a<b" stays "a<b"). It returns exitOK, or exitUsage
// if v cannot be encoded.
func (e *env) writeJSON(v any) int {
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	return exitOK
}

// mustBytes is the JSON of a value paramctl decoded or built itself, a
// plain value params.MarshalJSON cannot fail on: a failure is a bug in
// paramctl, never a half-written answer.
func mustBytes(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
