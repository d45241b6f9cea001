package gates

// Reading a gates file: the shape and types of each gate (readFile,
// readGate), then the rules across gates (check).

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// gateSource says where a gate came from, for error pointers.
type gateSource struct {
	ptr      string
	stageKey string          // "preRelease" or "prerelease", as written
	present  map[string]bool // keys given with a non-null value
	bad      map[string]bool // keys (or "fieldPaths/K") already reported as malformed
}

type gateChecker struct {
	errs schema.ErrorList
}

func (c *gateChecker) errorf(ptr, format string, a ...any) {
	c.errs = append(c.errs, &schema.Error{Pointer: ptr, Kind: schema.KindGateList, Message: fmt.Sprintf(format, a...)})
}

var gateKeys = []string{"name", "preRelease", "prerelease", "enabled", "default", "fieldPaths", "deprecatedWarning"}

// readFile turns a decoded gates file into gates, reporting what has the
// wrong shape or type; the rules come after, in check.
func (c *gateChecker) readFile(doc any) ([]Gate, []gateSource) {
	base := ""
	items, ok := doc.([]any)
	if m, isMap := doc.(map[string]any); isMap {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if k != "featureGates" && k != "component" {
				c.errorf(pointer.Append("", k), "unknown field (a gates object has featureGates and component)")
			}
		}
		if comp, has := m["component"]; has && comp != nil {
			if _, isStr := comp.(string); !isStr {
				c.errorf("/component", "must be a string, not %s", gateTypeName(comp))
			}
		}
		fg, has := m["featureGates"]
		if !has {
			c.errorf("", "featureGates is missing")
			return nil, nil
		}
		// featureGates: null holds no gates.
		if items, ok = fg.([]any); !ok && fg != nil {
			c.errorf("/featureGates", "must be a list of gates, not %s", gateTypeName(fg))
			return nil, nil
		}
		base = "/featureGates"
	} else if !ok {
		c.errorf("", "a gates file is a list of gates or an object with featureGates")
		return nil, nil
	}
	list := make([]Gate, 0, len(items))
	srcs := make([]gateSource, 0, len(items))
	for i, it := range items {
		g, src := c.readGate(it, pointer.AppendIndex(base, i))
		list = append(list, g)
		srcs = append(srcs, src)
	}
	return list, srcs
}

func (c *gateChecker) readGate(v any, ptr string) (Gate, gateSource) {
	src := gateSource{ptr: ptr, stageKey: "preRelease", present: map[string]bool{}, bad: map[string]bool{}}
	var g Gate
	m, ok := v.(map[string]any)
	if !ok {
		c.errorf(ptr, "a gate must be an object with name, preRelease and fieldPaths")
		src.bad["*"] = true
		return g, src
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(gateKeys, k) {
			c.errorf(pointer.Append(ptr, k), "unknown field (a gate has name, preRelease, enabled, default, fieldPaths and deprecatedWarning)")
		}
	}
	str := func(key string) string {
		x, has := m[key]
		if !has || x == nil {
			return ""
		}
		src.present[key] = true
		s, ok := x.(string)
		if !ok {
			c.errorf(pointer.Append(ptr, key), "must be a string, not %s", gateTypeName(x))
			src.bad[key] = true
		}
		return s
	}
	boolean := func(key string) *bool {
		x, has := m[key]
		if !has || x == nil {
			return nil
		}
		src.present[key] = true
		b, ok := x.(bool)
		if !ok {
			c.errorf(pointer.Append(ptr, key), "must be true or false, not %s", gateDescribe(x))
			src.bad[key] = true
			return nil
		}
		return &b
	}
	g.Name = str("name")
	_, camel := m["preRelease"]
	_, lower := m["prerelease"]
	switch {
	case camel && lower:
		c.errorf(pointer.Append(ptr, "prerelease"), "the stage is given twice, as preRelease and prerelease")
		src.bad["preRelease"] = true
	case lower:
		src.stageKey = "prerelease"
	}
	g.PreRelease = str(src.stageKey)
	if src.bad[src.stageKey] {
		src.bad["preRelease"] = true
	}
	src.present["preRelease"] = src.present[src.stageKey]
	g.Enabled = boolean("enabled")
	g.Default = boolean("default")
	g.DeprecatedWarning = str("deprecatedWarning")
	if x, has := m["fieldPaths"]; has && x != nil {
		src.present["fieldPaths"] = true
		l, ok := x.([]any)
		if !ok {
			c.errorf(pointer.Append(ptr, "fieldPaths"), "must be a list of field paths, not %s", gateTypeName(x))
			src.bad["fieldPaths"] = true
		}
		g.FieldPaths = make([]string, len(l))
		for k, e := range l {
			s, ok := e.(string)
			if !ok {
				c.errorf(pointer.AppendIndex(pointer.Append(ptr, "fieldPaths"), k), "a field path must be a string, not %s", gateTypeName(e))
				src.bad[fmt.Sprintf("fieldPaths/%d", k)] = true
			}
			g.FieldPaths[k] = s
		}
	}
	return g, src
}

// check applies the rules of the design to gates read from a file or built
// in Go, in file order, so that errors come in document order.
func (c *gateChecker) check(list []Gate, srcs []gateSource) {
	names := map[string]string{} // name -> pointer of the gate defining it
	paths := map[string]string{} // JSON pointer -> "GATE (at POINTER)"
	for i, g := range list {
		src := srcs[i]
		if src.bad["*"] {
			continue
		}
		at := func(key string) string { return pointer.Append(src.ptr, key) }
		switch {
		case src.bad["name"]:
		case g.Name == "" && src.present["name"]:
			c.errorf(at("name"), "must not be empty")
		case g.Name == "":
			c.errorf(src.ptr, "name is missing")
		case strings.ContainsAny(g.Name, ",= \t\r\n"):
			c.errorf(at("name"), "%q cannot name a gate: no spaces, \",\" or \"=\" (a gate is switched as NAME=true in a list)", g.Name)
		case names[g.Name] != "":
			c.errorf(at("name"), "gate %q is already defined at %s", g.Name, names[g.Name])
		default:
			names[g.Name] = src.ptr
		}

		stageKnown := false
		switch g.PreRelease {
		case stageAlpha, stageBeta, stageStable, stageDeprecated:
			stageKnown = true
		case "":
			if !src.bad["preRelease"] && !src.present["preRelease"] {
				c.errorf(src.ptr, "preRelease is missing (alpha, beta, stable or deprecated)")
			} else if !src.bad["preRelease"] {
				c.errorf(at(src.stageKey), "must be alpha, beta, stable or deprecated")
			}
		default:
			if !src.bad["preRelease"] {
				c.errorf(at(src.stageKey), "%q is not a stage: use alpha, beta, stable or deprecated", string(g.PreRelease))
			}
		}
		if stageKnown {
			switch {
			case g.PreRelease == stageAlpha && g.Default != nil && *g.Default:
				c.errorf(at("default"), "an alpha gate must default to false")
			case g.PreRelease == stageStable && g.Default != nil && !*g.Default:
				c.errorf(at("default"), "a stable gate must default to true")
			case (g.PreRelease == stageBeta || g.PreRelease == stageDeprecated) && g.Default == nil && !src.bad["default"]:
				c.errorf(src.ptr, "a %s gate needs a default (true or false)", g.PreRelease)
			}
			if g.DeprecatedWarning != "" && g.PreRelease != stageDeprecated {
				c.errorf(at("deprecatedWarning"), "only a deprecated gate has a deprecatedWarning (this one is %s)", g.PreRelease)
			}
		}

		if src.bad["fieldPaths"] {
			continue
		}
		if len(g.FieldPaths) == 0 {
			if src.present["fieldPaths"] {
				c.errorf(at("fieldPaths"), "a gate needs at least one field path")
			} else {
				c.errorf(src.ptr, "fieldPaths is missing (a gate needs at least one field path)")
			}
			continue
		}
		own := map[string]bool{}
		for k, fp := range g.FieldPaths {
			if src.bad[fmt.Sprintf("fieldPaths/%d", k)] {
				continue
			}
			fpPtr := pointer.AppendIndex(at("fieldPaths"), k)
			toks, err := gatePathTokens(fp)
			if err != nil {
				c.errorf(fpPtr, "%v", err)
				continue
			}
			key := pointer.Join(toks...)
			switch {
			case own[key]:
				c.errorf(fpPtr, "%s is listed twice in this gate", fp)
			case paths[key] != "":
				c.errorf(fpPtr, "%s is already gated by %s: a field has one gate at most", fp, paths[key])
			}
			own[key] = true
			if paths[key] == "" && g.Name != "" {
				paths[key] = fmt.Sprintf("%s (at %s)", g.Name, fpPtr)
			} else if paths[key] == "" {
				paths[key] = fmt.Sprintf("the gate at %s", src.ptr)
			}
		}
	}
}

// gateTypeName names a value's JSON type for messages.
func gateTypeName(v any) string { return value.Describe(v, "a list", "an object") }

// gateDescribe shows a scalar in a message (`"yes"`, `1`), else its type.
func gateDescribe(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case fmt.Stringer:
		return x.String()
	}
	return gateTypeName(v)
}
