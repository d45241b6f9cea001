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
