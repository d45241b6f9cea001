package kcel

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/document"
)

func doc(t testing.TB, text string) any {
	t.Helper()
	d, err := document.Read([]byte(text), document.Options{})
	require.NoError(t, err)
	return d.Value
}

const replicasSchema = `
type: object
properties:
  replicas: {type: integer, format: int32}
  min: {type: integer}
  name:
    type: string
    x-kubernetes-validations:
    - rule: self == oldSelf
      message: name is immutable
  mode: {type: string}
  tls:
    type: object
    properties:
      certificateRefs: {type: array, items: {type: string}}
x-kubernetes-validations:
- rule: self.replicas >= self.min
  message: replicas below min
- rule: "!has(self.tls) || has(self.tls.certificateRefs)"
  messageExpression: "'tls needs certificateRefs in mode ' + self.mode"
  fieldPath: .tls
  reason: FieldValueRequired
`

func TestValidateRules(t *testing.T) {
	v := Compile(Read(doc(t, replicasSchema), ""), false)
	require.NotNil(t, v)
	tests := []struct {
		name     string
		obj, old string
		hasOld   bool
		want     []Problem
	}{
		{name: "valid", obj: `{"replicas": 3, "min": 2, "name": "a"}`},
		{name: "below min", obj: `{"replicas": 1, "min": 2}`, want: []Problem{
			{Pointer: "", Kind: KindInvalid, Keyword: "x-kubernetes-validations", SchemaPointer: "/x-kubernetes-validations/0", Message: "replicas below min"}}},
		{name: "big integers exact", obj: `{"replicas": 9007199254740993, "min": 9007199254740992}`},
		{name: "big integers exact below", obj: `{"replicas": 9007199254740992, "min": 9007199254740993}`, want: []Problem{
			{Pointer: "", Kind: KindInvalid, Keyword: "x-kubernetes-validations", SchemaPointer: "/x-kubernetes-validations/0", Message: "replicas below min"}}},
		{name: "message expression and field path", obj: `{"replicas": 1, "min": 1, "mode": "Terminate", "tls": {}}`, want: []Problem{
			{Pointer: "/tls", Kind: KindRequired, Keyword: "x-kubernetes-validations", SchemaPointer: "/x-kubernetes-validations/1", Message: "tls needs certificateRefs in mode Terminate"}}},
		{name: "transition rule skipped on create", obj: `{"replicas": 1, "min": 1, "name": "b"}`},
		{name: "transition rule on update", obj: `{"replicas": 1, "min": 1, "name": "b"}`, old: `{"replicas": 1, "min": 1, "name": "a"}`, hasOld: true, want: []Problem{
			{Pointer: "/name", Kind: KindInvalid, Keyword: "x-kubernetes-validations", SchemaPointer: "/properties/name/x-kubernetes-validations/0", Message: "name is immutable"}}},
		{name: "transition rule skipped where the old value is missing", obj: `{"replicas": 1, "min": 1, "name": "b"}`, old: `{"replicas": 1, "min": 1}`, hasOld: true},
		{name: "ratcheting keeps an unchanged invalid value", obj: `{"replicas": 1, "min": 2}`, old: `{"replicas": 1, "min": 2}`, hasOld: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var old any
			if tt.old != "" {
				old = doc(t, tt.old)
			}
			got := v.Validate(context.Background(), doc(t, tt.obj), old, tt.hasOld, nil, nil)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   []Problem
	}{
		{name: "compiles", schema: `{"type":"object","properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.a > 1","messageExpression":"self.a > 5 ? 'a is big' : 'a is small'"}]}`},
		{name: "messageExpression of unbounded cost", schema: `{"type":"object","properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.a > 1","messageExpression":"'a is ' + string(self.a)"}]}`,
			want: []Problem{{Pointer: "/x-kubernetes-validations/0/messageExpression", Kind: KindForbidden, Keyword: "messageExpression", SchemaPointer: "/x-kubernetes-validations/0",
				Message: "estimated messageExpression cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"},
				{Pointer: "/x-kubernetes-validations/0/messageExpression", Kind: KindForbidden, Keyword: "messageExpression", Message: "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"},
				{Pointer: "", Kind: KindForbidden, Keyword: "x-kubernetes-validations", Message: "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"}}},
		{name: "metadata name is visible at the root", schema: `{"type":"object","x-kubernetes-validations":[{"rule":"self.metadata.name.size() < 10"}]}`},
		{name: "undeclared reference", schema: `{"type":"object","properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.b > 1"}]}`,
			want: []Problem{{Pointer: "/x-kubernetes-validations/0/rule", Kind: KindSchema, Keyword: "rule", SchemaPointer: "/x-kubernetes-validations/0",
				Message: "compilation failed: ERROR: <input>:1:5: undefined field 'b'\n | self.b > 1\n | ....^"}}},
		{name: "not a bool", schema: `{"type":"object","properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.a"}]}`,
			want: []Problem{{Pointer: "/x-kubernetes-validations/0/rule", Kind: KindSchema, Keyword: "rule", SchemaPointer: "/x-kubernetes-validations/0",
				Message: "cel expression must evaluate to a bool"}}},
		{name: "messageExpression not a string", schema: `{"type":"object","properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.a > 1","messageExpression":"self.a"}]}`,
			want: []Problem{{Pointer: "/x-kubernetes-validations/0/messageExpression", Kind: KindSchema, Keyword: "messageExpression", SchemaPointer: "/x-kubernetes-validations/0",
				Message: "messageExpression must evaluate to a string"}}},
		{name: "includes is not yet for new expressions", schema: `{"type":"object","properties":{"a":{"type":"array","items":{"type":"integer"}}},"x-kubernetes-validations":[{"rule":"self.a.includes(1)"}]}`,
			want: []Problem{{Pointer: "/x-kubernetes-validations/0/rule", Kind: KindSchema, Keyword: "rule", SchemaPointer: "/x-kubernetes-validations/0",
				Message: "compilation failed: ERROR: <input>:1:16: undeclared reference to 'includes' (in container '')\n | self.a.includes(1)\n | ...............^"}}},
		{name: "cost over the budget", schema: `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}}},"x-kubernetes-validations":[{"rule":"self.a.all(x, self.a.all(y, x != y || x == y))"}]}`,
			want: []Problem{{Pointer: "/x-kubernetes-validations/0/rule", Kind: KindForbidden, Keyword: "rule", SchemaPointer: "/x-kubernetes-validations/0",
				Message: "estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"},
				{Pointer: "/x-kubernetes-validations/0/rule", Kind: KindForbidden, Keyword: "rule", Message: "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"},
				{Pointer: "", Kind: KindForbidden, Keyword: "x-kubernetes-validations", Message: "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"}}},
		{name: "maxItems bounds the cost", schema: `{"type":"object","properties":{"a":{"type":"array","maxItems":10,"items":{"type":"string","maxLength":10}}},"x-kubernetes-validations":[{"rule":"self.a.all(x, self.a.all(y, x != y || x == y))"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Check(Read(doc(t, tt.schema), "")))
		})
	}
}

func jsonNumber(s string) any { return json.Number(s) }

func anyText(v any) string {
	if n, ok := v.(json.Number); ok {
		return string(n)
	}
	s, _ := v.(string)
	return s
}

// TestValidateRatchetsAsTheApiserver: with a Ratchet, a failing rule
// that does not read oldSelf is dropped where its node, or the nearest
// ancestor that correlates, equals its old value (items of an atomic
// list go by their list); the rules of an allOf go by the node's parent.
func TestValidateRatchetsAsTheApiserver(t *testing.T) {
	root := Read(doc(t, `{"type":"object","properties":{
 "spec":{"type":"object","properties":{
  "nums":{"type":"array","items":{"type":"integer","x-kubernetes-validations":[{"rule":"self >= 0","message":"not negative"}]}},
  "limit":{"type":"integer","allOf":[{"x-kubernetes-validations":[{"rule":"self <= 100","message":"at most 100"}]}]},
  "other":{"type":"integer"}}}}}`), "")
	v := Compile(root, true)
	tests := []struct {
		name, old, new string
		want           []string
	}{
		{name: "an atomic list kept", old: `{"spec":{"nums":[-1,2]}}`, new: `{"spec":{"nums":[-1,2],"other":1}}`},
		{name: "an atomic list changed: its kept item is judged", old: `{"spec":{"nums":[-1,2]}}`, new: `{"spec":{"nums":[-1,3]}}`, want: []string{"/spec/nums/0"}},
		{name: "an allOf rule on a kept value whose parent changed", old: `{"spec":{"limit":500}}`, new: `{"spec":{"limit":500,"other":1}}`, want: []string{"/spec/limit"}},
		{name: "an allOf rule on a kept value, parent kept", old: `{"spec":{"limit":500,"other":1}}`, new: `{"spec":{"limit":500,"other":1}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, o := doc(t, tt.new), doc(t, tt.old)
			var got []string
			for _, p := range v.Validate(context.Background(), n, o, true, nil, NewRatchet(root, n, o)) {
				got = append(got, p.Pointer)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
