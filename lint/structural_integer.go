package lint

import (
	"encoding/json"
	"math/big"

	"github.com/paramkit/paramkit/internal/pointer"
)

// ruleIntegerRange is the id of the rule about integers a CRD leaves
// unbounded.
const ruleIntegerRange = "structural-integer-range"

// structuralIntegerRange warns about an integer node of a CRD schema that
// neither a format (int32, int64) nor both bounds keep within int64: a
// kube-apiserver keeps an integer beyond int64 as a float64 and stores it
// rounded (18446744073709551617 becomes 18446744073709552000) before any
// webhook sees it, silently. With format: int64 (what controller-gen
// writes) it refuses such a value instead.
var structuralIntegerRange = &Rule{
	ID:       ruleIntegerRange,
	Set:      "structural",
	Doc:      "integers have format int64 (or int32, or both bounds within int64): the apiserver stores a larger value rounded, silently",
	Severity: Warning,
	DocOnly:  true,
	Run: func(p *Pass) {
		walkSchemaNodes(p.Doc, "", func(n map[string]any, ptr string) {
			if n["type"] != "integer" {
				return
			}
			if f, _ := n["format"].(string); f == "int32" || f == "int64" {
				return
			}
			if withinInt64(n["minimum"]) && withinInt64(n["maximum"]) {
				return
			}
			p.Report(ptr, "an integer without format: int64 or bounds within int64: the apiserver keeps a larger value as a float and stores it rounded (18446744073709551617 becomes 18446744073709552000) before any webhook sees it; add format: int64")
		})
	},
}

var (
	lintInt64Max = new(big.Float).SetInt64(1<<63 - 1)
	lintInt64Min = new(big.Float).SetInt64(-1 << 63)
)

func withinInt64(v any) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	f, _, err := big.ParseFloat(string(n), 10, 200, big.ToNearestEven)
	return err == nil && f.Cmp(lintInt64Max) <= 0 && f.Cmp(lintInt64Min) >= 0
}

// walkSchemaNodes calls fn for every schema object of a CRD schema
// document: the root and what properties, additionalProperties and items
// hold (not what allOf, anyOf, oneOf and not hold: a type there does not
// say how the value is stored).
func walkSchemaNodes(v any, ptr string, fn func(n map[string]any, ptr string)) {
	n, ok := v.(map[string]any)
	if !ok {
		return
	}
	fn(n, ptr)
	if props, ok := n["properties"].(map[string]any); ok {
		for _, k := range sortedKeys(props) {
			walkSchemaNodes(props[k], pointer.Append(pointer.Append(ptr, "properties"), k), fn)
		}
	}
	for _, k := range []string{"additionalProperties", "items"} {
		walkSchemaNodes(n[k], pointer.Append(ptr, k), fn)
	}
}
