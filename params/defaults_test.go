package params_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

func TestDefaultsGolden(t *testing.T) {
	s := mustSchemaFile(t, "testdata/defaults/schema.yaml")
	data, err := os.ReadFile("testdata/defaults/values.yaml")
	require.NoError(t, err)
	for name, opts := range map[string][]params.Option{
		"materialize": nil,
		"structural":  {params.Structural()},
	} {
		t.Run(name, func(t *testing.T) {
			v, err := params.Decode(s, data)
			require.NoError(t, err)
			v = defaulted(t, s, v, opts...)
			out, err := params.MarshalYAML(s, v)
			require.NoError(t, err)
			golden(t, "testdata/defaults/"+name+".golden.yaml", out)
		})
	}
}

func TestDefaultsRules(t *testing.T) {
	s := mustSchemaFile(t, "testdata/defaults/schema.yaml")
	get := func(v any, p string) any {
		m := v
		for _, k := range splitPtr(p) {
			mm, ok := m.(map[string]any)
			if !ok {
				return "<missing>"
			}
			x, ok := mm[k]
			if !ok {
				return "<missing>"
			}
			m = x
		}
		return m
	}
	t.Run("fills missing and creates parents", func(t *testing.T) {
		v := defaulted(t, s, map[string]any{})
		assert.Equal(t, "my-cluster", get(v, "/clusterName"))
		assert.Equal(t, json.Number("3"), get(v, "/nodeCount"))
		assert.Equal(t, false, get(v, "/backup/enabled"), "templates can read .Params.backup.enabled")
		assert.Equal(t, json.Number("7"), get(v, "/backup/retention/days"))
		assert.Equal(t, true, get(v, "/tls/enabled"), "through $ref")
		assert.Equal(t, "<missing>", get(v, "/credentials"), "a parent whose required property gets no default is not created")
		assert.Equal(t, "envoy", get(v, "/sidecar/image"))
		assert.Equal(t, json.Number("15001"), get(v, "/sidecar/port"), "a default is itself defaulted below")
	})
	t.Run("never overwrites", func(t *testing.T) {
		v := defaulted(t, s, map[string]any{"nodeCount": json.Number("9"), "backup": map[string]any{"enabled": true}, "comment": nil})
		assert.Equal(t, json.Number("9"), get(v, "/nodeCount"))
		assert.Equal(t, true, get(v, "/backup/enabled"))
		assert.Nil(t, get(v, "/comment"), "a given null stays")
	})
	t.Run("structural creates no parent", func(t *testing.T) {
		v := defaulted(t, s, map[string]any{}, params.Structural())
		assert.Equal(t, "<missing>", get(v, "/backup"))
		assert.Equal(t, "my-cluster", get(v, "/clusterName"))
	})
	t.Run("structural drops null on non-nullable, then defaults", func(t *testing.T) {
		v := defaulted(t, s, map[string]any{"comment": nil, "plain": nil, "nullableThing": nil, "nodeCount": nil}, params.Structural())
		assert.Equal(t, "none", get(v, "/comment"))
		assert.Equal(t, "<missing>", get(v, "/plain"))
		assert.Nil(t, get(v, "/nullableThing"))
		assert.Equal(t, json.Number("3"), get(v, "/nodeCount"))
	})
	t.Run("defaults are copies", func(t *testing.T) {
		v1 := defaulted(t, s, map[string]any{})
		v1.(map[string]any)["sidecar"].(map[string]any)["image"] = "changed"
		v2 := defaulted(t, s, map[string]any{})
		assert.Equal(t, "envoy", get(v2, "/sidecar/image"), "the schema's default is never shared with a value")
	})
	t.Run("idempotent", func(t *testing.T) {
		data, err := os.ReadFile("testdata/defaults/values.yaml")
		require.NoError(t, err)
		v, err := params.Decode(s, data)
		require.NoError(t, err)
		once := defaulted(t, s, v)
		twice := defaulted(t, s, value.DeepCopy(once))
		assert.Equal(t, once, twice)
	})
	t.Run("root default", func(t *testing.T) {
		rs := mustSchema(t, "type: object\ndefault: {a: 1}\nproperties:\n  b: {default: 2}\n")
		v := defaulted(t, rs, nil)
		assert.Equal(t, map[string]any{"a": json.Number("1"), "b": json.Number("2")}, v)
	})
	t.Run("recursive schema terminates", func(t *testing.T) {
		rs := mustSchema(t, `{"type":"object","properties":{"x":{"default":1},"child":{"$ref":"#"}}}`)
		v := defaulted(t, rs, map[string]any{})
		assert.Equal(t, json.Number("1"), get(v, "/x"))
	})
}

func splitPtr(p string) []string {
	var out []string
	cur := ""
	for _, c := range p[1:] {
		if c == '/' {
			out = append(out, cur)
			cur = ""
			continue
		}
		cur += string(c)
	}
	return append(out, cur)
}

func TestStructuralHonoursNullable(t *testing.T) {
	s := mustSchema(t, `
type: object
properties:
  nn: {type: string, nullable: true}
  no: {type: object, nullable: true, properties: {a: {type: integer, default: 1}}}
  plainString: {type: string}
  d: {type: integer, default: 5}
`)
	v, err := params.Decode(s, []byte("nn: null\nno: ~\nplainString: null\nd:\n"))
	require.NoError(t, err)
	m := v.(map[string]any)
	assert.Nil(t, m["nn"], "null on a nullable string node is null")
	assert.Nil(t, m["no"])
	assert.Equal(t, "null", m["plainString"], "a plain string node takes the text")
	v = defaulted(t, s, v, params.Structural())
	assert.Equal(t, json.Number("5"), v.(map[string]any)["d"], "null on a non-nullable property is dropped, then defaulted")
	require.NoError(t, params.Validate(s, v, params.Structural()))
	assert.Error(t, params.Validate(s, v), "JSON Schema itself does not know nullable")
	assert.Error(t, params.Validate(s, map[string]any{"plainString": nil}, params.Structural()))
}

// TestDefaultLeavesItsInputAlone: Default returns the defaulted value and
// never writes into the one it was given, in either mode, at any depth
// (objects, array items, additionalProperties values, structural nulls).
func TestDefaultLeavesItsInputAlone(t *testing.T) {
	s := mustSchemaFile(t, "testdata/defaults/schema.yaml")
	data, err := os.ReadFile("testdata/defaults/values.yaml")
	require.NoError(t, err)
	for name, opts := range map[string][]params.Option{
		"materialize": nil,
		"structural":  {params.Structural()},
	} {
		t.Run(name, func(t *testing.T) {
			in, err := params.Decode(s, data)
			require.NoError(t, err)
			before := value.DeepCopy(in)
			out := defaulted(t, s, in, opts...)
			assert.Equal(t, before, in, "Default changed its input")
			assert.NotEqual(t, before, out, "the fixture must need defaults, or this test proves nothing")
			// The result is what defaulting a private copy in place gave
			// before: the golden file of TestDefaultsGolden.
			text, err := params.MarshalYAML(s, out)
			require.NoError(t, err)
			golden(t, "testdata/defaults/"+name+".golden.yaml", text)
		})
	}
	t.Run("nothing missing gives the input back", func(t *testing.T) {
		in := map[string]any{"a": json.Number("1")}
		out := defaulted(t, mustSchema(t, `{"type": "object", "properties": {"a": {"type": "integer", "default": 3}}}`), in)
		assert.Equal(t, in, out)
	})
	t.Run("array items and additionalProperties", func(t *testing.T) {
		s := mustSchema(t, `{"type": "object", "properties": {
			"list": {"type": "array", "items": {"type": "object", "properties": {"x": {"default": 1}}}},
			"map": {"type": "object", "additionalProperties": {"type": "object", "properties": {"y": {"default": "z"}}}}}}`)
		in := map[string]any{"list": []any{map[string]any{}, map[string]any{"x": json.Number("2")}}, "map": map[string]any{"k": map[string]any{}}}
		before := value.DeepCopy(in)
		out := defaulted(t, s, in)
		assert.Equal(t, before, in)
		assert.Equal(t, map[string]any{
			"list": []any{map[string]any{"x": json.Number("1")}, map[string]any{"x": json.Number("2")}},
			"map":  map[string]any{"k": map[string]any{"y": "z"}},
		}, out)
	})
}

// defaulted is params.Default, which must not fail.
func defaulted(t testing.TB, s *schema.Schema, v any, opts ...params.Option) any {
	t.Helper()
	out, err := params.Default(s, v, opts...)
	require.NoError(t, err)
	return out
}
