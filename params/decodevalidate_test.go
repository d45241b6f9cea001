package params_test

import (
	"fmt"
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

// DecodeValidate gives what Decode then Validate give, for documents that
// read and are valid, that read and are not, and that do not read.
func TestDecodeValidateIsDecodeThenValidate(t *testing.T) {
	s, err := schema.Parse(decodeValidateSchema)
	require.NoError(t, err)
	for _, sch := range []*schema.Schema{s, nil} {
		for _, doc := range decodeValidateDocs {
			v, invalid, err := params.DecodeValidate(sch, []byte(doc))
			wantV, wantErr := params.Decode(sch, []byte(doc))
			if wantErr != nil {
				assert.Equal(t, wantErr.Error(), fmt.Sprint(err), "%q", doc)
				assert.Nil(t, v, "%q", doc)
				assert.NoError(t, invalid, "%q", doc)
				continue
			}
			require.NoError(t, err, "%q", doc)
			assert.Equal(t, wantV, v, "%q", doc)
			assert.Equal(t, params.Validate(sch, wantV), invalid, "%q", doc)
		}
	}
}

// FuzzDecodeValidate: DecodeValidate agrees with Decode then Validate on
// any input.
func FuzzDecodeValidate(f *testing.F) {
	for _, doc := range decodeValidateDocs {
		f.Add([]byte(doc))
	}
	s, err := schema.Parse(decodeValidateSchema)
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, invalid, err := params.DecodeValidate(s, data)
		wantV, wantErr := params.Decode(s, data)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%q: DecodeValidate %v, Decode %v", data, err, wantErr)
		}
		if err != nil {
			return
		}
		want := params.Validate(s, wantV)
		if !assert.ObjectsAreEqual(wantV, v) || fmt.Sprint(want) != fmt.Sprint(invalid) {
			t.Fatalf("%q: DecodeValidate %#v %v, Decode and Validate %#v %v", data, v, invalid, wantV, want)
		}
	})
}

func ExampleDecodeValidate() {
	s, _ := schema.Parse([]byte(`
type: object
properties:
  replicas: {type: integer, minimum: 1}
`))
	for _, doc := range []string{"replicas: 3\n", "replicas: 0\n", "replicas: [\n"} {
		v, invalid, err := params.DecodeValidate(s, []byte(doc))
		switch {
		case err != nil:
			fmt.Println("unreadable:", err)
		case invalid != nil:
			fmt.Println("invalid:", invalid)
		default:
			fmt.Println("valid:", v)
		}
	}
	// Output:
	// valid: map[replicas:3]
	// invalid: /replicas: must be >= 1 but found 0
	// unreadable: line 1: the '[' here is never closed (expected ',' or ']')
}

// decodeBySplitting is Decode as it was before it read one document
// directly: the stream split, then exactly one document expected.
func decodeBySplitting(s *schema.Schema, data []byte) (any, error) {
	docs, err := params.DecodeStream(s, data)
	if err != nil {
		return nil, err
	}
	if len(docs) != 1 {
		return nil, fmt.Errorf("%d documents", len(docs))
	}
	return docs[0].Value, nil
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
