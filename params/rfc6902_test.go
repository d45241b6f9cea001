package params

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// jsonPatchCase is one application of ApplyJSONPatch: the result as JSON
// text, or the error's kind and pointer.
type jsonPatchCase struct {
	name, doc, patch string
	want             string      // the result (JSONEq); "" when an error is wanted
	kind             schema.Kind // the error's kind
	ptr              string      // the error's pointer
}

func runJSONPatchCases(t *testing.T, s *schema.Schema, tests []jsonPatchCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := mustJSON(t, []byte(tt.doc))
			before := cloneValue(doc)
			got, err := ApplyJSONPatch(s, doc, []byte(tt.patch))
			assert.True(t, Identical(before, doc), "the input values were modified")
			if tt.want == "" {
				require.Error(t, err)
				list := schema.ErrorsOf(err)
				require.Len(t, list, 1, "%v", err)
				assert.Equal(t, tt.kind, list[0].Kind, "%v", err)
				assert.Equal(t, tt.ptr, list[0].Pointer, "%v", err)
				assert.Nil(t, got)
				return
			}
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(mustBytes(MarshalJSON(nil, got, ""))))
		})
	}
}

// RFC 6902 Appendix A, every example, with the results and errors it gives.
func TestApplyJSONPatchRFC6902AppendixA(t *testing.T) {
	runJSONPatchCases(t, nil, []jsonPatchCase{
		{name: "A.1 adding an object member", doc: `{"foo":"bar"}`,
			patch: `[{"op":"add","path":"/baz","value":"qux"}]`, want: `{"baz":"qux","foo":"bar"}`},
		{name: "A.2 adding an array element", doc: `{"foo":["bar","baz"]}`,
			patch: `[{"op":"add","path":"/foo/1","value":"qux"}]`, want: `{"foo":["bar","qux","baz"]}`},
		{name: "A.3 removing an object member", doc: `{"baz":"qux","foo":"bar"}`,
			patch: `[{"op":"remove","path":"/baz"}]`, want: `{"foo":"bar"}`},
		{name: "A.4 removing an array element", doc: `{"foo":["bar","qux","baz"]}`,
			patch: `[{"op":"remove","path":"/foo/1"}]`, want: `{"foo":["bar","baz"]}`},
		{name: "A.5 replacing a value", doc: `{"baz":"qux","foo":"bar"}`,
			patch: `[{"op":"replace","path":"/baz","value":"boo"}]`, want: `{"baz":"boo","foo":"bar"}`},
		{name: "A.6 moving a value", doc: `{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}`,
			patch: `[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]`,
			want:  `{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}`},
		{name: "A.7 moving an array element", doc: `{"foo":["all","grass","cows","eat"]}`,
			patch: `[{"op":"move","from":"/foo/1","path":"/foo/3"}]`, want: `{"foo":["all","cows","eat","grass"]}`},
		{name: "A.8 testing a value: success", doc: `{"baz":"qux","foo":["a",2,"c"]}`,
			patch: `[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]`,
			want:  `{"baz":"qux","foo":["a",2,"c"]}`},
		{name: "A.9 testing a value: error", doc: `{"baz":"qux"}`,
			patch: `[{"op":"test","path":"/baz","value":"bar"}]`, kind: schema.KindInvalid, ptr: "/0/value"},
		{name: "A.10 adding a nested member object", doc: `{"foo":"bar"}`,
			patch: `[{"op":"add","path":"/child","value":{"grandchild":{}}}]`, want: `{"foo":"bar","child":{"grandchild":{}}}`},
		{name: "A.11 ignoring unrecognized elements", doc: `{"foo":"bar"}`,
			patch: `[{"op":"add","path":"/baz","value":"qux","xyz":123}]`, want: `{"foo":"bar","baz":"qux"}`},
		{name: "A.12 adding to a nonexistent target", doc: `{"foo":"bar"}`,
			patch: `[{"op":"add","path":"/baz/bat","value":"qux"}]`, kind: schema.KindUsage, ptr: "/0/path"},
		{name: "A.13 invalid JSON patch document", doc: `{"foo":"bar"}`,
			patch: `[{"op":"add","path":"/baz","value":"qux","op":"remove"}]`, kind: schema.KindSyntax, ptr: ""},
		{name: "A.14 ~ escape ordering", doc: `{"/":9,"~1":10}`,
			patch: `[{"op":"test","path":"/~01","value":10}]`, want: `{"/":9,"~1":10}`},
		{name: "A.15 comparing strings and numbers", doc: `{"/":9,"~1":10}`,
			patch: `[{"op":"test","path":"/~01","value":"10"}]`, kind: schema.KindInvalid, ptr: "/0/value"},
		{name: "A.16 adding an array value", doc: `{"foo":["bar"]}`,
			patch: `[{"op":"add","path":"/foo/-","value":["abc","def"]}]`, want: `{"foo":["bar",["abc","def"]]}`},
	})
}

// Every operation, its edge cases, and every kind of malformed patch.
func TestApplyJSONPatchOperations(t *testing.T) {
	runJSONPatchCases(t, nil, []jsonPatchCase{
		// add
		{name: "add replaces an existing member", doc: `{"a":1}`, patch: `[{"op":"add","path":"/a","value":2}]`, want: `{"a":2}`},
		{name: "add at the end index", doc: `{"l":[1]}`, patch: `[{"op":"add","path":"/l/1","value":2}]`, want: `{"l":[1,2]}`},
		{name: "add at the front", doc: `{"l":[1]}`, patch: `[{"op":"add","path":"/l/0","value":0}]`, want: `{"l":[0,1]}`},
		{name: "add past the end", doc: `{"l":[1]}`, patch: `[{"op":"add","path":"/l/2","value":2}]`, kind: schema.KindUsage, ptr: "/0/path"},
		{name: "add the whole document", doc: `{"a":1}`, patch: `[{"op":"add","path":"","value":[1]}]`, want: `[1]`},
		{name: "add null", doc: `{"a":1}`, patch: `[{"op":"add","path":"/b","value":null}]`, want: `{"a":1,"b":null}`},
		{name: "add the empty key", doc: `{}`, patch: `[{"op":"add","path":"/","value":1}]`, want: `{"":1}`},
		{name: "add into a scalar", doc: `{"a":1}`, patch: `[{"op":"add","path":"/a/b","value":1}]`, kind: schema.KindUsage, ptr: "/0/path"},
		{name: "add without value", doc: `{}`, patch: `[{"op":"add","path":"/a"}]`, kind: schema.KindUsage, ptr: "/0"},
		// remove
		{name: "remove the last item", doc: `{"l":[1,2]}`, patch: `[{"op":"remove","path":"/l/1"}]`, want: `{"l":[1]}`},
		{name: "remove a missing member", doc: `{"a":1}`, patch: `[{"op":"remove","path":"/b"}]`, kind: schema.KindUsage, ptr: "/0/path"},
		{name: "remove with -", doc: `{"l":[1]}`, patch: `[{"op":"remove","path":"/l/-"}]`, kind: schema.KindUsage, ptr: "/0/path"},
		{name: "remove the whole document", doc: `{"a":1}`, patch: `[{"op":"remove","path":""}]`, kind: schema.KindUsage, ptr: "/0/path"},
		// replace
		{name: "replace an item", doc: `{"l":[1,2]}`, patch: `[{"op":"replace","path":"/l/0","value":"x"}]`, want: `{"l":["x",2]}`},
		{name: "replace a missing member", doc: `{"a":1}`, patch: `[{"op":"replace","path":"/b","value":1}]`, kind: schema.KindUsage, ptr: "/0/path"},
		{name: "replace the whole document", doc: `{"a":1}`, patch: `[{"op":"replace","path":"","value":{"b":2}}]`, want: `{"b":2}`},
		{name: "replace out of range", doc: `{"l":[1]}`, patch: `[{"op":"replace","path":"/l/1","value":1}]`, kind: schema.KindUsage, ptr: "/0/path"},
		// move
		{name: "move onto itself", doc: `{"a":{"b":1}}`, patch: `[{"op":"move","from":"/a","path":"/a"}]`, want: `{"a":{"b":1}}`},
		{name: "move into its own child", doc: `{"a":{"b":1}}`, patch: `[{"op":"move","from":"/a","path":"/a/b/c"}]`, kind: schema.KindUsage, ptr: "/0/path"},
		{name: "move a missing member", doc: `{"a":1}`, patch: `[{"op":"move","from":"/b","path":"/c"}]`, kind: schema.KindUsage, ptr: "/0/from"},
		{name: "move to the end of an array", doc: `{"a":1,"l":[]}`, patch: `[{"op":"move","from":"/a","path":"/l/-"}]`, want: `{"l":[1]}`},
		{name: "move replaces the target", doc: `{"a":1,"b":2}`, patch: `[{"op":"move","from":"/a","path":"/b"}]`, want: `{"b":1}`},
		{name: "move without from", doc: `{"a":1}`, patch: `[{"op":"move","path":"/b"}]`, kind: schema.KindUsage, ptr: "/0"},
		{name: "move to a sibling prefix", doc: `{"a":1,"ab":{}}`, patch: `[{"op":"move","from":"/a","path":"/ab/a"}]`, want: `{"ab":{"a":1}}`},
		// copy
		{name: "copy a subtree", doc: `{"a":{"b":[1]}}`, patch: `[{"op":"copy","from":"/a","path":"/c"}]`, want: `{"a":{"b":[1]},"c":{"b":[1]}}`},
		{name: "copy into its own child", doc: `{"a":{"b":1}}`, patch: `[{"op":"copy","from":"/a","path":"/a/c"}]`, want: `{"a":{"b":1,"c":{"b":1}}}`},
		{name: "copy a missing member", doc: `{"a":1}`, patch: `[{"op":"copy","from":"/b","path":"/c"}]`, kind: schema.KindUsage, ptr: "/0/from"},
		{name: "copy then change the copy", doc: `{"a":{"b":1}}`,
			patch: `[{"op":"copy","from":"/a","path":"/c"},{"op":"replace","path":"/c/b","value":2}]`, want: `{"a":{"b":1},"c":{"b":2}}`},
		// test
		{name: "test 1.0 equals 1", doc: `{"n":1}`, patch: `[{"op":"test","path":"/n","value":1.0}]`, want: `{"n":1}`},
		{name: "test 1E3 equals 1000", doc: `{"n":1000}`, patch: `[{"op":"test","path":"/n","value":1E3}]`, want: `{"n":1000}`},
		{name: "test big numbers exactly", doc: `{"n":9007199254740993}`, patch: `[{"op":"test","path":"/n","value":9007199254740992}]`, kind: schema.KindInvalid, ptr: "/0/value"},
		{name: "test objects ignore key order", doc: `{"o":{"a":1,"b":[true,null]}}`, patch: `[{"op":"test","path":"/o","value":{"b":[true,null],"a":1}}]`, want: `{"o":{"a":1,"b":[true,null]}}`},
		{name: "test arrays keep order", doc: `{"l":[1,2]}`, patch: `[{"op":"test","path":"/l","value":[2,1]}]`, kind: schema.KindInvalid, ptr: "/0/value"},
		{name: "test null against missing", doc: `{}`, patch: `[{"op":"test","path":"/a","value":null}]`, kind: schema.KindUsage, ptr: "/0/path"},
		{name: "test the whole document", doc: `{"a":1}`, patch: `[{"op":"test","path":"","value":{"a":1.0}}]`, want: `{"a":1}`},
		{name: "a failed test stops the patch", doc: `{"a":1}`,
			patch: `[{"op":"replace","path":"/a","value":2},{"op":"test","path":"/a","value":1},{"op":"remove","path":"/a"}]`, kind: schema.KindInvalid, ptr: "/1/value"},
		// RFC 6901 pointers, strictly
		{name: "leading zero index", doc: `{"l":[1,2]}`, patch: `[{"op":"replace","path":"/l/01","value":3}]`, kind: schema.KindUsage, ptr: "/0/path"},
		{name: "plus sign index", doc: `{"l":[1,2]}`, patch: `[{"op":"replace","path":"/l/+1","value":3}]`, kind: schema.KindUsage, ptr: "/0/path"},
		{name: "negative index", doc: `{"l":[1,2]}`, patch: `[{"op":"replace","path":"/l/-1","value":3}]`, kind: schema.KindUsage, ptr: "/0/path"},
		{name: "bad escape", doc: `{}`, patch: `[{"op":"add","path":"/a~2b","value":1}]`, kind: schema.KindUsage, ptr: "/0/path"},
		{name: "bad escape in from", doc: `{}`, patch: `[{"op":"copy","from":"/a~","path":"/b"}]`, kind: schema.KindUsage, ptr: "/0/from"},
		{name: "pointer without slash", doc: `{"a":1}`, patch: `[{"op":"remove","path":"a"}]`, kind: schema.KindUsage, ptr: "/0/path"},
		{name: "escapes", doc: `{"a/b":{"c~d":1}}`, patch: `[{"op":"replace","path":"/a~1b/c~0d","value":2}]`, want: `{"a/b":{"c~d":2}}`},
		// malformed documents
		{name: "not JSON", doc: `{}`, patch: `[{"op":"add",`, kind: schema.KindSyntax, ptr: ""},
		{name: "trailing text", doc: `{}`, patch: `[] []`, kind: schema.KindSyntax, ptr: ""},
		{name: "not UTF-8", doc: `{}`, patch: "[{\"op\":\"add\",\"path\":\"/a\",\"value\":\"\xff\"}]", kind: schema.KindSyntax, ptr: ""},
		{name: "repeated member deep inside a value", doc: `{}`, patch: `[{"op":"add","path":"/a","value":{"x":1,"x":2}}]`, kind: schema.KindSyntax, ptr: ""},
		{name: "not an array", doc: `{}`, patch: `{"op":"add","path":"/a","value":1}`, kind: schema.KindUsage, ptr: ""},
		{name: "an operation that is no object", doc: `{}`, patch: `[{"op":"test","path":"","value":{}},"add"]`, kind: schema.KindUsage, ptr: "/1"},
		{name: "no op", doc: `{}`, patch: `[{"path":"/a","value":1}]`, kind: schema.KindUsage, ptr: "/0"},
		{name: "unknown op", doc: `{}`, patch: `[{"op":"set","path":"/a","value":1}]`, kind: schema.KindUsage, ptr: "/0/op"},
		{name: "op not a string", doc: `{}`, patch: `[{"op":1,"path":"/a","value":1}]`, kind: schema.KindUsage, ptr: "/0/op"},
		{name: "no path", doc: `{}`, patch: `[{"op":"add","value":1}]`, kind: schema.KindUsage, ptr: "/0"},
		{name: "path not a string", doc: `{}`, patch: `[{"op":"add","path":["a"],"value":1}]`, kind: schema.KindUsage, ptr: "/0/path"},
		{name: "the bad operation's pointer", doc: `{"a":1}`,
			patch: `[{"op":"test","path":"/a","value":1},{"op":"remove","path":"/a"},{"op":"replace","path":"/a","value":1}]`, kind: schema.KindUsage, ptr: "/2/path"},
		{name: "empty patch", doc: `{"a":1}`, patch: `[]`, want: `{"a":1}`},
	})
}

// Values are as JSON gives them and numbers exact; the schema validates
// the result, every error at its pointer.
func TestApplyJSONPatchValidatesBySchema(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type":"object","properties":{
		"nodeCount":{"type":"integer","minimum":1},
		"version":{"type":"string"},
		"big":{"type":"integer"},
		"ports":{"type":"array","items":{"type":"integer"}}},
		"additionalProperties":false}`))
	require.NoError(t, err)
	doc := mustJSON(t, []byte(`{"nodeCount":3,"version":"1.10","ports":[9092]}`))

	got, err := ApplyJSONPatch(s, doc, []byte(`[{"op":"replace","path":"/nodeCount","value":5},{"op":"add","path":"/big","value":9007199254740993},{"op":"add","path":"/ports/-","value":9093}]`))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"nodeCount": json.Number("5"), "version": "1.10", "big": json.Number("9007199254740993"),
		"ports": []any{json.Number("9092"), json.Number("9093")}}, got)
	assert.Equal(t, `{"big":9007199254740993,"nodeCount":5,"ports":[9092,9093],"version":"1.10"}`, string(mustBytes(MarshalJSON(nil, got, ""))))

	// "5" stays a string (operation would type it as 5); every error is
	// reported, each at its pointer in the result.
	_, err = ApplyJSONPatch(s, doc, []byte(`[{"op":"replace","path":"/nodeCount","value":"5"},{"op":"replace","path":"/version","value":1.10},{"op":"add","path":"/extra","value":true}]`))
	require.Error(t, err)
	var ptrs []string
	for _, e := range schema.ErrorsOf(err) {
		ptrs = append(ptrs, e.Pointer+" "+string(e.Kind))
	}
	assert.Subset(t, ptrs, []string{"/nodeCount type", "/version type"}, "%v", err)
	assert.Len(t, ptrs, 3, "%v", err) // and the additional property, where Validate puts it
	assert.Equal(t, Validate(s, mustJSON(t, []byte(`{"nodeCount":"5","version":1.10,"ports":[9092],"extra":true}`))), err)

	_, err = ApplyJSONPatch(s, doc, []byte(`[{"op":"replace","path":"/nodeCount","value":0}]`))
	list := schema.ErrorsOf(err)
	require.Len(t, list, 1)
	assert.Equal(t, schema.KindInvalid, list[0].Kind)
	assert.Equal(t, "/nodeCount", list[0].Pointer)

	// A malformed operation wraps ErrMalformed.
	_, err = ApplyJSONPatch(s, doc, []byte(`[{"op":"nope","path":""}]`))
	assert.True(t, errors.Is(err, ErrMalformed), "%v", err)

	// A zero schema is a usage error; a nil one allows every value.
	_, err = ApplyJSONPatch(&schema.Schema{}, doc, []byte(`[]`))
	require.Len(t, schema.ErrorsOf(err), 1)
	assert.Equal(t, schema.KindUsage, schema.ErrorsOf(err)[0].Kind)
	got, err = ApplyJSONPatch(nil, nil, []byte(`[{"op":"add","path":"","value":{"a":1}}]`))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": json.Number("1")}, got)

	// Go data other than plain values is converted first.
	got, err = ApplyJSONPatch(nil, map[string]int{"a": 1}, []byte(`[{"op":"copy","from":"/a","path":"/b"}]`))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": json.Number("1"), "b": json.Number("1")}, got)
	_, err = ApplyJSONPatch(nil, map[string]any{"c": make(chan int)}, []byte(`[]`))
	require.Error(t, err)
}

// Copies that double the document stop at a limit (a few kilobytes of
// patch would otherwise take all memory).
func TestApplyJSONPatchCopyLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString(`[`)
	for i := range 40 {
		if i > 0 {
			b.WriteString(`,`)
		}
		fmt.Fprintf(&b, `{"op":"copy","from":"","path":"/%d"}`, i)
	}
	b.WriteString(`]`)
	_, err := ApplyJSONPatch(nil, map[string]any{"a": json.Number("1")}, []byte(b.String()))
	list := schema.ErrorsOf(err)
	require.Len(t, list, 1, "%v", err)
	assert.Equal(t, schema.KindLimit, list[0].Kind)
	assert.Equal(t, "/15/from", list[0].Pointer, "%v", err)

	got, err := ApplyJSONPatch(nil, map[string]any{"a": json.Number("1")}, []byte(`[{"op":"copy","from":"","path":"/b"},{"op":"copy","from":"","path":"/c"}]`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"a":1,"b":{"a":1},"c":{"a":1,"b":{"a":1}}}`, string(mustBytes(MarshalJSON(nil, got, ""))))
}

// The input is never changed, and the result shares nothing with it on the
// path of a change.
func TestApplyJSONPatchCopiesOnWrite(t *testing.T) {
	doc := mustJSON(t, []byte(`{"a":{"b":[1,2],"c":{"d":1}},"e":[{"f":1}]}`))
	before := cloneValue(doc)
	patch := []byte(`[{"op":"add","path":"/a/b/-","value":3},{"op":"remove","path":"/a/c/d"},{"op":"move","from":"/e/0","path":"/g"},{"op":"copy","from":"/a","path":"/h"},{"op":"replace","path":"/h/b/0","value":0}]`)
	got, err := ApplyJSONPatch(nil, doc, patch)
	require.NoError(t, err)
	assert.True(t, Identical(before, doc))
	assert.JSONEq(t, `{"a":{"b":[1,2,3],"c":{}},"e":[],"g":{"f":1},"h":{"b":[0,2,3],"c":{}}}`, string(mustBytes(MarshalJSON(nil, got, ""))))
}

// ExampleApplyJSONPatch applies an RFC 6902 document: values as JSON gives
// them, numbers exact, the result validated by the schema.
func ExampleApplyJSONPatch() {
	s, _ := schema.Parse([]byte(`{"type":"object","properties":{"nodeCount":{"type":"integer"},"id":{"type":"integer"}}}`))
	values, _ := Decode(s, []byte(`{"nodeCount": 3}`))

	out, err := ApplyJSONPatch(s, values, []byte(`[
		{"op": "test", "path": "/nodeCount", "value": 3.0},
		{"op": "replace", "path": "/nodeCount", "value": 5},
		{"op": "add", "path": "/id", "value": 9007199254740993}
	]`))
	fmt.Println(string(mustBytes(MarshalJSON(s, out, ""))), err)

	_, err = ApplyJSONPatch(s, values, []byte(`[{"op": "replace", "path": "/nodeCount", "value": "5"}]`))
	for _, e := range schema.ErrorsOf(err) {
		fmt.Println(e.Pointer, e.Kind)
	}
	_, err = ApplyJSONPatch(s, values, []byte(`[{"op": "test", "path": "/nodeCount", "value": 3}, {"op": "remove", "path": "/id"}]`))
	for _, e := range schema.ErrorsOf(err) {
		fmt.Println(e.Pointer, e.Kind)
	}
	// Output:
	// {"nodeCount":5,"id":9007199254740993} <nil>
	// /nodeCount type
	// /1/path usage
}

// FuzzApplyJSONPatch: no input panics; the input values are never
// changed; every failure is a list of errors with a Kind; a result is
// valid against the schema and written and read back unchanged.
func FuzzApplyJSONPatch(f *testing.F) {
	const doc = `{"foo":["bar","baz"],"n":1,"o":{"a":{"b":1.10}},"/":9,"~1":10}`
	for _, p := range []string{
		`[{"op":"add","path":"/baz","value":"qux"}]`,
		`[{"op":"add","path":"/foo/1","value":"qux"}]`,
		`[{"op":"add","path":"/foo/-","value":["abc","def"]}]`,
		`[{"op":"remove","path":"/foo/1"}]`,
		`[{"op":"replace","path":"/n","value":9007199254740993}]`,
		`[{"op":"move","from":"/o/a","path":"/o/c"}]`,
		`[{"op":"move","from":"/foo/0","path":"/foo/1"}]`,
		`[{"op":"copy","from":"/o","path":"/p"}]`,
		`[{"op":"test","path":"/~01","value":10}]`,
		`[{"op":"test","path":"/n","value":1.0}]`,
		`[{"op":"add","path":"/baz","value":"qux","op":"remove"}]`,
		`[{"op":"add","path":"/foo/01","value":1}]`,
		`[{"op":"add","path":"/a~2b","value":1}]`,
		`[{"op":"move","from":"/o","path":"/o/a/x"}]`,
		`[{"op":"remove","path":""}]`,
		`[1,{"op":"x"}]`,
		`{}`,
		``,
	} {
		f.Add([]byte(p))
	}
	s, err := schema.Parse([]byte(`{"type":"object","properties":{"n":{"type":"integer"}}}`))
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, patch []byte) {
		values := mustJSON(t, []byte(doc))
		before := cloneValue(values)
		got, err := ApplyJSONPatch(s, values, patch)
		require.True(t, Identical(before, values), "the input was modified")
		if err != nil {
			require.NotEmpty(t, schema.ErrorsOf(err))
			for _, e := range schema.ErrorsOf(err) {
				require.NotEmpty(t, e.Kind)
			}
			return
		}
		require.NoError(t, Validate(s, got))
		// The result is plain JSON whose numbers kept their text.
		out, err := MarshalJSON(nil, got, "")
		require.NoError(t, err)
		require.True(t, Identical(got, mustJSON(t, out)), "%s", out)
	})
}

// BenchmarkApplyJSONPatch: a test, a replace and an add on the benchmark
// documents (nil schema: the patch alone). params on values, against the
// library on JSON text (its own cost) and the library on values (the
// values written as JSON, patched, and read back with UseNumber, as
// ApplyJSONPatch would have to).
func BenchmarkApplyJSONPatch(b *testing.B) {
	for _, d := range benchDocs(b) {
		target := mustJSON(b, d.doc)
		v := d.arg[len(d.path)+1:]
		cur, ok := pointer.Get(target, d.path)
		require.True(b, ok)
		patch := []byte(`[{"op":"test","path":"` + d.path + `","value":` + string(mustBytes(MarshalJSON(nil, cur, ""))) + `},{"op":"replace","path":"` + d.path + `","value":` + v + `},{"op":"add","path":"/added","value":9007199254740993}]`)
		b.Run(d.name+"/params", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ApplyJSONPatch(nil, target, patch); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(d.name+"/jsonpatch-bytes", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p, err := jsonpatch.DecodePatch(patch)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := p.Apply(d.doc); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(d.name+"/jsonpatch-values", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p, err := jsonpatch.DecodePatch(patch)
				if err != nil {
					b.Fatal(err)
				}
				text, err := json.Marshal(target)
				if err != nil {
					b.Fatal(err)
				}
				out, err := p.Apply(text)
				if err != nil {
					b.Fatal(err)
				}
				dec := json.NewDecoder(bytes.NewReader(out))
				dec.UseNumber()
				var got any
				if err := dec.Decode(&got); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
