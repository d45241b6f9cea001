package helmvalues

import (
	"fmt"
	"strings"
)

// Chart is a chart with its subcharts as Helm's value handling sees it:
// pkg/chart/v2/util (ProcessDependencies) and pkg/chart/common/util
// (CoalesceValues, ValidateAgainstSchema) of helm.sh/helm/v4@v4.3.1.
type Chart struct {
	// Name is the chart's name in its parent: the key its values sit
	// under (the dependency's alias where it has one).
	Name string
	// Dir is the chart's folder relative to the top chart ("" for the
	// top chart itself, "charts/common" for a subchart).
	Dir string
	// Values are its values.yaml as Read reads them.
	Values map[string]any
	// Schema is the text of its values.schema.json; nil when none.
	Schema []byte
	// Deps are the dependencies Chart.yaml lists; nil when it lists none
	// (Helm then keeps every subchart and merges nothing).
	Deps []Dep
	// Subs are the subcharts in its charts/ folder. After Process, the
	// enabled ones, renamed to their alias.
	Subs []*Chart
}

// Dep is one entry of Chart.yaml's dependencies.
type Dep struct {
	Name, Alias, Condition string
	Tags                   []string
	ImportValues           []any
	enabled                bool
}

// Missing lists the dependencies of c's Chart.yaml that are not in its
// charts/ folder: helm template refuses the chart (before Process, which
// skips them).
func Missing(c *Chart) []string {
	var out []string
	for _, d := range c.Deps {
		found := false
		for _, s := range c.Subs {
			found = found || s.Name == d.Name
		}
		if !found {
			out = append(out, d.Name)
		}
	}
	return out
}

// Process does what Helm's ProcessDependencies does with the user
// values: subcharts paired with the dependencies (renamed to an alias),
// those disabled by tags or a condition dropped, and each chart's values
// replaced by its values merged with its subcharts' and their
// import-values. It changes c.
func Process(c *Chart, user map[string]any) error {
	if err := processEnabled(c, user, ""); err != nil {
		return err
	}
	return processImports(c)
}

func processEnabled(c *Chart, v map[string]any, path string) error {
	if c.Deps == nil {
		return nil
	}
	var subs []*Chart
	for _, s := range c.Subs {
		listed := false
		for _, d := range c.Deps {
			listed = listed || s.Name == d.Name
		}
		if !listed {
			subs = append(subs, s)
		}
	}
	for i := range c.Deps {
		d := &c.Deps[i]
		for _, s := range c.Subs {
			if s.Name == d.Name {
				cp := *s
				cp.Subs = append([]*Chart(nil), s.Subs...)
				cp.Deps = append([]Dep(nil), s.Deps...)
				if d.Alias != "" {
					cp.Name = d.Alias
				}
				subs = append(subs, &cp)
				break
			}
		}
		if d.Alias != "" {
			d.Name = d.Alias
		}
	}
	c.Subs = subs
	for i := range c.Deps {
		c.Deps[i].enabled = true
	}
	cvals, err := CoalesceChart(c, v)
	if err != nil {
		return err
	}
	if tags, ok := cvals["tags"].(map[string]any); ok {
		for i := range c.Deps {
			d := &c.Deps[i]
			hasTrue, hasFalse := false, false
			for _, k := range d.Tags {
				if b, ok := tags[k].(bool); ok {
					hasTrue = hasTrue || b
					hasFalse = hasFalse || !b
				}
			}
			d.enabled = !(!hasTrue && hasFalse)
		}
	}
	for i := range c.Deps {
		d := &c.Deps[i]
		for cond := range strings.SplitSeq(strings.TrimSpace(d.Condition), ",") {
			if cond == "" {
				continue
			}
			if b, ok := pathValue(cvals, path+cond).(bool); ok {
				d.enabled = b
				break
			}
		}
	}
	off := map[string]bool{}
	var deps []Dep
	for _, d := range c.Deps {
		if d.enabled {
			deps = append(deps, d)
		} else {
			off[d.Name] = true
		}
	}
	var kept []*Chart
	for _, s := range c.Subs {
		if !off[s.Name] {
			kept = append(kept, s)
		}
	}
	for _, s := range kept {
		if err := processEnabled(s, cvals, path+s.Name+"."); err != nil {
			return err
		}
	}
	if deps == nil {
		deps = []Dep{}
	}
	c.Deps, c.Subs = deps, kept
	return nil
}

// pathValue is Helm's Values.PathValue: the non-table value at a dotted
// path, nil when there is none.
func pathValue(v map[string]any, path string) any {
	keys := strings.Split(path, ".")
	t := v
	for _, k := range keys[:len(keys)-1] {
		next, ok := t[k].(map[string]any)
		if !ok {
			return nil
		}
		t = next
	}
	x, ok := t[keys[len(keys)-1]]
	if !ok || isTable(x) {
		return nil
	}
	return x
}

func table(v map[string]any, path string) (map[string]any, bool) {
	t := v
	for _, k := range strings.Split(path, ".") {
		next, ok := t[k].(map[string]any)
		if !ok {
			return nil, false
		}
		t = next
	}
	return t, true
}

func processImports(c *Chart) error {
	for _, s := range c.Subs {
		if err := processImports(s); err != nil {
			return err
		}
	}
	if c.Deps == nil {
		return nil
	}
	cvals, err := coalesce(c, map[string]any{}, true)
	if err != nil {
		return err
	}
	b := map[string]any{}
	for _, d := range c.Deps {
		for _, iv := range d.ImportValues {
			switch iv := iv.(type) {
			case map[string]any:
				child, parent := fmt.Sprintf("%v", iv["child"]), fmt.Sprintf("%v", iv["parent"])
				if vv, ok := table(cvals, d.Name+"."+child); ok {
					b = coalesceTablesMerge(b, pathToMap(parent, deepCopy(vv).(map[string]any)), true)
				}
			case string:
				if vv, ok := table(cvals, d.Name+".exports."+iv); ok {
					b = coalesceTablesMerge(b, deepCopy(vv).(map[string]any), true)
				}
			}
		}
	}
	c.Values = coalesceTablesMerge(deepCopy(cvals).(map[string]any), b, true)
	return nil
}

func pathToMap(path string, data map[string]any) map[string]any {
	if path == "." {
		return data
	}
	keys := strings.Split(path, ".")
	cur := data
	for i := len(keys) - 1; i >= 0; i-- {
		cur = map[string]any{keys[i]: cur}
	}
	return cur
}

// CoalesceChart is Helm's CoalesceValues for a chart with subcharts: the
// user values over the chart's, then each subchart's values (with the
// parent's globals) under its name. Neither c nor vals is changed.
func CoalesceChart(c *Chart, vals map[string]any) (map[string]any, error) {
	v, _ := deepCopy(vals).(map[string]any)
	if v == nil {
		v = map[string]any{}
	}
	return coalesce(c, v, false)
}

func coalesce(c *Chart, dest map[string]any, merge bool) (map[string]any, error) {
	coalesceValues(c, dest, merge)
	for _, sub := range c.Subs {
		cv, ok := dest[sub.Name]
		if !ok {
			cv = map[string]any{}
			dest[sub.Name] = cv
		}
		dv, ok := cv.(map[string]any)
		if !ok {
			return dest, fmt.Errorf("chart dependencies processing failed: type mismatch on %s: the values of subchart %s must be a map, not %s", sub.Name, sub.Name, jsonKind(cv))
		}
		coalesceGlobals(dv, dest)
		var err error
		if dest[sub.Name], err = coalesce(sub, dv, merge); err != nil {
			return dest, err
		}
	}
	return dest, nil
}

func coalesceGlobals(dest, src map[string]any) {
	var dg, sg map[string]any
	if g, ok := dest["global"]; !ok {
		dg = map[string]any{}
	} else if dg, ok = g.(map[string]any); !ok {
		return
	}
	if g, ok := src["global"]; !ok {
		sg = map[string]any{}
	} else if sg, ok = g.(map[string]any); !ok {
		return
	}
	for key, val := range sg {
		if vm, ok := val.(map[string]any); ok {
			vv := make(map[string]any, len(vm))
			for k, x := range vm {
				vv[k] = x
			}
			if destv, ok := dg[key]; !ok {
				dg[key] = vv
			} else if destvmap, ok := destv.(map[string]any); ok {
				coalesceTablesMerge(vv, destvmap, true)
				dg[key] = vv
			}
		} else if dv, ok := dg[key]; ok && isTable(dv) {
			continue
		} else {
			dg[key] = val
		}
	}
	dest["global"] = dg
}

func coalesceValues(c *Chart, v map[string]any, merge bool) {
	vc, _ := deepCopy(c.Values).(map[string]any)
	coalesceOwned(&Chart{Name: c.Name, Values: vc, Subs: c.Subs}, v, merge)
}

// coalesceOwned is coalesceValues with c.Values given up: its maps become
// v's, changed.
func coalesceOwned(c *Chart, v map[string]any, merge bool) {
	vc := c.Values
	for key, val := range vc {
		if value, ok := v[key]; ok {
			if value == nil && !merge {
				delete(v, key)
			} else if dest, ok := value.(map[string]any); ok {
				if src, ok := val.(map[string]any); ok {
					m := merge
					for _, s := range c.Subs {
						m = m || s.Name == key
					}
					if !m {
						cleanNilValues(src)
					}
					coalesceTablesMerge(dest, src, m)
				}
			}
			continue
		}
		if !merge {
			if val == nil {
				continue
			}
			if sub, ok := val.(map[string]any); ok {
				cleanNilValues(sub)
			}
		}
		v[key] = val
	}
}

// coalesceTablesMerge is Helm's coalesceTablesFullKey.
func coalesceTablesMerge(dst, src map[string]any, merge bool) map[string]any {
	if src == nil {
		return dst
	}
	if dst == nil {
		return src
	}
	srcNonNil := map[string]bool{}
	for k, v := range src {
		if v != nil {
			srcNonNil[k] = true
		}
	}
	for k, v := range dst {
		if v == nil {
			src[k] = nil
		}
	}
	for k, val := range src {
		dv, ok := dst[k]
		switch {
		case ok && !merge && dv == nil && srcNonNil[k]:
			delete(dst, k)
		case !ok:
			dst[k] = val
		case isTable(val):
			if isTable(dv) {
				coalesceTablesMerge(dv.(map[string]any), val.(map[string]any), merge)
			}
		}
	}
	return dst
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case []any:
		return "a list"
	}
	return "a number"
}
