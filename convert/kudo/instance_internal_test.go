package kudo

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// TestSafeGuess: convert.UnwrapValues(nil, …)' rules, keeping a number only where
// a kube-apiserver stores it exactly.
func TestSafeGuess(t *testing.T) {
	cases := []struct {
		text string
		want any
	}{
		{"3", json.Number("3")},
		{"-12", json.Number("-12")},
		{"1.5", json.Number("1.5")},
		{"true", true},
		{"False", false},
		{"null", nil},
		{"007", "007"},
		{"+1", "+1"},
		{"0x1F", "0x1F"},
		{"1E3", "1E3"},   // the apiserver writes 1000
		{"1e3", "1e3"},   // likewise
		{"1.10", "1.10"}, // the apiserver writes 1.1
		{"3.0", "3.0"},
		{"9007199254740993", json.Number("9007199254740993")},
		{"99999999999999999999", "99999999999999999999"}, // beyond int64: a float64 would lose it
		{"yes", "yes"},
		{"", ""},
		{"a\nb", "a\nb"},
		{`"3"`, "3"},
		{"[foo,bar]", []any{"foo", "bar"}},
		{"[foo, 007]", []any{"foo", "007"}},
		{`{foo:"bar", n: 2}`, map[string]any{"foo": "bar", "n": json.Number("2")}},
		{`{a: 1.10}`, `{a: 1.10}`},
		{"a: 1\nb: [x]\n", "a: 1\nb: [x]\n"},
		{"[unclosed", "[unclosed"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, guessOne(c.text), "%q", c.text)
	}
}

// FuzzSafeGuess: a guess never changes a string, and a typed guess
// survives being written back as text and guessed again.
func FuzzSafeGuess(f *testing.F) {
	for _, s := range []string{"3", "007", "[a,b]", "{a: 1}", "1.10", "true", "null", "a\nb", "[a, [b, 0x1]]", "a: 1\nb: [x]\n", "-0", "1e400", `"x"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v := guessOne(text)
		if s, ok := v.(string); ok && s == text {
			return
		}
		texts, bag := guessWrapper(map[string]any{"k": v})
		if bag != nil {
			return // carried by the annotation instead
		}
		if back := guessOne(texts["k"]); !params.Identical(back, v) {
			t.Fatalf("%q guessed as %s does not survive its text %q (read back as %s)", text, mustBytes(params.MarshalJSON(nil, v, "")), texts["k"], mustBytes(params.MarshalJSON(nil, back, "")))
		}
	})
}

// FuzzConvertObject: v1beta2 Instance parameters converted down and up
// again are exactly what they were (numbers by value), by a schema and by
// safe guessing, and no input makes ConvertObject fail with anything but
// a *schema.Error.
func FuzzConvertObject(f *testing.F) {
	for _, s := range []string{
		`{"replicas":3,"enabled":false,"list":["foo","bar"],"map":{"foo":"bar"},"version":"1.10"}`,
		`{"port":"2181","version":null,"free":"007","x":[1,"2",{"a":null}]}`,
		`{"map":{"k":"{x:1}"},"version":"a\nb: c"}`,
		`{"port":1e3,"replicas":"three","t":"true","n":-0.0}`,
	} {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	s, err := schema.Parse([]byte(`{"type": "object", "properties": {
	  "replicas": {"type": "integer"}, "enabled": {"type": "boolean"}, "version": {"type": "string"},
	  "port": {"x-kubernetes-int-or-string": true}, "list": {"type": "array", "items": {"type": "string"}},
	  "map": {"type": "object", "additionalProperties": {"type": "string"}}}}`))
	if err != nil {
		f.Fatal(err)
	}
	ov, err := New("op-1.0", s, []string{"deploy"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, paramsJSON []byte, bySchema bool) {
		resolve := func(context.Context, string, string) (*OperatorVersion, error) {
			if bySchema {
				return ov, nil
			}
			return nil, nil
		}
		want, err := params.Decode(nil, paramsJSON)
		if err != nil {
			return
		}
		if _, ok := want.(map[string]any); !ok {
			return
		}
		raw := mustBytes(params.MarshalJSON(nil, map[string]any{"apiVersion": v1beta2, "kind": "Instance", "metadata": map[string]any{"name": "i"},
			"spec": map[string]any{"operatorVersion": map[string]any{"name": "op-1.0"}, "parameters": want}}, ""))
		down, err := ConvertObject(context.Background(), raw, v1beta1, resolve)
		if err != nil {
			var se *schema.Error
			if !errors.As(err, &se) {
				t.Fatalf("not a *schema.Error: %v", err)
			}
			return // too large for the annotation
		}
		up, err := ConvertObject(context.Background(), down, v1beta2, resolve)
		if err != nil {
			t.Fatalf("up: %v", err)
		}
		o, err := decodeObject(up)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := o.parameters()
		if !params.Equal(want, got) {
			t.Fatalf("round trip changed %s into %s (v1beta1: %s)", paramsJSON, mustBytes(params.MarshalJSON(nil, got, "")), down)
		}
		if _, ok := o.annotation(convert.ParametersAnnotation); ok {
			t.Fatalf("the annotation is left on the v1beta2 object")
		}
	})
}
