package migrate

import (
	"errors"
	"reflect"
	"sync"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// MigrateDocument reads one YAML or JSON document of values of the oldest
// version and migrates it. A JSON document means exactly what it says; the
// plain scalars of a YAML document keep their text until they are placed,
// and the node they land on gives them their type; where no node of the
// way types one, it means what YAML 1.2 core rules say (007 is 7, yes is
// "yes"). In lossless mode the document is read by the oldest version's
// schema (a plain scalar that schema types takes its type there), so that
// the way back gives the same values again. Its Result and error are
// Migrate's; a document that cannot be read gives the zero Result and an
// error (one *schema.Error) that says why.
func (m *Migration) MigrateDocument(data []byte) (Result, error) {
	if e := m.unmade(); e != nil {
		return Result{}, e
	}
	if m.lossless {
		v, err := decodeDocument(m.steps[0].from, data)
		if err != nil {
			return Result{}, readError(err)
		}
		return m.Migrate(v)
	}
	// The top level of a document the fast reader takes is scratch once
	// migrated: the output is built afresh and hooks get a copy. So it is
	// reused, unless the result holds it after all.
	into := migRootPool.Get().(map[string]any)
	v, filled, err := decodeForMigration(data, into)
	if err != nil {
		recycleRoot(into)
		return Result{}, readError(err)
	}
	res, errs := m.run(v, dirUp)
	if !filled || !res.refersTo(into) {
		recycleRoot(into)
	}
	return done(res, errs)
}

// migRootPool keeps top-level maps for MigrateDocument: in a batch they
// are a fifth of the garbage, and fewer collections is what lets a second
// core add most of its worth.
var migRootPool = sync.Pool{New: func() any { return make(map[string]any, 8) }}

// recycleRoot empties a top-level map and gives it back; one grown large
// by an unusual document is left to the collector.
func recycleRoot(m map[string]any) {
	if m == nil || len(m) > 64 {
		return
	}
	clear(m)
	migRootPool.Put(m)
}

// refersTo reports whether the result holds the map m itself (not values
// inside it): the output, or a dropped or lossy value. No path does today
// (outputs are built afresh, dropped values are the input's children);
// the check keeps reusing the input's top level safe if one ever does.
func (r *Result) refersTo(m map[string]any) bool {
	same := func(v any) bool {
		x, ok := v.(map[string]any)
		return ok && reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(m).UnsafePointer()
	}
	if same(r.Values) {
		return true
	}
	for _, d := range r.Dropped {
		if same(d.Value) {
			return true
		}
	}
	for _, l := range r.Lossy {
		if same(l.From) || same(l.To) {
			return true
		}
	}
	return false
}

// decodeForMigration reads a document as plain values, plain scalars
// kept as text. into, when not nil, is an empty map the fast YAML reader
// may fill as the top level; filled says it did and v is into. When
// filled is false, into may still hold part of a document and must be
// emptied before reuse.
func decodeForMigration(data []byte, into map[string]any) (v any, filled bool, err error) {
	d, err := document.Read(data, document.Options{KeepText: true, Into: into})
	if err != nil {
		return nil, false, err
	}
	return d.Value, d.Filled, nil
}

// readError gives the error of reading a document as a *schema.Error: an
// error of the internal readers through schema.ErrorsOf (see
// internal/problem), a *schema.Error as it is, anything else as a syntax
// error with its text.
func readError(err error) *schema.Error {
	var pe *problem.Error
	var se *schema.Error
	if !errors.As(err, &pe) && !errors.As(err, &se) {
		return schema.NewError(schema.KindSyntax, "", "%s", err)
	}
	return schema.ErrorsOf(err)[0]
}

// validate validates the migrated values, with defaults applied to a copy
// and without the property bag, against the plan's target. Errors at a
// pointer that already has a migration error, or below one (other than
// the root), are left out: they repeat it.
func (p *migPlan) validate(v any, known schema.ErrorList) schema.ErrorList {
	s := p.target
	if m, ok := v.(map[string]any); ok {
		if _, has := m[bagKey]; has {
			rest := make(map[string]any, len(m))
			for k, x := range m {
				if k != bagKey {
					rest[k] = x
				}
			}
			v = rest
		}
	}
	var err error
	if p.mayDefault(s.Root(), v) {
		v, err = params.Default(s, v)
	}
	if err == nil {
		err = params.Validate(s, v)
	}
	if err == nil {
		return nil
	}
	var out schema.ErrorList
	var ves schema.ErrorList
	if !problem.As(err, &ves) {
		return schema.ErrorList{{Kind: schema.KindInvalid, Message: err.Error()}}
	}
next:
	for _, ve := range ves {
		for _, k := range known {
			if ve.Pointer == k.Pointer || (k.Pointer != "" && pointer.HasPrefix(ve.Pointer, k.Pointer)) {
				continue next
			}
		}
		out = append(out, ve)
	}
	return out
}

// mayDefault reports whether params.Default could change v: a declared
// property is missing that has a default or could be created from
// defaults below it. It walks v the way Default does, without copying,
// so that documents that need no defaults (most migrated ones) are
// validated as they are. It errs on the side of true.
func (p *migPlan) mayDefault(n *schema.Node, v any) bool {
	if n == nil {
		return false
	}
	switch x := v.(type) {
	case nil:
		return p.defaults[n]
	case map[string]any:
		declared := 0
		for _, sc := range n.Scope() {
			for _, prop := range sc.Properties() {
				declared++
				cur, ok := x[prop.Name()]
				if !ok {
					if p.defaults[prop] {
						return true
					}
					continue
				}
				if p.mayDefault(prop, cur) {
					return true
				}
			}
		}
		if declared < len(x) || declared == 0 {
			for k, e := range x {
				if c := n.Child(k); c != nil && p.mayDefault(c, e) {
					return true
				}
			}
		}
	case []any:
		for i, e := range x {
			if p.mayDefault(n.Elem(i), e) {
				return true
			}
		}
	}
	return false
}

// findDefaults marks every node that has a default, or something with a
// default below it (through properties, items, additional and pattern
// properties, $ref and allOf, and branches), so that a missing value
// there could be created by Default.
func findDefaults(s *schema.Schema) map[*schema.Node]bool {
	var nodes []*schema.Node
	s.Walk(func(n *schema.Node) bool {
		nodes = append(nodes, n)
		return true
	})
	out := map[*schema.Node]bool{}
	// A fixed point: recursive schemas reach their defaults through cycles.
	for changed := true; changed; {
		changed = false
		for _, n := range nodes {
			if out[n] {
				continue
			}
			has := false
			for _, sc := range n.Scope() {
				if sc.HasDefault() || (sc != n && out[sc]) {
					has = true
					break
				}
				for _, c := range sc.Subschemas() {
					if out[c] {
						has = true
						break
					}
				}
			}
			if has {
				out[n] = true
				changed = true
			}
		}
	}
	return out
}
