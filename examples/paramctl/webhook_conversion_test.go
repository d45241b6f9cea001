package main

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params"
)

// instanceJSON is an Instance of operator version ov with the parameters
// given as JSON text.
func instanceJSON(apiVersion, ov, params string, annotations string) json.RawMessage {
	md := `{"name":"zk","namespace":"default","uid":"u-1","resourceVersion":"42"`
	if annotations != "" {
		md += `,"annotations":` + annotations
	}
	md += `}`
	p := ""
	if params != "" {
		p = `,"parameters":` + params
	}
	return json.RawMessage(`{"apiVersion":"` + apiVersion + `","kind":"Instance","metadata":` + md +
		`,"spec":{"operatorVersion":{"name":"` + ov + `"}` + p + `},"status":{"x":1}}`)
}

func convertOne(t *testing.T, h *Handler, to string, obj json.RawMessage) (map[string]any, string) {
	t.Helper()
	resp := h.Convert(context.Background(), &kube.ConversionRequest{UID: "u", DesiredAPIVersion: to, Objects: []json.RawMessage{obj}})
	require.Equal(t, "u", resp.UID)
	if resp.Result.Status != "Success" {
		return nil, resp.Result.Message
	}
	require.Len(t, resp.ConvertedObjects, 1)
	v, err := params.Decode(nil, resp.ConvertedObjects[0])
	require.NoError(t, err)
	return v.(map[string]any), ""
}

func paramsOf(o map[string]any) any {
	return o["spec"].(map[string]any)["parameters"]
}

func decodeJSON(t *testing.T, s string) any {
	t.Helper()
	v, err := params.Decode(nil, []byte(s))
	require.NoError(t, err)
	return v
}

func TestConvertInstanceUp(t *testing.T) {
	h := testHandler(t, nil)
	cases := []struct {
		name, in, want string
	}{
		{"the KEP's example", `{"NODE_COUNT":"3","BACKUP_ENABLED":"false","ARRAY_PARAM":"[foo,bar,bazz]","MAP_PARAM":"{foo:\"bar\"}"}`,
			`{"NODE_COUNT":3,"BACKUP_ENABLED":false,"ARRAY_PARAM":["foo","bar","bazz"],"MAP_PARAM":{"foo":"bar"}}`},
		{"strings stay strings where the schema says so", `{"VERSION":"1.10","ARRAY_PARAM":"[007, yes]"}`, `{"VERSION":"1.10","ARRAY_PARAM":["007","yes"]}`},
		{"a string or integer node takes the integer", `{"ZK_PORT":"2181"}`, `{"ZK_PORT":2181}`},
		{"a named port stays a string", `{"ZK_PORT":"client"}`, `{"ZK_PORT":"client"}`},
		{"a boolean in a hand-written v1beta1 map is kept", `{"BACKUP_ENABLED":false}`, `{"BACKUP_ENABLED":false}`},
		{"text that cannot take its type stays text", `{"NODE_COUNT":"three"}`, `{"NODE_COUNT":"three"}`},
		{"no parameters", ``, ``},
		{"empty parameters", `{}`, `{}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := instanceJSON(V1beta1, "zookeeper-0.3.0", c.in, "")
			o, msg := convertOne(t, h, V1beta2, in)
			require.Empty(t, msg)
			assert.Equal(t, V1beta2, o["apiVersion"])
			if c.want == "" {
				assert.NotContains(t, o["spec"], "parameters")
			} else {
				assert.Equal(t, decodeJSON(t, c.want), paramsOf(o))
			}
			// Only apiVersion and the parameters changed.
			orig := decodeJSON(t, string(in)).(map[string]any)
			delete(orig, "apiVersion")
			delete(o, "apiVersion")
			delete(orig["spec"].(map[string]any), "parameters")
			delete(o["spec"].(map[string]any), "parameters")
			assert.Equal(t, orig, o)
		})
	}
}

// TestConvertInstanceRoundTrip: v1beta2 -> v1beta1 -> v1beta2 gives back
// exactly the same values (numbers by value: 1e3 may come back as 1000),
// with or without the annotation.
func TestConvertInstanceRoundTrip(t *testing.T) {
	h := testHandler(t, nil)
	cases := []struct {
		name, params string
		bagged       []string // keys that need the annotation
	}{
		{"typed values", `{"NODE_COUNT":3,"BACKUP_ENABLED":false,"ARRAY_PARAM":["foo","bar"],"MAP_PARAM":{"foo":"bar"},"VERSION":"1.10"}`, nil},
		{"exact numbers", `{"NODE_COUNT":9007199254740993,"EXTRA":1.50,"MAP_PARAM":{}}`, nil},
		{"an integer written 1e3 on a string-or-integer node", `{"ZK_PORT":1e3}`, nil},
		{"string on a string-or-integer node", `{"ZK_PORT":"2181"}`, nil}, // written as the JSON string "\"2181\""
		{"named port", `{"ZK_PORT":"client"}`, nil},
		{"null on a nullable object", `{"ANNOTATIONS":null}`, nil},
		{"null where only strings go", `{"VERSION":null}`, []string{"VERSION"}},
		{"strings that look like other things", `{"VERSION":"[not, a list]","MAP_PARAM":{"k":"{x:1}"}}`, nil},
		{"undeclared values", `{"free":"007","other":[1,"2",null],"t":"true"}`, nil},
		{"invalid values survive too", `{"NODE_COUNT":"three","BACKUP_ENABLED":"no","ARRAY_PARAM":[1,{"a":[]}]}`, []string{"ARRAY_PARAM", "BACKUP_ENABLED", "NODE_COUNT"}},
		{"empty", `{}`, nil},
		{"text with newlines", `{"VERSION":"line one\nline two: x\n- y","MAP_PARAM":{"a":"b"}}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := decodeJSON(t, c.params)
			down, msg := convertOne(t, h, V1beta1, instanceJSON(V1beta2, "zookeeper-0.3.0", c.params, `{"keep":"me"}`))
			require.Empty(t, msg)
			for k, v := range paramsOf(down).(map[string]any) {
				assert.IsType(t, "", v, "v1beta1 parameter %s is text", k)
			}
			ann := down["metadata"].(map[string]any)["annotations"].(map[string]any)
			assert.Equal(t, "me", ann["keep"])
			if len(c.bagged) == 0 {
				assert.NotContains(t, ann, convert.ParametersAnnotation)
			} else {
				require.Contains(t, ann, convert.ParametersAnnotation)
				bag := decodeJSON(t, ann[convert.ParametersAnnotation].(string)).(map[string]any)
				assert.ElementsMatch(t, c.bagged, slices.Collect(maps.Keys(bag)))
			}
			up, msg := convertOne(t, h, V1beta2, mustBytes(params.MarshalJSON(nil, down, "")))
			require.Empty(t, msg)
			assert.True(t, params.Equal(want, paramsOf(up)), "round trip changed %s into %s", c.params, mustBytes(params.MarshalJSON(nil, paramsOf(up), "")))
			assert.Equal(t, map[string]any{"keep": "me"}, up["metadata"].(map[string]any)["annotations"], "the annotation is gone again")
		})
	}
}

func TestConvertOldClientEditWins(t *testing.T) {
	h := testHandler(t, nil)
	down, msg := convertOne(t, h, V1beta1, instanceJSON(V1beta2, "zookeeper-0.3.0", `{"ZK_PORT":"2181","VERSION":null,"NODE_COUNT":"x"}`, ""))
	require.Empty(t, msg)
	p := paramsOf(down).(map[string]any)
	assert.Equal(t, map[string]any{"ZK_PORT": `"2181"`, "VERSION": "null", "NODE_COUNT": "x"}, p)
	bag := down["metadata"].(map[string]any)["annotations"].(map[string]any)[convert.ParametersAnnotation]
	assert.JSONEq(t, `{"VERSION":null,"NODE_COUNT":"x"}`, bag.(string))
	// An old client changes one of the values the annotation carries.
	p["VERSION"] = "3.4.14"
	up, msg := convertOne(t, h, V1beta2, mustBytes(params.MarshalJSON(nil, down, "")))
	require.Empty(t, msg)
	assert.Equal(t, map[string]any{"ZK_PORT": "2181", "VERSION": "3.4.14", "NODE_COUNT": "x"}, paramsOf(up))
}

func TestConvertWithoutSchema(t *testing.T) {
	obj := instanceJSON(V1beta1, "gone-1.0.0", `{"N":"3","V":"007","L":"[a,b]","F":"1.10","H":"0x1F","B":"true","M":"a\nb"}`, "")

	t.Run("refused by default", func(t *testing.T) {
		_, msg := convertOne(t, testHandler(t, nil), V1beta2, obj)
		assert.Contains(t, msg, `object 0 of 1: Instance default/zk: no schema for operator version "gone-1.0.0": neither testdata/webhook/schemas/gone-1.0.0.yaml nor testdata/webhook/schemas/gone-1.0.0.json exists; the parameters cannot be converted without it`)
		_, msg = convertOne(t, testHandler(t, nil), V1beta1, instanceJSON(V1beta2, "gone-1.0.0", `{"N":3}`, ""))
		assert.Contains(t, msg, `no schema for operator version "gone-1.0.0"`)
	})
	t.Run("safe guessing when opted in", func(t *testing.T) {
		h := testHandler(t, func(o *Options) { o.GuessWithoutSchema = true })
		up, msg := convertOne(t, h, V1beta2, obj)
		require.Empty(t, msg)
		assert.Equal(t, decodeJSON(t, `{"N":3,"V":"007","L":["a","b"],"F":"1.10","H":"0x1F","B":true,"M":"a\nb"}`), paramsOf(up))
		down, msg := convertOne(t, h, V1beta1, mustBytes(params.MarshalJSON(nil, up, "")))
		require.Empty(t, msg)
		assert.Equal(t, decodeJSON(t, `{"N":"3","V":"007","L":"[\"a\",\"b\"]","F":"1.10","H":"0x1F","B":"true","M":"a\nb"}`), paramsOf(down))
		assert.NotContains(t, down["metadata"], "annotations")
	})
	t.Run("a broken schema is refused even when guessing", func(t *testing.T) {
		h, err := NewHandler(Options{GuessWithoutSchema: true, Resolver: ResolverFunc(func(context.Context, string, string) (*kudo.OperatorVersion, error) {
			return nil, assert.AnError
		})})
		require.NoError(t, err)
		_, msg := convertOne(t, h, V1beta2, obj)
		assert.Contains(t, msg, assert.AnError.Error())
	})
}

func TestConvertRefusals(t *testing.T) {
	h := testHandler(t, nil)
	cases := []struct {
		name, to string
		obj      string
		msg      string
	}{
		{"unknown target", "kudo.dev/v2", string(instanceJSON(V1beta1, "zookeeper-0.3.0", `{}`, "")), `cannot convert to "kudo.dev/v2"`},
		{"foreign apiVersion", V1beta2, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"}}`, `Deployment d has apiVersion "apps/v1"`},
		{"not an object", V1beta2, `[1,2]`, "the object is an array, not a JSON object"},
		{"duplicate key", V1beta2, `{"apiVersion":"kudo.dev/v1beta1","apiVersion":"kudo.dev/v1beta1"}`, `duplicate key "apiVersion"`},
		{"huge number", V1beta2, `{"apiVersion":"kudo.dev/v1beta1","kind":"Instance","n":1e999999999}`, "number is out of the supported range"},
		{"nesting 10,000 deep", V1beta2, `{"apiVersion":"kudo.dev/v1beta1","kind":"Instance","n":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`, "deeper than 1000 levels"},
		{"invalid UTF-8", V1beta2, "{\"apiVersion\":\"kudo.dev/v1beta1\",\"kind\":\"Instance\",\"n\":\"\xff\"}", "string is not valid UTF-8"},
		{"an alias bomb in a v1beta1 value", V1beta2, string(instanceJSON(V1beta1, "zookeeper-0.3.0", `{"MAP_PARAM":"{a: &a [x,x,x,x,x,x,x,x,x,x], b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a], c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b], d: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]}"}`, "")), ""},
		{"array parameters down", V1beta1, string(instanceJSON(V1beta2, "zookeeper-0.3.0", `[1]`, "")), "spec.parameters is an array; v1beta1 holds parameters as an object of strings"},
		{"no operator version", V1beta2, `{"apiVersion":"kudo.dev/v1beta1","kind":"Instance","metadata":{"name":"i"},"spec":{"parameters":{"a":"1"}}}`, "Instance i has no spec.operatorVersion.name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, msg := convertOne(t, h, c.to, json.RawMessage(c.obj))
			if c.msg == "" {
				// Refused as a value, kept as the text it was.
				require.Empty(t, msg)
				assert.IsType(t, "", paramsOf(o).(map[string]any)["MAP_PARAM"])
				return
			}
			assert.Contains(t, msg, c.msg)
		})
	}
}

func TestConvertKeepsOrderAndUntouchedObjects(t *testing.T) {
	h := testHandler(t, nil)
	same := instanceJSON(V1beta2, "zookeeper-0.3.0", `{"NODE_COUNT": 3}`, "")
	objs := []json.RawMessage{
		instanceJSON(V1beta1, "zookeeper-0.3.0", `{"NODE_COUNT":"1"}`, ""),
		same,
		json.RawMessage(`{"apiVersion":"kudo.dev/v1beta1","kind":"Operator","metadata":{"name":"zk"},"spec":{"n":1.50}}`),
		instanceJSON(V1beta1, "zookeeper-0.3.0", `{"NODE_COUNT":"2"}`, ""),
	}
	resp := h.Convert(context.Background(), &kube.ConversionRequest{UID: "u", DesiredAPIVersion: V1beta2, Objects: objs})
	require.Equal(t, "Success", resp.Result.Status, resp.Result.Message)
	require.Len(t, resp.ConvertedObjects, 4)
	assert.Equal(t, string(same), string(resp.ConvertedObjects[1]), "an object already in the desired version is returned as it came")
	assert.JSONEq(t, `{"apiVersion":"kudo.dev/v1beta2","kind":"Operator","metadata":{"name":"zk"},"spec":{"n":1.50}}`, string(resp.ConvertedObjects[2]))
	assert.Contains(t, string(resp.ConvertedObjects[2]), "1.50", "numbers keep their text")
	for i, n := range []string{"1", "", "", "2"} {
		if n == "" {
			continue
		}
		o := decodeJSON(t, string(resp.ConvertedObjects[i])).(map[string]any)
		assert.Equal(t, json.Number(n), paramsOf(o).(map[string]any)["NODE_COUNT"])
	}
}

// TestConvertOperatorVersionRoundTrip: an OperatorVersion read through
// v1beta1 comes back as the same v1beta2 object; a v1beta1 one converts
// up and back to a list that converts up to the same schema again.
func TestConvertOperatorVersionRoundTrip(t *testing.T) {
	h := testHandler(t, nil)
	for _, name := range []string{"convert-operatorversion-down", "convert-operatorversion-up"} {
		t.Run(name, func(t *testing.T) {
			var review kube.ConversionReview
			require.NoError(t, json.Unmarshal(readGolden(t, name), &review))
			orig := review.Request.Objects[0]
			from := decodeJSON(t, string(orig)).(map[string]any)["apiVersion"].(string)
			to := V1beta1
			if from == V1beta1 {
				to = V1beta2
			}
			there, msg := convertOne(t, h, to, orig)
			require.Empty(t, msg)
			back, msg := convertOne(t, h, from, mustBytes(params.MarshalJSON(nil, there, "")))
			require.Empty(t, msg)
			if from == V1beta2 {
				assert.Equal(t, decodeJSON(t, string(orig)), any(back), "the v1beta2 object came back exactly")
				return
			}
			again, msg := convertOne(t, h, V1beta2, mustBytes(params.MarshalJSON(nil, back, "")))
			require.Empty(t, msg)
			assert.Equal(t, there, again, "the v1beta2 form is stable")
		})
	}
}
