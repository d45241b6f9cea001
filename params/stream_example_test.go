package params_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// Work of one's own on a stream of any length, on all cores; the
// documents come back in input order, each with its index, the line it
// starts on, its text and what work made of it.
func ExampleMapStream() {
	in := strings.NewReader("a: 1\n---\n# nothing\n---\nb: 2\n...\n--- {c: 3}\n")
	_ = params.MapStream(context.Background(), in, 0, func(d params.Document[int]) (int, error) {
		return len(d.Text), nil
	}, func(d params.Document[int]) error {
		fmt.Printf("%d line %d: %q (%d bytes)\n", d.Index, d.Line, d.Text, d.Value)
		return nil
	})
	// Output:
	// 0 line 1: "a: 1\n" (5 bytes)
	// 1 line 5: "b: 2\n" (5 bytes)
	// 2 line 7: "{c: 3}\n" (7 bytes)
}

// Decoding and validating a stream of any length on all cores; the
// verdicts come back in input order.
func ExampleMapStream_validate() {
	s, _ := schema.Parse([]byte(`{"type": "object", "properties": {"replicas": {"type": "integer"}}}`))
	in := strings.NewReader("replicas: 3\n---\nreplicas: three\n")
	_ = params.MapStream(context.Background(), in, 0, func(d params.Document[any]) (any, error) {
		v, err := params.Decode(s, d.Text)
		if err != nil {
			return nil, d.Locate(err)
		}
		return v, params.Validate(s, v)
	}, func(d params.Document[any]) error {
		fmt.Println(d.Index, d.Err)
		return nil
	})
	// Output:
	// 0 <nil>
	// 1 /replicas: expected integer, but got string "three"
}

func ExampleDecodeReader() {
	s, _ := schema.Parse([]byte(`{"type": "object", "properties": {"version": {"type": "string"}}}`))
	in := strings.NewReader("version: 1.10\n---\n{\"version\": \"2\"}\n")
	err := params.DecodeReader(context.Background(), s, in, 0, func(d params.Document[any]) error {
		fmt.Println(d.Index, d.Line, d.Value)
		return nil
	})
	fmt.Println(err)
	// Output:
	// 0 1 map[version:1.10]
	// 1 3 map[version:2]
	// <nil>
}

// DecodeReader hands over every document with its verdict, so that one
// that cannot be read does not hide the others; each error carries the
// line of the stream.
func ExampleDecodeReader_verdicts() {
	s, _ := schema.Parse([]byte(`{"type": "object", "properties": {"replicas": {"type": "integer", "minimum": 1}}}`))
	in := strings.NewReader("replicas: 3\n---\nreplicas: [\n---\n# only a comment\n---\nreplicas: 0\n")
	_ = params.DecodeReader(context.Background(), s, in, 0, func(d params.Document[any]) error {
		switch {
		case d.Err != nil && schema.ErrorsOf(d.Err)[0].Kind == schema.KindSyntax:
			fmt.Println("unreadable:", d.Err)
		case d.Err != nil:
			fmt.Println("invalid:", d.Err, "at line", schema.ErrorsOf(d.Err)[0].Line)
		default:
			fmt.Println("valid:", d.Value)
		}
		return nil
	})
	// Output:
	// valid: map[replicas:3]
	// unreadable: doc 1: line 3: the '[' here is never closed (expected ',' or ']')
	// invalid: doc 2: /replicas: must be >= 1 but found 0 at line 7
}
