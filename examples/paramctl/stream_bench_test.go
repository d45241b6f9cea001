package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
)

// The figures of streams (issue 17), one benchmark each; run with
// -benchmem. Each iteration is one whole paramctl run over the stream.

// largeJSONStream is 1,500 documents of the large values file (about
// 9 KiB each as compact JSON), one a line, `---`-separated.
func largeJSONStream(b *testing.B) []byte {
	raw, err := os.ReadFile("../../params/testdata/large/values.json")
	require.NoError(b, err)
	var c bytes.Buffer
	require.NoError(b, json.Compact(&c, raw))
	var out bytes.Buffer
	for i := 0; i < 1500; i++ {
		out.WriteString("---\n")
		out.Write(c.Bytes())
		out.WriteByte('\n')
	}
	return out.Bytes()
}

func kepStreamBytes(b *testing.B, n int, old bool) []byte {
	var buf bytes.Buffer
	require.NoError(b, kepStream(&buf, n, old))
	return buf.Bytes()
}

// kepYAMLValues is n upgraded KEP documents as YAML (what validate reads).
func kepYAMLValues(n int) []byte {
	var buf bytes.Buffer
	for i := 0; i < n; i++ {
		buf.WriteString("---\nclusterName: cluster-")
		buf.WriteString(string(rune('a' + i%26)))
		buf.WriteString("\nbackup:\n  enabled: true\n  credentials:\n    name: user\n    password: secret\n")
	}
	return buf.Bytes()
}

func benchRun(b *testing.B, in []byte, args ...string) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var stderr bytes.Buffer
		e := &env{stdin: bytes.NewReader(in), stdout: io.Discard, stderr: &stderr}
		if code := e.dispatch(args); code != 0 {
			b.Fatalf("exit %d: %s", code, stderr.String())
		}
	}
}

// BenchmarkStreamValidateJSON: validate of 1,500 JSON documents of 9 KiB.
func BenchmarkStreamValidateJSON(b *testing.B) {
	benchRun(b, largeJSONStream(b), "validate", "--schema", "../../params/testdata/large/schema.json", "-")
}

// BenchmarkStreamFloorJSON: the floor under validate of the same stream,
// splitting it and decoding each document with encoding/json on all
// cores.
func BenchmarkStreamFloorJSON(b *testing.B) {
	in := largeJSONStream(b)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		err := params.MapStream(context.Background(), bytes.NewReader(in), 0, func(d params.Document[any]) (any, error) {
			dec := json.NewDecoder(bytes.NewReader(d.Text))
			dec.UseNumber()
			var v any
			return v, dec.Decode(&v)
		}, func(d params.Document[any]) error { return d.Err })
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStreamValidateYAML: validate of 10,000 KEP documents as YAML.
func BenchmarkStreamValidateYAML(b *testing.B) {
	benchRun(b, kepYAMLValues(10_000), "validate", "--schema", "demo/kep-upgraded-schema.yaml", "-")
}

// BenchmarkStreamMigrateYAML: migrate of 10,000 v1beta1 KEP documents as
// YAML to the upgraded schema, the documents written.
func BenchmarkStreamMigrateYAML(b *testing.B) {
	b.Setenv("TMPDIR", b.TempDir())
	benchRun(b, kepStreamBytes(b, 10_000, true), "migrate", "--schema", "demo/kep-upgraded-schema.yaml", "-")
}

// BenchmarkStreamMigrateDryRunJSON: migrate --dry-run -o json of the same
// stream.
func BenchmarkStreamMigrateDryRunJSON(b *testing.B) {
	benchRun(b, kepStreamBytes(b, 10_000, true), "migrate", "--schema", "demo/kep-upgraded-schema.yaml", "--dry-run", "-o", "json", "-")
}
