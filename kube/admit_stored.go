package kube

import (
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// Stored makes Admit judge every write a second time, as it will be
// stored: the object converted to version (set's hub when empty), the
// storage version of the CRD, as Convert converts it (with the
// annotation conversion.paramkit.dev/kept restored), its values
// defaulted and validated by that version's schema and compared with
// the old object converted the same way (immutability). A write through
// an older version is then refused when it would store what the stored
// version refuses: a value its laxer schema allows (cpu "65" where the
// stored version says at most 64; an integer beyond int64, which the
// apiserver would store rounded), a change of an immutable value the
// older version does not hold, or an annotation edited to restore such
// values (kubectl annotate, a patch, a put, a server-side apply). A layer
// of the annotation that restores what the stored version's schema
// refuses is named as such.
//
// The request is still judged first in its own version's names (the
// schema Admit is given); what only the stored version refuses is named
// in the request's version's names where the field maps back (through
// the versions' oldName keywords), else in the stored version's names,
// saying which version. The stored version's defaults are judged, not
// patched (the request's version may not hold them). A request in the
// stored version itself is judged once, and its annotation (which a
// conversion to an older version reads) is refused where it would
// restore there what that version's schema refuses, in that version's
// names. The object's apiVersion names
// the request's version; one the set does not know is a failure (500).
func Stored(set *migrate.VersionSet, version string) Option {
	return func(c *config) { c.set, c.stored = set, version }
}

// judgeStored judges the object as it will be stored: values are the
// request's values with its version's defaults (what the mutating
// webhook's patch gives), old the old object's field (nil on CREATE).
// It returns the errors, in the request's names where they map, or a
// failure of the admission itself.
func (a *admission) judgeStored(toks []string, values any) (schema.ErrorList, error) {
	set := a.c.set
	to := a.c.stored
	if to == "" {
		to = set.Hub()
	}
	target, ok := set.Version(to)
	if !ok {
		return nil, a.fail(500, "InternalError", schema.NewError(schema.KindUsage, "", "kube.Stored: the version set has no version %s", quoteShort(to)))
	}
	obj, err := decodeObject(a.req.Object)
	if err != nil {
		return nil, a.fail(400, "BadRequest", fmt.Errorf("object: %w", err))
	}
	av, _ := obj["apiVersion"].(string)
	_, from := splitAPIVersion(av)
	if from == "" {
		from = a.req.Kind.Version
	}
	if from == to {
		// Judged once, in its own names; its annotation is read when the
		// object is converted to another version: checked there.
		return a.keptForOthers(set, obj, toks, to), nil
	}
	if _, ok := set.Version(from); !ok {
		return nil, a.fail(500, "InternalError", schema.NewError(schema.KindUsage, "", "kube.Stored: the version set has no version %s, the request's", quoteShort(from)))
	}
	setField(obj, toks, values)
	misfits, err := convertObject(set, obj, toks, a.c.field, from, to, true)
	if err != nil {
		return nil, a.fail(500, "InternalError", err)
	}
	stored, _, _ := fieldValue(obj, toks)
	if err := a.deadline("while converting the object to the stored version " + to); err != nil {
		return nil, err
	}
	var old any
	if a.req.Operation == opUpdate && len(a.req.OldObject) > 0 {
		oldObj, err := decodeObject(a.req.OldObject)
		if err != nil {
			return nil, a.fail(400, "BadRequest", fmt.Errorf("oldObject: %w", err))
		}
		oav, _ := oldObj["apiVersion"].(string)
		if _, ofrom := splitAPIVersion(oav); ofrom != "" && ofrom != to {
			if _, err := convertObject(set, oldObj, toks, a.c.field, ofrom, to, false); err != nil {
				return nil, a.fail(500, "InternalError", err)
			}
		}
		old, _, _ = fieldValue(oldObj, toks)
	}
	errs := judgeValues(target.Schema, stored)
	if old != nil && len(errs) == 0 {
		errs = schema.ErrorsOf(params.CheckImmutable(target.Schema, old, stored))
	}
	if err := a.deadline("while judging the object as stored in " + to); err != nil {
		return nil, err
	}
	if len(errs) == 0 && len(misfits) == 0 {
		return nil, nil
	}
	fromMisfit := map[string]bool{}
	for _, e := range misfits {
		fromMisfit[e.Pointer] = true
	}
	overridden := map[string]bool{}
	if len(errs) > 0 {
		// An error at a value the annotation restored (an immutable
		// engine the object written still shows unchanged) names the
		// annotation: the writer's own values do not explain it.
		if restored := a.restoredByKept(set, toks, values, from, to, stored); restored != nil {
			for _, e := range errs {
				if restored(e.Pointer) {
					overridden[e.Pointer] = true
				}
			}
		}
	}
	seen := map[string]bool{}
	var out schema.ErrorList
	for _, e := range append(misfits, errs...) {
		key := e.Pointer + "\x00" + e.Keyword + "\x00" + e.Message
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, a.renameStored(set, e, from, to, fromMisfit[e.Pointer], overridden[e.Pointer]))
	}
	return out, nil
}

// restoredByKept tells, for the object of the request converted to the
// stored version with its annotation (stored, the field's values),
// where the annotation's layers made the value differ from the
// conversion without them; nil when the object has no layers for the
// field.
func (a *admission) restoredByKept(set *migrate.VersionSet, toks []string, values any, from, to string, stored any) func(p string) bool {
	obj, err := decodeObject(a.req.Object)
	if err != nil {
		return nil
	}
	kept := readKept(obj)
	if _, ok := kept[a.c.field]; !ok {
		return nil
	}
	delete(kept, a.c.field)
	if writeKept(obj, kept) != nil {
		return nil
	}
	setField(obj, toks, value.DeepCopy(values))
	if _, err := convertObject(set, obj, toks, a.c.field, from, to, true); err != nil {
		return nil
	}
	bare, _, _ := fieldValue(obj, toks)
	return func(p string) bool {
		x, inStored := pointer.Get(stored, p)
		y, inBare := pointer.Get(bare, p)
		return inStored != inBare || !value.Equal(x, y)
	}
}

// keptForOthers checks the annotation of an object written in the
// stored version (to), which only a conversion to another version reads:
// what its layers would restore there that that version's schema refuses
// is an error, in that version's names.
func (a *admission) keptForOthers(set *migrate.VersionSet, obj map[string]any, toks []string, to string) schema.ErrorList {
	if _, ok := readKept(obj)[a.c.field]; !ok {
		return nil
	}
	var out schema.ErrorList
	for _, v := range set.Order() {
		if v == to || set.Refused(to, v) != nil {
			continue
		}
		c, err := decodeObject(a.req.Object)
		if err != nil {
			return nil
		}
		misfits, err := convertObject(set, c, toks, a.c.field, to, v, true)
		if err != nil {
			continue
		}
		for _, e := range misfits {
			ce := *e
			ce.Message = "in version " + v + ", restored from the annotation " + ConversionAnnotation + ": " + e.Message
			out = append(out, &ce)
		}
	}
	return out
}

// renameStored gives an error found in the stored version to in the
// names of the request's version from where its pointer maps back, else
// in to's names, saying which version (and that the annotation brought
// the value, when it did).
//
// A misfit (kept: a value of the annotation the stored version's schema
// refuses) stays in to's names; an error at a value the annotation
// overrode (overridden: the stored value it would change, such as an
// immutable one) is named in from's names where it maps, the annotation
// named.
func (a *admission) renameStored(set *migrate.VersionSet, e *schema.Error, from, to string, kept, overridden bool) *schema.Error {
	c := *e
	where := "version " + to + ", the stored version"
	if kept || overridden {
		where += ", restored from the annotation " + ConversionAnnotation
	}
	if p, ok := mapBack(set, e.Pointer, from, to); ok && !kept {
		c.Pointer = p
		c.Message = e.Message + " (" + where + ")"
		return &c
	}
	c.Message = "in " + where + ": " + e.Message
	return &c
}

// mapBack maps the pointer p of a value in version to back to version
// from, one adjacent pair at a time through the newer schema's oldName
// keywords; ok is false when some version on the way does not declare
// the place.
func mapBack(set *migrate.VersionSet, p, from, to string) (string, bool) {
	order := set.Order()
	i, j := indexOf(order, from), indexOf(order, to)
	if i < 0 || j < 0 {
		return "", false
	}
	schemas := make([]*schema.Schema, len(order))
	for k, name := range order {
		v, _ := set.Version(name)
		schemas[k] = v.Schema
	}
	return pointerAcross(schemas, p, j, i)
}

// pointerAcross maps p, a value pointer of schemas[from], to
// schemas[to] (schemas oldest first), one adjacent pair at a time
// through the newer schema's oldName keywords; ok is false when some
// schema on the way does not declare the place.
func pointerAcross(schemas []*schema.Schema, p string, from, to int) (string, bool) {
	for k := from; k != to; {
		var ok bool
		next := k - 1
		if to > from {
			next = k + 1
			p, ok = newPointer(schemas[next], schemas[k], p)
		} else {
			p, ok = oldPointer(schemas[k], schemas[next], p)
		}
		if !ok {
			return "", false
		}
		k = next
	}
	return p, true
}

func indexOf(l []string, s string) int {
	for i, x := range l {
		if x == s {
			return i
		}
	}
	return -1
}

// oldPointer maps p, a pointer into the values of the newer schema nw,
// to the older schema old: each step follows the node's oldName (an
// absolute pointer, or a name beside the parent's old place) when the
// older schema declares it, else keeps the key.
func oldPointer(nw, old *schema.Schema, p string) (string, bool) {
	toks, err := pointer.Split(p)
	if err != nil {
		return "", false
	}
	var out []string
	for i, t := range toks {
		mapped := false
		if n := nw.Lookup(pointer.Join(toks[:i+1]...)); n != nil {
			for _, on := range n.OldNames() {
				var cand []string
				if strings.HasPrefix(on, "/") {
					if cand, err = pointer.Split(on); err != nil {
						continue
					}
				} else {
					cand = append(append([]string(nil), out...), on)
				}
				if declared(old, cand) {
					out, mapped = cand, true
					break
				}
			}
		}
		if !mapped {
			out = append(out, t)
		}
	}
	return pointer.Join(out...), declared(old, out)
}

// newPointer maps p, a pointer into the values of the older schema old,
// to the newer schema nw: the declared place of nw whose oldPointer is p.
func newPointer(nw, old *schema.Schema, p string) (string, bool) {
	found, ok := "", false
	nw.Walk(func(n *schema.Node) bool {
		if ok {
			return false
		}
		vp := valuePointer(n)
		if vp == "" && n != nw.Root() {
			return true
		}
		if op, mapped := oldPointer(nw, old, vp); mapped && op == p {
			found, ok = vp, true
		}
		return true
	})
	return found, ok
}

// valuePointer is the value pointer of a node reached through properties
// alone ("" for the root and for a node that is not such a property).
func valuePointer(n *schema.Node) string {
	var toks []string
	for cur := n; cur != nil && cur.Parent() != nil; cur = cur.Parent() {
		name := cur.Name()
		if name == "" || cur.Parent().Property(name) != cur {
			return ""
		}
		toks = append([]string{name}, toks...)
	}
	return pointer.Join(toks...)
}

// declared reports whether the schema declares the place toks: each key
// a property (or an explicit additionalProperties schema) of its parent,
// each index within items.
func declared(s *schema.Schema, toks []string) bool {
	n := s.Root()
	for _, t := range toks {
		if n == nil {
			return false
		}
		if c := n.Property(t); c != nil {
			n = c
			continue
		}
		if ap := n.AdditionalProperties(); ap != nil && !ap.IsFalse() {
			n = ap
			continue
		}
		if it := n.Items(); it != nil {
			n = it
			continue
		}
		return false
	}
	return n != nil
}

// setField sets the value at toks in obj, creating the objects above it.
func setField(obj map[string]any, toks []string, v any) {
	cur := obj
	for i, t := range toks {
		if i == len(toks)-1 {
			cur[t] = v
			return
		}
		next, ok := cur[t].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[t] = next
		}
		cur = next
	}
}
