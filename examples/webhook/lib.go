package webhook

import (
	"fmt"
	"sort"
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// This file is the seam between the webhook and the paramkit packages that
// are still being written in parallel (update pipeline, triggers,
// conversion, migration). Each function here is what the webhook needs;
// when the library function lands, its body becomes a call to it.

// defaultPlan is the plan a change runs when no trigger names another.
const defaultPlan = "deploy"

// upgradePlan is the plan an operator-version upgrade runs when the
// operator version declares it.
const upgradePlan = "upgrade"

// loadSchema reads a schema file: a v1beta2 schema, or (once conversion
// exists) a v1beta1 params.yaml or OperatorVersion converted on the fly.
func loadSchema(data []byte) (*schema.Schema, error) {
	return schema.Parse(data)
}

// checkSchema refuses a schema the webhook cannot work with: semantic
// faults such as a trigger under a different trigger.
func checkSchema(s *schema.Schema) error {
	var errs []string
	s.Walk(func(n *schema.Node) bool {
		if n.Trigger == "" {
			return true
		}
		for p := n.Parent; p != nil; p = p.Parent {
			if p.Trigger != "" && p.Trigger != n.Trigger {
				errs = append(errs, fmt.Sprintf("%s: trigger %q differs from the trigger %q of %s above it", n.Pointer, n.Trigger, p.Trigger, displayPointer(p.Pointer)))
				break
			}
		}
		return true
	})
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// unwrapText types a v1beta1 text value by the schema node it lands on.
func unwrapText(n *schema.Node, text string) any {
	v, _ := params.ParseText(n, text)
	return v
}

// immutableViolations lists the value pointers where an immutable part of
// the schema differs between old and new (both defaulted).
func immutableViolations(s *schema.Schema, old, new any) []string {
	var out []string
	var visit func(n *schema.Node, o any, oOK bool, v any, vOK bool, ptr string)
	visit = func(n *schema.Node, o any, oOK bool, v any, vOK bool, ptr string) {
		if n == nil {
			return
		}
		if isImmutable(n) {
			if oOK != vOK || !value.Equal(o, v) {
				out = append(out, ptr)
			}
			return
		}
		om, _ := o.(map[string]any)
		vm, _ := v.(map[string]any)
		if om != nil || vm != nil {
			keys := map[string]bool{}
			for k := range om {
				keys[k] = true
			}
			for k := range vm {
				keys[k] = true
			}
			for k := range keys {
				ox, ook := om[k]
				vx, vok := vm[k]
				visit(n.Child(k), ox, ook, vx, vok, pointer.Append(ptr, k))
			}
			return
		}
		oa, _ := o.([]any)
		va, _ := v.([]any)
		for i := 0; i < max(len(oa), len(va)); i++ {
			var ox, vx any
			ook, vok := i < len(oa), i < len(va)
			if ook {
				ox = oa[i]
			}
			if vok {
				vx = va[i]
			}
			visit(n.Elem(i), ox, ook, vx, vok, pointer.AppendIndex(ptr, i))
		}
	}
	visit(s.Root(), old, old != nil, new, new != nil, "")
	sort.Strings(out)
	return out
}

func isImmutable(n *schema.Node) bool {
	for _, m := range n.Scope() {
		if m.Immutable {
			return true
		}
	}
	return false
}

// resolvePlan maps changed value pointers to the plans they trigger: the
// nearest trigger at or above each pointer, else deploy. It returns the
// plans with the pointers that trigger each.
func resolvePlan(s *schema.Schema, changed []string) map[string][]string {
	out := map[string][]string{}
	for _, p := range changed {
		plan := defaultPlan
		toks, _ := pointer.Split(p)
		for i := len(toks); i >= 0; i-- {
			if t := triggerOf(s.Lookup(pointer.Join(toks[:i]...))); t != "" {
				plan = t
				break
			}
		}
		out[plan] = append(out[plan], p)
	}
	return out
}

func triggerOf(n *schema.Node) string {
	if n == nil {
		return ""
	}
	for _, m := range n.Scope() {
		if m.Trigger != "" {
			return m.Trigger
		}
	}
	return ""
}

// migration is the outcome of moving values from one operator version's
// schema to the next by oldName.
type migration struct {
	values  any
	dropped []string // "POINTER: value" for each value that maps nowhere
}

// migrate moves values of the old operator version into the places the
// new schema gives them by oldName. Values whose path the new schema
// declares unchanged are carried over; the rest are reported as dropped.
func migrate(oldS, newS *schema.Schema, v any) (migration, error) {
	m, ok := v.(map[string]any)
	if !ok {
		if v == nil {
			return migration{values: nil}, nil
		}
		return migration{}, fmt.Errorf("the parameters are %s, not an object", aType(v))
	}
	out := map[string]any{}
	used := map[string]bool{}
	var place func(n *schema.Node, ptr string, into map[string]any)
	place = func(n *schema.Node, ptr string, into map[string]any) {
		for _, sc := range n.Scope() {
			for _, p := range sc.Properties {
				if _, done := into[p.Name]; done {
					continue
				}
				for _, old := range p.OldNames {
					if x, ok := m[old]; ok && !used[old] {
						into[p.Name] = value.DeepCopy(x)
						used[old] = true
						break
					}
				}
				if _, done := into[p.Name]; done {
					continue
				}
				if len(p.Properties) > 0 {
					sub := map[string]any{}
					place(p, pointer.Append(ptr, p.Name), sub)
					if len(sub) > 0 {
						into[p.Name] = sub
					}
				}
			}
		}
	}
	place(newS.Root(), "", out)
	var dropped []string
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if used[k] {
			continue
		}
		if newS.Root().Child(k) != nil {
			if _, taken := out[k]; !taken {
				out[k] = value.DeepCopy(m[k])
				continue
			}
		}
		dropped = append(dropped, pointer.Append("", k))
	}
	return migration{values: out, dropped: dropped}, nil
}

func displayPointer(p string) string {
	if p == "" {
		return `""`
	}
	return p
}
