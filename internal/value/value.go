// Package value holds helpers over paramkit's plain values: map[string]any,
// []any, string, bool, nil and json.Number.
package value

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/internal/pointer"
)

// DeepCopy copies maps and slices; scalars are immutable and shared.
func DeepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = DeepCopy(x)
		}
		return m
	case []any:
		a := make([]any, len(t))
		for i, x := range t {
			a[i] = DeepCopy(x)
		}
		return a
	}
	return v
}

// CopyPlain is DeepCopy of a value made of plain types only (maps, slices,
// strings, bools, nil, json.Number), in one walk; ok is false (and the
// copy unfinished) when v holds another Go type, for the caller to
// convert it first. The text of numbers is not checked: a copy keeps it
// as it is, whatever it says.
func CopyPlain(v any) (c any, ok bool) { return copyPlain(v, 0) }

func copyPlain(v any, depth int) (any, bool) {
	switch t := v.(type) {
	case nil, bool, string, json.Number:
		return v, true
	case map[string]any:
		if depth >= MaxDepth {
			return nil, false
		}
		m := make(map[string]any, len(t))
		for k, x := range t {
			y, ok := copyPlain(x, depth+1)
			if !ok {
				return nil, false
			}
			m[k] = y
		}
		return m, true
	case []any:
		if depth >= MaxDepth {
			return nil, false
		}
		a := make([]any, len(t))
		for i, x := range t {
			y, ok := copyPlain(x, depth+1)
			if !ok {
				return nil, false
			}
			a[i] = y
		}
		return a, true
	}
	return nil, false
}

// Equal compares two values; numbers compare by value (1.0 equals 1).
func Equal(a, b any) bool { return equal(a, b, number.Equal) }

// Identical compares values exactly: numbers by their text, so that 1E3
// and 1000 (or 2.0 and 2) differ. Round trips that must keep the text use
// it; Equal compares numbers by value.
func Identical(a, b any) bool {
	return equal(a, b, func(x, y json.Number) bool { return x == y })
}

// equal is Equal and Identical, which differ only in how numbers compare.
func equal(a, b any, numbers func(x, y json.Number) bool) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equal(xv, yv, numbers) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i], numbers) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		return ok && numbers(x, y)
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	}
	return false
}

// Diff returns the highest pointers under which a and b differ, sorted.
// Equal values give an empty (non-nil) list.
func Diff(a, b any) []string {
	d := differ{out: []string{}}
	d.diff(a, b)
	sort.Strings(d.out)
	return d.out
}

// differ keeps the path as a stack of tokens and builds a pointer only
// where the values differ: most of a large document is equal.
type differ struct {
	path []string
	out  []string
}

func (d *differ) at(tok string) string {
	return pointer.Join(append(d.path, tok)...)
}

func (d *differ) diff(a, b any) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		shared := 0
		for k, av := range am {
			if bv, ok := bm[k]; ok {
				shared++
				d.path = append(d.path, k)
				d.diff(av, bv)
				d.path = d.path[:len(d.path)-1]
			} else {
				d.out = append(d.out, d.at(k))
			}
		}
		if shared == len(bm) {
			return // b has no key that a lacks
		}
		for k := range bm {
			if _, ok := am[k]; !ok {
				d.out = append(d.out, d.at(k))
			}
		}
		return
	}
	aa, aok := a.([]any)
	ba, bok := b.([]any)
	if aok && bok && len(aa) == len(ba) {
		for i := range aa {
			d.path = append(d.path, strconv.Itoa(i))
			d.diff(aa[i], ba[i])
			d.path = d.path[:len(d.path)-1]
		}
		return
	}
	if !Equal(a, b) {
		d.out = append(d.out, pointer.Join(d.path...))
	}
}

// CheckNumbers reports the first number outside the supported range.
func CheckNumbers(v any) error {
	if p, err := BadNumber(v); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	return nil
}

// BadNumber returns the pointer of the first number outside the supported
// range and why it is out; err is nil when every number is within it.
func BadNumber(v any) (ptr string, err error) {
	if numbersOK(v) {
		return "", nil // the common case: no pointers built
	}
	return badNumber(v, "")
}

func numbersOK(v any) bool {
	switch t := v.(type) {
	case json.Number:
		return number.Check(t) == nil
	case map[string]any:
		for _, x := range t {
			if !numbersOK(x) {
				return false
			}
		}
	case []any:
		for _, x := range t {
			if !numbersOK(x) {
				return false
			}
		}
	}
	return true
}

func badNumber(v any, ptr string) (string, error) {
	switch t := v.(type) {
	case json.Number:
		if err := number.Check(t); err != nil {
			return ptr, err
		}
	case map[string]any:
		for k, x := range t {
			if p, err := badNumber(x, ptr+"/"+pointer.Escape(k)); err != nil {
				return p, err
			}
		}
	case []any:
		for i, x := range t {
			if p, err := badNumber(x, pointer.AppendIndex(ptr, i)); err != nil {
				return p, err
			}
		}
	}
	return "", nil
}

// InvalidUTF8 returns the pointer of the first string (or object key)
// that is not valid UTF-8, which JSON output would silently replace.
func InvalidUTF8(v any) (string, bool) {
	if utf8OK(v) {
		return "", false // the common case: no pointers built
	}
	return invalidUTF8(v, "")
}

func utf8OK(v any) bool {
	switch t := v.(type) {
	case string:
		return utf8.ValidString(t)
	case map[string]any:
		for k, x := range t {
			if !utf8.ValidString(k) || !utf8OK(x) {
				return false
			}
		}
	case []any:
		for _, x := range t {
			if !utf8OK(x) {
				return false
			}
		}
	}
	return true
}

func invalidUTF8(v any, ptr string) (string, bool) {
	switch t := v.(type) {
	case string:
		if !utf8.ValidString(t) {
			return ptr, true
		}
	case map[string]any:
		for k, x := range t {
			p := ptr + "/" + pointer.Escape(k)
			if !utf8.ValidString(k) {
				return p, true
			}
			if q, bad := invalidUTF8(x, p); bad {
				return q, true
			}
		}
	case []any:
		for i, x := range t {
			if q, bad := invalidUTF8(x, pointer.AppendIndex(ptr, i)); bad {
				return q, true
			}
		}
	}
	return "", false
}

// TypeName names the JSON type of a plain value ("integer" for an
// integral number).
func TypeName(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if number.IsInteger(t) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// Describe names the kind of a plain value for a message, with its
// article: "null", "a boolean", "a string", "a number", and for a list
// and a mapping the words given, as the reader knows them ("a list" and
// "a mapping" of a KUDO YAML file, "an array" and "an object" of a
// schema). A value of another Go type is named by that type.
func Describe(v any, list, mapping string) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case json.Number, int, int64, float64:
		return "a number"
	case []any:
		return list
	case map[string]any:
		return mapping
	}
	return fmt.Sprintf("%T", v)
}
