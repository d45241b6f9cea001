package params_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

var decodeValidateSchema = []byte(`
type: object
properties:
  name: {type: string, maxLength: 5}
  count: {type: integer, minimum: 0, maximum: 10}
  ratio: {type: number, exclusiveMaximum: 1, multipleOf: 0.25}
  tags: {type: array, items: {type: string}}
required: [name]
`)

var decodeValidateDocs = []string{
	"name: a\ncount: 3\nratio: 0.5\n",
	`{"name": "a", "count": 10, "ratio": 0.75}`,
	"name: toolong\n",
	"count: -1\n",
	"name: a\nratio: 1\n",
	"name: a\nratio: 0.3\n",
	"name: a\ncount: 1e999\n",
	"name: a\ncount: 99999999999999999999999999\n",
	`{"name": "a", "ratio": 1e-1}`,
	"name: a\ntags: [x, 1, true]\n",
	"null\n",
	"- 1\n",
	"name: [a\n",
	"name: \"\xff\"\n",
	`{"name": "\udc00"}`,
	"a: 1\n---\nb: 2\n",
	"",
}

// unreadable tells a document DecodeReader could not read from one it
// read: its error is of kind schema.KindSyntax or schema.KindLimit, which
// validation never gives, and it has no value.
func unreadable(d params.Document[any]) bool {
	l := schema.ErrorsOf(d.Err)
	return len(l) > 0 && (l[0].Kind == schema.KindSyntax || l[0].Kind == schema.KindLimit) && d.Value == nil
}

// readAll reads a stream with DecodeReader and returns its documents.
func readAll(s *schema.Schema, data []byte) ([]params.Document[any], error) {
	var docs []params.Document[any]
	err := params.DecodeReader(context.Background(), s, bytes.NewReader(data), 0, func(d params.Document[any]) error {
		docs = append(docs, d)
		return nil
	})
	return docs, err
}

// DecodeReader gives for a document what Decode then Validate give, for
// documents that read and are valid, that read and are not, and that do
// not read: the same value, the read error (Unreadable, no value) or
// Validate's errors, with lines.
func TestDecodeReaderIsDecodeThenValidate(t *testing.T) {
	s, err := schema.Parse(decodeValidateSchema)
	require.NoError(t, err)
	for _, sch := range []*schema.Schema{s, nil} {
		for _, doc := range decodeValidateDocs {
			docs, err := readAll(sch, []byte(doc))
			require.NoError(t, err, "%q", doc)
			if len(docs) != 1 {
				continue // a stream of several, or of none: Decode refuses it
			}
			d := docs[0]
			wantV, wantErr := params.Decode(sch, []byte(doc))
			if wantErr != nil {
				assert.True(t, unreadable(d), "%q", doc)
				assert.Equal(t, wantErr.Error(), fmt.Sprint(d.Err), "%q", doc)
				assert.Nil(t, d.Value, "%q", doc)
				continue
			}
			assert.False(t, unreadable(d), "%q", doc)
			assert.Equal(t, wantV, d.Value, "%q", doc)
			want := params.Validate(sch, wantV)
			assert.Equal(t, fmt.Sprint(want), fmt.Sprint(d.Err), "%q", doc)
			for _, e := range schema.ErrorsOf(d.Err) {
				if e.Pointer != "" {
					assert.Positive(t, e.Line, "%q: %v has no line", doc, e)
				}
			}
		}
	}
}

// A document's errors, read or validation, do not stop the stream; their
// lines are lines of the stream, and past the first document they name
// it.
func TestDecodeReaderHandsOverEveryDocument(t *testing.T) {
	s, err := schema.Parse(decodeValidateSchema)
	require.NoError(t, err)
	docs, err := readAll(s, []byte("name: a\n---\nname: [\n---\nname: a\ncount: 11\n"))
	require.NoError(t, err)
	require.Len(t, docs, 3)
	assert.NoError(t, docs[0].Err)
	assert.True(t, unreadable(docs[1]))
	assert.Equal(t, "doc 1: line 3: the '[' here is never closed (expected ',' or ']')", docs[1].Err.Error())
	assert.False(t, unreadable(docs[2]))
	list := schema.ErrorsOf(docs[2].Err)
	require.Len(t, list, 1)
	assert.Equal(t, schema.KindInvalid, list[0].Kind)
	assert.Equal(t, 6, list[0].Line)
	assert.Equal(t, "doc 2: /count: must be <= 10 but found 11", docs[2].Err.Error())
}

// FuzzDecodeReader: DecodeReader agrees with Decode then Validate on any
// input that is one document.
func FuzzDecodeReader(f *testing.F) {
	for _, doc := range decodeValidateDocs {
		f.Add([]byte(doc))
	}
	s, err := schema.Parse(decodeValidateSchema)
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := readAll(s, data)
		if err != nil {
			t.Fatalf("%q: %v", data, err)
		}
		if len(docs) != 1 {
			return
		}
		wantV, wantErr := params.Decode(s, data)
		if unreadable(docs[0]) != (wantErr != nil) {
			t.Fatalf("%q: DecodeReader %v, Decode %v", data, docs[0].Err, wantErr)
		}
		if wantErr != nil {
			return
		}
		// The same errors; their order may differ, since the stream knows
		// lines (errors in line order) and a plain value does not (pointer
		// order). TestDecodeReaderErrorsInLineOrder holds the order.
		want := params.Validate(s, wantV)
		if !assert.ObjectsAreEqual(wantV, docs[0].Value) || !slices.Equal(errorTexts(want), errorTexts(docs[0].Err)) {
			t.Fatalf("%q: DecodeReader %#v %v, Decode and Validate %#v %v", data, docs[0].Value, docs[0].Err, wantV, want)
		}
	})
}

// errorTexts is each error of err as POINTER: message, sorted.
func errorTexts(err error) []string {
	var out []string
	for _, e := range schema.ErrorsOf(err) {
		out = append(out, e.Pointer+": "+e.Message)
	}
	slices.Sort(out)
	return out
}

// decodeBySplitting is Decode as it was before it read one document
// directly: the stream split, then exactly one document expected.
func decodeBySplitting(s *schema.Schema, data []byte) (any, error) {
	docs, err := params.DecodeAll(s, data)
	if err != nil {
		return nil, err
	}
	if len(docs) != 1 {
		return nil, fmt.Errorf("%d documents", len(docs))
	}
	return docs[0], nil
}

var decodeOneSeeds = append([]string{
	"a: 1\n---\nb: 2\n", "a: 1\n...\n", "a: 1\n...\nb: 2\n", "--- a: 1\n", "---\na: 1\n",
	"# c\n---\na: 1\n", "a: 1\n---\n", "---\n---\n", "{\"a\":1}\n---\n{\"b\":2}\n", "a: 1\n--- \nb: 2\n",
	"%YAML 1.2\n---\na: 1\n", "a: \"x\n---\ny\"\n", "a: |\n  x\n  ---\n", "\"x\"", "1", "# only\n",
	"count: 3\nratio: 0.25\n", "count: '3'\n", "tags:\n- a\n- 1\n",
}, decodeValidateDocs...)

// Decode reads one document directly; where that reads, it gives what
// splitting the input first gives, and where it does not, the error is
// the one splitting gives.
func TestDecodeOneIsDecodeBySplitting(t *testing.T) {
	s, err := schema.Parse(decodeValidateSchema)
	require.NoError(t, err)
	for _, sch := range []*schema.Schema{s, nil} {
		for _, doc := range decodeOneSeeds {
			got, err := params.Decode(sch, []byte(doc))
			want, wantErr := decodeBySplitting(sch, []byte(doc))
			assert.Equal(t, wantErr == nil, err == nil, "%q: %v, by splitting %v", doc, err, wantErr)
			if err == nil && wantErr == nil {
				assert.Equal(t, want, got, "%q", doc)
			}
		}
	}
}

// FuzzDecodeOne: Decode reading one document directly agrees with
// splitting the input first.
func FuzzDecodeOne(f *testing.F) {
	for _, doc := range decodeOneSeeds {
		f.Add([]byte(doc))
	}
	s, err := schema.Parse(decodeValidateSchema)
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, sch := range []*schema.Schema{s, nil} {
			got, err := params.Decode(sch, data)
			want, wantErr := decodeBySplitting(sch, data)
			if (err == nil) != (wantErr == nil) {
				t.Fatalf("%q: %v, by splitting %v", data, err, wantErr)
			}
			if err == nil && !assert.ObjectsAreEqual(want, got) {
				t.Fatalf("%q: %#v, by splitting %#v", data, got, want)
			}
		}
	})
}

// TestDecodeReaderErrorsInLineOrder: a document's errors come in the
// order the package schema promises, by line where known (issue 28: the
// lines were 2, 6, 4, in pointer order).
func TestDecodeReaderErrorsInLineOrder(t *testing.T) {
	s := mustSchema(t, `type: object
properties:
  a: {type: integer}
  b: {type: integer}
  c: {type: integer}
`)
	var got []int
	err := params.DecodeReader(context.Background(), s, strings.NewReader("c: x\nb: x\na: x\n"), 0, func(d params.Document[any]) error {
		for _, e := range schema.ErrorsOf(d.Err) {
			got = append(got, e.Line)
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2, 3}, got)
}
