package schema_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// TestCheckJSONFile: a file named *.json is held to JSON, with the line
// of the fault; any other name, and JSON text, pass.
func TestCheckJSONFile(t *testing.T) {
	trailing := []byte("{\n  \"type\": \"object\",\n  \"properties\": {\n    \"a\": {\"type\": \"string\"},\n  }\n}\n")
	tests := []struct {
		name      string
		file      string
		data      []byte
		line, col int
	}{
		{name: "trailing comma in values.schema.json", file: "chart/values.schema.json", data: trailing, line: 4, col: 28},
		{name: "upper-case extension", file: `C:\chart\SCHEMA.JSON`, data: trailing, line: 4, col: 28},
		{name: "YAML in a .json file", file: "s.json", data: []byte("type: object\n"), line: 1, col: 1},
		{name: "the same text named .yaml is YAML", file: "s.yaml", data: trailing},
		{name: "no name (standard input)", file: "", data: trailing},
		{name: "JSON", file: "s.json", data: []byte(`{"type": "object"}`)},
		{name: "a folder named .json does not count", file: "x.json/schema", data: trailing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := schema.CheckJSONFile(tt.file, tt.data)
			if tt.line == 0 {
				assert.NoError(t, err)
				return
			}
			var se *schema.Error
			require.True(t, errors.As(err, &se), "%v", err)
			assert.Equal(t, schema.KindSyntax, se.Kind)
			assert.Equal(t, tt.line, se.Line)
			assert.Equal(t, tt.col, se.Column)
			assert.Contains(t, se.Message, "read as JSON only")
		})
	}
	// The YAML reader alone accepts the trailing comma: that is the gap.
	_, err := schema.Parse(trailing)
	assert.NoError(t, err)
}
