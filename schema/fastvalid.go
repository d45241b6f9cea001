package schema

import (
	"encoding/json"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/paramkit/paramkit/internal/number"
)

// The engine builds an error tree, location strings and maps for every
// node it visits, even for a valid value: a 4-property document costs
// about 55 allocations. Batches (migration, conversion webhooks) validate
// thousands of valid values, and on 2 cores that garbage, not the checks,
// bounds how far they scale. fastNode answers only "is this value valid?",
// exactly as the engine would, without allocating in the common case; the
// engine still runs whenever the answer is no, so every message comes from
// it. A compiled schema that uses anything fastNode does not implement
// ($dynamicRef, $recursiveRef, unevaluated*, asserted content, engine
// extensions, draft-04 regex properties) gets no fastNode, and a value of
// a Go type the engine would have to judge (float64, int, ...) makes the
// fast check give up.
type fastNode struct {
	always *bool

	types     uint8 // fastNull | fastBool | ...; 0 means any
	constant  []any // nil, or one element: the const value
	enum      []any
	hasEnum   bool
	formatFn  func(any) bool
	minProps  int
	maxProps  int
	required  []string
	props     map[string]*fastNode
	propNames *fastNode
	patterns  []fastPattern
	// additional is nil (anything), a node, or the false node.
	additional  *fastNode
	addForbid   bool
	depSchemas  map[string]*fastNode
	depRequired map[string][]string

	minItems, maxItems     int
	unique                 bool
	tuple                  []*fastNode // draft-07 items array or prefixItems
	rest                   *fastNode   // items schema, additionalItems or items (2020)
	restForbid             bool        // additionalItems: false after a tuple
	restChecked            bool        // whether rest/restForbid apply past the tuple
	contains               *fastNode
	minContains, maxCont   int
	minLength, maxLength   int
	pattern                *regexp.Regexp
	minimum, maximum       fastBound
	exclMinimum, exclMax   fastBound
	multipleOf             fastBound
	ref, not               *fastNode
	allOf, anyOf, oneOf    []*fastNode
	ifNode, thenNo, elseNo *fastNode
}

type fastPattern struct {
	re   *regexp.Regexp
	node *fastNode
}

// fastBound is a numeric limit (or divisor), with its value as a decimal
// when it is one so that the common comparison allocates nothing.
type fastBound struct {
	rat   *big.Rat
	dec   decimal
	isDec bool
}

const (
	fastNull uint8 = 1 << iota
	fastBool
	fastNumber
	fastInteger
	fastString
	fastArray
	fastObject
)

var fastTypeBits = map[string]uint8{
	"null": fastNull, "boolean": fastBool, "number": fastNumber, "integer": fastInteger,
	"string": fastString, "array": fastArray, "object": fastObject,
}

// compileFast mirrors a compiled engine schema as fastNodes, or reports
// that the schema uses something the fast check does not implement.
// noSchemaKeyword says the document's root has no $schema: the engine
// then knows no meta-schema vocabularies and asserts every format, in
// every dialect.
func compileFast(root *jsonschema.Schema, noSchemaKeyword bool) (*fastNode, bool) {
	fc := &fastCompiler{nodes: map[*jsonschema.Schema]*fastNode{}, assertFormats: noSchemaKeyword}
	n := fc.node(root)
	if fc.refused || fc.inPlaceCycle(n) {
		return nil, false
	}
	return n, true
}

type fastCompiler struct {
	nodes         map[*jsonschema.Schema]*fastNode
	refused       bool
	assertFormats bool
}

func (fc *fastCompiler) node(s *jsonschema.Schema) *fastNode {
	if s == nil {
		return nil
	}
	if n, ok := fc.nodes[s]; ok {
		return n
	}
	n := &fastNode{}
	fc.nodes[s] = n // before the children: $ref cycles end here
	if s.RecursiveRef != nil || s.DynamicRef != nil || s.RegexProperties ||
		s.UnevaluatedProperties != nil || s.UnevaluatedItems != nil || s.ContentSchema != nil ||
		len(s.Extensions) > 0 {
		fc.refused = true
		return n
	}
	legacy := s.Draft == jsonschema.Draft4 || s.Draft == jsonschema.Draft6 || s.Draft == jsonschema.Draft7
	if legacy && (s.ContentEncoding != "" || s.ContentMediaType != "") {
		fc.refused = true // asserted before 2019-09
		return n
	}
	if s.Always != nil {
		n.always = s.Always
		return n
	}
	for _, t := range s.Types {
		bit, ok := fastTypeBits[t]
		if !ok {
			fc.refused = true
			return n
		}
		n.types |= bit
	}
	if len(s.Constant) > 0 {
		n.constant = s.Constant[:1]
	}
	n.enum, n.hasEnum = s.Enum, len(s.Enum) > 0
	if s.Format != "" && (legacy || fc.assertFormats) {
		// The engine asserts formats before 2019-09 and without a
		// meta-schema, with the functions of its Formats table (the
		// compiler here adds none).
		n.formatFn = jsonschema.Formats[s.Format]
	}
	n.minProps, n.maxProps = s.MinProperties, s.MaxProperties
	n.required = s.Required
	if len(s.Properties) > 0 {
		n.props = make(map[string]*fastNode, len(s.Properties))
		for k, p := range s.Properties {
			n.props[k] = fc.node(p)
		}
	}
	n.propNames = fc.node(s.PropertyNames)
	for re, p := range s.PatternProperties {
		n.patterns = append(n.patterns, fastPattern{re, fc.node(p)})
	}
	switch a := s.AdditionalProperties.(type) {
	case bool:
		n.addForbid = !a
	case *jsonschema.Schema:
		n.additional = fc.node(a)
	}
	for k, d := range s.Dependencies {
		switch d := d.(type) {
		case *jsonschema.Schema:
			if n.depSchemas == nil {
				n.depSchemas = map[string]*fastNode{}
			}
			n.depSchemas[k] = fc.node(d)
		case []string:
			if n.depRequired == nil {
				n.depRequired = map[string][]string{}
			}
			n.depRequired[k] = append(n.depRequired[k], d...)
		}
	}
	for k, d := range s.DependentRequired {
		if n.depRequired == nil {
			n.depRequired = map[string][]string{}
		}
		n.depRequired[k] = append(n.depRequired[k], d...)
	}
	for k, d := range s.DependentSchemas {
		if n.depSchemas == nil {
			n.depSchemas = map[string]*fastNode{}
		}
		if n.depSchemas[k] != nil {
			fc.refused = true // dependencies and dependentSchemas on one key
			return n
		}
		n.depSchemas[k] = fc.node(d)
	}

	n.minItems, n.maxItems, n.unique = s.MinItems, s.MaxItems, s.UniqueItems
	switch items := s.Items.(type) {
	case *jsonschema.Schema:
		n.rest, n.restChecked = fc.node(items), true
	case []*jsonschema.Schema:
		for _, it := range items {
			n.tuple = append(n.tuple, fc.node(it))
		}
		switch a := s.AdditionalItems.(type) {
		case bool:
			n.restForbid, n.restChecked = !a, !a
		case *jsonschema.Schema:
			n.rest, n.restChecked = fc.node(a), true
		}
	}
	if len(s.PrefixItems) > 0 || s.Items2020 != nil {
		if n.tuple != nil || n.rest != nil || n.restForbid {
			fc.refused = true // both generations of items on one node
			return n
		}
		for _, it := range s.PrefixItems {
			n.tuple = append(n.tuple, fc.node(it))
		}
		if s.Items2020 != nil {
			n.rest, n.restChecked = fc.node(s.Items2020), true
		}
	}
	if s.Contains != nil && (s.MinContains != -1 || s.MaxContains != -1) {
		n.contains = fc.node(s.Contains)
		n.minContains, n.maxCont = s.MinContains, s.MaxContains
	}
	n.minLength, n.maxLength, n.pattern = s.MinLength, s.MaxLength, s.Pattern
	n.minimum, n.maximum = newFastBound(s.Minimum), newFastBound(s.Maximum)
	n.exclMinimum, n.exclMax = newFastBound(s.ExclusiveMinimum), newFastBound(s.ExclusiveMaximum)
	n.multipleOf = newFastBound(s.MultipleOf)
	n.ref, n.not = fc.node(s.Ref), fc.node(s.Not)
	for _, x := range s.AllOf {
		n.allOf = append(n.allOf, fc.node(x))
	}
	for _, x := range s.AnyOf {
		n.anyOf = append(n.anyOf, fc.node(x))
	}
	for _, x := range s.OneOf {
		n.oneOf = append(n.oneOf, fc.node(x))
	}
	if s.If != nil {
		n.ifNode, n.thenNo, n.elseNo = fc.node(s.If), fc.node(s.Then), fc.node(s.Else)
	}
	return n
}

func newFastBound(r *big.Rat) fastBound {
	if r == nil {
		return fastBound{}
	}
	b := fastBound{rat: r}
	b.dec, b.isDec = ratDecimal(r)
	return b
}

// inPlaceCycle reports a loop of subschemas applied to the same value
// ($ref to itself, allOf back to an ancestor): the engine stops such a
// loop with a panic; the fast check must not recurse forever, so it
// leaves those schemas to the engine.
func (fc *fastCompiler) inPlaceCycle(root *fastNode) bool {
	const (
		visiting = 1
		done     = 2
	)
	state := map[*fastNode]int{}
	var visit func(n *fastNode) bool
	visit = func(n *fastNode) bool {
		if n == nil || state[n] == done {
			return false
		}
		if state[n] == visiting {
			return true
		}
		state[n] = visiting
		for _, m := range n.inPlace() {
			if visit(m) {
				return true
			}
		}
		state[n] = done
		return false
	}
	for _, n := range fc.nodes {
		if visit(n) {
			return true
		}
	}
	return false
}

// inPlace lists the subschemas applied to the value itself.
func (n *fastNode) inPlace() []*fastNode {
	out := []*fastNode{n.ref, n.not, n.ifNode, n.thenNo, n.elseNo}
	out = append(out, n.allOf...)
	out = append(out, n.anyOf...)
	out = append(out, n.oneOf...)
	for _, d := range n.depSchemas {
		out = append(out, d)
	}
	return out
}

// fastRun is one fast check; gaveUp is set when a value is of a Go type
// the fast check leaves to the engine.
type fastRun struct{ gaveUp bool }

// fastValid reports whether v is valid for n. sure is false when the
// fast check could not decide.
func fastValid(n *fastNode, v any) (valid, sure bool) {
	var r fastRun
	ok := r.valid(n, v)
	return ok, !r.gaveUp
}

func (r *fastRun) valid(n *fastNode, v any) bool {
	if n.always != nil {
		return *n.always
	}
	if n.types != 0 && !r.typeOK(n.types, v) {
		return false
	}
	if r.gaveUp {
		return false
	}
	if n.constant != nil && !r.equals(v, n.constant[0]) {
		return false
	}
	if n.hasEnum {
		found := false
		for _, e := range n.enum {
			if r.equals(v, e) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	if n.formatFn != nil && !n.formatFn(v) {
		return false
	}
	switch t := v.(type) {
	case map[string]any:
		if !r.object(n, t) {
			return false
		}
	case []any:
		if !r.array(n, t) {
			return false
		}
	case string:
		if n.minLength != -1 || n.maxLength != -1 {
			l := utf8.RuneCountInString(t)
			if (n.minLength != -1 && l < n.minLength) || (n.maxLength != -1 && l > n.maxLength) {
				return false
			}
		}
		if n.pattern != nil && !n.pattern.MatchString(t) {
			return false
		}
	case json.Number:
		if !r.numberOK(n, t) {
			return false
		}
	case nil, bool:
	default:
		// float64, int, ...: numbers the engine judges by their own rules.
		r.gaveUp = true
		return false
	}
	if n.ref != nil && !r.valid(n.ref, v) {
		return false
	}
	if n.not != nil && r.valid(n.not, v) {
		return false
	}
	for _, x := range n.allOf {
		if !r.valid(x, v) {
			return false
		}
	}
	if len(n.anyOf) > 0 {
		found := false
		for _, x := range n.anyOf {
			if r.valid(x, v) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	if len(n.oneOf) > 0 {
		matched := 0
		for _, x := range n.oneOf {
			if r.valid(x, v) {
				matched++
			}
		}
		if matched != 1 {
			return false
		}
	}
	if n.ifNode != nil {
		if r.valid(n.ifNode, v) {
			if n.thenNo != nil && !r.valid(n.thenNo, v) {
				return false
			}
		} else if n.elseNo != nil && !r.valid(n.elseNo, v) {
			return false
		}
	}
	return !r.gaveUp
}

func (r *fastRun) typeOK(types uint8, v any) bool {
	switch t := v.(type) {
	case nil:
		return types&fastNull != 0
	case bool:
		return types&fastBool != 0
	case string:
		return types&fastString != 0
	case []any:
		return types&fastArray != 0
	case map[string]any:
		return types&fastObject != 0
	case json.Number:
		if !number.IsJSON(string(t)) {
			r.gaveUp = true
			return false
		}
		return types&fastNumber != 0 || (types&fastInteger != 0 && number.IsInteger(t))
	}
	r.gaveUp = true
	return false
}

func (r *fastRun) object(n *fastNode, m map[string]any) bool {
	if (n.minProps != -1 && len(m) < n.minProps) || (n.maxProps != -1 && len(m) > n.maxProps) {
		return false
	}
	for _, k := range n.required {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	checkEach := n.propNames != nil || len(n.patterns) > 0 || n.additional != nil || n.addForbid
	if !checkEach {
		for k, p := range n.props {
			if x, ok := m[k]; ok && !r.valid(p, x) {
				return false
			}
		}
	} else {
		for k, x := range m {
			p, declared := n.props[k]
			if declared && !r.valid(p, x) {
				return false
			}
			if n.propNames != nil && !r.valid(n.propNames, k) {
				return false
			}
			matched := false
			for _, pp := range n.patterns {
				if pp.re.MatchString(k) {
					matched = true
					if !r.valid(pp.node, x) {
						return false
					}
				}
			}
			if declared || matched {
				continue
			}
			if n.addForbid || (n.additional != nil && !r.valid(n.additional, x)) {
				return false
			}
		}
	}
	for k, names := range n.depRequired {
		if _, ok := m[k]; ok {
			for _, name := range names {
				if _, ok := m[name]; !ok {
					return false
				}
			}
		}
	}
	for k, d := range n.depSchemas {
		if _, ok := m[k]; ok && !r.valid(d, m) {
			return false
		}
	}
	return true
}

func (r *fastRun) array(n *fastNode, a []any) bool {
	if (n.minItems != -1 && len(a) < n.minItems) || (n.maxItems != -1 && len(a) > n.maxItems) {
		return false
	}
	if n.unique {
		for i := 1; i < len(a); i++ {
			for j := 0; j < i; j++ {
				if r.equals(a[i], a[j]) {
					return false
				}
			}
		}
	}
	for i, x := range a {
		if i < len(n.tuple) {
			if !r.valid(n.tuple[i], x) {
				return false
			}
			continue
		}
		if !n.restChecked {
			break
		}
		if n.restForbid || !r.valid(n.rest, x) {
			return false
		}
	}
	if n.contains != nil {
		matched := 0
		for _, x := range a {
			if r.valid(n.contains, x) {
				matched++
			}
		}
		if (n.minContains != -1 && matched < n.minContains) || (n.maxCont != -1 && matched > n.maxCont) {
			return false
		}
	}
	return true
}

func (r *fastRun) numberOK(n *fastNode, v json.Number) bool {
	d, isDec := parseDecimal(string(v))
	if !isDec && !number.IsJSON(string(v)) {
		r.gaveUp = true
		return false
	}
	var num *big.Rat // built only when decimals cannot decide
	rat := func() *big.Rat {
		if num == nil {
			num, _ = new(big.Rat).SetString(string(v))
		}
		return num
	}
	cmp := func(b fastBound) int {
		if isDec && b.isDec {
			return d.cmp(b.dec)
		}
		return rat().Cmp(b.rat)
	}
	if n.minimum.rat != nil && cmp(n.minimum) < 0 {
		return false
	}
	if n.exclMinimum.rat != nil && cmp(n.exclMinimum) <= 0 {
		return false
	}
	if n.maximum.rat != nil && cmp(n.maximum) > 0 {
		return false
	}
	if n.exclMax.rat != nil && cmp(n.exclMax) >= 0 {
		return false
	}
	if n.multipleOf.rat != nil {
		if isDec && n.multipleOf.isDec {
			if ok, decided := d.multipleOf(n.multipleOf.dec); decided {
				return ok
			}
		}
		if !new(big.Rat).Quo(rat(), n.multipleOf.rat).IsInt() {
			return false
		}
	}
	return true
}

// smallInt parses integer text without fraction or exponent that fits
// an int64.
func smallInt(s string) (int64, bool) {
	if len(s) > 18 || strings.ContainsAny(s, ".eE") {
		return 0, false
	}
	i, err := strconv.ParseInt(s, 10, 64)
	return i, err == nil
}

// equals is the engine's equality: numbers by value, the rest
// structurally. internal/value.Equal is close but not the same: it calls
// numbers past paramkit's size limits unequal, and for uniqueItems a
// wrong "not equal" would let an invalid value through.
func (r *fastRun) equals(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			if !isEngineNumber(b) {
				return false
			}
			r.gaveUp = true // a schema number of another Go type
			return false
		}
		if x == y {
			return true
		}
		if !number.IsJSON(string(x)) || !number.IsJSON(string(y)) {
			r.gaveUp = true
			return false
		}
		xi, okx := smallInt(string(x))
		yi, oky := smallInt(string(y))
		if okx && oky {
			return xi == yi
		}
		rx, _ := new(big.Rat).SetString(string(x))
		ry, _ := new(big.Rat).SetString(string(y))
		return rx.Cmp(ry) == 0
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !r.equals(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !r.equals(xv, yv) {
				return false
			}
		}
		return true
	}
	r.gaveUp = true
	return false
}

func isEngineNumber(v any) bool {
	switch v.(type) {
	case float32, float64, int, int8, int32, int64, uint, uint8, uint32, uint64:
		return true
	}
	return false
}
