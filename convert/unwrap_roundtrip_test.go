package convert

import (
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// A schema with every kind of node a top-level value can land on.
const roundTripSchema = `$defs:
  port: {type: integer}
type: object
properties:
  s: {type: string}
  i: {type: integer}
  n: {type: number}
  b: {type: boolean}
  nul: {type: "null"}
  sn: {type: [string, "null"]}
  si: {type: [string, integer]}
  sb: {type: [string, boolean]}
  sa: {type: [string, array], items: {type: string}}
  so: {type: [string, object]}
  u: {description: anything}
  strs: {type: array, items: {type: string}}
  ints: {type: array, items: {type: integer}}
  anys: {type: array}
  tuple: {type: array, prefixItems: [{type: string}, {type: boolean}], items: {type: number}}
  obj:
    type: object
    properties:
      a: {type: string}
      b: {type: integer}
      c: {type: array, items: {type: boolean}}
    additionalProperties: {type: string}
  deep:
    type: object
    additionalProperties:
      type: array
      items: {type: object, additionalProperties: {type: [number, string]}}
  ref: {$ref: "#/$defs/port"}
  one: {oneOf: [{type: integer}, {type: array, items: {type: string}}]}
`

var (
	nastyStrings = []string{
		"", " ", "3", "-3", "007", "+3", "1.10", "1e5", "0x1F", "1_000", ".5", ".inf", ".nan",
		"yes", "no", "on", "off", "y", "true", "True", "false", "FALSE", "null", "Null", "~",
		"[a]", "[a, b]", "[", "]", "{a:1}", `{foo:"bar"}`, "{", "}", `"q"`, `"`, "'", "''", `""`,
		"a: b", "- x", "- a\n- b", "#comment", "a #b", "a\nb", "\n", "\t", " lead", "trail ",
		"é", "日本", "😀", `\`, `\"`, "a,b", ":", "&anchor", "*alias", "!!str x", "? x", "| x", "> x",
		"%x", "@x", "`x`", "=", "<<", "1:20", "2001-01-01", "0o17", "-0", "-.5e3",
	}
	nastyNumbers = []string{"0", "-1", "3", "1.5", "1e5", "1E5", "-0.0", "123456789012345678901234567890", "1.0", "2.50", "-1e-7", "9007199254740993"}
	integers     = []string{"0", "-1", "3", "1e5", "1.0", "123456789012345678901234567890", "9007199254740993"}
)

type gen struct{ r *rand.Rand }

func (g gen) str() string {
	if g.r.Intn(3) > 0 {
		return nastyStrings[g.r.Intn(len(nastyStrings))]
	}
	const alphabet = "ab 1:,[]{}\"'#-\n\t\\é~!&*?|>%@0."
	var b strings.Builder
	for n := g.r.Intn(8); n > 0; n-- {
		b.WriteString(string([]rune(alphabet)[g.r.Intn(len([]rune(alphabet)))]))
	}
	return b.String()
}

// value makes a value whose types the node admits, all the way down.
func (g gen) value(n *schema.Node, depth int) any {
	types := []string{"string", "integer", "number", "boolean", "null", "array", "object"}
	if n != nil && n.Types() != nil {
		types = n.Types()
	}
	if depth > 3 {
		var scalars []string
		for _, t := range types {
			if t != "array" && t != "object" {
				scalars = append(scalars, t)
			}
		}
		if len(scalars) == 0 {
			scalars = []string{types[0]}
		}
		types = scalars
	}
	child := func(k string) *schema.Node {
		if n == nil {
			return nil
		}
		return n.Child(k)
	}
	elem := func(i int) *schema.Node {
		if n == nil {
			return nil
		}
		return n.Elem(i)
	}
	switch types[g.r.Intn(len(types))] {
	case "string":
		return g.str()
	case "integer":
		return json.Number(integers[g.r.Intn(len(integers))])
	case "number":
		return json.Number(nastyNumbers[g.r.Intn(len(nastyNumbers))])
	case "boolean":
		return g.r.Intn(2) == 0
	case "null":
		return nil
	case "array":
		a := []any{}
		for i := g.r.Intn(4); i > 0; i-- {
			a = append(a, g.value(elem(len(a)), depth+1))
		}
		return a
	default:
		m := map[string]any{}
		if n != nil {
			for _, p := range n.Properties() {
				if g.r.Intn(2) == 0 {
					m[p.Name()] = g.value(p, depth+1)
				}
			}
		}
		for i := g.r.Intn(3); i > 0; i-- {
			k := g.str()
			if c := child(k); c != nil && c.IsFalse() {
				continue
			}
			m[k] = g.value(child(k), depth+1)
		}
		return m
	}
}

// TestWrapThenUnwrapIsTheIdentity checks the property the conversion
// webhook relies on, over many values valid for their nodes' types: every
// one wraps, and the text unwraps to exactly the same value.
func TestWrapThenUnwrapIsTheIdentity(t *testing.T) {
	s := loadTestSchema(t, roundTripSchema)
	g := gen{rand.New(rand.NewSource(33))}
	names := []string{"undeclared", "x y", ""}
	for _, p := range s.Root().Properties() {
		names = append(names, p.Name())
	}
	for i := 0; i < 3000; i++ {
		values := map[string]any{}
		for j := g.r.Intn(4) + 1; j > 0; j-- {
			k := names[g.r.Intn(len(names))]
			values[k] = g.value(s.Root().Child(k), 0)
		}
		wrapped, err := WrapValues(s, values)
		require.NoError(t, err, "values %s", encode.JSON(values, nil, ""))
		got, err := UnwrapValues(s, wrapped)
		require.NoError(t, err, "wrapped %q", wrapped)
		require.True(t, value.Equal(values, got), "values %s\nwrapped %q\nunwrapped %s", encode.JSON(values, nil, ""), wrapped, encode.JSON(got, nil, ""))
		for k, v := range values {
			require.Equal(t, value.TypeName(v), value.TypeName(got[k]), "%s: %q", k, wrapped[k])
		}
		// a string on a node that takes only strings is written verbatim
		if sv, ok := values["s"].(string); ok {
			require.Equal(t, sv, wrapped["s"])
		}
	}
}

// Without a schema, wrapping reads back through the guess rules: any
// value at all round-trips.
func TestWrapThenGuessIsTheIdentity(t *testing.T) {
	g := gen{rand.New(rand.NewSource(42))}
	for i := 0; i < 3000; i++ {
		values := map[string]any{}
		for j := g.r.Intn(4) + 1; j > 0; j-- {
			values[g.str()] = g.value(nil, 0)
		}
		wrapped, err := WrapValues(nil, values)
		require.NoError(t, err, "values %s", encode.JSON(values, nil, ""))
		got, _ := guessValues(wrapped)
		require.True(t, value.Equal(values, got), "values %s\nwrapped %q\nguessed %s", encode.JSON(values, nil, ""), wrapped, encode.JSON(got, nil, ""))
	}
}

// Unwrapping then wrapping gives text that unwraps to the same values
// again (the text itself may differ: "007" for an integer becomes "7").
func TestUnwrapThenWrapIsStable(t *testing.T) {
	s := loadTestSchema(t, roundTripSchema)
	g := gen{rand.New(rand.NewSource(7))}
	names := []string{"undeclared"}
	for _, p := range s.Root().Properties() {
		names = append(names, p.Name())
	}
	for i := 0; i < 3000; i++ {
		in := map[string]string{names[g.r.Intn(len(names))]: g.str()}
		got, err := UnwrapValues(s, in)
		if err != nil {
			continue // not of its node's type
		}
		wrapped, err := WrapValues(s, got)
		require.NoError(t, err, "in %q got %s", in, encode.JSON(got, nil, ""))
		again, err := UnwrapValues(s, wrapped)
		require.NoError(t, err)
		require.True(t, value.Equal(got, again), "in %q wrapped %q", in, wrapped)
	}
}
