package kudo_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// TestParameters: an Instance's parameters as values, whatever version it
// is written in; a v1beta1 Instance's texts unwrapped as the conversion
// up unwraps them.
func TestParameters(t *testing.T) {
	v, err := kudo.New("op-1.0.0", mustParse(t, `{"type": "object", "properties": {
		"replicas": {"type": "integer"}, "big": {"type": "integer"}, "enabled": {"type": "boolean"},
		"tags": {"type": "array", "items": {"type": "string"}}, "name": {"type": "string"}}}`), nil)
	require.NoError(t, err)
	instance := func(apiVersion, params, annotation string) map[string]any {
		md := `{"name":"i","namespace":"ns"}`
		if annotation != "" {
			md = `{"name":"i","namespace":"ns","annotations":{"` + "paramkit.dev/v1beta2-parameters" + `":` + annotation + `}}`
		}
		src := `{"apiVersion":"` + apiVersion + `","kind":"Instance","metadata":` + md + `,"spec":{"operatorVersion":{"name":"op-1.0.0"}`
		if params != "" {
			src += `,"parameters":` + params
		}
		return decode(t, src+`}}`).(map[string]any)
	}
	cases := []struct {
		name string
		obj  map[string]any
		want string
	}{
		{"v1beta2 as it is", instance("kudo.dev/v1beta2", `{"replicas":3,"unknown":"x"}`, ""), `{"replicas":3,"unknown":"x"}`},
		{"none", instance("kudo.dev/v1beta2", "", ""), `{}`},
		{"null", instance("kudo.dev/v1beta1", "null", ""), `{}`},
		{"without the annotation, the text", instance("kudo.dev/v1beta1", `{"name":"null"}`, ""), `{"name":"null"}`},
		{"v1beta1 texts typed, numbers exact", instance("kudo.dev/v1beta1", `{"replicas":"3","big":"9007199254740993","enabled":"true","tags":"[a, b]"}`, ""),
			`{"replicas":3,"big":9007199254740993,"enabled":true,"tags":["a","b"]}`},
		{"a text that cannot take its type stays a string", instance("kudo.dev/v1beta1", `{"replicas":"three"}`, ""), `{"replicas":"three"}`},
		{"a value written typed stays", instance("kudo.dev/v1beta1", `{"enabled":false}`, ""), `{"enabled":false}`},
		{"the annotation's value while the text is the one written down",
			instance("kudo.dev/v1beta1", `{"name":"null"}`, `"{\"name\":null}"`), `{"name":null}`},
		{"an edited text wins over the annotation",
			instance("kudo.dev/v1beta1", `{"name":"bob"}`, `"{\"name\":null}"`), `{"name":"bob"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := mustBytes(params.MarshalJSON(nil, c.obj, ""))
			got := v.Parameters(c.obj)
			assert.JSONEq(t, c.want, string(mustBytes(params.MarshalJSON(nil, got, ""))))
			assert.Equal(t, string(before), string(mustBytes(params.MarshalJSON(nil, c.obj, ""))), "the object is not changed")
		})
	}
	// A nil operator version unwraps nothing.
	var none *kudo.OperatorVersion
	assert.Equal(t, map[string]any{"replicas": "3"}, none.Parameters(instance("kudo.dev/v1beta1", `{"replicas":"3"}`, "")))
}

func decode(t *testing.T, src string) any {
	t.Helper()
	v, err := params.Decode(nil, []byte(src))
	require.NoError(t, err, src)
	return v
}

// An admission webhook reads an Instance's parameters as values whatever
// version the client wrote it in.
func ExampleOperatorVersion_Parameters() {
	s, _ := schema.Parse([]byte(`{"type": "object", "properties": {"replicas": {"type": "integer"}, "tls": {"type": "boolean"}}}`))
	v, _ := kudo.New("op-1.0.0", s, nil)
	obj, _ := params.Decode(nil, []byte(`{"apiVersion": "kudo.dev/v1beta1", "kind": "Instance",
		"spec": {"operatorVersion": {"name": "op-1.0.0"}, "parameters": {"replicas": "3", "tls": "true"}}}`))
	out, _ := params.MarshalJSON(nil, v.Parameters(obj.(map[string]any)), "")
	fmt.Println(string(out))
	// Output:
	// {"replicas":3,"tls":true}
}
