package convert

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/secret"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// UnwrapValues types v1beta1 instance parameters — a map of strings, as
// the v1beta1 Instance stored them — by the schema: each value is text
// typed by the node of its parameter, as params.ParseText types text, so
// NODE_COUNT "3" on an integer node becomes 3, '[foo,bar,bazz]' on an
// array node a list whose elements follow `items`, '{foo:"bar"}' on an
// object node {foo: bar} with values following `properties`, and any text
// on a string node stays exactly that text. Where the schema says
// nothing about a parameter, YAML 1.2 core rules apply.
//
// Three v1beta1 habits are honoured: a boolean written as Go's
// strconv.ParseBool accepted it ("1", "t", "F", ...) is a boolean, as
// KUDO validated it; an empty string for a parameter whose node takes no
// strings is how v1beta1 said "not set" (KUDO's validation skipped it),
// so the parameter is left out and its default applies; text that is a
// JSON string literal ("\"3\"") on a node that takes strings besides
// other types is that string, which is how WrapValues writes strings that
// would otherwise read as something else.
//
// A value that cannot take its node's type is an error: the result is
// then nil and the error a schema.ErrorList holding every such
// value at once, each with its JSON pointer (/NODE_COUNT, /ARRAY/1).
// Only types are checked; validate the result for the rest.
//
// s nil means no schema (the KEP's open question: a conversion webhook
// may not see the OperatorVersion): the values are then guessed by safe
// rules and never fail. Text becomes a number only when it is a JSON
// number, kept exact ("3", "1.5"; not "007", "+3", "0x1F" or "1_000",
// which stay text); a boolean only for the YAML 1.2 core words (true,
// True, TRUE, false, ...; "yes" and "on" stay text); null for null, Null,
// NULL and ~; a list or mapping for a terse flow collection
// ('[foo,bar,bazz]', '{foo:"bar"}') whose scalars follow the same rules; a
// JSON string literal ("\"3\"") is that string. The empty string and all
// other text stay strings. Unwrap with a nil schema guesses the same way
// and reports every guess as a Note.
func UnwrapValues(s *schema.Schema, in map[string]string) (map[string]any, error) {
	if err := zeroSchema(s); err != nil {
		return nil, err
	}
	if s == nil {
		out, _ := guessValues(in)
		return out, nil
	}
	out := make(map[string]any, len(in))
	var errs schema.ErrorList
	root := s.Root()
	for _, k := range sortedKeys(in) {
		ptr := pointer.Append("", k)
		v, omit, verrs := unwrapText(root.Child(k), in[k], ptr)
		errs = append(errs, verrs...)
		if !omit && len(verrs) == 0 {
			out[k] = v
		}
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// unwrapText types one v1beta1 string by its node. omit reports v1beta1's
// "not set" (an empty string where no string is allowed).
func unwrapText(n *schema.Node, text, ptr string) (v any, omit bool, errs schema.ErrorList) {
	typed := n != nil && n.Types() != nil
	if typed && onlyStrings(n) {
		return text, false, nil
	}
	if text == "" {
		if typed && !n.Allows("string") {
			return nil, true, nil
		}
		return "", false, nil
	}
	if text[0] == '"' && (n == nil || n.Allows("string")) {
		if s, ok := jsonString(text); ok {
			return s, false, nil
		}
	}
	v, err := params.ParseText(n, text)
	if err != nil {
		if n == nil {
			return text, false, nil // no schema: text that is no collection stays text
		}
		if n.HoldsSecret() {
			return nil, false, schema.ErrorList{{Pointer: ptr, Kind: schema.KindType, Detail: &schema.ErrorDetail{SchemaPointer: keywordPtr(n)}, Message: fmt.Sprintf("%s is not %s", secret.Hidden, typeList(n.Types()))}}
		}
		return nil, false, schema.ErrorList{{Pointer: ptr, Kind: schema.KindType, Detail: &schema.ErrorDetail{SchemaPointer: keywordPtr(n)}, Message: fmt.Sprintf("%q is not %s: %s", text, typeList(n.Types()), schema.ErrorsOf(err)[0].Message)}}
	}
	if expands(text, v) {
		return nil, false, schema.ErrorList{{Pointer: ptr, Kind: schema.KindLimit, Message: errExpands}}
	}
	if typed && n.Allows("boolean") && !allowsValue(n, v) {
		if b, ok := document.Bool(text); ok {
			v = b
		}
	}
	typeCheck(n, v, ptr, text, false, &errs)
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Pointer < errs[j].Pointer })
	return v, false, errs
}

const errExpands = "the text expands through YAML aliases into more values than it has characters; refused"

// expands reports text whose YAML aliases multiply it into more values
// than it has characters: without aliases every value takes at least one
// character, and KUDO never wrote aliases into a value, so anything more
// is an alias bomb (a few hundred bytes can otherwise become a million
// values, more than an apiserver stores).
func expands(text string, v any) bool {
	if !strings.Contains(text, "*") {
		return false
	}
	budget := len(text) + 1
	var count func(v any) bool
	count = func(v any) bool {
		budget--
		if budget < 0 {
			return true
		}
		switch t := v.(type) {
		case map[string]any:
			for _, x := range t {
				if count(x) {
					return true
				}
			}
		case []any:
			for _, x := range t {
				if count(x) {
					return true
				}
			}
		}
		return false
	}
	return count(v)
}

func onlyStrings(n *schema.Node) bool {
	for _, t := range n.Types() {
		if t != "string" {
			return false
		}
	}
	return true
}

func jsonString(text string) (string, bool) {
	v, err := document.DecodeJSON([]byte(text))
	if err != nil {
		return "", false
	}
	s, ok := v.(string)
	return s, ok
}

func keywordPtr(n *schema.Node) string { return pointer.Append(n.Pointer(), "type") }

// allowsValue reports whether the node's types admit v's JSON type.
func allowsValue(n *schema.Node, v any) bool { return n.Allows(value.TypeName(v)) }

// typeCheck reports every value below v whose JSON type its node refuses.
// text is the source text of a top-level value ("" below it); hide says
// a node above is secret (the value is then never quoted).
func typeCheck(n *schema.Node, v any, ptr, text string, hide bool, errs *schema.ErrorList) {
	if n == nil {
		return
	}
	hide = hide || n.Secret()
	if n.Types() != nil && !allowsValue(n, v) {
		shown := text
		if hide || n.HoldsSecret() {
			shown = secret.Hidden
		} else if shown == "" {
			shown = string(encode.JSON(v, nil, ""))
		} else {
			shown = fmt.Sprintf("%q", text)
		}
		*errs = append(*errs, &schema.Error{Pointer: ptr, Kind: schema.KindType, Detail: &schema.ErrorDetail{SchemaPointer: keywordPtr(n)}, Message: fmt.Sprintf("%s is not %s", shown, typeList(n.Types()))})
		return
	}
	switch t := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(t) {
			typeCheck(n.Child(k), t[k], pointer.Append(ptr, k), "", hide, errs)
		}
	case []any:
		for i, x := range t {
			typeCheck(n.Elem(i), x, pointer.AppendIndex(ptr, i), "", hide, errs)
		}
	}
}

// typeList names types for a message: "an integer", "a string or null".
func typeList(ts []string) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		if i == 0 {
			parts[i] = article(t)
		} else {
			parts[i] = t
		}
	}
	return strings.Join(parts, " or ")
}

// guessValues types v1beta1 instance parameters without a schema
// (UnwrapValues and Unwrap with a nil schema), for when none is at hand (the KEP's open question: a conversion webhook may
// not see the OperatorVersion). Its rules are chosen to be safe: text
// becomes a number only when it is a JSON number, kept exact ("3", "1.5";
// not "007", "+3", "0x1F" or "1_000", which stay text); a boolean only for
// the YAML 1.2 core words (true, True, TRUE, false, ...; "yes" and "on"
// stay text); null for null, Null, NULL and ~; a list or mapping for a
// terse flow collection ('[foo,bar,bazz]', '{foo:"bar"}') whose scalars
// follow the same rules; a JSON string literal ("\"3\"") is that string.
// The empty string and all other text stay strings.
//
// Every value that did not stay a string is reported as a Note (in key
// order), so that a person can check what was guessed.
func guessValues(in map[string]string) (map[string]any, []Note) {
	out := make(map[string]any, len(in))
	notes := []Note{}
	for _, k := range sortedKeys(in) {
		v, what := guessText(in[k])
		out[k] = v
		if what != "" {
			notes = append(notes, Note{Pointer: pointer.Append("", k), Message: fmt.Sprintf("guessed %s from %q", what, in[k])})
		}
	}
	return out, notes
}

// guessText applies guessValues' rules to one text; what describes the
// guess, "" when the text stayed a string.
func guessText(text string) (v any, what string) {
	if text == "" {
		return "", ""
	}
	switch text[0] {
	case '"':
		if s, ok := jsonString(text); ok {
			return s, "a string from its JSON quotes"
		}
	case '[', '{':
		if node, err := document.ParseFlow(text); err == nil {
			if v, err := document.ToValue(node, guessTyper{}); err == nil {
				return v, article(value.TypeName(v))
			}
		}
		return text, ""
	}
	v = guessScalar(text)
	switch x := v.(type) {
	case string:
		return v, ""
	case json.Number:
		// The guess keeps the number's text (1.0 stays 1.0): call it an
		// integer only when that text is one.
		if strings.ContainsAny(string(x), ".eE") {
			return v, "a number"
		}
		return v, "an integer"
	}
	return v, article(value.TypeName(v))
}

// guessScalar is guessValues' rule for scalar text.
func guessScalar(text string) any {
	if number.IsJSON(text) && number.Check(json.Number(text)) == nil {
		return json.Number(text)
	}
	switch text {
	case "true", "True", "TRUE":
		return true
	case "false", "False", "FALSE":
		return false
	case "null", "Null", "NULL", "~":
		return nil
	}
	return text
}

// guessTyper types plain scalars inside a guessed flow collection.
type guessTyper struct{}

func (guessTyper) Scalar(text string) any {
	if text == "" {
		return nil // `{a:}` and `{a}`: YAML's empty value
	}
	return guessScalar(text)
}
func (t guessTyper) Key(string) document.Typer { return t }
func (t guessTyper) Elem(int) document.Typer   { return t }

// WrapValues is the reverse of UnwrapValues, for v1beta2 → v1beta1
// conversion: each top-level value becomes text that unwraps by the
// schema to exactly the same value (numbers by value). A string is
// written verbatim when that text reads back as the same string (always,
// on a node that takes only strings), else as a JSON string literal; any
// other value is written as compact JSON, with an integral number in
// plain digits (1.0 as 1) where its written form would read back as text.
// With s nil the text reads back the same through UnwrapValues' guessing
// rules instead.
//
// A value that no text can carry — one whose type its node refuses, such
// as a number on a string-only node — is an error naming its pointer: the
// error is a schema.ErrorList holding every such value.
func WrapValues(s *schema.Schema, values map[string]any) (map[string]string, error) {
	if err := zeroSchema(s); err != nil {
		return nil, err
	}
	out := make(map[string]string, len(values))
	var errs schema.ErrorList
	for _, k := range sortedKeys(values) {
		var n *schema.Node
		if s != nil {
			n = s.Root().Child(k)
		}
		v := values[k]
		text, ok := wrapOne(s != nil, n, v)
		if !ok {
			msg := fmt.Sprintf("%s cannot be written as v1beta1 text that reads back the same", secret.Text(n.HoldsSecret(), string(encode.JSON(v, nil, ""))))
			if bad, ok := notPlain(v); ok {
				msg += fmt.Sprintf(": it holds a Go %T where plain values hold json.Number numbers, strings, booleans, nil, []any and map[string]any", bad)
			} else if n != nil && n.Types() != nil && !allowsValue(n, v) {
				msg += fmt.Sprintf(": the schema wants %s here", typeList(n.Types()))
			}
			errs = append(errs, &schema.Error{Pointer: pointer.Append("", k), Kind: schema.KindType, Message: msg})
			continue
		}
		out[k] = text
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	return out, nil
}

func wrapOne(typed bool, n *schema.Node, v any) (string, bool) {
	reads := func(text string) bool {
		var got any
		if typed {
			g, omit, errs := unwrapText(n, text, "")
			if omit || len(errs) > 0 {
				return false
			}
			got = g
		} else {
			got, _ = guessText(text)
		}
		if s, ok := v.(string); ok {
			gs, ok := got.(string)
			return ok && gs == s
		}
		return value.Equal(got, v) // numbers by value: 1E5 reads back as 1e5
	}
	if s, ok := v.(string); ok {
		if reads(s) {
			return s, true
		}
		q := string(encode.JSON(s, nil, ""))
		return q, reads(q)
	}
	text := string(encode.JSON(v, nil, ""))
	if reads(text) {
		return text, true
	}
	// An integer written with a fraction or exponent (1.0, 1e5) reads as
	// text on a node that takes strings and integers but not numbers;
	// its plain digits read as the same integer.
	if alt := string(encode.JSON(integerDigits(v), nil, "")); alt != text && reads(alt) {
		return alt, true
	}
	return text, false
}

// notPlain finds a Go value inside v that is not one of paramkit's plain values.
func notPlain(v any) (any, bool) {
	switch t := v.(type) {
	case nil, bool, string, json.Number:
		return nil, false
	case []any:
		for _, x := range t {
			if bad, ok := notPlain(x); ok {
				return bad, true
			}
		}
		return nil, false
	case map[string]any:
		for _, x := range t {
			if bad, ok := notPlain(x); ok {
				return bad, true
			}
		}
		return nil, false
	}
	return v, true
}

// integerDigits copies v with every integral number written as plain digits.
func integerDigits(v any) any {
	switch t := v.(type) {
	case json.Number:
		if strings.ContainsAny(string(t), ".eE") && number.IsInteger(t) {
			if d, lost, err := number.Truncate(t); err == nil && !lost && number.Check(d) == nil {
				return d
			}
		}
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = integerDigits(x)
		}
		return m
	case []any:
		a := make([]any, len(t))
		for i, x := range t {
			a[i] = integerDigits(x)
		}
		return a
	}
	return v
}
