package kube

import (
	"encoding/json"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// storedBounds tightens the CRD schema of every version that is not
// stored (fields[i] is versions[i]'s, as CRDSchema made it) by the
// stored version's bounds, where a value of the stored version maps to
// one of that version through the oldName chain and has the same type:
// the apiserver judges a write by its own version's schema only, so
// without the webhooks a laxer older version would store, converted,
// what the stored version refuses (v1's maxMemoryMB: 70000 where v2's
// memoryLimitMB has maximum: 65536). Admission with Stored refuses it;
// this is the CRD's part of the same promise.
//
// A bound is taken where the version has none or a looser one: maximum
// and minimum (with exclusiveness), the lengths and counts, multipleOf
// and pattern where the version has none, and enum as the members both
// allow. A node whose default the tighter bounds would refuse keeps its
// own (the apiserver refuses a CRD whose default breaks its schema). A
// string field the stored version holds as an integer (a flat string
// parameter, typed later) gets a rule instead (textBounds).
func storedBounds(versions []CRDVersion, fields []map[string]any) {
	si := slices.IndexFunc(versions, func(v CRDVersion) bool { return v.Storage })
	if si < 0 || len(versions) < 2 {
		return
	}
	schemas := make([]*schema.Schema, len(versions))
	for i, v := range versions {
		schemas[i] = v.Schema
	}
	schemas[si].Walk(func(n *schema.Node) bool {
		vp := valuePointer(n)
		if vp == "" {
			return true
		}
		src := generatedNode(fields[si], vp)
		if src == nil {
			return true
		}
		for i := range versions {
			if i == si {
				continue
			}
			p, ok := pointerAcross(schemas, vp, si, i)
			if !ok {
				continue
			}
			dst := generatedNode(fields[i], p)
			switch {
			case dst == nil:
			case dst["type"] == src["type"]:
				tighten(dst, src)
			case dst["type"] == "string" && src["type"] == "integer":
				textBounds(dst, src, versions[si].Name)
			}
		}
		return true
	})
}

// generatedNode is the node of a CRD schema (CRDSchema's output) at the
// value pointer p, reached through properties; nil where there is none.
func generatedNode(root map[string]any, p string) map[string]any {
	toks, err := pointer.Split(p)
	if err != nil {
		return nil
	}
	n := root
	for _, t := range toks {
		props, _ := n["properties"].(map[string]any)
		if n, _ = props[t].(map[string]any); n == nil {
			return nil
		}
	}
	return n
}

// tighten gives dst the bounds of src that are tighter than its own,
// unless dst's default would then break them.
func tighten(dst, src map[string]any) {
	t := make(map[string]any, len(dst))
	for k, v := range dst {
		t[k] = v
	}
	upper := func(key, excl string) {
		s, ok := number(src[key])
		if !ok {
			return
		}
		d, has := number(t[key])
		sx, _ := src[excl].(bool)
		dx, _ := t[excl].(bool)
		if !has || s.Cmp(d) < 0 || (s.Cmp(d) == 0 && sx && !dx) {
			t[key] = src[key]
			if sx {
				t[excl] = true
			} else {
				delete(t, excl)
			}
		}
	}
	lower := func(key, excl string) {
		s, ok := number(src[key])
		if !ok {
			return
		}
		d, has := number(t[key])
		sx, _ := src[excl].(bool)
		dx, _ := t[excl].(bool)
		if !has || s.Cmp(d) > 0 || (s.Cmp(d) == 0 && sx && !dx) {
			t[key] = src[key]
			if sx {
				t[excl] = true
			} else {
				delete(t, excl)
			}
		}
	}
	upper("maximum", "exclusiveMaximum")
	lower("minimum", "exclusiveMinimum")
	for _, k := range []string{"maxLength", "maxItems", "maxProperties"} {
		upper(k, "")
	}
	for _, k := range []string{"minLength", "minItems", "minProperties"} {
		lower(k, "")
	}
	for _, k := range []string{"multipleOf", "pattern"} {
		if _, has := t[k]; !has && src[k] != nil {
			t[k] = src[k]
		}
	}
	if se, ok := src["enum"].([]any); ok {
		if de, has := t["enum"].([]any); !has {
			t["enum"] = se
		} else {
			var both []any
			for _, m := range de {
				if slices.ContainsFunc(se, func(x any) bool { return sameJSON(x, m) }) {
					both = append(both, m)
				}
			}
			if len(both) > 0 {
				t["enum"] = both
			}
		}
	}
	if d, has := t["default"]; has && !defaultFits(t, d) {
		return
	}
	for k := range dst {
		delete(dst, k)
	}
	for k, v := range t {
		dst[k] = v
	}
}

// defaultFits reports whether d is valid for the node n alone (its own
// keywords, none of its children's).
func defaultFits(n map[string]any, d any) bool {
	own := map[string]any{}
	for k, v := range n {
		switch k {
		case "properties", "items", "additionalProperties", "default", "x-kubernetes-validations", "required":
			continue
		}
		own[k] = v
	}
	s, err := schema.FromValue(own, schema.Kubernetes())
	if err != nil {
		return false
	}
	return s.Validate(d) == nil
}

// number reads a JSON number exactly.
func number(v any) (*big.Rat, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(string(n))
	return r, ok
}

// sameJSON reports whether two decoded JSON values are equal, numbers by
// value.
func sameJSON(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x.Cmp(y) == 0
	}
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

// integerText is the text of an integer as every reading of a value
// reads it alike (no sign of plus, no leading zero, no blanks): the only
// text textBounds judges.
const integerText = `^(0|-?[1-9][0-9]*)$`

// textBounds gives a string field that the stored version holds as an
// integer (a flat string parameter unwrapped, migrated by oldName) a
// rule refusing integer text outside the stored version's range, which
// conversion would store as that integer. Other text is left to the
// webhook: the rule never refuses what admission would accept.
func textBounds(dst, src map[string]any, stored string) {
	var conds, says []string
	if n, ok := src["maximum"].(json.Number); ok {
		op := "<="
		if x, _ := src["exclusiveMaximum"].(bool); x {
			op = "<"
		}
		conds = append(conds, "int(self) "+op+" "+string(n))
		says = append(says, op+" "+string(n))
	}
	if n, ok := src["minimum"].(json.Number); ok {
		op := ">="
		if x, _ := src["exclusiveMinimum"].(bool); x {
			op = ">"
		}
		conds = append(conds, "int(self) "+op+" "+string(n))
		says = append(says, op+" "+string(n))
	}
	if len(conds) == 0 {
		return
	}
	for _, c := range conds {
		if _, err := strconv.ParseInt(strings.Fields(c)[2], 10, 64); err != nil {
			return // a bound CEL's int cannot hold
		}
	}
	rule := map[string]any{
		"rule":    "!self.matches('" + integerText + "') || (" + strings.Join(conds, " && ") + ")",
		"message": "as an integer, must be " + strings.Join(says, " and ") + " (the bounds of the stored version " + stored + ")",
	}
	rules, _ := dst["x-kubernetes-validations"].([]any)
	dst["x-kubernetes-validations"] = append(rules, rule)
}
