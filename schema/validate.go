package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/secret"
)

// Validate checks a plain value (maps, slices, strings, bools, nil and
// json.Number numbers) against the schema. It returns nil when the value
// is valid, else an ErrorList ordered by pointer (array indices by
// number), then by the failing keyword's pointer (Detail.SchemaPointer), then by
// message, the same on every run; each entry's Kind is derived from the
// failing keyword. A nil or zero Schema fails with one error of KindUsage.
func (s *Schema) Validate(v any) error {
	if !s.compiledOK() {
		return ErrorList{errNotCompiled()}.Err()
	}
	return s.validate(v, nil, false)
}

// validate is Validate, with the value before an update (hasOld) for
// the transition rules of x-kubernetes-validations.
func (s *Schema) validate(v, old any, hasOld bool) error {
	k := s.kubeOf()
	if f := s.fastCheck(); f != nil {
		if ok, sure := fastValid(f, v); ok && sure {
			if k == nil {
				return nil
			}
			return k.errors(s, nil, v, old, hasOld).Err()
		}
	}
	err := engineErrors(s.compiled.Validate(v), v, s.doc, true, s.secretLeaf)
	if k == nil {
		return err
	}
	return k.errors(s, ErrorsOf(err), v, old, hasOld).Err()
}

// engineErrors turns the engine's verdict on v into an ErrorList, or nil;
// doc is the schema document (the schema text a message quotes is taken
// from it); showValue adds the offending scalar to a type error's
// message; isSecret reports whether a failure at an instance pointer,
// raised by the keyword at a schema pointer, must not quote the value.
// The list is in one order on every run (see sortErrors): the engine
// visits the keys of an object in map order.
func engineErrors(err error, v any, doc any, showValue bool, isSecret func(inst, kw string) bool) error {
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return ErrorList{{Kind: KindInvalid, Message: err.Error()}}.Err()
	}
	leaf := func(leaf *jsonschema.ValidationError, inAlt bool) []*Error {
		kw, alt := keywordOf(leaf.KeywordLocation)
		kind, keyword := kindOf(kw), kw
		if alt != "" {
			// One alternative of anyOf/oneOf failed: no single keyword
			// is the reason the value is refused.
			kind, keyword = KindInvalid, alt
		}
		e := &Error{Pointer: enginePointer(leaf.InstanceLocation), Kind: kind, Keyword: keyword,
			Detail: &ErrorDetail{SchemaPointer: pointerOf(leaf.AbsoluteKeywordLocation)}}
		e.Message = engineMessage(kw, leaf.Message, v, e.Pointer, doc, e.Detail.SchemaPointer)
		hidden := isSecret(e.Pointer, e.Detail.SchemaPointer)
		if hidden {
			e.Message = hideValue(e.Message)
			switch kw {
			case "enum", "const":
				// The allowed values of a secret are secrets too.
				e.Message = "value is not the allowed value " + Hidden
				if kw == "enum" {
					e.Message = "value is not one of the allowed values " + Hidden
				}
			}
		}
		if split := perProperty(e, kw, leaf.Message, v, doc); !inAlt && alt == "" && split != nil {
			return split
		}
		if showValue && kw == "type" {
			// Show the offending scalar: `expected boolean, but got string "yes"`.
			if got, ok := pointer.Get(v, e.Pointer); ok {
				if sv := scalarText(got); sv != "" {
					e.Message += " " + secret.Text(hidden, sv)
				}
			}
		}
		if inAlt {
			e.Kind, e.Keyword = kindOf(kw), kw // read by closest
		}
		return []*Error{e}
	}
	var walk func(x *jsonschema.ValidationError, inAlt bool) []*Error
	walk = func(x *jsonschema.ValidationError, inAlt bool) []*Error {
		if len(x.Causes) == 0 {
			return leaf(x, inAlt)
		}
		if kw := lastToken(x.KeywordLocation); kw == "oneOf" || kw == "anyOf" {
			return []*Error{alternatives(x, kw, func(c *jsonschema.ValidationError) []*Error { return walk(c, true) })}
		}
		var out []*Error
		for _, c := range x.Causes {
			out = append(out, walk(c, inAlt)...)
		}
		return out
	}
	out := ErrorList(walk(ve, false))
	// Sorted first, so that of two failures with one message at one
	// place (two patternProperties refusing a key) the same one is kept.
	return dedupe(sortErrors(out)).Err()
}

// enginePointer turns a location the engine gives (a JSON pointer whose
// tokens are also percent-encoded, as in a URL) into the JSON pointer.
func enginePointer(loc string) string {
	if !strings.Contains(loc, "%") {
		return loc
	}
	if p, err := url.PathUnescape(loc); err == nil {
		return p
	}
	return loc
}

// scalarText quotes an offending value for a message; it is the one place
// validation messages show a value. Strings are written as JSON writes
// them, shortened past 60 bytes.
func scalarText(v any) string {
	switch t := v.(type) {
	case string:
		if len(t) > 60 {
			return jsonString(truncate(t, 57)) + "..."
		}
		return jsonString(t)
	case json.Number:
		if len(t) > 60 {
			return string(t[:57]) + "..."
		}
		return string(t)
	case bool:
		return strconv.FormatBool(t)
	}
	return ""
}

// truncate cuts s to at most n bytes, not inside a UTF-8 sequence.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// allowedMessage says which values an enum or const allows, each written
// as JSON (`3, 5, 6`; strings quoted), not in the engine's Go syntax, which
// quotes numbers as if they were strings.
func allowedMessage(kw string, allowed any) string {
	if kw == "const" {
		return "value must be " + jsonText(allowed)
	}
	list, _ := allowed.([]any)
	if len(list) == 1 {
		return "value must be " + jsonText(list[0])
	}
	parts := make([]string, len(list))
	for i, a := range list {
		parts[i] = jsonText(a)
	}
	return "value must be one of " + strings.Join(parts, ", ")
}

// jsonText writes a schema value as JSON, shortened past 60 bytes.
func jsonText(v any) string {
	var text string
	switch t := v.(type) {
	case string:
		text = jsonString(t)
	case json.Number:
		text = string(t)
	case bool:
		text = strconv.FormatBool(t)
	case nil:
		text = "null"
	default:
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if enc.Encode(v) != nil {
			return "?"
		}
		text = strings.TrimSuffix(buf.String(), "\n")
	}
	if len(text) > 60 {
		return truncate(text, 57) + "..."
	}
	return text
}

// jsonString writes s as a JSON string, whole, as encoding/json writes it
// without HTML escaping (TestJSONStringIsEncodingJSONs): a message quotes
// many of them, and an Encoder for each cost a fifth more allocations.
func jsonString(s string) string {
	plain := true
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\'
	}
	if plain {
		return `"` + s + `"`
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\b':
				b.WriteString(`\b`)
			case c == '\f':
				b.WriteString(`\f`)
			case c < 0x20:
				b.WriteString(`\u00`)
				b.WriteByte("0123456789abcdef"[c>>4])
				b.WriteByte("0123456789abcdef"[c&0xF])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case r == '\u2028':
			b.WriteString(`\u2028`)
		case r == '\u2029':
			b.WriteString(`\u2029`)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

// Valid reports whether v satisfies the schema: whether Validate
// returns nil.
func (s *Schema) Valid(v any) bool {
	if !s.compiledOK() {
		return false
	}
	if s.kubeOf() != nil {
		return s.Validate(v) == nil
	}
	return s.compiled.Validate(v) == nil
}

// leaves returns the innermost causes: the specific reasons.
func leaves(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		return []*jsonschema.ValidationError{ve}
	}
	var out []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// lastToken is the last token of a JSON pointer, as written.
func lastToken(p string) string {
	return p[strings.LastIndexByte(p, '/')+1:]
}

// alternatives turns the failure x of an anyOf or oneOf (keyword kw)
// that no alternative passed into one error at the value's pointer,
// naming the alternative that came closest and why it fails, instead of
// one error for each alternative (which contradict each other: "expected
// integer", "expected string"). errs gives the errors of one
// alternative's failure. The closest alternative is, in this order: one
// whose type fits the value, one whose const and enum keywords below the
// value it meets (a discriminator such as kind: pg), one with the fewest
// failures, the first.
func alternatives(x *jsonschema.ValidationError, kw string, errs func(*jsonschema.ValidationError) []*Error) *Error {
	inst := enginePointer(x.InstanceLocation)
	type branch struct {
		index int
		errs  []*Error
	}
	var branches []*branch
	byIndex := map[int]*branch{}
	prefix := x.KeywordLocation + "/"
	for _, c := range x.Causes {
		rest, ok := strings.CutPrefix(c.KeywordLocation, prefix)
		if !ok {
			continue
		}
		tok, _, _ := strings.Cut(rest, "/")
		i, err := strconv.Atoi(tok)
		if err != nil {
			continue
		}
		b := byIndex[i]
		if b == nil {
			b = &branch{index: i}
			byIndex[i] = b
			branches = append(branches, b)
		}
		b.errs = append(b.errs, errs(c)...)
	}
	score := func(b *branch) (wrongType, mismatch, n int) {
		for _, e := range b.errs {
			switch {
			case e.Kind == KindType && e.Pointer == inst:
				wrongType++
			case e.Kind == KindEnum && e.Pointer != inst:
				mismatch++ // a discriminator below the value
			}
		}
		return wrongType, mismatch, len(b.errs)
	}
	var best *branch
	for _, b := range branches {
		if best == nil {
			best = b
			continue
		}
		t1, m1, n1 := score(b)
		t0, m0, n0 := score(best)
		if t1 < t0 || t1 == t0 && (m1 < m0 || m1 == m0 && (n1 < n0 || n1 == n0 && b.index < best.index)) {
			best = b
		}
	}
	e := &Error{Pointer: inst, Kind: KindInvalid, Keyword: kw,
		Detail: &ErrorDetail{SchemaPointer: pointerOf(x.AbsoluteKeywordLocation)}}
	if best == nil || len(best.errs) == 0 {
		e.Message = "fails every alternative of " + kw
		return e
	}
	sortErrors(best.errs)
	// Where the closest alternative's first failure is in the schema.
	if d := best.errs[0].Detail; d != nil && d.SchemaPointer != "" {
		e.Detail.SchemaPointer = d.SchemaPointer
	} else {
		e.Detail.SchemaPointer += "/" + strconv.Itoa(best.index)
	}
	const most = 3
	var why []string
	for i, b := range best.errs {
		if i == most {
			why = append(why, "and "+strconv.Itoa(len(best.errs)-most)+" more")
			break
		}
		if b.Pointer != inst {
			why = append(why, pointer.Quote(b.Pointer)+": "+b.Message)
		} else {
			why = append(why, b.Message)
		}
	}
	e.Message = "fails every alternative of " + kw + "; the closest, " + kw + "/" + strconv.Itoa(best.index) +
		", fails: " + strings.Join(why, "; ")
	return e
}

// engineMessage is the message for a failure of keyword kw, whose
// engine text is m, of the value at inst in v; the keyword stands at
// kwPtr in the schema document doc. Schema text (a pattern, a format, an
// enum, a const, a bound) and names are written as JSON writes them,
// taken from the document where the engine's text would change them:
// it quotes strings in its own syntax ('^it\'s$', which is not even
// unambiguous: a trailing backslash is lost) and writes numbers through
// float64. The names of extra properties are only in the engine's text
// (santhosh-tekuri/jsonschema/v5 gives them in no field), so they are
// matched against the keys of the value (extraNames).
func engineMessage(kw, m string, v any, inst string, doc any, kwPtr string) string {
	var kwValue any
	var haveKw bool
	switch kw {
	case "enum", "const", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
		"required", "dependentRequired", "dependencies":
		kwValue, haveKw = pointer.Get(doc, kwPtr)
	}
	switch kw {
	case "enum", "const":
		if haveKw {
			return allowedMessage(kw, kwValue)
		}
	case "pattern":
		if p, ok := kwValue.(string); ok {
			return "does not match pattern " + jsonString(p)
		}
	case "format":
		if f, ok := kwValue.(string); ok {
			if got, ok := pointer.Get(v, inst); ok {
				return jsonText(got) + " is not valid " + jsonString(f)
			}
		}
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		bound, ok := kwValue.(json.Number)
		got, ok2 := pointer.Get(v, inst)
		if n, isNum := got.(json.Number); ok && ok2 && isNum {
			op := map[string]string{"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}[kw]
			return "must be " + op + " " + string(bound) + " but found " + string(n)
		}
	case "multipleOf":
		step, ok := kwValue.(json.Number)
		got, ok2 := pointer.Get(v, inst)
		if n, isNum := got.(json.Number); ok && ok2 && isNum {
			return string(n) + " not multipleOf " + string(step)
		}
	case "required":
		// The missing names, in the order the keyword lists them, as
		// the engine does.
		names, _ := kwValue.([]any)
		obj, _ := instance(v, inst).(map[string]any)
		var missing []string
		for _, x := range names {
			if n, ok := x.(string); ok {
				if _, has := obj[n]; !has {
					missing = append(missing, jsonString(n))
				}
			}
		}
		if len(missing) > 0 {
			return "missing required " + plural(len(missing), "propert") + ": " + strings.Join(missing, ", ")
		}
	case "additionalProperties":
		if rest, ok := strings.CutPrefix(m, "additionalProperties "); ok {
			obj, _ := instance(v, inst).(map[string]any)
			if list, ok := extraNames(strings.TrimSuffix(rest, " not allowed"), obj); ok {
				return "not allowed here: " + strings.Join(list, ", ") + " (the schema does not declare it)"
			}
		}
	case "oneOf":
		var i, j int
		if n, _ := fmt.Sscanf(m, "valid against schemas at indexes %d and %d", &i, &j); n == 2 {
			return fmt.Sprintf("matches more than one alternative of oneOf: oneOf/%d and oneOf/%d", i, j)
		}
	case "dependentRequired", "dependencies":
		// At .../dependentRequired/NAME/INDEX stands the name required.
		need, ok := kwValue.(string)
		toks, err := pointer.Split(kwPtr)
		if ok && err == nil && len(toks) >= 2 {
			return "property " + jsonString(need) + " is required, if " + jsonString(toks[len(toks)-2]) + " property exists"
		}
	}
	return requote(m)
}

// perProperty gives a failure about properties of an object at the
// properties' own pointers, one error each: a missing required property
// (required; dependentRequired and dependencies name one) at
// /object/name, a property additionalProperties: false forbids at
// /object/key. The message names the property too. It returns nil for
// every other failure, and where the engine's text cannot be read (the
// failure then stays at the object, as the engine gives it).
func perProperty(e *Error, kw, engineMsg string, v, doc any) []*Error {
	at := func(name, msg string) *Error {
		c := *e
		c.Pointer = pointer.Append(e.Pointer, name)
		c.Message = msg
		return &c
	}
	switch kw {
	case "required":
		names, _ := pointer.Get(doc, e.Detail.SchemaPointer)
		list, _ := names.([]any)
		obj, ok := instance(v, e.Pointer).(map[string]any)
		if !ok {
			return nil
		}
		var out []*Error
		for _, x := range list {
			if n, ok := x.(string); ok {
				if _, has := obj[n]; !has {
					out = append(out, at(n, "missing required property: "+jsonString(n)))
				}
			}
		}
		return out
	case "dependentRequired", "dependencies":
		need, ok := instanceString(doc, e.Detail.SchemaPointer)
		if !ok {
			return nil
		}
		return []*Error{at(need, e.Message)}
	case "additionalProperties":
		rest, ok := strings.CutPrefix(engineMsg, "additionalProperties ")
		if !ok {
			return nil
		}
		obj, _ := instance(v, e.Pointer).(map[string]any)
		keys, ok := extraKeys(strings.TrimSuffix(rest, " not allowed"), obj)
		if !ok {
			return nil
		}
		out := make([]*Error, 0, len(keys))
		for _, k := range keys {
			out = append(out, at(k, "not allowed here: "+jsonString(k)+" (the schema does not declare it)"))
		}
		return out
	}
	return nil
}

// instanceString is the string at pointer p in v.
func instanceString(v any, p string) (string, bool) {
	x, _ := pointer.Get(v, p)
	s, ok := x.(string)
	return s, ok
}

// instance is the value at pointer p in v, or nil.
func instance(v any, p string) any {
	x, _ := pointer.Get(v, p)
	return x
}

// extraNames finds which keys of obj the engine lists in text (each
// quoted in its syntax, joined by ", ", in map order) and returns them
// sorted, written as JSON; ok is false when the keys do not make up the
// text exactly, and the engine's text is then used as it is.
func extraNames(text string, obj map[string]any) (names []string, ok bool) {
	keys, ok := extraKeys(text, obj)
	for _, k := range keys {
		names = append(names, jsonString(k))
	}
	return names, ok
}

// extraKeys is extraNames with the keys as they are.
func extraKeys(text string, obj map[string]any) (names []string, ok bool) {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := map[string]bool{}
	for _, p := range strings.Split(text, ", ") {
		parts[p] = true
	}
	size := -2
	for _, k := range keys {
		q := engineQuote(k)
		if parts[q] || (strings.Contains(q, ", ") && strings.Contains(text, q)) {
			names = append(names, k)
			size += len(q) + 2
		}
	}
	return names, len(names) > 0 && size == len(text)
}

// engineQuote quotes s as the engine does in its messages.
func engineQuote(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q, `\"`, `"`)
	q = strings.ReplaceAll(q, `'`, `\'`)
	return "'" + q[1:len(q)-1] + "'"
}

// engineString reads the string quoted in the engine's syntax at the
// start of s: Go's %q text between single quotes, with \" written as "
// and ' as \'. It returns the string and the length of its quoted text.
func engineString(s string) (string, int, bool) {
	if s == "" || s[0] != '\'' {
		return "", 0, false
	}
	var lit strings.Builder
	lit.WriteByte('"')
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'':
			lit.WriteByte('"')
			u, err := strconv.Unquote(lit.String())
			return u, i + 1, err == nil
		case '"':
			lit.WriteString(`\"`)
		case '\\':
			if i+1 >= len(s) {
				return "", 0, false
			}
			i++
			if s[i] == '\'' {
				lit.WriteByte('\'')
			} else {
				lit.WriteByte('\\')
				lit.WriteByte(s[i])
			}
		default:
			lit.WriteByte(c)
		}
	}
	return "", 0, false
}

// requote writes every string the engine's text quotes in its own syntax
// as JSON writes it; the rest of the text stays as it is.
func requote(m string) string {
	if !strings.Contains(m, "'") {
		return m
	}
	var b strings.Builder
	for i := 0; i < len(m); {
		if m[i] == '\'' {
			if q, n, ok := engineString(m[i:]); ok {
				b.WriteString(jsonString(q))
				i += n
				continue
			}
		}
		b.WriteByte(m[i])
		i++
	}
	return b.String()
}

// keywordOf reads the failing keyword from the engine's keyword location
// (a JSON pointer through the schema, across $refs): the last keyword in
// it, or "" when the location ends at a subschema itself (a false schema
// failed). alt names the keyword, anyOf or oneOf, when the failure lies
// inside one of its alternatives (the outermost such), else "".
func keywordOf(loc string) (kw string, alt string) {
	toks, err := pointer.Split(loc)
	if err != nil {
		return "", ""
	}
	for i := 0; i < len(toks); {
		t := toks[i]
		i++
		kw = t
		switch t {
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
			i++ // a name, then a subschema
			kw = ""
		case "dependencies", "dependentRequired":
			// The array form fails at dependencies/NAME/INDEX; the
			// schema form goes on into the subschema at NAME.
			if i+1 >= len(toks) || (i+2 == len(toks) && isIndex(toks[i+1])) {
				return t, alt
			}
			i++
			kw = ""
		case "allOf", "anyOf", "oneOf", "prefixItems", "items":
			if i < len(toks) && isIndex(toks[i]) {
				if (t == "anyOf" || t == "oneOf") && i+1 < len(toks) && alt == "" {
					alt = t
				}
				i++
				kw = ""
			}
		case "$ref", "$dynamicRef", "$recursiveRef":
			kw = "" // into the referenced schema
		}
	}
	return kw, alt
}

func isIndex(t string) bool {
	if t == "" {
		return false
	}
	for _, c := range t {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// keywordKinds maps the validation keywords whose failure is not of
// KindInvalid to their Kind.
var keywordKinds = map[string]Kind{
	"required": KindRequired, "dependentRequired": KindRequired, "dependencies": KindRequired,
	"type":  KindType,
	"enum":  KindEnum,
	"const": KindEnum,

	"additionalProperties": KindAdditional, "additionalItems": KindAdditional,
	"unevaluatedProperties": KindAdditional, "unevaluatedItems": KindAdditional,
	"items": KindAdditional, // items: false (2020-12) refuses items past prefixItems
}

// kindOf is the Kind of a failure of keyword kw.
func kindOf(kw string) Kind {
	if k, ok := keywordKinds[kw]; ok {
		return k
	}
	return KindInvalid
}

func plural(n int, stem string) string {
	if n > 1 {
		return stem + "ies"
	}
	return stem + "y"
}

// fastCheck builds the fast check once, on first use.
func (s *Schema) fastCheck() *fastNode {
	s.fastOnce.Do(func() {
		if s.compiled != nil {
			s.fast, _ = compileFast(s.compiled, s.formatsAsserted)
		}
	})
	return s.fast
}
