package paramkit_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// Hostile documents across the library: every way in (values as JSON or
// YAML, with or without a schema, text values, schemas themselves) gets a
// bounded, clear error for each kind of attack, never a hang, a crash or
// a silently different value. The limits are documented in package
// schema's doc ("Limits on input").

// hostileSchema has a node of each type the attacks land on.
const hostileSchema = `type: object
properties:
  n: {type: number}
  i: {type: integer}
  s: {type: string}
  a: {type: array, items: {type: string}}
  o: {type: object, additionalProperties: {type: string}}
  any: {}
`

// billionLaughs is a YAML alias bomb: nine levels of ten references each
// expand to 10^9 values.
func billionLaughs() []byte {
	var b strings.Builder
	b.WriteString("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i < 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	b.WriteString("any: *a8\n")
	return []byte(b.String())
}

// hundredMB is a 100 MB string value, built once; under the race
// detector, which makes every byte touched expensive, 40 MB (still over
// the 32 MiB document limit) stands in for it.
var hundredMB = func() string {
	if raceEnabled {
		return strings.Repeat("x", 40<<20)
	}
	return strings.Repeat("x", 100<<20)
}()

type hostileDoc struct {
	name string
	data func() []byte
	// msg must appear in the error of every way in that reads documents.
	msg string
}

func hostileDocs() []hostileDoc {
	return []hostileDoc{
		{"YAML alias bomb", billionLaughs, "expands to more than 1000000 values"},
		{"JSON arrays 10,000 deep", func() []byte {
			return []byte(`{"any":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`)
		}, "nesting deeper than 1000 levels"},
		{"JSON objects 10,000 deep", func() []byte {
			return []byte(strings.Repeat(`{"any":`, 10000) + "1" + strings.Repeat("}", 10000))
		}, "nesting deeper than 1000 levels"},
		{"YAML flow 10,000 deep", func() []byte {
			return []byte("any: " + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\n")
		}, "nesting deeper than 1000 levels"},
		{"YAML block sequences 10,000 deep", func() []byte {
			return []byte(strings.Repeat("- ", 10000) + "x\n")
		}, "nesting deeper than 1000 levels"},
		{"JSON 100 MB string", func() []byte { return []byte(`{"s":"` + hundredMB + `"}`) }, "larger than"},
		{"YAML 100 MB string", func() []byte { return []byte("s: " + hundredMB + "\n") }, "larger than"},
		{"JSON 1e999999999", func() []byte { return []byte(`{"n": 1e999999999}`) }, "number is out of the supported range"},
		{"YAML 1e999999999", func() []byte { return []byte("n: 1e999999999\n") }, "number is out of the supported range"},
		{"YAML 1e999999999 where the schema says nothing", func() []byte { return []byte("any: 1e999999999\n") }, "number is out of the supported range"},
		{"YAML 1e999999999 in a flow", func() []byte { return []byte("any: [1e999999999]\n") }, "number is out of the supported range"},
		{"JSON integer of 5000 digits", func() []byte { return []byte(`{"i": ` + strings.Repeat("9", 5000) + `}`) }, "number is out of the supported range"},
		{"JSON invalid UTF-8", func() []byte { return []byte("{\"s\": \"\xff\xfe\"}") }, "UTF-8"},
		{"YAML invalid UTF-8", func() []byte { return []byte("s: \xff\xfe\n") }, "UTF-8"},
		{"JSON unpaired surrogate", func() []byte { return []byte(`{"s": "\ud800"}`) }, "surrogate"},
		{"JSON duplicate key", func() []byte { return []byte(`{"s": "a", "s": "b"}`) }, `duplicate key "s"`},
		{"YAML duplicate key", func() []byte { return []byte("s: a\ns: b\n") }, `duplicate key "s"`},
		{"YAML duplicate key deep", func() []byte { return []byte("o:\n  k: a\n  k: b\n") }, `duplicate key "k"`},
	}
}

func TestHostileValues(t *testing.T) {
	s, err := schema.Parse([]byte(hostileSchema))
	require.NoError(t, err)
	for _, d := range hostileDocs() {
		data := d.data()
		t.Run(d.name, func(t *testing.T) {
			for _, way := range []struct {
				name string
				read func() error
			}{
				{"params.Decode with a schema", func() error { _, err := params.Decode(s, data); return err }},
				{"params.Decode without a schema", func() error { _, err := params.Decode(nil, data); return err }},
				{"params.DecodeReader", func() error { return readStream(s, data) }},
				{"params.DecodeReader of two documents", func() error {
					return readStream(s, append([]byte("s: first\n---\n"), data...))
				}},
				{"schema.Parse", func() error { _, err := schema.Parse(data); return err }},
			} {
				err := way.read()
				if assert.Error(t, err, way.name) {
					assert.Contains(t, err.Error(), d.msg, way.name)
					assert.Less(t, len(err.Error()), 4096, "%s: the error is bounded", way.name)
				}
			}
		})
	}
}

// TestHostileText: text values (a -p value, a v1beta1 string) are typed
// by their node; hostile text can make them only a validation error.
func TestHostileText(t *testing.T) {
	s, err := schema.Parse([]byte(hostileSchema))
	require.NoError(t, err)
	cases := []struct {
		name, key, text string
		msg             string // in the error of ParseText or Validate
	}{
		{"1e999999999 on a number node", "n", "1e999999999", "number is out of the supported range"},
		{"1e999999999 on an integer node", "i", "1e999999999", "number is out of the supported range"},
		{"1e999999999 inside a flow", "any", "[1e999999999]", "number is out of the supported range"},
		{"flow 10,000 deep", "any", strings.Repeat("[", 10000) + strings.Repeat("]", 10000), "nesting deeper than 1000 levels"},
		{"flow with a duplicate key", "o", `{k: a, k: b}`, `duplicate key "k"`},
		{"invalid UTF-8 on a string node", "s", "\xff\xfe", "UTF-8"},
		{"invalid UTF-8 inside a flow", "a", "[\xff]", "UTF-8"},
		{"a 100 MB flow", "a", "[" + hundredMB + "]", "larger than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := params.ParseText(s.Root().Child(c.key), c.text)
			if err == nil {
				err = params.Validate(s, map[string]any{c.key: v})
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.msg)
			assert.Less(t, len(err.Error()), 4096, "the error is bounded")
		})
	}
}

// TestHostileSchemas: a schema document is outside input too (a webhook
// reads operator versions from files).
func TestHostileSchemas(t *testing.T) {
	cases := []struct {
		name string
		doc  []byte
		msg  string
	}{
		{"properties 10,000 deep", []byte(strings.Repeat(`{"properties":{"a":`, 10000) + "{}" + strings.Repeat("}}", 10000)), "nesting deeper than 1000 levels"},
		{"a $ref cycle", []byte(`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`), ""},
		{"a 100 MB description", []byte(`{"description":"` + hundredMB + `"}`), "larger than"},
		{"a pattern the engine refuses", []byte(`{"pattern":"(?<=a)b"}`), "/pattern"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := schema.Parse(c.doc)
			if c.msg == "" {
				// A cycle compiles; validating through it must still end.
				if err == nil {
					_ = s.Validate(map[string]any{})
				}
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.msg)
			assert.Less(t, len(err.Error()), 4096)
		})
	}
}

func TestHugeStreamsAreSplitCheaply(t *testing.T) {
	// 10,000 tiny documents: linear work, every document decoded.
	var b bytes.Buffer
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&b, "---\ni: %d\n", i)
	}
	n := 0
	err := params.DecodeReader(context.Background(), nil, &b, 0, func(d params.Document[any]) error {
		n++
		return d.Err
	})
	require.NoError(t, err)
	assert.Equal(t, 10000, n)
}

// readStream reads a stream with params.DecodeReader and returns the
// first document's read error, or the reader's.
func readStream(s *schema.Schema, data []byte) error {
	return params.DecodeReader(context.Background(), s, bytes.NewReader(data), 0, func(d params.Document[any]) error {
		if l := schema.ErrorsOf(d.Err); len(l) > 0 && (l[0].Kind == schema.KindSyntax || l[0].Kind == schema.KindLimit) {
			return d.Err
		}
		return nil
	})
}
