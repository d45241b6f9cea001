package convert

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// property converts a params.yaml holding one parameter (given as the
// lines of its mapping) and returns that parameter's schema.
func property(t *testing.T, paramYAML string, opts ...Option) (map[string]any, []Note) {
	t.Helper()
	c, err := FromV1beta1([]byte("parameters:\n  - "+strings.ReplaceAll(strings.TrimSpace(paramYAML), "\n", "\n    ")+"\n"), opts...)
	require.NoError(t, err)
	props := c.Schema.(map[string]any)["properties"].(map[string]any)
	require.Len(t, props, 1)
	for _, p := range props {
		return p.(map[string]any), c.Notes
	}
	return nil, nil
}

func convertErrors(t *testing.T, doc string) schema.ErrorList {
	t.Helper()
	_, err := FromV1beta1([]byte(doc))
	require.Error(t, err)
	var el schema.ErrorList
	require.True(t, problem.As(err, &el), "want a schema.ErrorList, got %T: %v", err, err)
	return el
}

func TestEveryV1beta1FieldConverts(t *testing.T) {
	got, notes := property(t, `
name: COUNT
displayName: Node count
description: How many nodes
required: true
default: "3"
trigger: scale
type: integer
immutable: true
enum: ["1", "3", "5"]`)
	assert.Empty(t, notes)
	want := map[string]any{
		"type":        "integer",
		"title":       "Node count",
		"description": "How many nodes",
		"default":     json.Number("3"),
		"enum":        []any{json.Number("1"), json.Number("3"), json.Number("5")},
		"trigger":     "scale",
		"immutable":   true,
	}
	assert.Equal(t, want, got)
}

func TestKeywordOrderIsStable(t *testing.T) {
	// Fields in a scrambled order come out in the documented order, x-kudo
	// keywords last in source order; the root in the KEP's order.
	in := []byte(`apiVersion: kudo.dev/v1beta1
groups:
  - name: main
    displayName: Main
parameters:
  - immutable: true
    hint: pick one
    enum: [a, b]
    trigger: deploy
    name: MODE
    default: a
    advanced: false
    description: The mode
    required: true
    displayName: Mode
    group: main
  - name: PORT
    value-type: integer
    default: "8080"
`)
	c, err := FromV1beta1(in)
	require.NoError(t, err)
	out, err := c.YAML()
	require.NoError(t, err)
	golden(t, "golden/all-fields.v1beta2.yaml", out)
	golden(t, "golden/all-fields.v1beta2.json", mustBytes(c.JSON("  ")))
}

func TestTypes(t *testing.T) {
	for _, tc := range []struct {
		name, param string
		wantType    string
		wantDefault any // absent when nil and hasDefault false
		noDefault   bool
	}{
		// explicit types, defaults written as text converted to them
		{"string", "type: string\ndefault: abc", "string", "abc", false},
		{"string keeps a number's text", "type: string\ndefault: 007", "string", "007", false},
		{"string keeps 1.10", "type: string\ndefault: 1.10", "string", "1.10", false},
		{"string keeps a boolean's word", "type: string\ndefault: yes", "string", "yes", false},
		{"integer from a quoted string", "type: integer\ndefault: \"3\"", "integer", json.Number("3"), false},
		{"integer exact", "type: integer\ndefault: \"9007199254740993\"", "integer", json.Number("9007199254740993"), false},
		{"number", "type: number\ndefault: \"0.1\"", "number", json.Number("0.1"), false},
		{"boolean from text", "type: boolean\ndefault: \"false\"", "boolean", false, false},
		{"boolean as KUDO's ParseBool read it", "type: boolean\ndefault: \"1\"", "boolean", true, false},
		{"array from terse flow text", "type: array\ndefault: '[a, b]'", "array", []any{"a", "b"}, false},
		{"array from JSON text", "type: array\ndefault: '[\"a\", 1]'", "array", []any{"a", json.Number("1")}, false},
		{"array from block text as KUDO wrote it", "type: array\ndefault: \"- a\\n- b\\n\"", "array", []any{"a", "b"}, false},
		{"array from a YAML list", "type: array\ndefault: [1, x]", "array", []any{json.Number("1"), "x"}, false},
		{"map is object", "type: map\ndefault: '{foo:\"bar\"}'", "object", map[string]any{"foo": "bar"}, false},
		{"map from one-line block text", "type: map\ndefault: \"foo: bar\"", "object", map[string]any{"foo": "bar"}, false},
		{"map from a YAML mapping", "type: map\ndefault: {a: 1}", "object", map[string]any{"a": json.Number("1")}, false},
		{"value-type as in the OperatorVersion", "value-type: integer\ndefault: \"3\"", "integer", json.Number("3"), false},
		{"explicit type wins over the default's YAML type", "type: string\ndefault: 3", "string", "3", false},

		// no type: the YAML type of the default decides
		{"no type, integer default", "default: 3", "integer", json.Number("3"), false},
		{"no type, number default", "default: 1.5", "number", json.Number("1.5"), false},
		{"no type, boolean default", "default: false", "boolean", false, false},
		{"no type, list default", "default: [a, b]", "array", []any{"a", "b"}, false},
		{"no type, mapping default", "default: {a: b}", "object", map[string]any{"a": "b"}, false},
		{"no type, quoted number stays a string", "default: \"3\"", "string", "3", false},
		{"no type, quoted boolean stays a string", "default: 'true'", "string", "true", false},
		{"no type, YAML 1.1 boolean is a string", "default: yes", "string", "yes", false},
		{"no type, explicit tag", "default: !!int \"3\"", "integer", json.Number("3"), false},
		{"no type, no default", "description: x", "string", nil, true},
		{"empty default means none", "default:", "string", nil, true},
		{"null default means none", "default: null", "string", nil, true},
		{"tilde default means none", "type: integer\ndefault: ~", "integer", nil, true},
		{"quoted empty string is a default", "default: \"\"", "string", "", false},
		{"big integer stays exact", "default: 123456789012345678901234567890", "integer", json.Number("123456789012345678901234567890"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := property(t, "name: P\n"+tc.param)
			assert.Equal(t, tc.wantType, got["type"])
			d, has := got["default"]
			if tc.noDefault {
				assert.False(t, has, "default %v", d)
				return
			}
			require.True(t, has)
			assert.True(t, value.Equal(tc.wantDefault, d), "default: want %#v, got %#v", tc.wantDefault, d)
			assert.Equal(t, value.TypeName(tc.wantDefault), value.TypeName(d))
		})
	}
}

func TestInferStringTypesIsOptInAndReported(t *testing.T) {
	for _, tc := range []struct {
		param, want string
		def         any
	}{
		{`default: "3"`, "integer", json.Number("3")},
		{`default: "-12"`, "integer", json.Number("-12")},
		{`default: "0.5"`, "number", json.Number("0.5")},
		{`default: "true"`, "boolean", true},
		{`default: "1.10"`, "string", "1.10"}, // a version, more often than not
		{`default: "007"`, "string", "007"},
		{`default: "+3"`, "string", "+3"},
		{`default: "1e3"`, "string", "1e3"},
		{`default: "yes"`, "string", "yes"},
		{`default: "[a]"`, "string", "[a]"},
		{"default: \"3\"\nenum: [\"3\", \"x\"]", "string", "3"}, // an enum value that is no integer
		{"default: \"3\"\nenum: [\"3\", \"4\"]", "integer", json.Number("3")},
	} {
		t.Run(tc.param, func(t *testing.T) {
			off, notes := property(t, "name: P\n"+tc.param)
			assert.Equal(t, "string", off["type"], "without the option a quoted default stays a string")
			assert.Empty(t, notes)

			on, notes := property(t, "name: P\n"+tc.param, InferStringTypes())
			assert.Equal(t, tc.want, on["type"])
			assert.True(t, value.Equal(tc.def, on["default"]))
			if tc.want == "string" {
				assert.Empty(t, notes)
			} else {
				require.Len(t, notes, 1)
				assert.Equal(t, "/parameters/0/default", notes[0].Pointer)
				assert.Contains(t, notes[0].Message, `parameter "P"`)
				assert.Contains(t, notes[0].Message, tc.want)
			}
		})
	}
}

func TestUnknownFieldsBecomeXKudoKeywords(t *testing.T) {
	got, _ := property(t, "name: P\ngroup: backup\nadvanced: true\nhint: {text: x}\nempty:")
	assert.Equal(t, "backup", got["x-kudo-group"])
	assert.Equal(t, true, got["x-kudo-advanced"])
	assert.Equal(t, map[string]any{"text": "x"}, got["x-kudo-hint"])
	v, kept := got["x-kudo-empty"]
	assert.True(t, kept, "a null unknown field is kept too")
	assert.Nil(t, v)

	c, err := FromV1beta1([]byte("groups: [{name: backup, prio: 2}]\nparameters: []\n"))
	require.NoError(t, err)
	assert.Equal(t, []any{map[string]any{"name": "backup", "prio": json.Number("2")}}, c.Schema.(map[string]any)["x-kudo-groups"])
	_, err = schema.FromValue(c.Schema)
	require.NoError(t, err)
}

func TestRequiredListAndPropertyOrder(t *testing.T) {
	c, err := FromV1beta1([]byte(`parameters:
  - {name: Z, required: true}
  - {name: A}
  - {name: M, required: true}
  - {name: B, required: false}
`))
	require.NoError(t, err)
	doc := c.Schema.(map[string]any)
	assert.Equal(t, []any{"Z", "M"}, doc["required"])
	assert.Equal(t, []string{"Z", "A", "M", "B"}, propertyNames(t, c.schemaJSON()))

	c, err = FromV1beta1([]byte("parameters:\n  - name: A\n"))
	require.NoError(t, err)
	_, has := c.Schema.(map[string]any)["required"]
	assert.False(t, has, "no required list when nothing is required")
}

func TestEmptyParamsFile(t *testing.T) {
	for _, in := range []string{"apiVersion: kudo.dev/v1beta1\n", "parameters:\n", "parameters: []\n"} {
		c, err := FromV1beta1([]byte(in))
		require.NoError(t, err, in)
		assert.Equal(t, map[string]any{
			"apiVersion": apiV1beta2, "title": "Parameter Schema", "$schema": "https://json-schema.org/draft/2019-09/schema", "type": "object",
		}, c.Document, in)
	}
}

func TestConversionErrorsNameTheParameterAndComeAllAtOnce(t *testing.T) {
	el := convertErrors(t, `parameters:
  - name: COUNT
    type: integer
    default: three
  - name: RATIO
    type: number
    enum: ["0.5", half]
  - name: FLAG
    type: boolean
    default: "yes"
  - name: LIST
    type: array
    default: "[a, b"
  - name: OBJ
    type: map
    default: [a]
  - name: STR
    default: {a: 1}
    type: string
  - name: T
    type: int
  - name: R
    required: "true"
  - name: COUNT
  - description: nameless
  - just text
  - name: BOTH
    type: integer
    value-type: string
  - name: I
    type: integer
    default: 1.5
  - name: E
    enum: a
`)
	var got []string
	for _, e := range el {
		got = append(got, e.Error())
	}
	assert.Equal(t, []string{
		`/parameters/0/default: parameter "COUNT": default "three" is not an integer`,
		`/parameters/1/enum/1: parameter "RATIO": enum value "half" is not a number`,
		`/parameters/2/default: parameter "FLAG": default "yes" is not a boolean (true or false)`,
		`/parameters/3/default: parameter "LIST": default "[a, b" is not a YAML or JSON list`,
		`/parameters/4/default: parameter "OBJ": default is a list, not an object`,
		`/parameters/5/default: parameter "STR": default is a mapping, but the parameter's type is string`,
		`/parameters/6/type: parameter "T": unknown type int: use string, integer, number, boolean, array or map`,
		`/parameters/7/required: parameter "R": required must be true or false, not the string "true"`,
		`/parameters/8/name: parameter "COUNT" is declared twice (first at /parameters/0)`,
		`/parameters/9: a parameter needs a name (a non-empty string)`,
		`/parameters/10: a parameter must be a mapping with at least a name, not a string`,
		`/parameters/11/value-type: parameter "BOTH": type and value-type disagree (integer, string)`,
		`/parameters/12/default: parameter "I": default 1.5 is not an integer`,
		`/parameters/13/enum: parameter "E": enum must be a list, not a string`,
	}, got)
}

func TestDocumentKinds(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		changed  bool
		err      string
	}{
		{"v1beta2 schema", "type: object\nproperties: {a: {type: string}}\n", false, ""},
		{"boolean schema", "true\n", false, ""},
		{"v1beta2 params file", "apiVersion: kudo.dev/v1beta2\ntype: object\n", false, ""},
		{"v1beta2 OperatorVersion", "apiVersion: kudo.dev/v1beta2\nkind: OperatorVersion\nspec:\n  parameters: {type: object}\n", false, ""},
		{"v1beta2 OperatorVersion without parameters", "apiVersion: kudo.dev/v1beta2\nkind: OperatorVersion\nspec: {}\n", false, ""},
		{"v1beta1 OperatorVersion without parameters", "apiVersion: kudo.dev/v1beta1\nkind: OperatorVersion\nspec: {}\n", true, ""},
		{"schema labelled v1beta1", "apiVersion: kudo.dev/v1beta1\ntype: object\n", true, ""},
		{"Instance", "apiVersion: kudo.dev/v1beta1\nkind: Instance\nspec: {}\n", false, `/kind: an Instance holds parameter values, not their definitions: unwrap it instead`},
		{"other kind", "kind: Deployment\n", false, `/kind: cannot convert kind Deployment: expected a params file or an OperatorVersion`},
		{"list", "[a]\n", false, `"": expected a v1beta1 params file, an OperatorVersion or a parameter schema, not a list`},
		{"parameters not a list", "parameters: {a: 1}\n", false, `/parameters: parameters must be a list, not a mapping`},
		{"parameters list with v1beta2", "apiVersion: kudo.dev/v1beta2\nparameters: []\n", false, `/apiVersion: a parameters list is the kudo.dev/v1beta1 format, but apiVersion says "kudo.dev/v1beta2"`},
		{"OperatorVersion with a scalar", "kind: OperatorVersion\nspec: {parameters: 3}\n", false, `/spec/parameters: spec.parameters must be a list (v1beta1) or a schema (v1beta2), not a number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := FromV1beta1([]byte(tc.in))
			if tc.err != "" {
				require.Error(t, err)
				assert.Equal(t, tc.err, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.changed, c.Changed)
			if !c.Changed {
				out, err := c.YAML()
				require.NoError(t, err)
				assert.Equal(t, tc.in, string(out))
			}
		})
	}
}

func TestUnreadableInputIsADecodeError(t *testing.T) {
	for _, in := range []string{"", "a: [b\n", "a: 1\na: 2\n", "a: 1\n---\nb: 2\n"} {
		_, err := FromV1beta1([]byte(in))
		var de *schema.Error
		require.True(t, errors.As(err, &de), "%q: got %T %v", in, err, err)
	}
}

func TestOperatorVersionFromTheAPIServerAsJSON(t *testing.T) {
	// The v1beta1 OperatorVersion stores defaults as strings: they stay
	// strings unless a value-type says otherwise. Other fields are kept.
	in := []byte(`{"apiVersion":"kudo.dev/v1beta1","kind":"OperatorVersion","metadata":{"name":"zk-0.1.0","namespace":"default"},
"spec":{"operator":{"name":"zk"},"version":"0.1.0","parameters":[
 {"name":"NODE_COUNT","default":"3","required":true},
 {"name":"MEMORY","default":"1024","value-type":"integer"},
 {"name":"ENABLED","default":"true","value-type":"boolean","trigger":"toggle"},
 {"name":"ZONES","default":"[\"a\",\"b\"]","value-type":"array","enum":["[\"a\",\"b\"]","[]"]}]}}`)
	c, err := FromV1beta1(in)
	require.NoError(t, err)
	golden(t, "golden/operatorversion-api.v1beta2.json", mustBytes(c.JSON("  ")))
	props := c.Schema.(map[string]any)["properties"].(map[string]any)
	assert.Equal(t, map[string]any{"type": "string", "default": "3"}, props["NODE_COUNT"])
	assert.Equal(t, json.Number("1024"), props["MEMORY"].(map[string]any)["default"])
	assert.Equal(t, true, props["ENABLED"].(map[string]any)["default"])
	assert.Equal(t, []any{[]any{"a", "b"}, []any{}}, props["ZONES"].(map[string]any)["enum"])
	doc := c.Document.(map[string]any)
	assert.Equal(t, "0.1.0", doc["spec"].(map[string]any)["version"])
	assert.Equal(t, map[string]any{"name": "zk-0.1.0", "namespace": "default"}, doc["metadata"])
}

func TestConvertingTwiceEqualsConvertingOnce(t *testing.T) {
	inputs := []string{
		"kep/operatorversion-node-count.v1beta1.yaml",
		"kep/operatorversion-upgrade.v1beta1.yaml",
		"kep/operatorversion-upgrade.kep-converted.yaml",
		"kep/params-zookeeper.v1beta1.yaml",
		"kep/params-zookeeper.kep-v1beta2.yaml",
		"kep/instance-unwrap.params.v1beta1.yaml",
	}
	for _, name := range inputs {
		t.Run(name, func(t *testing.T) {
			once, err := FromV1beta1(testdata(t, name))
			require.NoError(t, err)
			y1, err := once.YAML()
			require.NoError(t, err)
			twice, err := FromV1beta1(y1)
			require.NoError(t, err)
			assert.False(t, twice.Changed)
			y2, err := twice.YAML()
			require.NoError(t, err)
			assert.Equal(t, string(y1), string(y2))

			j1 := mustBytes(once.JSON("  "))
			twiceJ, err := FromV1beta1(j1)
			require.NoError(t, err)
			assert.False(t, twiceJ.Changed)
			assert.Equal(t, string(j1), string(mustBytes(twiceJ.JSON("  "))))
			assert.True(t, value.Equal(once.Document, twiceJ.Document))
		})
	}
}

func TestConvertedSchemasCompile(t *testing.T) {
	c, err := FromV1beta1([]byte(`parameters:
  - {name: A, type: integer, default: "1", enum: ["1", "2"], trigger: t, immutable: true, required: true}
  - {name: B, type: map, default: "{x: [1, 2]}"}
  - {name: "weird/name~", default: x, group: g}
`))
	require.NoError(t, err)
	s, err := schema.Parse(c.schemaJSON())
	require.NoError(t, err)
	assert.True(t, s.Lookup("/A").Immutable())
	assert.Equal(t, "t", s.Lookup("/A").Trigger())
	assert.NotNil(t, s.Lookup("/weird~1name~0"))
	assert.NoError(t, s.Validate(map[string]any{"A": json.Number("2")}))
	assert.Error(t, s.Validate(map[string]any{"A": json.Number("3")}))
}

func TestLoadSchemaAcceptsEveryForm(t *testing.T) {
	for _, name := range []string{
		"kep/operatorversion-node-count.v1beta1.yaml",
		"kep/operatorversion-node-count.v1beta2.golden.yaml",
		"kep/operatorversion-node-count.kep-schema.yaml",
		"kep/params-zookeeper.v1beta1.yaml",
		"kep/params-zookeeper.kep-v1beta2.yaml",
		"kep/operatorversion-upgrade.v1beta1.yaml",
		"kep/operatorversion-upgrade.kep-converted.yaml",
		"kep/schema-upgrade.v1beta2.yaml",
	} {
		t.Run(name, func(t *testing.T) {
			s, err := LoadSchema(testdata(t, name))
			require.NoError(t, err)
			assert.NotEmpty(t, s.Root().Properties())
		})
	}

	s, err := LoadSchema([]byte("apiVersion: kudo.dev/v1beta1\nkind: OperatorVersion\nspec: {}\n"))
	require.NoError(t, err)
	assert.True(t, s.Valid(map[string]any{}))

	// errors point into the input
	_, err = LoadSchema([]byte("apiVersion: kudo.dev/v1beta2\nkind: OperatorVersion\nspec:\n  parameters:\n    type: object\n    properties:\n      a: {type: 3}\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "/spec/parameters/properties/a/type")
	_, err = LoadSchema([]byte("parameters:\n  - name: A\n    type: integer\n    default: x\n"))
	require.Error(t, err)
	assert.Equal(t, `/parameters/0/default: parameter "A": default "x" is not an integer`, err.Error())
	_, err = LoadSchema([]byte("a: [\n"))
	var el schema.ErrorList
	require.True(t, problem.As(err, &el))
	assert.Contains(t, el.Err().Error(), "line 1")
	_, err = LoadSchema([]byte("type: int\n"))
	require.Error(t, err, "type: int stays a schema error")
}

// TestNoteString: a note at the root is its message alone; elsewhere it
// starts with its pointer.
func TestNoteString(t *testing.T) {
	assert.Equal(t, "read as the list", Note{Message: "read as the list"}.String())
	assert.Equal(t, "/a: guessed", Note{Pointer: "/a", Message: "guessed"}.String())
}
