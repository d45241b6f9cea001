package params_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// The foundation's speed target: decode + default + validate of a large
// values document within 1.5x of the floor, encoding/json decoding plus a
// bare jsonschema validate of the same document, the schema compiled once.

func loadLarge(tb testing.TB) (schemaJSON, valuesJSON []byte) {
	tb.Helper()
	s, err := os.ReadFile("testdata/large/schema.json")
	require.NoError(tb, err)
	v, err := os.ReadFile("testdata/large/values.json")
	require.NoError(tb, err)
	return s, v
}

func BenchmarkFloorEncodingJSONPlusBareValidate(b *testing.B) {
	sj, vj := loadLarge(b)
	c := jsonschema.NewCompiler()
	require.NoError(b, c.AddResource("mem:///s.json", bytes.NewReader(sj)))
	sch := c.MustCompile("mem:///s.json")
	b.SetBytes(int64(len(vj)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dec := json.NewDecoder(bytes.NewReader(vj))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			b.Fatal(err)
		}
		if err := sch.Validate(v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPipelineJSON(b *testing.B) {
	sj, vj := loadLarge(b)
	s, err := schema.Parse(sj)
	require.NoError(b, err)
	b.SetBytes(int64(len(vj)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, err := params.Decode(s, vj)
		if err != nil {
			b.Fatal(err)
		}
		v = defaulted(b, s, v)
		if err := params.Validate(s, v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPipelineYAML(b *testing.B) {
	sj, vj := loadLarge(b)
	s, err := schema.Parse(sj)
	require.NoError(b, err)
	v, err := params.Decode(s, vj)
	require.NoError(b, err)
	vy, err := params.MarshalYAML(s, v)
	require.NoError(b, err)
	b.SetBytes(int64(len(vy)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, err := params.Decode(s, vy)
		if err != nil {
			b.Fatal(err)
		}
		v = defaulted(b, s, v)
		if err := params.Validate(s, v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSchemaParse(b *testing.B) {
	sj, _ := loadLarge(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := schema.Parse(sj); err != nil {
			b.Fatal(err)
		}
	}
}
