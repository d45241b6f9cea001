package schema

import (
	"strings"

	"github.com/paramkit/paramkit/internal/document"
)

// CheckJSONFile holds a file named *.json to JSON. Everywhere else a
// document that is not JSON is read as YAML, which accepts what JSON
// does not (a trailing comma, a comment, an unquoted key); but the tools
// that read a file by that name take JSON only (Helm refuses a chart
// whose values.schema.json has a trailing comma), so paramkit refuses it
// too. It returns nil when name does not end in ".json" (any case) or
// data is one JSON document, else an *Error of KindSyntax with the line
// and column of the fault.
func CheckJSONFile(name string, data []byte) error {
	if !strings.EqualFold(pathExt(name), ".json") {
		return nil
	}
	f := document.CheckJSON(data)
	if f == nil {
		return nil
	}
	return &Error{Kind: KindSyntax, Line: f.Line, Column: f.Column,
		Message: f.Msg + " (a file named .json is read as JSON only)"}
}

// pathExt is the extension of the last element of a slash- or
// backslash-separated name.
func pathExt(name string) string {
	base := name[strings.LastIndexAny(name, `/\`)+1:]
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		return base[i:]
	}
	return ""
}
