package document

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckJSON(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		line, col int
		msg       string
	}{
		{name: "JSON", in: `{"a": [1, 2], "b": {"c": null}}`},
		{name: "JSON scalar", in: " 1 \n"},
		{name: "duplicate key is JSON (reading refuses it)", in: `{"a": 1, "a": 2}`},
		{name: "trailing comma in object", in: "{\n  \"a\": 1,\n}\n", line: 2, col: 9, msg: "a trailing comma before '}' is not JSON: remove it"},
		{name: "trailing comma in array", in: "{\"a\": [\n  1,\n  2,\n  ]\n}", line: 3, col: 4, msg: "a trailing comma before ']' is not JSON: remove it"},
		{name: "YAML", in: "a: 1\n", line: 1, col: 1, msg: "unexpected character 'a'"},
		{name: "unquoted key", in: "{\n  a: 1\n}", line: 2, col: 3, msg: "expected a string key"},
		{name: "hash comment", in: "{\n  # note\n  \"a\": 1\n}", line: 2, col: 3, msg: "a comment is not JSON: remove it"},
		{name: "slash comment", in: "{\"a\": 1 // note\n}", line: 1, col: 9, msg: "a comment is not JSON: remove it"},
		{name: "unclosed object names its opening", in: "{\n  \"a\": {\n    \"b\": 1\n  }\n", line: 1, col: 1, msg: "the '{' here is never closed (expected ',' or '}')"},
		{name: "unclosed string", in: "{\"a\": \"b}", line: 1, col: 10, msg: "unexpected end of input in string"},
		{name: "empty", in: "  \n", line: 1, col: 1, msg: "the file is empty: a JSON document is expected"},
		{name: "two documents", in: "{}\n{}", line: 2, col: 1, msg: "unexpected text after the JSON value"},
		{name: "text after a number beyond the limits", in: "[1,\n 0E10000A]", line: 2, col: 9, msg: "invalid character 'A' after array element"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := CheckJSON([]byte(tt.in))
			if tt.msg == "" {
				assert.Nil(t, f)
				return
			}
			require.NotNil(t, f)
			assert.Equal(t, JSONFault{Line: tt.line, Column: tt.col, Msg: tt.msg}, *f)
		})
	}
}

// FuzzCheckJSON: CheckJSON agrees with encoding/json on what is JSON, and
// a fault lies inside the text.
func FuzzCheckJSON(f *testing.F) {
	for _, s := range []string{`{"a":1}`, "{\"a\":1,}", "[1,2,]", "a: 1", `{"a": "\u00e9"}`, "{\n# c\n}", "", "[[[", `"x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fault := CheckJSON(data)
		if utf8.Valid(data) && !bytes.ContainsRune(data, utf8.RuneError) && len(data) < MaxDocumentBytes && strings.Count(string(data), "[")+strings.Count(string(data), "{") < MaxDepth {
			assert.Equal(t, json.Valid(data), fault == nil, "%q: %+v", data, fault)
		}
		if fault == nil {
			return
		}
		assert.Positive(t, fault.Line)
		assert.Positive(t, fault.Column)
		// Lines as every reader counts them: a lone "\r" is a break too.
		assert.LessOrEqual(t, fault.Line, countLines(data)+1, "%q: %+v", data, fault)
		assert.NotEmpty(t, fault.Msg)
	})
}
