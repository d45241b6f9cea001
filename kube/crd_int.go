package kube

import (
	"encoding/json"
	"math/big"
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/secret"
	"github.com/paramkit/paramkit/schema"
)

// int64Range bounds the integers a kube-apiserver holds exactly.
var (
	int64Max = new(big.Float).SetInt64(1<<63 - 1)
	int64Min = new(big.Float).SetInt64(-1 << 63)
)

// roundedIntegers finds the integers of values (of the field s types)
// that a kube-apiserver has already rounded before any webhook saw them:
// it decodes an integer beyond int64 as a float64 and sends it on in a
// float's notation (18446744073709551617 arrives as
// 1.8446744073709552e+19), which JSON Schema would still call an
// integer. A number on a node that allows integers and not other numbers,
// written with a fraction or an exponent and beyond int64's range, is an
// error of kind schema.KindInvalid at its pointer: refused, never stored
// rounded. nil when there is none.
func roundedIntegers(s *schema.Schema, values any) schema.ErrorList {
	if s == nil {
		return nil
	}
	var out schema.ErrorList
	var walk func(n *schema.Node, v any, p string)
	walk = func(n *schema.Node, v any, p string) {
		if n == nil {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for _, k := range crdSortedKeys(x) {
				walk(n.Child(k), x[k], pointer.Append(p, k))
			}
		case []any:
			for i, e := range x {
				walk(n.Elem(i), e, pointer.AppendIndex(p, i))
			}
		case json.Number:
			if rounded(n, x) {
				out = append(out, schema.NewError(schema.KindInvalid, p,
					"%s is an integer beyond int64 that the apiserver has already rounded (it keeps integers as int64, others as float64); refused rather than stored rounded: keep the value within -9223372036854775808..9223372036854775807", secret.Text(n.Secret(), x.String())))
			}
		}
	}
	walk(s.Root(), values, "")
	return out
}

func rounded(n *schema.Node, x json.Number) bool {
	if !strings.ContainsAny(string(x), ".eE") || !n.Allows("integer") || n.Allows("string") {
		return false
	}
	for _, t := range n.Types() {
		if t == "number" {
			return false
		}
	}
	if n.Types() == nil {
		return false
	}
	f, _, err := big.ParseFloat(string(x), 10, 64, big.ToNearestEven)
	if err != nil {
		return false
	}
	return f.Cmp(int64Max) > 0 || f.Cmp(int64Min) < 0
}

// beyondInt64 reports whether x is an integer, written as one, outside
// int64's range, on a node n that types it as an integer (and allows
// neither other numbers nor strings).
func beyondInt64(n *schema.Node, x json.Number) bool {
	if n == nil || strings.ContainsAny(string(x), ".eE") || !n.Allows("integer") || n.Allows("string") || n.Types() == nil {
		return false
	}
	for _, t := range n.Types() {
		if t == "number" {
			return false
		}
	}
	i, ok := new(big.Int).SetString(string(x), 10)
	if !ok {
		return false
	}
	return !i.IsInt64()
}

// walkNumbers calls fn with every number of values (of the field s
// types), its node and pointer; fn's result, when not nil, replaces the
// number (in place: values' maps and slices are changed).
func walkNumbers(s *schema.Schema, values any, fn func(n *schema.Node, x json.Number, p string) any) any {
	if s == nil {
		return values
	}
	var walk func(n *schema.Node, v any, p string) any
	walk = func(n *schema.Node, v any, p string) any {
		if n == nil {
			return v
		}
		switch x := v.(type) {
		case map[string]any:
			for _, k := range crdSortedKeys(x) {
				x[k] = walk(n.Child(k), x[k], pointer.Append(p, k))
			}
		case []any:
			for i, e := range x {
				x[i] = walk(n.Elem(i), e, pointer.AppendIndex(p, i))
			}
		case json.Number:
			if r := fn(n, x, p); r != nil {
				return r
			}
		}
		return v
	}
	return walk(s.Root(), values, "")
}

// bigIntegers finds the integers of values, written as integers, beyond
// int64's range on nodes that type them as integers: a kube-apiserver
// decodes such a number as a float64 and stores it rounded
// (99999999999999999999999 becomes 1e+23). A conversion makes one from
// text (an older version's string "99999999999999999999999" typed by the
// stored version's integer node); admission refuses it in the stored
// version (Stored). Errors of kind schema.KindInvalid at their pointers.
func bigIntegers(s *schema.Schema, values any) schema.ErrorList {
	var out schema.ErrorList
	walkNumbers(s, values, func(n *schema.Node, x json.Number, p string) any {
		if beyondInt64(n, x) {
			out = append(out, schema.NewError(schema.KindInvalid, p,
				"%s is beyond int64, the apiserver's integers: it would be stored rounded; keep the value within -9223372036854775808..9223372036854775807", secret.Text(n.Secret(), x.String())))
		}
		return nil
	})
	return out
}

// keepBigIntegers turns every integer of a conversion's output that
// bigIntegers would report, and that the input (the field without the
// annotation's layers) did not hold as a number (in), into its text, a string: the conversion made it from text (an
// older version's string "99999999999999999999999" typed by the stored
// version's integer node), and a conversion webhook answers JSON that the
// apiserver decodes, turning such a number into a float64 (the stored
// value would be 1e+23, the round trip back to the older version's text
// lossy). As text it stays exact and converts back to what it was; a
// number the input held stays one. Conversion stays total; admission
// refuses the value (Stored). values is changed in place and returned.
func keepBigIntegers(s *schema.Schema, in, values any) any {
	var numbers map[string]bool
	return walkNumbers(s, values, func(n *schema.Node, x json.Number, _ string) any {
		if !beyondInt64(n, x) {
			return nil
		}
		if numbers == nil {
			numbers = map[string]bool{}
			collectNumbers(in, numbers)
		}
		if numbers[x.String()] {
			return nil
		}
		return x.String()
	})
}

// collectNumbers adds the text of every number in v to into.
func collectNumbers(v any, into map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			collectNumbers(e, into)
		}
	case []any:
		for _, e := range x {
			collectNumbers(e, into)
		}
	case json.Number:
		into[x.String()] = true
	}
}
