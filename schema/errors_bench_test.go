package schema_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/paramkit/paramkit/schema"
)

// BenchmarkValidateErrors validates a value with 60 faults (types,
// patterns, enums, bounds, required names): the cost of the error path,
// where messages are built from the schema document and the list is
// sorted, beside the valid path the pipeline benchmarks measure.
func BenchmarkValidateErrors(b *testing.B) {
	s, err := schema.Parse([]byte(`{
		"type": "object",
		"required": ["name", "zone"],
		"patternProperties": {
			"^i": {"type": "integer", "maximum": 9007199254740993},
			"^p": {"type": "string", "pattern": "^it's$"},
			"^e": {"enum": [1, 2, 3]}
		}
	}`))
	if err != nil {
		b.Fatal(err)
	}
	var text strings.Builder
	text.WriteString("{")
	for i := 0; i < 20; i++ {
		if i > 0 {
			text.WriteString(",")
		}
		fmt.Fprintf(&text, `"i%02d": 9007199254740994, "p%02d": "x", "e%02d": 4`, i, i, i)
	}
	text.WriteString("}")
	d := json.NewDecoder(strings.NewReader(text.String()))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Validate(v); err == nil {
			b.Fatal("valid")
		}
	}
}
