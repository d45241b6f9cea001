package convert

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

const unwrapSchema = `type: object
properties:
  STR: {type: string}
  INT: {type: integer}
  NUM: {type: number}
  BOOL: {type: boolean}
  STRINGS: {type: array, items: {type: string}}
  INTS: {type: array, items: {type: integer}}
  ANY_LIST: {type: array}
  OBJ:
    type: object
    properties:
      name: {type: string}
      port: {type: integer}
      tags: {type: array, items: {type: string}}
  MAP: {type: object, additionalProperties: {type: integer}}
  STR_OR_INT: {type: [string, integer]}
  NULLABLE_INT: {type: [integer, "null"]}
  UNTYPED: {description: anything}
  TUPLE: {type: array, prefixItems: [{type: string}, {type: integer}]}
`

func loadTestSchema(t testing.TB, text string) *schema.Schema {
	t.Helper()
	s, err := LoadSchema([]byte(text))
	require.NoError(t, err)
	return s
}

func TestUnwrapValuesTypesByTheSchema(t *testing.T) {
	s := loadTestSchema(t, unwrapSchema)
	for _, tc := range []struct {
		key, text string
		want      any
	}{
		{"STR", "007", "007"},
		{"STR", "yes", "yes"},
		{"STR", "1.10", "1.10"},
		{"STR", "[a, b]", "[a, b]"},
		{"STR", `"quoted"`, `"quoted"`},
		{"STR", "", ""},
		{"INT", "3", json.Number("3")},
		{"INT", "9007199254740993", json.Number("9007199254740993")},
		{"INT", "007", json.Number("7")},
		{"NUM", "1.5", json.Number("1.5")},
		{"NUM", "3", json.Number("3")},
		{"BOOL", "false", false},
		{"BOOL", "True", true},
		{"BOOL", "1", true},  // as KUDO's strconv.ParseBool accepted it
		{"BOOL", "F", false}, // likewise
		{"STRINGS", "[foo,bar,bazz]", []any{"foo", "bar", "bazz"}},
		{"STRINGS", "[1, 2]", []any{"1", "2"}},
		{"STRINGS", `["a b", 'c']`, []any{"a b", "c"}},
		{"STRINGS", "- a\n- 1\n", []any{"a", "1"}},
		{"INTS", "[1, 2]", []any{json.Number("1"), json.Number("2")}},
		{"INTS", "[]", []any{}},
		{"ANY_LIST", "[1, a, true, null]", []any{json.Number("1"), "a", true, nil}},
		{"OBJ", `{name: web, port: 8080, tags: [1, x]}`, map[string]any{"name": "web", "port": json.Number("8080"), "tags": []any{"1", "x"}}},
		{"OBJ", `{name:"bar"}`, map[string]any{"name": "bar"}},
		{"MAP", `{a: 1, b: 2}`, map[string]any{"a": json.Number("1"), "b": json.Number("2")}},
		{"STR_OR_INT", "3", json.Number("3")},
		{"STR_OR_INT", "abc", "abc"},
		{"STR_OR_INT", `"3"`, "3"}, // a JSON string literal, as WrapValues writes it
		{"NULLABLE_INT", "null", nil},
		{"UNTYPED", "3", json.Number("3")},
		{"UNTYPED", "yes", "yes"},
		{"UNTYPED", "", ""},
		{"UNDECLARED", "[a,b]", []any{"a", "b"}},
		{"UNDECLARED", "{foo:\"bar\"}", map[string]any{"foo": "bar"}},
		{"UNDECLARED", "[unclosed", "[unclosed"},
		{"UNDECLARED", "3", json.Number("3")},
		{"TUPLE", "[a, 1]", []any{"a", json.Number("1")}},
	} {
		t.Run(tc.key+"="+tc.text, func(t *testing.T) {
			got, err := UnwrapValues(s, map[string]string{tc.key: tc.text})
			require.NoError(t, err)
			assert.True(t, value.Equal(tc.want, got[tc.key]), "want %#v, got %#v", tc.want, got[tc.key])
			assert.Equal(t, value.TypeName(tc.want), value.TypeName(got[tc.key]))
		})
	}
}

func TestUnwrapValuesKEPExample(t *testing.T) {
	s := loadTestSchema(t, string(testdata(t, "kep/instance-unwrap.params.v1beta1.yaml")))
	got, err := UnwrapValues(s, map[string]string{
		"NODE_COUNT":     "3",
		"BACKUP_ENABLED": "false",
		"ARRAY_PARAM":    "[foo,bar,bazz]",
		"MAP_PARAM":      `{foo:"bar"}`,
	})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{
		"NODE_COUNT":     json.Number("3"),
		"BACKUP_ENABLED": false,
		"ARRAY_PARAM":    []any{"foo", "bar", "bazz"},
		"MAP_PARAM":      map[string]any{"foo": "bar"},
	}, got)
}

func TestUnwrapValuesReportsEveryTypeErrorWithItsPointer(t *testing.T) {
	s := loadTestSchema(t, unwrapSchema)
	_, err := UnwrapValues(s, map[string]string{
		"INT":      "abc",
		"NUM":      "1.5.1",
		"BOOL":     "yes",
		"INTS":     "[1, x, 2.5]",
		"OBJ":      "{name: a, port: http}",
		"STRINGS":  "[a, [b]]",
		"MAP":      "{a: 1, b: two}",
		"STR":      "fine",
		"TUPLE":    "[a, b]",
		"ANY_LIST": "{not: a list}",
		"OBJ2":     "ok",
	})
	var ve schema.ErrorList
	require.True(t, problem.As(err, &ve), "%T %v", err, err)
	var got []string
	for _, e := range ve {
		got = append(got, e.Error())
	}
	assert.Equal(t, []string{
		`/ANY_LIST: "{not: a list}" is not an array`,
		`/BOOL: "yes" is not a boolean`,
		`/INT: "abc" is not an integer`,
		`/INTS/1: "x" is not an integer`,
		`/INTS/2: 2.5 is not an integer`,
		`/MAP/b: "two" is not an integer`,
		`/NUM: "1.5.1" is not a number`,
		`/OBJ/port: "http" is not an integer`,
		`/STRINGS/1: ["b"] is not a string`,
		`/TUPLE/1: "b" is not an integer`,
	}, got)
}

func TestAliasBombsInTextAreRefused(t *testing.T) {
	s := loadTestSchema(t, unwrapSchema)
	bomb := "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
	for _, k := range []string{"UNTYPED", "OBJ", "UNDECLARED"} {
		_, err := UnwrapValues(s, map[string]string{k: bomb})
		assert.EqualError(t, err, "/"+k+": "+errExpands)
	}
	// an alias that does not multiply is fine
	got, err := UnwrapValues(s, map[string]string{"UNTYPED": "a: &x [1]\nb: *x\n"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": []any{json.Number("1")}, "b": []any{json.Number("1")}}, got["UNTYPED"])

	_, err = FromV1beta1([]byte("parameters:\n  - name: P\n    type: map\n    default: " + jsonQuote(bomb) + "\n"))
	assert.ErrorContains(t, err, errExpands)
}

func TestUnwrapValuesEmptyMeansNotSet(t *testing.T) {
	s := loadTestSchema(t, unwrapSchema)
	got, err := UnwrapValues(s, map[string]string{"INT": "", "STR": "", "BOOL": "", "STR_OR_INT": ""})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"STR": "", "STR_OR_INT": ""}, got)
}

func TestGuessValues(t *testing.T) {
	for _, tc := range []struct {
		text  string
		want  any
		guess string // "" when the text stays a string
	}{
		{"3", json.Number("3"), "an integer"},
		{"-12", json.Number("-12"), "an integer"},
		{"1.5", json.Number("1.5"), "a number"},
		{"1.10", json.Number("1.10"), "a number"},
		{"1e400", json.Number("1e400"), "a number"},
		// The guess keeps the text 1.0, so the report says what it prints.
		{"1.0", json.Number("1.0"), "a number"},
		{"123456789012345678901234567890", json.Number("123456789012345678901234567890"), "an integer"},
		{"007", "007", ""},
		{"+3", "+3", ""},
		{"0x1F", "0x1F", ""},
		{"1_000", "1_000", ""},
		{".5", ".5", ""},
		{".inf", ".inf", ""},
		{"1e99999", "1e99999", ""},
		{"true", true, "a boolean"},
		{"FALSE", false, "a boolean"},
		{"yes", "yes", ""},
		{"on", "on", ""},
		{"null", nil, "a null"},
		{"~", nil, "a null"},
		{"", "", ""},
		{"my-cluster", "my-cluster", ""},
		{"[foo,bar,bazz]", []any{"foo", "bar", "bazz"}, "an array"},
		{`{foo:"bar"}`, map[string]any{"foo": "bar"}, "an object"},
		{"[1, 007, true, yes, null]", []any{json.Number("1"), "007", true, "yes", nil}, "an array"},
		{`{a: {b: [1.5]}, c:}`, map[string]any{"a": map[string]any{"b": []any{json.Number("1.5")}}, "c": nil}, "an object"},
		{"[unclosed", "[unclosed", ""},
		{"{a: 1} trailing", "{a: 1} trailing", ""},
		{`"3"`, "3", "a string from its JSON quotes"},
		{`"unterminated`, `"unterminated`, ""},
		{"- a\n- b", "- a\n- b", ""}, // block text is not guessed
	} {
		t.Run(tc.text, func(t *testing.T) {
			got, notes := guessValues(map[string]string{"P": tc.text})
			assert.True(t, value.Equal(tc.want, got["P"]), "want %#v, got %#v", tc.want, got["P"])
			assert.Equal(t, value.TypeName(tc.want), value.TypeName(got["P"]))
			if tc.guess == "" {
				assert.Empty(t, notes)
				return
			}
			require.Len(t, notes, 1)
			assert.Equal(t, "/P", notes[0].Pointer)
			assert.Equal(t, "guessed "+tc.guess+" from "+jsonQuote(tc.text), notes[0].Message)
		})
	}
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestUnwrapValuesWithoutSchemaGuesses(t *testing.T) {
	got, err := UnwrapValues(nil, map[string]string{"A": "3", "B": "007"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"A": json.Number("3"), "B": "007"}, got)
}

func TestWrapValues(t *testing.T) {
	s := loadTestSchema(t, unwrapSchema)
	got, err := WrapValues(s, map[string]any{
		"STR":          "007",
		"STR2":         "plain",
		"INT":          json.Number("3"),
		"BOOL":         false,
		"STRINGS":      []any{"foo", "bar"},
		"OBJ":          map[string]any{"name": "web", "port": json.Number("80")},
		"STR_OR_INT":   "3",
		"STR_OR_INT_B": "abc",
		"UNTYPED":      "true",
		"NULLABLE_INT": nil,
	})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{
		"STR":          "007",
		"STR2":         `"plain"`[1:6],
		"INT":          "3",
		"BOOL":         "false",
		"STRINGS":      `["foo","bar"]`,
		"OBJ":          `{"name":"web","port":80}`,
		"STR_OR_INT":   `"3"`,
		"STR_OR_INT_B": "abc",
		"UNTYPED":      `"true"`,
		"NULLABLE_INT": "null",
	}, got)

	_, err = WrapValues(s, map[string]any{"STR": json.Number("3"), "INT": "x", "INTS": []any{"a"}, "OK": "fine"})
	var ve schema.ErrorList
	require.True(t, problem.As(err, &ve))
	var msgs []string
	for _, e := range ve {
		msgs = append(msgs, e.Error())
	}
	assert.Equal(t, []string{
		`/INT: "x" cannot be written as v1beta1 text that reads back the same: the schema wants an integer here`,
		`/INTS: ["a"] cannot be written as v1beta1 text that reads back the same`,
		`/STR: 3 cannot be written as v1beta1 text that reads back the same: the schema wants a string here`,
	}, msgs)

	_, err = WrapValues(s, map[string]any{"INTS": []any{3}})
	assert.EqualError(t, err, "/INTS: [3] cannot be written as v1beta1 text that reads back the same: it holds a Go int where plain values hold json.Number numbers, strings, booleans, nil, []any and map[string]any")

	// without a schema the guess rules read it back
	g, err := WrapValues(nil, map[string]any{"A": "3", "B": json.Number("3"), "C": "007", "D": []any{"007", json.Number("1")}})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"A": `"3"`, "B": "3", "C": "007", "D": `["007",1]`}, g)
}

func TestUnwrapDocuments(t *testing.T) {
	s := loadTestSchema(t, unwrapSchema)
	for _, tc := range []struct {
		name, in string
		want     string // YAML output
		err      string
		notes    []string
	}{
		{"flat map keeps its order", "STR: a\nINT: \"3\"\nBOOL: true\n", "STR: a\nINT: 3\nBOOL: true\n", "", nil},
		{"values as written", "STR: 007\nINT: 007\nSTR_OR_INT: 1.10\n", "STR: \"007\"\nINT: 7\nSTR_OR_INT: \"1.10\"\n", "", nil},
		{"flow order kept", "OBJ: '{port: 1, name: web}'\n", "OBJ:\n  port: 1\n  name: web\n", "", nil},
		{"empty means not set", "INT: ''\nSTR: ''\n", "STR: \"\"\n", "", []string{`/INT: empty: v1beta1's "not set"; left out so that the default applies`}},
		{"JSON input", `{"INT":"3","STRINGS":"[a]"}`, "INT: 3\nSTRINGS:\n  - a\n", "", nil},
		{"Instance", "apiVersion: kudo.dev/v1beta1\nkind: Instance\nmetadata: {name: web}\nspec:\n  operatorVersion: {name: op-0.1}\n  parameters:\n    INT: \"3\"\n",
			"apiVersion: kudo.dev/v1beta2\nkind: Instance\nmetadata:\n  name: web\nspec:\n  operatorVersion:\n    name: op-0.1\n  parameters:\n    INT: 3\n", "", nil},
		{"Instance without parameters", "apiVersion: kudo.dev/v1beta1\nkind: Instance\nspec: {}\n", "apiVersion: kudo.dev/v1beta2\nkind: Instance\nspec: {}\n", "", nil},
		{"v1beta2 Instance unchanged", "apiVersion: kudo.dev/v1beta2\nkind: Instance\nspec:\n  parameters: {INT: 3}\n", "apiVersion: kudo.dev/v1beta2\nkind: Instance\nspec:\n  parameters: {INT: 3}\n", "", nil},
		{"empty document", "{}\n", "{}\n", "", nil},
		{"collection in the string map", "STRINGS: [a]\nINT: x\n", "", "/INT: \"x\" is not an integer\n/STRINGS: a v1beta1 parameter value is text, not a list", nil},
		{"errors under the Instance", "kind: Instance\nspec:\n  parameters: {INTS: '[1, a]'}\n", "", `/spec/parameters/INTS/1: "a" is not an integer`, nil},
		{"other kind", "apiVersion: kudo.dev/v1beta1\nkind: OperatorVersion\n", "", `/kind: cannot unwrap kind OperatorVersion: expected parameter values or an Instance`, nil},
		{"a parameter named kind", "kind: fast\nSTR: x\n", "kind: fast\nSTR: x\n", "", nil},
		{"not a mapping", "[a]\n", "", `"": expected a mapping of parameter values or an Instance, not a list`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Unwrap(s, []byte(tc.in))
			if tc.err != "" {
				require.Error(t, err)
				assert.Equal(t, tc.err, err.Error())
				return
			}
			require.NoError(t, err)
			out, err := c.YAML()
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(out))
			var notes []string
			for _, n := range c.Notes {
				notes = append(notes, n.String())
			}
			assert.Equal(t, tc.notes, notes)
		})
	}

	_, err := Unwrap(s, []byte("a: [\n"))
	var de *schema.Error
	assert.True(t, errors.As(err, &de))
}
