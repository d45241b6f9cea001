package params_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

const locateSchema = `{"type":"object","required":["name"],"properties":{
  "name":{"type":"string"},
  "nodes":{"type":"object","properties":{"count":{"type":"integer","minimum":1}}},
  "tags":{"type":"array","items":{"type":"string"}}}}`

// place is where an error is: its pointer, line and column.
type place struct {
	pointer   string
	line, col int
}

func placesOf(l schema.ErrorList) []place {
	out := make([]place, len(l))
	for i, e := range l {
		out[i] = place{e.Pointer, e.Line, e.Column}
	}
	return out
}

// TestLocateGivesLinesForOneDocument: Decode then Validate, Update.Run or
// Undeclared report lines through Locate, the lines DecodeReader gives
// for the same text.
func TestLocateGivesLinesForOneDocument(t *testing.T) {
	s, err := schema.Parse([]byte(locateSchema))
	require.NoError(t, err)
	const yamlText = "# production\nnodes:\n  count: 0\ntags:\n  - a\n  - {b: 1}\nnmae: x\n"
	const jsonText = "{\n  \"name\": \"x\",\n  \"nodes\": {\n    \"count\": 0\n  }\n}\n"
	tests := []struct {
		name string
		text string
		errs func(v any) schema.ErrorList
		want []place
	}{
		{"validate", yamlText, func(v any) schema.ErrorList { return schema.ErrorsOf(params.Validate(s, v)) },
			// /name is missing: the place of its parent, the root
			// mapping; /nmae is undeclared but allowed (open object).
			[]place{{"/name", 2, 1}, {"/nodes/count", 3, 3}, {"/tags/1", 6, 5}}},
		{"validate JSON", jsonText, func(v any) schema.ErrorList { return schema.ErrorsOf(params.Validate(s, v)) },
			[]place{{"/nodes/count", 4, 5}}},
		{"update", "name: x\nnodes:\n  count: 2\n", func(v any) schema.ErrorList {
			_, err := (&params.Update{Schema: s, Old: v, Set: []string{"nodes.count=0"}}).Run()
			return schema.ErrorsOf(err)
		}, []place{{"/nodes/count", 3, 3}}},
		{"update adds a key: its parent's line", "name: x\nnodes: {}\n", func(v any) schema.ErrorList {
			_, err := (&params.Update{Schema: s, Old: v, Set: []string{"nodes.count=0"}}).Run()
			return schema.ErrorsOf(err)
		}, []place{{"/nodes/count", 2, 1}}},
		{"undeclared warnings", yamlText, func(v any) schema.ErrorList {
			w, _, err := params.Undeclared(context.Background(), s, v, nil, 0)
			require.NoError(t, err)
			return w
		}, []place{{"/nmae", 7, 1}}},
		{"update warnings: a new key at its parent's line", "name: x\nnodes:\n  count: 2\n", func(v any) schema.ErrorList {
			r, err := (&params.Update{Schema: s, Old: v, Set: []string{"nodes.cuont=3"}}).Run()
			require.NoError(t, err)
			return r.Warnings
		}, []place{{"/nodes/cuont", 2, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := params.Decode(s, []byte(tt.text))
			require.NoError(t, err)
			l := tt.errs(v)
			params.Locate([]byte(tt.text), l)
			assert.Equal(t, tt.want, nilIfEmpty(placesOf(l)), "%v", l.Err())
		})
	}

	// The streaming reader gives the same lines for the same text.
	var stream schema.ErrorList
	require.NoError(t, params.DecodeReader(context.Background(), s, bytes.NewReader([]byte(yamlText)), 1, func(d params.Document[any]) error {
		stream = schema.ErrorsOf(d.Err)
		return nil
	}))
	v, err := params.Decode(s, []byte(yamlText))
	require.NoError(t, err)
	one := schema.ErrorsOf(params.Validate(s, v))
	params.Locate([]byte(yamlText), one)
	assert.Equal(t, placesOf(stream), placesOf(one))
}

func nilIfEmpty(p []place) []place {
	if len(p) == 0 {
		return nil
	}
	return p
}

// TestLocateLeavesWhatItCannotPlace: unreadable text, a line already
// known, and nil entries are left alone.
func TestLocateLeavesWhatItCannotPlace(t *testing.T) {
	l := schema.ErrorList{{Pointer: "/a", Kind: schema.KindType, Message: "m"}, {Pointer: "/b", Line: 9, Kind: schema.KindType, Message: "m"}}
	params.Locate([]byte("a: [\n"), l)
	assert.Equal(t, []place{{"/a", 0, 0}, {"/b", 9, 0}}, placesOf(l))
	params.Locate([]byte("b: 1\na: 2\n"), l)
	assert.Equal(t, []place{{"/a", 2, 1}, {"/b", 9, 0}}, placesOf(l), "a known line is kept")
	params.Locate(nil, nil)
	params.Locate([]byte(""), schema.ErrorList{{Pointer: "/a", Kind: schema.KindType}})
}

// TestJoinedFilesKeepFileAndLine is the probe of issue 37: a command that
// checks two files one document each and joins their errors gets both
// files' errors, each with its file and line.
func TestJoinedFilesKeepFileAndLine(t *testing.T) {
	s, err := schema.Parse([]byte(locateSchema))
	require.NoError(t, err)
	files := []struct{ name, text string }{
		{"staging.yaml", "name: s\nnodes:\n  count: 0\n"},
		{"prod.yaml", "# prod\nname: p\ntags: [a, {b: 1}]\n"},
	}
	var errs []error
	for _, f := range files {
		v, err := params.Decode(s, []byte(f.text))
		require.NoError(t, err)
		l := schema.ErrorsOf(params.Validate(s, v))
		params.Locate([]byte(f.text), l)
		errs = append(errs, schema.ErrorIn(f.name, l.Err()))
	}
	joined := errors.Join(errs...)
	l := schema.ErrorsOf(joined)
	require.Len(t, l, 2, "%v", joined)
	assert.Equal(t, "staging.yaml", l[0].File)
	assert.Equal(t, 3, l[0].Line)
	assert.Equal(t, "/nodes/count", l[0].Pointer)
	assert.Equal(t, "prod.yaml", l[1].File)
	assert.Equal(t, 3, l[1].Line)
	assert.Equal(t, "/tags/1", l[1].Pointer)
	assert.NotContains(t, l[0].Message, "staging.yaml", "the file is a field, not in the message")
}

// TestEmptyInputIsRefusedAlike: Decode and DecodeReader agree on input
// that holds no document: both refuse it (KindSyntax), so that a file
// lacking a required key is never called valid.
func TestEmptyInputIsRefusedAlike(t *testing.T) {
	s, err := schema.Parse([]byte(locateSchema))
	require.NoError(t, err)
	for _, text := range []string{"", "\n", "# only a comment\n", "  \n# a\n\n"} {
		t.Run(text, func(t *testing.T) {
			_, derr := params.Decode(s, []byte(text))
			require.Error(t, derr)
			var docs []params.Document[any]
			require.NoError(t, params.DecodeReader(context.Background(), s, bytes.NewReader([]byte(text)), 1, func(d params.Document[any]) error {
				docs = append(docs, d)
				return nil
			}))
			require.Len(t, docs, 1, "one verdict for the input")
			require.Error(t, docs[0].Err)
			assert.Equal(t, derr.Error(), docs[0].Err.Error())
			assert.ErrorIs(t, derr, params.ErrNoDocument)
			assert.ErrorIs(t, docs[0].Err, params.ErrNoDocument)
			assert.Equal(t, schema.KindSyntax, schema.ErrorsOf(docs[0].Err)[0].Kind)
			assert.Equal(t, 0, docs[0].Index)
			assert.Nil(t, docs[0].Value)
		})
	}
	// The refusal goes to emit, which decides, as for any document.
	stop := errors.New("stop")
	err = params.DecodeReader(context.Background(), s, bytes.NewReader(nil), 1, func(d params.Document[any]) error { return stop })
	assert.ErrorIs(t, err, stop)
}

// FuzzLocate: Locate never panics, whatever the text and the pointers,
// and a line it gives is within the text.
func FuzzLocate(f *testing.F) {
	for _, seed := range []struct{ text, ptr string }{
		{"a:\n  b: 1\n", "/a/b"}, {"{\"a\": [1, 2]}", "/a/1"}, {"a: [\n", "/a"}, {"", "/x"},
		{"---\na: 1\n---\nb: 2\n", "/b"}, {"a: &x {b: 1}\nc: *x\n", "/c/b"}, {"- 1\n- 2\n", "/5"}, {"a: 1", "not a pointer"},
	} {
		f.Add([]byte(seed.text), seed.ptr)
	}
	f.Fuzz(func(t *testing.T, data []byte, ptr string) {
		l := schema.ErrorList{{Pointer: ptr, Kind: schema.KindType, Message: "m"}, nil, {Pointer: "", Kind: schema.KindType, Message: "root"}}
		params.Locate(data, l)
		// YAML's line breaks: \n, \r\n and a lone \r.
		lines := bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\r")) - bytes.Count(data, []byte("\r\n")) + 1
		for _, e := range l {
			if e != nil && e.Line > lines {
				t.Fatalf("line %d past the text's %d lines", e.Line, lines)
			}
		}
	})
}
