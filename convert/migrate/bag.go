package migrate

import (
	"fmt"
	"sort"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/propbag"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// bagKey is the property bag's key (see the package documentation).
const bagKey = propbag.Key

type bagLayer struct {
	step  string
	dir   migDir
	patch []bagPatch
}

// bagPatch makes the value at ptr what it was.
type bagPatch struct {
	ptr      string
	value    any
	hasValue bool // false: the value was absent
	was      any
	hasWas   bool // false: the generated values have nothing there
}

// convertStep converts one document through one step. In lossless mode it
// pops this step's layer when the document came from the other side of
// the step, and pushes one holding what the conversion back would not
// restore by itself.
func (m *Migration) convertStep(st *migStep, d migDir, v any, final bool) (any, *migTrace) {
	// Text no node types is carried as written where the input's text is
	// all such (keepText), and the Result settles it; otherwise the last
	// step types it all.
	final = final && !m.keepText
	if !m.lossless {
		return m.generate(st, d, v, final, true)
	}
	vals, stack, err := splitBag(v)
	if err != nil {
		if !m.total {
			return v, &migTrace{errors: schema.ErrorList{err}}
		}
		vals, stack = stripBag(v), nil // a total conversion goes on without it
	}
	var popped *bagLayer
	if n := len(stack); n > 0 && stack[n-1].step == st.id && stack[n-1].dir == d.opposite() {
		popped = &stack[n-1]
		stack = stack[:n-1]
	}
	out, tr := m.generate(st, d, vals, final, true)
	if popped != nil {
		p, _ := st.plan(d)
		out = applyPatch(out, popped.patch, p.target)
	}
	back, _ := m.generate(st, d.opposite(), out, final, false)
	if patch := bagDiff(vals, back); len(patch) > 0 {
		stack = append(stack, bagLayer{step: st.id, dir: d, patch: patch})
	}
	if len(stack) > 0 {
		om, ok := out.(map[string]any)
		if !ok {
			tr.errors = append(tr.errors, &schema.Error{Kind: schema.KindType, Message: fmt.Sprintf("the values are %s, not an object, so the property bag cannot be kept: the conversion is not lossless", typeOfValue(out))})
			return out, tr
		}
		om[bagKey] = encodeBag(stack)
	}
	return out, tr
}

// generate runs the generated conversion of a step, then its hook.
func (m *Migration) generate(st *migStep, d migDir, v any, final, report bool) (any, *migTrace) {
	p, source := st.plan(d)
	out, tr := p.run(v, source, final, m.allowLossy, m.lossless, m.total, report)
	h := st.hook(d)
	if h == nil {
		return out, tr
	}
	var sn = source
	from := value.DeepCopy(v)
	if sn != nil {
		from = migResolve(sn.Root(), from)
	} else {
		from = migResolve(nil, from)
	}
	if !final {
		out = migResolve(p.target.Root(), out)
	}
	res, err := h(from, out)
	if err != nil {
		me, ok := err.(*schema.Error)
		switch {
		case !ok:
			me = schema.NewError(schema.KindInvalid, "", "hook: %w", err)
		case me.Kind == "":
			c := *me // a hook's own Error without a Kind: never an empty one
			c.Kind = schema.KindInvalid
			me = &c
		}
		tr.errors = append(tr.errors, me)
		return out, tr
	}
	return res, tr
}

// splitBag takes the bag off a document (without changing it).
func splitBag(v any) (any, []bagLayer, *schema.Error) {
	m, ok := v.(map[string]any)
	if !ok {
		return v, nil, nil
	}
	raw, ok := m[bagKey]
	if !ok {
		return v, nil, nil
	}
	rest := make(map[string]any, len(m)-1)
	for k, x := range m {
		if k != bagKey {
			rest[k] = x
		}
	}
	stack, err := decodeBag(raw)
	if err != nil {
		return v, nil, &schema.Error{Pointer: pointer.Append("", bagKey), Kind: schema.KindInvalid, Message: "malformed property bag: " + err.Error()}
	}
	return rest, stack, nil
}

func encodeBag(stack []bagLayer) []any {
	out := make([]any, len(stack))
	for i, l := range stack {
		ps := make([]any, len(l.patch))
		for j, p := range l.patch {
			e := map[string]any{"pointer": p.ptr}
			if p.hasValue {
				e["value"] = value.DeepCopy(p.value)
			}
			if p.hasWas {
				e["was"] = value.DeepCopy(p.was)
			}
			ps[j] = e
		}
		out[i] = map[string]any{"step": l.step, "dir": l.dir.String(), "patch": ps}
	}
	return out
}

func decodeBag(raw any) ([]bagLayer, error) {
	list, ok := raw.([]any)
	if !ok {
		return nil, fmt.Errorf("expected a list of layers, not %s", typeOfValue(raw))
	}
	out := make([]bagLayer, 0, len(list))
	for i, x := range list {
		lm, ok := x.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("layer %d is %s, not an object", i, typeOfValue(x))
		}
		step, _ := textValue(lm["step"])
		dir, _ := textValue(lm["dir"])
		if step == "" || (dir != "up" && dir != "down") {
			return nil, fmt.Errorf("layer %d needs a step and a dir (up or down)", i)
		}
		l := bagLayer{step: step, dir: dirUp}
		if dir == "down" {
			l.dir = dirDown
		}
		ps, ok := lm["patch"].([]any)
		if !ok {
			return nil, fmt.Errorf("layer %d needs a patch list", i)
		}
		for j, px := range ps {
			pm, ok := px.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("layer %d, patch %d is not an object", i, j)
			}
			ptr, ok := textValue(pm["pointer"])
			if _, err := pointer.Split(ptr); !ok || err != nil {
				return nil, fmt.Errorf("layer %d, patch %d needs a JSON pointer", i, j)
			}
			p := bagPatch{ptr: ptr}
			p.value, p.hasValue = pm["value"]
			p.was, p.hasWas = pm["was"]
			l.patch = append(l.patch, p)
		}
		out = append(out, l)
	}
	return out, nil
}

// textValue reads a field that holds text (a bag's step and pointers, an
// object's kind): a string, or the same text read by decodeDocument where
// no node types it.
func textValue(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case plainScalar:
		return string(t), true
	}
	return "", false
}

// bagDiff lists how to turn got into want: the highest pointers where they
// differ, exactly (number text, types, plainScalar text as written),
// sorted. It walks objects and arrays of the same length itself, so that
// what it compares as a whole holds text only where the two differ in
// shape anyway.
func bagDiff(want, got any) []bagPatch {
	var out []bagPatch
	var walk func(w, g any, p string)
	walk = func(w, g any, p string) {
		wm, wok := w.(map[string]any)
		gm, gok := g.(map[string]any)
		if wok && gok {
			for k, wv := range wm {
				kp := pointer.Append(p, k)
				if gv, ok := gm[k]; ok {
					walk(wv, gv, kp)
				} else {
					out = append(out, bagPatch{ptr: kp, value: wv, hasValue: true})
				}
			}
			for k, gv := range gm {
				if _, ok := wm[k]; !ok {
					out = append(out, bagPatch{ptr: pointer.Append(p, k), was: gv, hasWas: true})
				}
			}
			return
		}
		wa, wok := w.([]any)
		ga, gok := g.([]any)
		if wok && gok && len(wa) == len(ga) {
			for i := range wa {
				walk(wa[i], ga[i], pointer.AppendIndex(p, i))
			}
			return
		}
		if !identicalLeaf(w, g) {
			out = append(out, bagPatch{ptr: p, value: w, hasValue: true, was: g, hasWas: true})
		}
	}
	walk(want, got, "")
	sort.Slice(out, func(i, j int) bool { return out[i].ptr < out[j].ptr })
	return out
}

// applyPatch applies the entries whose "was" still holds to v, values of
// the version s describes. Text is compared by what it means there and
// restored typed by its node, as decodeDocument would read it (see bagKey).
func applyPatch(v any, patch []bagPatch, s *schema.Schema) any {
	for _, p := range patch {
		cur, ok := pointer.Get(v, p.ptr)
		if p.hasWas != ok {
			continue // changed meanwhile: the change wins
		}
		var n *schema.Node
		if ok || p.hasValue {
			n = s.Lookup(p.ptr)
		}
		if ok && !value.Identical(meaningAt(n, cur), meaningAt(n, p.was)) {
			continue
		}
		if p.hasValue {
			v = setPointer(v, p.ptr, typeUnder(n, value.DeepCopy(p.value)))
		} else {
			v = deletePointer(v, p.ptr)
		}
	}
	return v
}

// setPointer sets the value at p, creating missing objects on the way; it
// leaves v unchanged where the way is blocked.
func setPointer(v any, p string, x any) any {
	toks, err := pointer.Split(p)
	if err != nil {
		return v
	}
	if len(toks) == 0 {
		return x
	}
	if v == nil {
		v = map[string]any{}
	}
	cur := v
	for i, t := range toks {
		last := i == len(toks)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				c[t] = x
				return v
			}
			next, ok := c[t]
			if !ok {
				next = map[string]any{}
				c[t] = next
			}
			cur = next
		case []any:
			idx, err := pointer.Index(t, len(c))
			if err != nil {
				return v
			}
			if last {
				c[idx] = x
				return v
			}
			cur = c[idx]
		default:
			return v
		}
	}
	return v
}

func deletePointer(v any, p string) any {
	toks, err := pointer.Split(p)
	if err != nil || len(toks) == 0 {
		return v
	}
	parent, ok := pointer.Get(v, pointer.Join(toks[:len(toks)-1]...))
	if !ok {
		return v
	}
	if m, ok := parent.(map[string]any); ok {
		delete(m, toks[len(toks)-1])
	}
	return v
}

// identicalLeaf compares two values exactly, as value.Identical does
// (numbers by their text, so that a round trip that turns 2.0 into 2 is
// not the identity); a plainScalar is identical only to the same text.
func identicalLeaf(a, b any) bool {
	x, aText := a.(plainScalar)
	y, bText := b.(plainScalar)
	if aText || bText {
		return aText && bText && x == y
	}
	return value.Identical(a, b)
}

// meaningAt gives what v means under node n: its text typed by the node,
// YAML 1.2 core rules where none types it.
func meaningAt(n *schema.Node, v any) any {
	if !hasPlainScalar(v) {
		return v
	}
	return migResolve(n, v)
}
