// Package valuegen makes random values that a schema accepts, for
// property tests of conversions. convert/migrate uses it to sample losses
// (VersionSet.Pairs); tests reach it through convert/migrate/migratetest.
package valuegen

import (
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"strings"
	"unicode/utf8"

	"github.com/paramkit/paramkit/convert/migrate/internal/shape"
	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// Random returns a random value that s accepts, for property tests of
// conversions: round trips between two versions must give back every
// value Random can make. It favours the values that break conversions:
// strings that look like numbers or booleans ("007", "yes", "1.10"), keys
// that need escaping in a JSON pointer ("a/b", "x~y"), big and fractional
// numbers kept exact, optional properties present or not, empty and
// nested collections. It knows the structural keywords (type, properties,
// required, additionalProperties, items, prefixItems, enum, const, $ref,
// allOf, anyOf, oneOf) and the common bounds (minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, multipleOf, format int32/int64,
// minLength, maxLength, minItems, maxItems); it draws until the value
// validates, and reports an error when a schema's constraints (a pattern,
// say) defeat it.
func Random(s *schema.Schema, rnd *rand.Rand) (any, error) {
	if s.Root() == nil {
		return nil, schema.NewError(schema.KindUsage, "", "no schema: make one with schema.Parse or FromValue")
	}
	if rnd == nil {
		return nil, schema.NewError(schema.KindUsage, "", "no source of randomness: pass a *rand.Rand")
	}
	g := &valueGenerator{rnd: rnd}
	for attempt := 0; attempt < 64; attempt++ {
		g.failed = false
		v := g.value(s.Root(), 0)
		if !g.failed && s.Valid(v) {
			return v, nil
		}
	}
	return nil, schema.NewError(schema.KindInvalid, "", "no valid value found for the schema after 64 draws")
}

type valueGenerator struct {
	rnd    *rand.Rand
	failed bool
}

const genMaxDepth = 5

var genStrings = []string{
	"", "a", "my-cluster", "some value", "007", "yes", "no", "on", "off", "1.10", "0x1F",
	"true", "false", "null", "~", "12", "-3", "1e3", "2593.75", "a/b", "x~y", "~1",
	"with space", "line\nbreak", "é", "日本", "{foo:\"bar\"}", "[foo,bar]", "- item", "#",
	": colon", "'quoted'", "\"dq\"", "tab\there", " lead", "trail ",
}

var genKeys = []string{"extra", "a/b", "x~y", "with space", "ünï", "0", "007", "true", "k", ""}

var genIntegers = []string{"0", "1", "-1", "3", "42", "2593", "-2147483648", "2147483647",
	"9007199254740993", "-9223372036854775808", "12345678901234567890"}

var genNumbers = []string{"0.5", "2593.75", "-1.25", "2593.0", "1e3", "1.5e-3",
	"123456789.123456789", "3", "0", "-0.001"}

func (g *valueGenerator) value(n *schema.Node, depth int) any {
	if n == nil || (n.Bool() != nil && *n.Bool()) {
		return g.anyScalar()
	}
	if n.IsFalse() {
		g.failed = true
		return nil
	}
	for _, sc := range n.Scope() {
		if c, ok := sc.Keyword("const"); ok {
			return value.DeepCopy(c)
		}
		if len(sc.Enum()) > 0 {
			return value.DeepCopy(sc.Enum()[g.rnd.IntN(len(sc.Enum()))])
		}
	}
	for _, sc := range n.Scope() {
		if sc.HasDefault() && g.rnd.IntN(8) == 0 {
			return value.DeepCopy(sc.Default())
		}
	}
	types := n.Types()
	var own bool
	for _, sc := range n.Scope() {
		if len(sc.Type()) > 0 || shape.HasProperties(sc) || sc.Items() != nil || len(sc.PrefixItems()) > 0 {
			own = true
		}
	}
	if !own {
		var branches []*schema.Node
		for _, sc := range n.Scope() {
			branches = append(branches, sc.AnyOf()...)
			branches = append(branches, sc.OneOf()...)
		}
		if len(branches) > 0 {
			return g.value(branches[g.rnd.IntN(len(branches))], depth)
		}
	}
	if types == nil {
		switch {
		case shape.Structured(n):
			types = []string{"object"}
		case shape.Arrayish(n):
			types = []string{"array"}
		default:
			types = []string{"string", "integer", "number", "boolean"}
		}
	}
	switch types[g.rnd.IntN(len(types))] {
	case "object":
		return g.object(n, depth)
	case "array":
		return g.array(n, depth)
	case "string":
		return g.str(n)
	case "integer":
		return g.integer(n)
	case "number":
		if g.rnd.IntN(3) == 0 {
			return g.integer(n)
		}
		return g.number(n)
	case "boolean":
		return g.rnd.IntN(2) == 0
	}
	return nil
}

func (g *valueGenerator) anyScalar() any {
	switch g.rnd.IntN(4) {
	case 0:
		return genStrings[g.rnd.IntN(len(genStrings))]
	case 1:
		return json.Number(genIntegers[g.rnd.IntN(len(genIntegers))])
	case 2:
		return json.Number(genNumbers[g.rnd.IntN(len(genNumbers))])
	}
	return g.rnd.IntN(2) == 0
}

func (g *valueGenerator) object(n *schema.Node, depth int) any {
	out := map[string]any{}
	required := map[string]bool{}
	for _, sc := range n.Scope() {
		for _, r := range sc.RequiredNames() {
			required[r] = true
		}
	}
	for _, pd := range shape.Props(n) {
		if required[pd.Name] || (depth < genMaxDepth && g.rnd.IntN(2) == 0) {
			out[pd.Name] = g.value(n.Child(pd.Name), depth+1)
		}
	}
	for r := range required {
		if _, ok := out[r]; !ok {
			out[r] = g.value(n.Child(r), depth+1)
		}
	}
	var additional *schema.Node
	for _, sc := range n.Scope() {
		if sc.AdditionalProperties() != nil {
			additional = sc.AdditionalProperties()
			break
		}
	}
	if additional != nil && !additional.IsFalse() && depth < genMaxDepth {
		minProps := g.intKeyword(n, "minProperties", 0)
		count := g.rnd.IntN(3)
		for len(out) < minProps && count < 8 {
			count++
		}
		for i := 0; i < count; i++ {
			k := genKeys[g.rnd.IntN(len(genKeys))]
			if _, taken := out[k]; taken || shape.HasProperty(n, k) {
				continue
			}
			out[k] = g.value(n.Child(k), depth+1)
		}
	}
	return out
}

func (g *valueGenerator) array(n *schema.Node, depth int) any {
	lo := g.intKeyword(n, "minItems", 0)
	hi := g.intKeyword(n, "maxItems", lo+3)
	if hi < lo {
		g.failed = true
		return []any{}
	}
	size := lo
	if depth < genMaxDepth {
		size = lo + g.rnd.IntN(min(hi-lo, 3)+1)
	}
	out := make([]any, size)
	for i := range out {
		out[i] = g.value(n.Elem(i), depth+1)
	}
	return out
}

func (g *valueGenerator) str(n *schema.Node) any {
	lo := g.intKeyword(n, "minLength", 0)
	hi := g.intKeyword(n, "maxLength", -1)
	var s string
	switch format := g.format(n); format {
	case "date-time":
		s = "2020-08-27T10:00:00Z"
	case "date":
		s = "2020-08-27"
	case "email":
		s = "zen@example.com"
	case "uri":
		s = "https://example.com/kudo"
	case "ipv4":
		s = "10.0.0.1"
	default:
		if g.rnd.IntN(4) == 0 {
			var b strings.Builder
			for i := g.rnd.IntN(12); i >= 0; i-- {
				b.WriteByte(byte('a' + g.rnd.IntN(26)))
			}
			s = b.String()
		} else {
			s = genStrings[g.rnd.IntN(len(genStrings))]
		}
	}
	for utf8.RuneCountInString(s) < lo {
		s += "x"
	}
	if hi >= 0 && utf8.RuneCountInString(s) > hi {
		s = string([]rune(s)[:hi])
	}
	return s
}

func (g *valueGenerator) format(n *schema.Node) string {
	for _, sc := range n.Scope() {
		if sc.Format() != "" {
			return sc.Format()
		}
	}
	return ""
}

// integer draws an integer within the node's bounds.
func (g *valueGenerator) integer(n *schema.Node) any {
	lo, hi := g.bounds(n)
	switch g.format(n) {
	case "int32":
		lo, hi = maxRat(lo, ratOf("-2147483648")), minRat(hi, ratOf("2147483647"))
	case "int64":
		lo, hi = maxRat(lo, ratOf("-9223372036854775808")), minRat(hi, ratOf("9223372036854775807"))
	}
	var cand *big.Int
	if g.rnd.IntN(4) != 0 {
		r := ratOf(genIntegers[g.rnd.IntN(len(genIntegers))])
		cand = new(big.Int).Set(r.Num())
	} else {
		cand = big.NewInt(g.rnd.Int64N(2001) - 1000)
	}
	lowInt := ceilRat(lo)
	highInt := floorRat(hi)
	if lowInt != nil && highInt != nil && lowInt.Cmp(highInt) > 0 {
		g.failed = true
		return json.Number("0")
	}
	if (lowInt != nil && cand.Cmp(lowInt) < 0) || (highInt != nil && cand.Cmp(highInt) > 0) {
		switch {
		case lowInt != nil && highInt != nil:
			span := new(big.Int).Sub(highInt, lowInt)
			off := big.NewInt(0)
			if span.IsInt64() && span.Int64() < 1<<62 {
				off = big.NewInt(g.rnd.Int64N(span.Int64() + 1))
			}
			cand = new(big.Int).Add(lowInt, off)
		case lowInt != nil:
			cand = new(big.Int).Add(lowInt, big.NewInt(g.rnd.Int64N(100)))
		default:
			cand = new(big.Int).Sub(highInt, big.NewInt(g.rnd.Int64N(100)))
		}
	}
	if mo := g.multipleOf(n); mo != nil && mo.IsInt() && mo.Sign() > 0 {
		step := mo.Num()
		cand = new(big.Int).Mul(new(big.Int).Quo(cand, step), step)
	}
	return json.Number(cand.String())
}

// number draws a number with a fraction within the node's bounds, else an
// integer there.
func (g *valueGenerator) number(n *schema.Node) any {
	lo, hi := g.bounds(n)
	text := genNumbers[g.rnd.IntN(len(genNumbers))]
	r := ratOf(text)
	if (lo != nil && r.Cmp(lo) < 0) || (hi != nil && r.Cmp(hi) > 0) || g.multipleOf(n) != nil {
		return g.integer(n)
	}
	return json.Number(text)
}

// bounds gives the inclusive bounds of a number node (exclusive bounds
// nudged inward by one for integers' sake); nil where there is none.
func (g *valueGenerator) bounds(n *schema.Node) (lo, hi *big.Rat) {
	for _, sc := range n.Scope() {
		// draft-04 writes an exclusive bound as minimum plus
		// exclusiveMinimum: true.
		if x, ok := ratKeyword(sc, "minimum"); ok {
			if excl, _ := sc.Keyword("exclusiveMinimum"); excl == true {
				x = new(big.Rat).Add(x, big.NewRat(1, 1))
			}
			lo = maxRat(lo, x)
		}
		if x, ok := ratKeyword(sc, "maximum"); ok {
			if excl, _ := sc.Keyword("exclusiveMaximum"); excl == true {
				x = new(big.Rat).Sub(x, big.NewRat(1, 1))
			}
			hi = minRat(hi, x)
		}
		if x, ok := ratKeyword(sc, "exclusiveMinimum"); ok {
			lo = maxRat(lo, new(big.Rat).Add(x, big.NewRat(1, 1)))
		}
		if x, ok := ratKeyword(sc, "exclusiveMaximum"); ok {
			hi = minRat(hi, new(big.Rat).Sub(x, big.NewRat(1, 1)))
		}
	}
	return lo, hi
}

func (g *valueGenerator) multipleOf(n *schema.Node) *big.Rat {
	for _, sc := range n.Scope() {
		if x, ok := ratKeyword(sc, "multipleOf"); ok {
			return x
		}
	}
	return nil
}

func (g *valueGenerator) intKeyword(n *schema.Node, name string, def int) int {
	for _, sc := range n.Scope() {
		if x, ok := ratKeyword(sc, name); ok && x.IsInt() && x.Num().IsInt64() {
			v := x.Num().Int64()
			if v > 64 {
				v = 64
			}
			return int(v)
		}
	}
	return def
}

func ratKeyword(n *schema.Node, name string) (*big.Rat, bool) {
	raw, ok := n.Keyword(name)
	if !ok {
		return nil, false
	}
	num, ok := raw.(json.Number)
	if !ok {
		return nil, false
	}
	return number.Rat(num)
}

func ratOf(s string) *big.Rat {
	r, _ := new(big.Rat).SetString(s)
	return r
}

func maxRat(a, b *big.Rat) *big.Rat {
	if a == nil || (b != nil && b.Cmp(a) > 0) {
		return b
	}
	return a
}

func minRat(a, b *big.Rat) *big.Rat {
	if a == nil || (b != nil && b.Cmp(a) < 0) {
		return b
	}
	return a
}

func ceilRat(r *big.Rat) *big.Int {
	if r == nil {
		return nil
	}
	q, m := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

func floorRat(r *big.Rat) *big.Int {
	if r == nil {
		return nil
	}
	q, _ := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	return q
}
