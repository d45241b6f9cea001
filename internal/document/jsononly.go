package document

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// JSONFault is where text that must be JSON is not: the 1-based line and
// column an editor shows and what is wrong there.
type JSONFault struct {
	Line, Column int
	Msg          string
}

// CheckJSON reports whether data is one JSON document, and if not, where
// it stops being one. Text that YAML would read (a trailing comma, a
// comment, an unquoted key) is a fault: a file named *.json is read by
// tools that take JSON only (Helm refuses such a values.schema.json). A
// document that is JSON but breaks a limit (depth, size, a duplicate key)
// is not a fault here: reading it says so.
func CheckJSON(data []byte) *JSONFault {
	if len(data) > MaxDocumentBytes {
		return nil // reading it reports the size
	}
	_, err := DecodeJSON(data)
	var se *jsonSyntaxError
	if err == nil {
		return nil
	}
	if !errors.As(err, &se) {
		// A limit (a number's exponent, say) stops the reader before the
		// end, so text after it is still to be checked ("0E10000A").
		var syn *json.SyntaxError
		if err := json.Unmarshal(data, new(json.RawMessage)); !errors.As(err, &syn) {
			return nil
		}
		line, col := position(data, max(int(syn.Offset)-1, 0))
		return &JSONFault{Line: line, Column: col, Msg: syn.Error()}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return &JSONFault{Line: 1, Column: 1, Msg: "the file is empty: a JSON document is expected"}
	}
	if strings.HasPrefix(se.Msg, "unexpected end of input in ") && !strings.HasSuffix(se.Msg, "string") {
		if line, col := unclosed(data); line > 0 {
			return &JSONFault{Line: line, Column: col, Msg: notClosed(data, line, col)}
		}
	}
	off := se.Offset
	msg := se.Msg
	if off < len(data) && (data[off] == '}' || data[off] == ']') {
		// The usual slip: a comma before the closing bracket, which YAML
		// accepts and JSON does not. Point at the comma, the thing to delete.
		prev := bytes.TrimRight(data[:off], " \t\r\n")
		if len(prev) > 0 && prev[len(prev)-1] == ',' {
			off = len(prev) - 1
			msg = "a trailing comma before '" + string(data[se.Offset]) + "' is not JSON: remove it"
		}
	}
	if off < len(data) && (data[off] == '#' || (data[off] == '/' && off+1 < len(data) && (data[off+1] == '/' || data[off+1] == '*'))) {
		msg = "a comment is not JSON: remove it"
	}
	line, col := position(data, off)
	return &JSONFault{Line: line, Column: col, Msg: msg}
}
