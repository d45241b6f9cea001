package kube

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-openapi/jsonpointer"

	"github.com/paramkit/paramkit/params"
)

// JSONPatch returns the RFC 6902 operations that turn from, the value at
// base in an object (a pointer such as "/spec/parameters"), into to, each
// a map[string]any with "op", "path" and, but for a removal, "value";
// none when the two are identical. Write them with params.MarshalJSON,
// which keeps every number's text: a patch built through float64 (as
// controller-runtime's admission.PatchResponseFromRaw builds one) stores
// 9007199254740993 as 9007199254740992.
//
// The patch is the shorter, as JSON, of one operation per change and a
// single replace of the whole value at base (never for base "", the
// whole object): the kube-apiserver applies a mutating webhook's patch
// faster the fewer operations and bytes it has (TestAdmissionLatency in
// test/e2e), and a few defaults added to a large value stay a few
// operations, so that an answer stays small. Either patch gives the same
// object.
//
// Operation by operation, the order is stable: for objects, removals,
// then changes, then additions, each by key; arrays of equal length
// element by element, other arrays replaced whole. Numbers are compared
// by their text. The value under an empty key is replaced whole rather
// than walked into: json-patch libraries (the apiserver's among them)
// cannot follow a path through an empty token such as /a//b. Neither
// value is changed; the operations share parts of to.
func JSONPatch(base string, from, to any) []any {
	if base != "" {
		// The sizes first, without building either patch: most of the
		// time one of them is not wanted.
		d := patchSize{limit: replaceSize(len(base), to)}
		d.diff(len(base), from, to)
		if d.ops >= 2 && d.limit <= d.size {
			return []any{map[string]any{"op": "replace", "path": base, "value": to}}
		}
	}
	var ops []any
	diffPatch(base, from, to, &ops)
	return ops
}

// The sizes (jsonSize) of the operations diffPatch builds, given the
// length of their path and the size of their value.
func replaceSize(path int, v any) int { return 35 + path + jsonSize(v) }
func addSize(path int, v any) int     { return 31 + path + jsonSize(v) }
func removeSize(path int) int         { return 25 + path }

// patchSize walks from and to as diffPatch does, counting its operations
// and adding up their jsonSize instead of building them. It stops once
// there are two operations larger together than limit: the single
// replace is then the patch.
type patchSize struct {
	ops, size, limit int
}

func (d *patchSize) done() bool { return d.ops >= 2 && d.size >= d.limit }

func (d *patchSize) diff(path int, from, to any) {
	fm, fok := from.(map[string]any)
	tm, tok := to.(map[string]any)
	if fok && tok {
		for k, fv := range fm {
			if d.done() {
				return
			}
			tv, ok := tm[k]
			kp := path + 1 + escapedLen(k)
			switch {
			case !ok:
				d.ops++
				d.size += removeSize(kp)
			case k == "":
				if !params.Identical(fv, tv) {
					d.ops++
					d.size += replaceSize(path+1, tv)
				}
			default:
				d.diff(kp, fv, tv)
			}
		}
		for k, tv := range tm {
			if d.done() {
				return
			}
			if _, ok := fm[k]; !ok {
				d.ops++
				d.size += addSize(path+1+escapedLen(k), tv)
			}
		}
		return
	}
	fa, fok := from.([]any)
	ta, tok := to.([]any)
	if fok && tok && len(fa) == len(ta) {
		for i := range fa {
			if d.done() {
				return
			}
			d.diff(path+1+len(strconv.Itoa(i)), fa[i], ta[i])
		}
		return
	}
	if !params.Identical(from, to) {
		d.ops++
		d.size += replaceSize(path, to)
	}
}

// escapedLen is len(jsonpointer.Escape(k)): "~" and "/" take two bytes.
func escapedLen(k string) int {
	return len(k) + strings.Count(k, "~") + strings.Count(k, "/")
}

// jsonSize is about the length of v as compact JSON (a string's escapes
// are not counted), found without writing it.
func jsonSize(v any) int {
	switch x := v.(type) {
	case nil:
		return 4
	case bool:
		if x {
			return 4
		}
		return 5
	case string:
		return len(x) + 2
	case json.Number:
		return len(x)
	case map[string]any:
		n := 2 + max(len(x)-1, 0) // brackets and commas
		for k, e := range x {
			n += len(k) + 3 + jsonSize(e)
		}
		return n
	case []any:
		n := 2 + max(len(x)-1, 0) // brackets and commas
		for _, e := range x {
			n += jsonSize(e)
		}
		return n
	}
	return len(fmt.Sprint(v)) // another number type
}

func diffPatch(path string, from, to any, ops *[]any) {
	fm, fok := from.(map[string]any)
	tm, tok := to.(map[string]any)
	if fok && tok {
		// Only the keys that may give an operation are sorted and given
		// a path: a wide object of which a few keys change costs a walk,
		// not a sort of all its keys (150,000 undeclared keys once took
		// most of a review's time here).
		var removed, changed, added []string
		for k, fv := range fm {
			tv, ok := tm[k]
			switch {
			case !ok:
				removed = append(removed, k)
			case maybeChanged(fv, tv):
				changed = append(changed, k)
			}
		}
		for k := range tm {
			if _, ok := fm[k]; !ok {
				added = append(added, k)
			}
		}
		slices.Sort(removed)
		slices.Sort(changed)
		slices.Sort(added)
		for _, k := range removed {
			*ops = append(*ops, map[string]any{"op": "remove", "path": path + "/" + jsonpointer.Escape(k)})
		}
		for _, k := range changed {
			if k == "" {
				if !params.Identical(fm[k], tm[k]) {
					*ops = append(*ops, map[string]any{"op": "replace", "path": path + "/", "value": tm[k]})
				}
				continue
			}
			diffPatch(path+"/"+jsonpointer.Escape(k), fm[k], tm[k], ops)
		}
		for _, k := range added {
			*ops = append(*ops, map[string]any{"op": "add", "path": path + "/" + jsonpointer.Escape(k), "value": tm[k]})
		}
		return
	}
	fa, fok := from.([]any)
	ta, tok := to.([]any)
	if fok && tok && len(fa) == len(ta) {
		for i := range fa {
			diffPatch(path+"/"+strconv.Itoa(i), fa[i], ta[i], ops)
		}
		return
	}
	if !params.Identical(from, to) {
		*ops = append(*ops, map[string]any{"op": "replace", "path": path, "value": to})
	}
}

// maybeChanged reports whether diffPatch may find a change between a and
// b: two objects or two arrays are walked, anything else compared.
func maybeChanged(a, b any) bool {
	switch a.(type) {
	case map[string]any:
		if _, ok := b.(map[string]any); ok {
			return true
		}
	case []any:
		if _, ok := b.([]any); ok {
			return true
		}
	}
	return !params.Identical(a, b)
}
