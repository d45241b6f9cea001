package params_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// One document at a time, with its index and the line it starts on.
func ExampleSplitter() {
	sp := params.NewSplitter(strings.NewReader("a: 1\n---\n# nothing\n---\nb: 2\n...\n--- {c: 3}\n"))
	for {
		d, err := sp.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		fmt.Printf("%d line %d: %q\n", d.Index, d.Line, d.Text)
	}
	// Output:
	// 0 line 1: "a: 1\n"
	// 1 line 5: "b: 2\n"
	// 2 line 7: "{c: 3}\n"
}

// Decoding and validating a stream of any length on all cores; the
// verdicts come back in input order.
func ExampleMapStream() {
	s, _ := schema.Parse([]byte(`{"type": "object", "properties": {"replicas": {"type": "integer"}}}`))
	in := strings.NewReader("replicas: 3\n---\nreplicas: three\n")
	_ = params.MapStream(context.Background(), in, 0, func(d params.RawDocument) error {
		v, err := params.Decode(s, d.Text)
		if err != nil {
			return d.Locate(err)
		}
		return params.Validate(s, v)
	}, func(d params.RawDocument, err error) error {
		fmt.Println(d.Index, err)
		return nil
	})
	// Output:
	// 0 <nil>
	// 1 /replicas: expected integer, but got string "three"
}

func ExampleDecodeReader() {
	s, _ := schema.Parse([]byte(`{"type": "object", "properties": {"version": {"type": "string"}}}`))
	in := strings.NewReader("version: 1.10\n---\n{\"version\": \"2\"}\n")
	err := params.DecodeReader(context.Background(), s, in, func(d params.Document) error {
		fmt.Println(d.Index, d.Line, d.JSON, d.Value)
		return nil
	})
	fmt.Println(err)
	// Output:
	// 0 1 false map[version:1.10]
	// 1 3 true map[version:2]
	// <nil>
}
