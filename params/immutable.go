package params

import (
	"fmt"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// Diff returns the highest pointers under which old and new differ, sorted;
// equal values give an empty, non-nil list. Numbers compare by value. A
// key added or removed is reported at the key; arrays of different lengths
// at the array. Go data other than plain values is compared as Plain
// converts it (a Go int 5 equals json.Number("5")); a value that cannot be
// converted is compared as given, its Go data equal to nothing.
func Diff(old, new any) []string { return value.Diff(plainOr(old), plainOr(new)) }

// CheckImmutable refuses an update that changes, adds or removes any value
// at or below a node marked `immutable: true` (through $ref and allOf,
// under array items and additionalProperties too). Both values are
// compared after defaulting them with opts (neither is changed), so a value that was
// and stays its default is no change. An old value of nil is a first
// install, which is free. The error is a schema.ErrorList with one entry
// (kind schema.KindImmutable) per violation.
// Go data other than plain values is compared as Plain converts it; a part
// of old or new that cannot be a value is the one error returned. A nil
// schema marks nothing immutable: CheckImmutable then returns nil.
func CheckImmutable(s *schema.Schema, old, new any, opts ...Option) error {
	if err := zeroSchema(s); err != nil {
		return schema.ErrorList{err.(*schema.Error)}.Err()
	}
	old, err := value.Plain(old)
	if err != nil {
		return schema.ErrorList{notPlain(err, "in the old values: ")}.Err()
	}
	new, err = value.Plain(new)
	if err != nil {
		return schema.ErrorList{notPlain(err, "in the new values: ")}.Err()
	}
	if old == nil || s == nil {
		return nil
	}
	o := defaults(s, old, opts, false)
	n := defaults(s, new, opts, false)
	if errs := immutable(s, o, n, value.Diff(o, n)); len(errs) > 0 {
		return errs.Err()
	}
	return nil
}

// immutable checks each changed pointer: against immutable nodes at or
// above it, else against immutable nodes inside the changed part.
func immutable(s *schema.Schema, old, new any, changed []string) schema.ErrorList {
	var errs schema.ErrorList
	for _, p := range changed {
		toks, err := pointer.Split(p)
		if err != nil {
			continue
		}
		n := s.Root()
		ov, nv := old, new
		oOK, nOK := true, true
		found := false
		for i, tok := range toks {
			if isImmutable(n) {
				at := pointer.Join(toks[:i]...)
				errs = append(errs, &schema.Error{Pointer: p, Kind: schema.KindImmutable, Message: fmt.Sprintf("cannot be %s: %s is immutable (schema %s)", verb(oOK && hasPath(ov, toks[i:]), nOK && hasPath(nv, toks[i:])), quote(at), quote(immutableAt(n)))})
				found = true
				break
			}
			n = stepNode(n, tok, ov, nv)
			ov, oOK = child(ov, oOK, tok)
			nv, nOK = child(nv, nOK, tok)
		}
		if !found {
			errs = inside(errs, n, ov, oOK, nv, nOK, p)
		}
	}
	return errs
}

// inside reports the differences of old and new below ptr that lie at or
// under an immutable node.
func inside(errs schema.ErrorList, n *schema.Node, ov any, oOK bool, nv any, nOK bool, ptr string) schema.ErrorList {
	if n == nil {
		return errs // the schema says nothing here, so nothing is immutable
	}
	if isImmutable(n) {
		if oOK != nOK || (oOK && !value.Equal(ov, nv)) {
			errs = append(errs, &schema.Error{Pointer: ptr, Kind: schema.KindImmutable, Message: fmt.Sprintf("cannot be %s: immutable (schema %s)", verb(oOK, nOK), quote(immutableAt(n)))})
		}
		return errs
	}
	om, oIsMap := ov.(map[string]any)
	nm, nIsMap := nv.(map[string]any)
	if oIsMap || nIsMap {
		for k, x := range om {
			y, ok := nm[k]
			if !ok || !value.Equal(x, y) {
				errs = inside(errs, n.Child(k), x, true, y, ok, pointer.Append(ptr, k))
			}
		}
		for k, y := range nm {
			if _, ok := om[k]; !ok {
				errs = inside(errs, n.Child(k), nil, false, y, true, pointer.Append(ptr, k))
			}
		}
		return errs
	}
	oa, oIsArr := ov.([]any)
	na, nIsArr := nv.([]any)
	if oIsArr || nIsArr {
		for i := 0; i < max(len(oa), len(na)); i++ {
			x, xok := at(oa, i)
			y, yok := at(na, i)
			if xok != yok || !value.Equal(x, y) {
				errs = inside(errs, n.Elem(i), x, xok, y, yok, pointer.AppendIndex(ptr, i))
			}
		}
	}
	return errs
}

func at(a []any, i int) (any, bool) {
	if i < len(a) {
		return a[i], true
	}
	return nil, false
}

func verb(oOK, nOK bool) string {
	switch {
	case !oOK:
		return "added"
	case !nOK:
		return "removed"
	}
	return "changed"
}

// hasPath reports whether the value has something at the tokens.
func hasPath(v any, toks []string) bool {
	ok := true
	for _, t := range toks {
		if v, ok = child(v, ok, t); !ok {
			return false
		}
	}
	return true
}

// child steps into a value; ok is false when the value is not there.
func child(v any, ok bool, tok string) (any, bool) {
	if !ok {
		return nil, false
	}
	switch c := v.(type) {
	case map[string]any:
		x, ok := c[tok]
		return x, ok
	case []any:
		i, err := pointer.Index(tok, len(c))
		if err != nil {
			return nil, false
		}
		return c[i], true
	}
	return nil, false
}

// stepNode moves to the node governing tok below n, reading tok as an
// index where either value is an array there.
func stepNode(n *schema.Node, tok string, ov, nv any) *schema.Node {
	if n == nil {
		return nil
	}
	_, oa := ov.([]any)
	_, na := nv.([]any)
	if oa || na {
		if i, err := pointer.Index(tok, int(^uint(0)>>1)); err == nil {
			return n.Elem(i)
		}
	}
	return n.Child(tok)
}

func isImmutable(n *schema.Node) bool {
	if n == nil {
		return false
	}
	for _, m := range n.Scope() {
		if m.Immutable() {
			return true
		}
	}
	return false
}

// immutableAt is the schema pointer of the node that declares immutable.
func immutableAt(n *schema.Node) string {
	for _, m := range n.Scope() {
		if m.Immutable() {
			return m.Pointer()
		}
	}
	return n.Pointer()
}
