package convert

import (
	"testing"
	"unicode/utf8"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

var unwrapSeeds = []struct{ key, text string }{
	{"INT", "3"}, {"STRINGS", "[foo,bar,bazz]"}, {"OBJ", `{name:"bar", port: 80}`}, {"MAP", "{a: 1}"},
	{"BOOL", "t"}, {"STR_OR_INT", `"3"`}, {"UNDECLARED", "[1, {a: [b]}]"}, {"INTS", "[1, x]"},
	{"TUPLE", "[a, 1, 2]"}, {"NULLABLE_INT", "~"}, {"UNTYPED", "- a\n- b"}, {"INT", ""}, {"OBJ", "{a: &x 1, b: *x}"},
}

// FuzzUnwrapValues: no text makes unwrapping panic; what unwraps has the
// node's types, wraps again, and unwraps to the same value.
func FuzzUnwrapValues(f *testing.F) {
	for _, s := range unwrapSeeds {
		f.Add(s.key, s.text)
	}
	s := loadTestSchema(f, unwrapSchema)
	f.Fuzz(func(t *testing.T, key, text string) {
		got, err := UnwrapValues(s, map[string]string{key: text})
		if err != nil {
			if _, ok := problem.List[*schema.Error](err); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if !utf8.ValidString(text) {
			return // JSON cannot carry invalid UTF-8 back
		}
		wrapped, err := WrapValues(s, got)
		if err != nil {
			t.Fatalf("unwrapped %s does not wrap: %v", encode.JSON(got, nil, ""), err)
		}
		again, err := UnwrapValues(s, wrapped)
		if err != nil || !value.Equal(got, again) {
			t.Fatalf("%q unwrapped to %s, wrapped to %q, unwrapped to %s (%v)", text, encode.JSON(got, nil, ""), wrapped, encode.JSON(again, nil, ""), err)
		}
	})
}

// FuzzGuessValues: guessing never panics, and what it guesses wraps back
// to text it guesses the same way.
func FuzzGuessValues(f *testing.F) {
	for _, s := range unwrapSeeds {
		f.Add(s.text)
	}
	f.Add(`"\u00e9"`)
	f.Add("1e400")
	f.Fuzz(func(t *testing.T, text string) {
		got, _ := guessValues(map[string]string{"P": text})
		if !utf8.ValidString(text) {
			return
		}
		wrapped, err := WrapValues(nil, got)
		if err != nil {
			t.Fatalf("guessed %s does not wrap: %v", encode.JSON(got, nil, ""), err)
		}
		again, _ := guessValues(wrapped)
		if !value.Equal(got, again) {
			t.Fatalf("%q guessed %s, wrapped %q, guessed %s", text, encode.JSON(got, nil, ""), wrapped, encode.JSON(again, nil, ""))
		}
	})
}

// FuzzWrapValues: any JSON object of values wraps without a schema and
// guesses back exactly; with a schema, whatever wraps unwraps exactly.
func FuzzWrapValues(f *testing.F) {
	for _, s := range []string{
		`{"INT":3,"STR":"007","STRINGS":["a","1"],"OBJ":{"name":"x","port":80}}`,
		`{"STR_OR_INT":"3","NULLABLE_INT":null,"UNTYPED":"true","MAP":{"a":1.0}}`,
		`{"BOOL":"yes","INT":1e5,"x":[[],{}],"":""}`,
	} {
		f.Add([]byte(s))
	}
	s := loadTestSchema(f, unwrapSchema)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := document.DecodeJSON(data)
		if err != nil {
			return
		}
		values, ok := v.(map[string]any)
		if !ok {
			return
		}
		wrapped, err := WrapValues(nil, values)
		if err != nil {
			t.Fatalf("WrapValues(nil): %v", err)
		}
		if got, _ := guessValues(wrapped); !value.Equal(values, got) {
			t.Fatalf("guessed back %s from %q", encode.JSON(got, nil, ""), wrapped)
		}
		wrapped, err = WrapValues(s, values)
		if err != nil {
			return // a value of a type its node refuses
		}
		got, err := UnwrapValues(s, wrapped)
		if err != nil || !value.Equal(values, got) {
			t.Fatalf("unwrapped %s from %q (%v)", encode.JSON(got, nil, ""), wrapped, err)
		}
	})
}

// FuzzUnwrap: no document makes Unwrap panic, with or without a schema,
// and its output reads again.
func FuzzUnwrap(f *testing.F) {
	for _, s := range []string{
		"NODE_COUNT: \"3\"\nARRAY_PARAM: '[foo,bar,bazz]'\n",
		"apiVersion: kudo.dev/v1beta1\nkind: Instance\nspec:\n  parameters:\n    INT: 3\n    BOOL: false\n",
		"spec:\n  parameters:\n    MAP: '{a: 1}'\n",
		`{"INT":"3","OBJ":"{name: x}"}`,
		"INTS: [1]\n",
	} {
		f.Add([]byte(s), true)
	}
	s := loadTestSchema(f, unwrapSchema)
	f.Fuzz(func(t *testing.T, data []byte, withSchema bool) {
		sch := s
		if !withSchema {
			sch = nil
		}
		c, err := Unwrap(sch, data)
		if err != nil {
			return
		}
		y, err := c.YAML()
		if err != nil {
			t.Fatalf("YAML: %v", err)
		}
		if _, _, err := readRaw(y); err != nil {
			t.Fatalf("output does not read: %v\n%s", err, y)
		}
		if _, _, err := readRaw(mustBytes(c.JSON(""))); err != nil {
			t.Fatalf("JSON output does not read: %v\n%s", err, mustBytes(c.JSON("")))
		}
	})
}
