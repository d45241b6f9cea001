package gates

import (
	"slices"

	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// Result is what Set.Apply decides for one create or update.
type Result struct {
	// Object is the object to persist: the new object with the fields of
	// disabled gates dropped or set back to their stored values.
	Object any
	// Dropped lists, sorted, the JSON pointers where the new object was not
	// taken as given because a gate is off: a field dropped (nothing was
	// stored there), or a change or removal not applied (the stored value
	// was kept). Never nil.
	Dropped []string
	// Warnings are for the client (Error() reads `POINTER: message`), the
	// one type of warnings of the module: one of kind schema.KindGateEffect for
	// each dropped pointer and each value that could not be kept, and one
	// of kind schema.KindDeprecated for each field of a deprecated gate
	// that the update touches. Never nil.
	Warnings []*schema.Error
	// SpecUnchanged reports an update whose spec is the same, after the
	// gates, as the stored one: the signal not to bump metadata.generation.
	// For a Kubernetes object (a top-level object with apiVersion and kind)
	// the spec is its `spec` field; for anything else (parameter values) it
	// is the whole object. Always false on create.
	SpecUnchanged bool
}

// Apply applies the gates to obj, the object about to be persisted, given
// stored, the object persisted before (nil on create). For each field path
// of a gate that is off, and whose parent gates are all on:
//
//   - nothing stored there: the field is dropped;
//   - a value stored there: the stored value is kept, whatever obj says
//     (neither updated nor removed);
//
// a field path whose gate is on takes obj's value. A gate below a disabled
// parent gate counts for nothing: the parent decides the whole field. Apply
// modifies neither obj nor stored; the result shares no maps or slices with
// them. Go data other than plain values is taken as Plain converts it (obj
// or stored that cannot be is taken as given). A nil or zero Set holds no
// gates (a Set with gates comes from New or Parse): Apply then takes obj
// as given.
func (g *Set) Apply(obj, stored any) Result {
	obj, stored = value.PlainOr(obj), value.PlainOr(stored)
	res := Result{Object: value.DeepCopy(obj), Dropped: []string{}, Warnings: []*schema.Error{}}
	if g != nil {
		for _, i := range g.off {
			g.restore(&res, obj, stored, g.paths[i])
		}
		slices.Sort(res.Dropped)
		g.deprecations(&res, obj, stored)
	}
	if stored != nil {
		res.SpecUnchanged = gateSpecEqual(res.Object, stored)
	}
	return res
}

// restore makes the value at p in res.Object what stored has there.
func (g *Set) restore(res *Result, obj, stored any, p gatedPath) {
	newV, inNew := gateGet(obj, p.toks)
	oldV, inOld := gateGet(stored, p.toks)
	name := g.status[p.gate].Name
	switch {
	case !inOld && !inNew:
	case !inOld:
		gateDelete(res.Object, p.toks)
		res.Dropped = append(res.Dropped, p.ptr)
		res.Warnings = append(res.Warnings, schema.NewError(schema.KindGateEffect, p.ptr, "dropped: feature gate %s is disabled", name))
	case inNew && value.Equal(newV, oldV):
	default:
		if !gateSet(&res.Object, p.toks, value.DeepCopy(oldV)) {
			res.Warnings = append(res.Warnings, schema.NewError(schema.KindGateEffect, p.ptr, "the stored value cannot be kept, the new object has no object to hold it: feature gate %s is disabled", name))
			return
		}
		what := "not updated"
		if !inNew {
			what = "not removed"
		}
		res.Dropped = append(res.Dropped, p.ptr)
		res.Warnings = append(res.Warnings, schema.NewError(schema.KindGateEffect, p.ptr, "%s, the stored value is kept: feature gate %s is disabled", what, name))
	}
}

// deprecations warns for each field of a deprecated gate that differs
// between the object as sent and the stored one (on create: is set), in
// the order of the gates' field paths.
func (g *Set) deprecations(res *Result, obj, stored any) {
	for _, p := range g.paths {
		st := g.status[p.gate]
		if st.PreRelease != stageDeprecated {
			continue
		}
		newV, inNew := gateGet(obj, p.toks)
		oldV, inOld := gateGet(stored, p.toks)
		if inNew != inOld || !value.Equal(newV, oldV) {
			res.Warnings = append(res.Warnings, schema.NewError(schema.KindDeprecated, p.ptr, "%s", gateDeprecation(st.Gate)))
		}
	}
}

// gateGet walks object keys only: arrays and scalars on the way name
// nothing.
func gateGet(v any, toks []string) (any, bool) {
	for _, t := range toks {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[t]; !ok {
			return nil, false
		}
	}
	return v, true
}

func gateDelete(v any, toks []string) {
	parent, ok := gateGet(v, toks[:len(toks)-1])
	if m, isMap := parent.(map[string]any); ok && isMap {
		delete(m, toks[len(toks)-1])
	}
}

// gateSet sets the value at toks, creating missing objects on the way; it
// reports false when something other than an object is in the way.
func gateSet(root *any, toks []string, val any) bool {
	m, ok := (*root).(map[string]any)
	if !ok {
		return false
	}
	for _, t := range toks[:len(toks)-1] {
		next, has := m[t]
		if !has {
			next = map[string]any{}
			m[t] = next
		}
		if m, ok = next.(map[string]any); !ok {
			return false
		}
	}
	m[toks[len(toks)-1]] = val
	return true
}

// gateSpecEqual compares what decides metadata.generation: the spec of a
// Kubernetes object, else the whole value.
func gateSpecEqual(obj, stored any) bool {
	if gateIsKubeObject(obj) || gateIsKubeObject(stored) {
		a, inA := gateGet(obj, []string{"spec"})
		b, inB := gateGet(stored, []string{"spec"})
		return inA == inB && value.Equal(a, b)
	}
	return value.Equal(obj, stored)
}

func gateIsKubeObject(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, api := m["apiVersion"]
	_, kind := m["kind"]
	return api && kind
}
