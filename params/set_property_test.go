package params_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// schemaGen draws a random schema with compositions (anyOf, oneOf, allOf,
// if/then/else, $ref, patternProperties, additionalProperties, items,
// prefixItems, several types, null) together with a value it accepts,
// built branch by branch so that the value is valid by construction.
type schemaGen struct {
	rnd  *rand.Rand
	defs map[string]any
}

var (
	propStrings = []string{"", "a", "web", "007", "yes", "no", "on", "1.10", "0x1F", "true", "null", "Null", "~",
		"12", "-3", "1e3", "{a,b}", "[x, y]", "{a: 1}", "a,b", "x=y", "- item", "#", ": colon", "'quoted'",
		`"dq"`, " lead", "trail ", "line\nbreak", "é", `a\b`, "{}", "[]", "a.b", "x[0]"}
	propInts    = []string{"0", "1", "-1", "42", "2593", "9007199254740993", "12345678901234567890"}
	propNumbers = []string{"0.5", "2593.75", "-1.25", "2593.0", "1.5e-3", "7"}
	propKeys    = []string{"a", "b", "name", "size", "port", "a.b", "x y", "ünï", "0", "007", "true", "k[0]", "a/b", "x~y", `back\slash`}
)

func (g *schemaGen) pick(l []string) string { return l[g.rnd.IntN(len(l))] }

// scalar draws a leaf schema and a value for it.
func (g *schemaGen) scalar() (map[string]any, any) {
	str := func() any { return g.pick(propStrings) }
	num := func(l []string) any { return json.Number(g.pick(l)) }
	boolean := func() any { return g.rnd.IntN(2) == 0 }
	switch g.rnd.IntN(15) {
	case 0:
		return map[string]any{"type": "string"}, str()
	case 1:
		return map[string]any{"type": "integer"}, num(propInts)
	case 2:
		return map[string]any{"type": "number"}, num(propNumbers)
	case 3:
		return map[string]any{"type": "boolean"}, boolean()
	case 4:
		return map[string]any{"type": "null"}, nil
	case 5:
		if g.rnd.IntN(2) == 0 {
			return map[string]any{"type": []any{"string", "integer"}}, str()
		}
		return map[string]any{"type": []any{"string", "integer"}}, num(propInts)
	case 6:
		if g.rnd.IntN(2) == 0 {
			return map[string]any{"type": []any{"string", "null"}}, nil
		}
		return map[string]any{"type": []any{"string", "null"}}, str()
	case 7:
		if g.rnd.IntN(2) == 0 {
			return map[string]any{"type": []any{"number", "string"}}, num(propNumbers)
		}
		return map[string]any{"type": []any{"number", "string"}}, str()
	case 8:
		enum := []any{"007", json.Number("1"), true, "yes", nil, "null"}
		return map[string]any{"enum": enum}, enum[g.rnd.IntN(len(enum))]
	case 9:
		return map[string]any{"const": "karpenter"}, "karpenter"
	case 10:
		s := map[string]any{"anyOf": []any{
			map[string]any{"type": "integer", "minimum": json.Number("1")},
			map[string]any{"type": "string", "pattern": "^[a-z]+$"}}}
		if g.rnd.IntN(2) == 0 {
			return s, json.Number("8080")
		}
		return s, "http"
	case 11:
		s := map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}}
		if g.rnd.IntN(2) == 0 {
			return s, str()
		}
		return s, num(propInts)
	case 12:
		return map[string]any{"type": "string", "nullable": true}, str()
	case 13:
		return map[string]any{"type": []any{"boolean", "string"}}, []any{str(), boolean()}[g.rnd.IntN(2)]
	}
	return map[string]any{"type": []any{"array", "string"}, "items": map[string]any{"type": "string"}}, str()
}

// node draws a schema and a value for it.
func (g *schemaGen) node(depth int) (map[string]any, any) {
	if depth >= 3 || g.rnd.IntN(3) == 0 {
		return g.scalar()
	}
	switch g.rnd.IntN(10) {
	case 0: // $ref
		s, v := g.node(depth)
		name := "d" + strconv.Itoa(len(g.defs))
		g.defs[name] = s
		return map[string]any{"$ref": "#/$defs/" + name}, v
	case 1: // additionalProperties schema
		s, v := g.node(depth + 1)
		return map[string]any{"type": "object", "additionalProperties": s}, map[string]any{g.pick(propKeys): v}
	case 2: // patternProperties, closed
		s, v := g.node(depth + 1)
		return map[string]any{"type": "object", "additionalProperties": false,
			"patternProperties": map[string]any{"^p[0-9]+$": s}}, map[string]any{"p" + strconv.Itoa(g.rnd.IntN(10)): v}
	case 3: // cluster-aws's node pools: oneOf of closed branches, one through allOf
		propsA, valA := g.props(depth, 2)
		propsB, valB := g.props(depth, 2)
		propsA["type"], propsB["type"] = map[string]any{"const": "a"}, map[string]any{"const": "b"}
		if g.rnd.IntN(2) == 0 { // the same key typed differently in each branch
			propsA["size"], propsB["size"] = map[string]any{"type": "integer"}, map[string]any{"type": "string"}
		}
		s := map[string]any{"type": "object", "oneOf": []any{
			map[string]any{"allOf": []any{
				map[string]any{"required": []any{"type"}, "properties": map[string]any{"type": map[string]any{"const": "a"}}},
				map[string]any{"additionalProperties": false, "properties": propsA}}},
			map[string]any{"additionalProperties": false, "required": []any{"type"}, "properties": propsB}}}
		v, props := valA, propsA
		v["type"] = "a"
		if g.rnd.IntN(2) == 0 {
			v, props = valB, propsB
			v["type"] = "b"
		}
		if _, ok := props["size"]; ok && g.rnd.IntN(2) == 0 {
			if v["type"] == "a" {
				v["size"] = json.Number("10")
			} else {
				v["size"] = g.pick([]string{"10", "007", "big"})
			}
		}
		return s, v
	case 4: // anyOf of objects
		s1, v1 := g.node(depth + 1)
		s2, v2 := g.node(depth + 1)
		return map[string]any{"type": "object", "anyOf": []any{
			map[string]any{"properties": map[string]any{"x": s1}},
			map[string]any{"properties": map[string]any{"y": s2}}}}, map[string]any{"x": v1, "y": v2}
	case 5: // allOf
		s1, v1 := g.node(depth + 1)
		s2, v2 := g.node(depth + 1)
		return map[string]any{"allOf": []any{
			map[string]any{"type": "object", "properties": map[string]any{"x": s1}},
			map[string]any{"properties": map[string]any{"y": s2}}}}, map[string]any{"x": v1, "y": v2}
	case 6: // if/then/else
		sp, vp := g.node(depth + 1)
		sq, vq := g.node(depth + 1)
		s := map[string]any{"type": "object", "required": []any{"kind"},
			"properties": map[string]any{"kind": map[string]any{"enum": []any{"p", "q"}}},
			"if":         map[string]any{"properties": map[string]any{"kind": map[string]any{"const": "p"}}},
			"then":       map[string]any{"properties": map[string]any{"v": sp}},
			"else":       map[string]any{"properties": map[string]any{"v": sq}}}
		if g.rnd.IntN(2) == 0 {
			return s, map[string]any{"kind": "p", "v": vp}
		}
		return s, map[string]any{"kind": "q", "v": vq}
	case 7: // items
		items, vs := g.sameSchema(depth, g.rnd.IntN(4))
		return map[string]any{"type": "array", "items": items}, vs
	case 8: // prefixItems
		s1, v1 := g.node(depth + 1)
		s2, v2 := g.node(depth + 1)
		return map[string]any{"type": "array", "prefixItems": []any{s1, s2}, "items": false}, []any{v1, v2}
	}
	props, v := g.props(depth, 4)
	s := map[string]any{"type": "object", "properties": props}
	if g.rnd.IntN(2) == 0 {
		s["additionalProperties"] = false
	}
	return s, v
}

// props draws up to n properties and a value holding some of them.
func (g *schemaGen) props(depth, n int) (map[string]any, map[string]any) {
	props, v := map[string]any{}, map[string]any{}
	for i := g.rnd.IntN(n + 1); i > 0; i-- {
		k := g.pick(propKeys)
		if _, taken := props[k]; taken || k == "type" || k == "size" {
			continue
		}
		s, x := g.node(depth + 1)
		props[k] = s
		if g.rnd.IntN(4) != 0 {
			v[k] = x
		}
	}
	return props, v
}

// sameSchema draws an item schema and n values of it: the draws of one
// seed give the same schema each time, and its value (the same for every
// element).
func (g *schemaGen) sameSchema(depth, n int) (map[string]any, []any) {
	seed := g.rnd.Uint64()
	sub := &schemaGen{rnd: rand.New(rand.NewPCG(seed, 0)), defs: g.defs}
	s, v := sub.node(depth + 1)
	vs := make([]any, n)
	for i := range vs {
		vs[i] = value.DeepCopy(v)
	}
	return s, vs
}

// leaf is one place in a value: its tokens, with which are array indexes.
type leaf struct {
	toks  []string
	index []bool
	v     any
}

func leaves(v any, toks []string, index []bool, out []leaf) []leaf {
	switch t := v.(type) {
	case map[string]any:
		if len(t) > 0 {
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				out = leaves(t[k], append(append([]string(nil), toks...), k), append(append([]bool(nil), index...), false), out)
			}
			return out
		}
	case []any:
		if len(t) > 0 {
			for i, x := range t {
				out = leaves(x, append(append([]string(nil), toks...), strconv.Itoa(i)), append(append([]bool(nil), index...), true), out)
			}
			return out
		}
	}
	if len(toks) == 0 {
		return out
	}
	return append(out, leaf{toks: toks, index: index, v: v})
}

// dotted writes the leaf's place as a dotted path with Helm's indexes, or
// "" where only a pointer can say it.
func (l leaf) dotted() string {
	var b strings.Builder
	for i, t := range l.toks {
		if l.index[i] {
			b.WriteString("[" + t + "]")
			continue
		}
		if t == "" || strings.Contains(t, "/") {
			return ""
		}
		if i > 0 {
			b.WriteByte('.')
		}
		for _, c := range []byte(t) {
			if strings.IndexByte(`.\[]`, c) >= 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

// textForms are the ways a user writes the leaf's value: as typed (a
// string as it is, unless null or quoted text would then mean something
// else), and exactly (a string quoted, anything else as JSON writes it).
func textForms(v any) (typed, exact string) {
	switch t := v.(type) {
	case string:
		q, _ := json.Marshal(t)
		if t == "null" || t == "Null" || t == "NULL" || (len(t) >= 2 && (t[0] == '"' || t[0] == '\'') && t[len(t)-1] == t[0]) {
			return string(q), string(q)
		}
		return t, string(q)
	case nil:
		return "null", "null"
	}
	js, _ := json.Marshal(v)
	return string(js), string(js)
}

// checkLeaves sets every leaf of a valid value v from its text forms, by
// pointer and by dotted path, and every list of scalars in Helm's `{a,b}`
// form: every update must be accepted, and the exact form must give the
// leaf back.
func checkLeaves(t *testing.T, s *schema.Schema, v any, what string) (updates int) {
	t.Helper()
	for _, l := range leaves(v, nil, nil, nil) {
		typed, exact := textForms(l.v)
		keys := []string{pointer.Join(l.toks...)}
		if d := l.dotted(); d != "" {
			keys = append(keys, d)
		}
		for _, key := range keys {
			for _, text := range []string{typed, exact} {
				set := key + "=" + text
				updates++
				r, err := (&params.Update{Schema: s, Old: v, Set: []string{set}}).Run()
				if err != nil {
					t.Fatalf("%s: -p %q refused although the values are valid: %v", what, set, err)
				}
				if text != exact {
					continue
				}
				got, ok := pointer.GetTokens(r.Values, l.toks)
				if !ok || !value.Equal(got, l.v) {
					t.Fatalf("%s: -p %q gives %#v, not %#v", what, set, got, l.v)
				}
			}
		}
	}
	for _, l := range scalarLists(v, nil, nil, nil) {
		set := pointer.Join(l.toks...) + "=" + helmForm(l.v.([]any))
		updates++
		if _, err := (&params.Update{Schema: s, Old: v, Set: []string{set}}).Run(); err != nil {
			t.Fatalf("%s: -p %q refused although the values are valid: %v", what, set, err)
		}
	}
	return updates
}

// scalarLists finds the non-empty arrays of scalars in v.
func scalarLists(v any, toks []string, index []bool, out []leaf) []leaf {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			out = scalarLists(x, append(append([]string(nil), toks...), k), append(append([]bool(nil), index...), false), out)
		}
	case []any:
		scalars := len(t) > 0
		for i, x := range t {
			switch x.(type) {
			case map[string]any, []any:
				scalars = false
				out = scalarLists(x, append(append([]string(nil), toks...), strconv.Itoa(i)), append(append([]bool(nil), index...), true), out)
			}
		}
		if scalars && len(toks) > 0 {
			out = append(out, leaf{toks: toks, index: index, v: t})
		}
	}
	return out
}

// helmForm writes a list of scalars in Helm's `{a,b}` syntax, with `\`
// before the characters the syntax reads.
func helmForm(l []any) string {
	parts := make([]string, len(l))
	for i, x := range l {
		text := "null"
		switch t := x.(type) {
		case string:
			text = t
		case nil:
		default:
			js, _ := json.Marshal(t)
			text = string(js)
		}
		var b strings.Builder
		for _, c := range []byte(text) {
			if c == ',' || c == '}' || c == '\\' {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
		parts[i] = b.String()
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func genSchema(seed uint64) (*schema.Schema, any, string, error) {
	g := &schemaGen{rnd: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), defs: map[string]any{}}
	props, v := g.props(0, 4)
	doc := map[string]any{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": props}
	if len(g.defs) > 0 {
		doc["$defs"] = g.defs
	}
	src, err := json.Marshal(doc)
	if err != nil {
		return nil, nil, "", err
	}
	s, err := schema.Parse(src)
	if err != nil {
		return nil, nil, string(src), err
	}
	return s, v, string(src), nil
}

// TestSetNeverRefusesValidValues is the property of issue 23: for random
// schemas with compositions and random values they accept, every leaf
// set by -p from its text form is accepted.
func TestSetNeverRefusesValidValues(t *testing.T) {
	updates := 0
	for seed := range uint64(300) {
		s, v, src, err := genSchema(seed)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		if err := params.Validate(s, v); err != nil {
			t.Fatalf("seed %d: the generator's value is invalid: %v\nschema %s\nvalue %v", seed, err, src, v)
		}
		updates += checkLeaves(t, s, v, fmt.Sprintf("seed %d (schema %s, values %v)", seed, src, v))
	}
	t.Logf("%d updates", updates)
	if updates < 2000 {
		t.Fatalf("only %d updates: the generator makes too few leaves to test anything", updates)
	}
}

// FuzzSetNeverRefusesValidValues is the same property for any seed.
func FuzzSetNeverRefusesValidValues(f *testing.F) {
	for _, seed := range []uint64{0, 1, 7, 42, 1000} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		s, v, src, err := genSchema(seed)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		if err := params.Validate(s, v); err != nil {
			t.Fatalf("the generator's value is invalid: %v\nschema %s", err, src)
		}
		checkLeaves(t, s, v, "schema "+src)
	})
}
