package kcel

import (
	"context"
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
			got := v.Validate(context.Background(), doc(t, tt.obj), old, tt.hasOld, nil)
			assert.Equal(t, tt.want, got)
		})
	}
}
