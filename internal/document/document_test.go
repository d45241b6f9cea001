package document

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/problem"
)

func TestSplitDocuments(t *testing.T) {
	parts := Split([]byte("\xef\xbb\xbfa: 1\n---\nb: 2\n--- {\"c\": 3}\n...\n---\n# nothing\n"))
	require.Len(t, parts, 3)
	assert.Equal(t, "a: 1\n", string(parts[0].Text))
	assert.Equal(t, "b: 2\n", string(parts[1].Text))
	assert.Equal(t, "{\"c\": 3}\n", string(parts[2].Text))
	assert.Equal(t, []int{1, 3, 4}, []int{parts[0].Line, parts[1].Line, parts[2].Line})
}

func TestUnicodeSpaceDocumentIsNotBlank(t *testing.T) {
	require.Len(t, Split([]byte("\"\u2002\"\n")), 1)
	require.Len(t, Split([]byte("\u2002\n")), 1)
}

// TestSyntaxErrorsNameTheEditorsLine: the line and column an editor
// shows for the cause (the YAML parser names the line before an unclosed
// flow collection, or the start of the enclosing mapping).
func TestSyntaxErrorsNameTheEditorsLine(t *testing.T) {
	tests := []struct {
		name, src string
		line, col int
		msg       string
	}{
		{"unclosed brace (issue 16)", "name: x\nsize: 3\nlabels: {app: web\nother: 1\n", 3, 9, "'{' here is never closed"},
		{"unclosed brace on line 1", "a: {b: 1\n", 1, 4, "'{' here is never closed"},
		{"unclosed nested brace", "x: 1\ny:\n  z: {a: 1,\n     b: 2\n", 3, 6, "'{' here is never closed"},
		{"unclosed bracket", "a: 1\nb: [1, 2\nd: 2\n", 2, 4, "'[' here is never closed"},
		{"unclosed bracket at the end", "a: [\n", 1, 4, "'[' here is never closed"},
		{"bad indent", "# c\na: 1\nb:\n  c: 1\n d: 2\n", 5, 2, "did not find expected key"},
		{"bad indent in a list", "a:\n  - 1\n  - 2\n - 3\n", 4, 2, "did not find expected key"},
		{"a tab", "a: 1\nb:\n\tc: 1\n", 3, 1, "cannot start any token"},
		{"unclosed double quote", "a: 1\nb: \"abc\nc: 2\n", 2, 4, "end of stream"},
		{"unclosed single quote", "a: 1\nb: 'abc\nc: 2\n", 2, 4, "end of stream"},
		{"mapping value in a scalar", "a: 1\n  b: 2\n", 2, 4, "mapping values are not allowed"},
		{"bad JSON: two commas", "{\"a\": 1,, \"b\": 2}\n", 1, 9, "expected a string key"},
		{"bad JSON: unclosed object", "{\"a\": 1,\n \"b\": 2\n", 1, 1, "'{' here is never closed"},
		{"bad JSON: wrong closer", "{\"a\": [1,\n 2}\n", 2, 3, "expected ',' or ']'"},
		{"bad JSON on line 3", "{\n  \"a\": 1,\n  \"b\": \"x\" \"y\"\n}\n", 3, 12, "expected ',' or '}'"},
		{"second document of a stream", "a: 1\n---\nb: {c\n", 3, 4, "'{' here is never closed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadStream([]byte(tt.src), Options{})
			var pe *problem.Error
			require.True(t, errors.As(err, &pe), "%v", err)
			assert.Equal(t, problem.Syntax, pe.Kind)
			assert.Equal(t, tt.line, pe.Line, "line of %v", pe)
			assert.Equal(t, tt.col, pe.Column, "column of %v", pe)
			assert.Contains(t, pe.Message, tt.msg)
		})
	}
}

func TestLimitsAreLimitErrors(t *testing.T) {
	deep := ""
	for range MaxDepth + 1 {
		deep += "["
	}
	for _, src := range []string{
		`{"a": 1e999999999}`, "a: 1e999999999\n", deep,
	} {
		_, err := Read([]byte(src), Options{})
		var pe *problem.Error
		require.True(t, errors.As(err, &pe), "%q: %v", src, err)
		assert.Equal(t, problem.Limit, pe.Kind, "%q: %v", src, err)
	}
	// A duplicate key is a fault of the text, located as a limit is.
	for _, src := range []string{`{"a": 1, "a": 2}`, "a: 1\na: 2\n", "b: {a: 1, a: 2}\n"} {
		_, err := Read([]byte(src), Options{})
		var pe *problem.Error
		require.True(t, errors.As(err, &pe), "%q: %v", src, err)
		assert.Equal(t, problem.Syntax, pe.Kind, "%q: %v", src, err)
		assert.Contains(t, pe.Message, "duplicate key")
	}
	_, err := Read(make([]byte, MaxDocumentBytes+1), Options{})
	var pe *problem.Error
	require.True(t, errors.As(err, &pe))
	assert.Equal(t, problem.Limit, pe.Kind)
}

func TestReadKeepsOrderNumbersAndText(t *testing.T) {
	d, err := Read([]byte("z: 007\na:\n  y: 1.10\n  b: yes\n"), Options{KeepText: true, Order: true})
	require.NoError(t, err)
	assert.False(t, d.JSON)
	assert.Equal(t, map[string]any{"z": Text("007"), "a": map[string]any{"y": Text("1.10"), "b": Text("yes")}}, d.Value)
	assert.Equal(t, map[string][]string{"": {"z", "a"}, "/a": {"y", "b"}}, d.Order)

	// The fast path (no order) gives the same.
	f, err := Read([]byte("z: 007\na:\n  y: 1.10\n  b: yes\n"), Options{KeepText: true})
	require.NoError(t, err)
	assert.Equal(t, d.Value, f.Value)

	// Without KeepText: YAML 1.2 core, numbers exact.
	c, err := Read([]byte("z: 007\na:\n  y: 1.10\n  b: yes\n"), Options{})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"z": json.Number("7"), "a": map[string]any{"y": json.Number("1.10"), "b": "yes"}}, c.Value)

	j, err := Read([]byte(`{"z": 9007199254740993, "a": {"y": "1.10"}}`), Options{KeepText: true, Order: true})
	require.NoError(t, err)
	assert.True(t, j.JSON)
	assert.Equal(t, map[string]any{"z": json.Number("9007199254740993"), "a": map[string]any{"y": "1.10"}}, j.Value)
	assert.Equal(t, []string{"z", "a"}, j.Order[""])
}

func TestReadOneDocument(t *testing.T) {
	d, err := Read([]byte("# nothing\n"), Options{})
	require.NoError(t, err)
	assert.True(t, d.Empty)
	_, err = Read([]byte("a: 1\n---\nb: 2\n"), Options{})
	require.Error(t, err)
	d, err = Read([]byte("---\na: 1\n"), Options{})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": json.Number("1")}, d.Value)
}

func TestTextAfterTheDocumentIsAnError(t *testing.T) {
	for _, in := range []string{"{\"name\": \"a\"}\n]]]\n", "{\"name\": 1}\n{\"name\": 2}\n", "{\"a\":1} trailing\n", "a: 1\n]]]\n"} {
		_, err := Read([]byte(in), Options{})
		assert.Error(t, err, "%q", in)
	}
}

var detectSeeds = []string{
	"{\"a\": 1}", "[1, 2]", "a: 1\n", "{a: 1}", "- 1\n- 2\n", "\"x\"", "1.50", "# c\n{\"a\": [1, {\"b\": null}]}\n",
	"{\"b\": 1, \"a\": {\"d\": 1e400, \"c\": -0.0}}", "z: 1\na:\n  y: 007\n  b: x\n", "a: [\n", "{\"a\": \"\\/\"}",
}

// FuzzReadDetect: JSON text is read as JSON and means what it says;
// anything else is YAML; nothing panics.
func FuzzReadDetect(f *testing.F) {
	for _, s := range detectSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Read(data, Options{Order: true})
		if err != nil {
			var pe *problem.Error
			if !errors.As(err, &pe) || (pe.Kind != problem.Syntax && pe.Kind != problem.Limit) {
				t.Fatalf("%q: error %T %v is not a syntax or limit problem", data, err, err)
			}
			return
		}
		isJSON := json.Valid(data)
		if isJSON != d.JSON && !d.Empty {
			// DecodeJSON refuses what encoding/json accepts only for limits
			// and duplicate keys, which are errors above.
			t.Fatalf("%q: JSON %v, read as JSON %v", data, isJSON, d.JSON)
		}
	})
}

// FuzzReadRoundTrip: a document written back as JSON in its key order
// reads again to the same value and order (number text and key order
// survive).
func FuzzReadRoundTrip(f *testing.F) {
	for _, s := range detectSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Read(data, Options{Order: true})
		if err != nil || d.Empty {
			return
		}
		out := encode.JSON(d.Value, encode.ByKeyOrder(d.Order), "")
		again, err := Read(out, Options{Order: true})
		if err != nil {
			t.Fatalf("%q: written back as %s, not readable: %v", data, out, err)
		}
		if !assert.ObjectsAreEqual(d.Value, again.Value) {
			t.Fatalf("%q: value %#v, again %#v", data, d.Value, again.Value)
		}
		for p, keys := range d.Order {
			if !assert.ObjectsAreEqual(keys, again.Order[p]) {
				t.Fatalf("%q: order at %q %v, again %v", data, p, keys, again.Order[p])
			}
		}
	})
}

// FuzzReadStream: no input panics, and every error is a problem with a
// line inside the input when it has one.
func FuzzReadStream(f *testing.F) {
	for _, s := range append(detectSeeds, "a: 1\n---\nb: {c\n", "---\n---\n", "a: 1\n...\n") {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := ReadStream(data, Options{KeepText: true})
		if err == nil {
			return
		}
		var pe *problem.Error
		if !errors.As(err, &pe) {
			t.Fatalf("%q: %T %v", data, err, err)
		}
		if lines := 1 + countLines(data); pe.Line > lines+1 {
			t.Fatalf("%q: line %d beyond the %d lines", data, pe.Line, lines)
		}
	})
}

// countLines counts the line breaks of b as the readers do: "\n",
// "\r\n" and a lone "\r" (YAML's line breaks).
func countLines(b []byte) int {
	n := 0
	for i := range b {
		if isBreak(b, i) {
			n++
		}
	}
	return n
}

// TestLoneCRIsOneLineBreakForEveryReader: the YAML parser, the JSON
// reader, the unclosed-bracket finder and the stream splitter all count
// a lone "\r" as a line break (the fuzz input "\r\r\r!0" once gave line 4
// against a count of 1).
func TestLoneCRIsOneLineBreakForEveryReader(t *testing.T) {
	for in, line := range map[string]int{
		"\r\r\r!0":          4, // the YAML parser
		"\r\r\r{":           4, // an unclosed flow collection
		"[1,\r\r\r}":        4, // the JSON reader
		"a: 1\r\rb: {\r":    3,
		"\r\n\r\r{":         4, // \r\n is one break
		"a\r\rb: c: d":      3,
		"a: 1\r---\rb: {\r": 3, // a marker after a lone \r starts a document
	} {
		_, err := ReadStream([]byte(in), Options{KeepText: true})
		var pe *problem.Error
		require.ErrorAs(t, err, &pe, "%q", in)
		assert.Equal(t, line, pe.Line, "%q: %v", in, err)
		assert.LessOrEqual(t, pe.Line, 1+countLines([]byte(in)), "%q", in)
	}
	docs, err := ReadStream([]byte("a: 1\r---\rb: 2\r"), Options{})
	require.NoError(t, err)
	require.Len(t, docs, 2)
	assert.Equal(t, []int{1, 3}, []int{docs[0].Line, docs[1].Line})
	assert.Equal(t, 3, countLines([]byte("\r\r\r!0")))
}

func TestIsLimit(t *testing.T) {
	for _, src := range []string{`{"a": 1, "a": 2}`, "a: 1\na: 2\n"} {
		_, err := Read([]byte(src), Options{})
		assert.False(t, IsLimit(err), "%q: a duplicate key Read reports is syntax", src)
	}
	node, err := ParseNode([]byte("a: 1\na: 2\n"))
	if err == nil {
		_, err = ToValue(node, nil)
	}
	assert.True(t, IsLimit(err), "the readers below Read refuse a duplicate key as a limit")
	_, err = DecodeJSON([]byte(`{"a": 1, "a": 2}`))
	assert.True(t, IsLimit(err))
	_, err = ParseFlow("{a: 1, a: 2}")
	assert.True(t, IsLimit(err))
	_, err = Read([]byte("a: {b\n"), Options{})
	assert.False(t, IsLimit(err))
	_, err = DecodeJSON([]byte(`{"a": }`))
	assert.False(t, IsLimit(err))
}

func TestEachStopsAtTheFirstError(t *testing.T) {
	var seen []any
	stop := errors.New("stop")
	err := Each([]byte("a: 1\n---\n[2]\n---\nc: 3\n"), Options{}, func(d Doc) error {
		seen = append(seen, d.Value)
		if d.JSON {
			return stop
		}
		return nil
	})
	require.ErrorIs(t, err, stop)
	assert.Equal(t, []any{map[string]any{"a": json.Number("1")}, []any{json.Number("2")}}, seen)

	docs, err := ReadStream([]byte("a: 1\n---\nb: [\n---\nc: 3\n"), Options{})
	require.Error(t, err)
	assert.Len(t, docs, 1, "the documents before the error come back")
}
