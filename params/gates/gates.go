package gates

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// Stage is a gate's pre-release stage.
type Stage string

// The pre-release stages a gate may be in.
const (
	StageAlpha      Stage = "alpha"
	StageBeta       Stage = "beta"
	StageStable     Stage = "stable"
	StageDeprecated Stage = "deprecated"
)

// Reason says what decided a gate's effective state (Status.Reason).
type Reason string

// Reasons for a gate's effective state, as Status.Reason gives them.
const (
	// ReasonExplicit: the gate's enabled field decides.
	ReasonExplicit Reason = "explicit"
	// ReasonDefault: enabled is unset and the gate's default decides.
	ReasonDefault Reason = "default"
	// ReasonStage: the pre-release stage decides (stable is always on;
	// otherwise, with neither enabled nor default set, off).
	ReasonStage Reason = "stage"
)

// Gate is one field-level feature gate as a gates file writes it, after
// the CRD feature-gate design (crd-field-level-feature-gates.md): a gate
// names the fields it guards, and a field whose gate is off is not
// persisted unless it was stored already (see Set.Apply).
//
// Field paths. A field path is written either dotted, `.spec.replicas`, or
// as an RFC 6901 JSON pointer, `/spec/replicas`; both name object fields
// from the root of the object, and `.a.b` is the pointer `/a/b`. In the
// dotted form `~` and `/` are ordinary characters (escaped when the path
// becomes a pointer) and `\` escapes `.`, `\`, `[`, `]` and `*`:
// `.metadata.annotations.example\.com/gated` is
// `/metadata/annotations/example.com~1gated`. JSONPath's indexes, brackets
// and wildcards are refused, as are the root itself and empty field names.
// Two paths are the same field when they name the same pointer.
//
// Every token names an object key: a path whose walk meets an array, a
// scalar or a missing key before its end names nothing in that object, and
// the gate has nothing to do there. Whatever lies below a gated field
// (objects, arrays, maps) belongs to it and is gated as one value.
//
// Parent gates. A gate P is a parent of a gate C when one of P's paths is a
// proper prefix, token by token, of one of C's (`/spec/foo` is a parent of
// `/spec/foo/qux`, not of `/spec/foobar`). A path of C counts only when
// every gate with a path above it is on; when one is off, the highest such
// path decides for everything below it.
type Gate struct {
	// Name identifies the gate.
	Name string
	// PreRelease is the gate's stage (the file's preRelease, or prerelease).
	PreRelease Stage
	// Enabled is the operator's choice; nil when unset.
	Enabled *bool
	// Default is the state when Enabled is unset; nil when unset (alpha
	// then defaults to false, stable to true; beta and deprecated gates
	// must set it).
	Default *bool
	// FieldPaths are the fields the gate guards, as written
	// (`.spec.replicas` or `/spec/replicas`).
	FieldPaths []string
	// DeprecatedWarning is the warning a deprecated gate gives on every
	// update that touches its fields; empty gives a standard one.
	DeprecatedWarning string
}

// Status is a gate with its effective state.
type Status struct {
	Gate
	// Effective is whether the gate is on, from Enabled, then Default, then
	// the stage; a stable gate is on whatever Enabled says.
	Effective bool
	// Reason says what decided Effective: ReasonExplicit, ReasonDefault or
	// ReasonStage.
	Reason Reason
	// IneffectiveBecause names the parent gates (in file order) that are
	// off: the fields below their paths follow them, not this gate. Empty
	// when every parent gate is on.
	IneffectiveBecause []string
	// Warnings are notes for the person reading the gates, about the gate
	// itself (Pointer ""): a deprecated gate's warning (kind
	// schema.KindDeprecated), an enabled: false that a stable gate ignores
	// (kind schema.KindGate). Read their Message.
	Warnings []*schema.Error
}

// Set is a checked list of gates, ready to apply. Build one with
// Parse or New; it is not modified afterwards and is safe for
// concurrent use.
type Set struct {
	status []Status
	paths  []gatedPath // every field path of every gate
	// off holds the indexes into paths of the highest paths whose gate is
	// off: below them, the stored object decides.
	off []int
}

type gatedPath struct {
	toks []string
	ptr  string // the JSON pointer the path names
	gate int
}

// Parse reads a gates file: YAML or JSON holding a list of gates, or
// an object with `featureGates` (the list) and optionally `component`. A
// gate has `name`, `preRelease` (or `prerelease`), `enabled`, `default`,
// `fieldPaths` and, for a deprecated gate, `deprecatedWarning`; `null`
// means unset.
//
// The rules: a gate's name is unique in the file and has no spaces, "," or
// "="; its stage is alpha, beta, stable or deprecated; enabled and default
// are booleans; an alpha gate defaults to false and a stable one to true
// (when they say), a beta or deprecated gate must say; it has at least one
// field path, each well formed (see Gate) and naming a field no other path
// of any gate names; deprecatedWarning belongs to deprecated gates only.
// Unknown fields are refused, so that a misspelt `enable` cannot pass
// unnoticed.
//
// Input that is not YAML or JSON gives a *schema.Error of kind
// schema.KindSyntax or schema.KindLimit; gates that break the rules give a
// schema.ErrorList with every problem (kind schema.KindGate), in file
// order, each with its JSON pointer into the file.
func Parse(data []byte) (*Set, error) {
	doc, err := params.Decode(nil, data)
	if err != nil {
		return nil, err
	}
	var c gateChecker
	list, srcs := c.readFile(doc)
	c.check(list, srcs)
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	return newGates(list), nil
}

// New checks gates built in Go by the rules Parse applies; the
// pointers of its errors index the list (`/0/name`). It copies the list.
func New(list []Gate) (*Set, error) {
	srcs := make([]gateSource, len(list))
	cp := make([]Gate, len(list))
	for i, g := range list {
		cp[i] = copyGate(g)
		srcs[i] = gateSource{ptr: pointer.AppendIndex("", i), stageKey: "preRelease", present: map[string]bool{
			"name":       g.Name != "",
			"preRelease": g.PreRelease != "",
			"fieldPaths": g.FieldPaths != nil,
		}}
	}
	var c gateChecker
	c.check(cp, srcs)
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	return newGates(cp), nil
}

// Status returns every gate, in file order, with its effective state.
func (g *Set) Status() []Status {
	if g == nil {
		return []Status{}
	}
	out := make([]Status, len(g.status))
	for i, s := range g.status {
		s.Gate = copyGate(s.Gate)
		s.IneffectiveBecause = append([]string{}, s.IneffectiveBecause...)
		s.Warnings = copyWarnings(s.Warnings)
		out[i] = s
	}
	return out
}

// copyWarnings copies the list and its entries, so that a caller that
// edits what Status returned changes nothing of the Set's.
func copyWarnings(ws []*schema.Error) []*schema.Error {
	out := make([]*schema.Error, len(ws))
	for i, w := range ws {
		c := *w
		out[i] = &c
	}
	return out
}

func copyGate(g Gate) Gate {
	if g.Enabled != nil {
		b := *g.Enabled
		g.Enabled = &b
	}
	if g.Default != nil {
		b := *g.Default
		g.Default = &b
	}
	if g.FieldPaths != nil {
		g.FieldPaths = append([]string{}, g.FieldPaths...)
	}
	return g
}

// gateEffective decides a checked gate's state: enabled, then default,
// then the stage. Stable is on whatever enabled says. Without enabled or
// default, alpha is off, and so would beta be (the document adopts "beta
// off by default", kubernetes/enhancements#3137), but a checked beta or
// deprecated gate always has a default.
func gateEffective(g Gate) (bool, Reason) {
	switch {
	case g.PreRelease == StageStable:
		return true, ReasonStage
	case g.Enabled != nil:
		return *g.Enabled, ReasonExplicit
	case g.Default != nil:
		return *g.Default, ReasonDefault
	}
	return false, ReasonStage
}

// newGates builds the ready form of checked gates.
func newGates(list []Gate) *Set {
	g := &Set{status: make([]Status, len(list))}
	for i, gate := range list {
		on, why := gateEffective(gate)
		st := Status{Gate: gate, Effective: on, Reason: why, IneffectiveBecause: []string{}, Warnings: []*schema.Error{}}
		if gate.PreRelease == StageDeprecated {
			st.Warnings = append(st.Warnings, schema.NewError(schema.KindDeprecated, "", "%s", gateDeprecation(gate)))
		}
		if gate.PreRelease == StageStable && gate.Enabled != nil && !*gate.Enabled {
			st.Warnings = append(st.Warnings, schema.NewError(schema.KindGate, "", "enabled: false has no effect: a stable gate is always on"))
		}
		g.status[i] = st
		for _, fp := range gate.FieldPaths {
			toks, _ := gatePathTokens(fp) // checked already
			g.paths = append(g.paths, gatedPath{toks: toks, ptr: pointer.Join(toks...), gate: i})
		}
	}
	// Parents come from the proper prefixes of each path: field paths are
	// unique, so each prefix belongs to one gate at most.
	owner := make(map[string]int, len(g.paths))
	for _, p := range g.paths {
		owner[p.ptr] = p.gate
	}
	parents := make([][]int, len(list)) // child gate -> parent gates that are off
	for i, p := range g.paths {
		offAbove := false
		prefix := ""
		for _, t := range p.toks[:len(p.toks)-1] {
			prefix = pointer.Append(prefix, t)
			q, ok := owner[prefix]
			if !ok || g.status[q].Effective {
				continue
			}
			offAbove = true
			if q != p.gate && !slices.Contains(parents[p.gate], q) {
				parents[p.gate] = append(parents[p.gate], q)
			}
		}
		if !g.status[p.gate].Effective && !offAbove {
			g.off = append(g.off, i)
		}
	}
	for c, ps := range parents {
		slices.Sort(ps) // file order
		for _, p := range ps {
			g.status[c].IneffectiveBecause = append(g.status[c].IneffectiveBecause, g.status[p].Name)
		}
	}
	return g
}

func gateDeprecation(g Gate) string {
	if g.DeprecatedWarning != "" {
		return g.DeprecatedWarning
	}
	return fmt.Sprintf("feature gate %s is deprecated", g.Name)
}

// gatePathTokens parses a gate's field path into the object keys it names
// (see the package notes on field paths above).
func gatePathTokens(p string) ([]string, error) {
	switch {
	case p == "":
		return nil, fmt.Errorf("a field path must not be empty")
	case p == "." || p == "/":
		return nil, fmt.Errorf("%q names the whole object, which cannot be gated", p)
	case p[0] == '/':
		toks, err := pointer.Split(p)
		if err != nil {
			return nil, err
		}
		for _, t := range toks {
			if t == "" {
				return nil, fmt.Errorf("%q has an empty field name", p)
			}
		}
		return toks, nil
	case p[0] == '.':
		return gateDottedTokens(p)
	}
	return nil, fmt.Errorf("%q must start with \".\" (a field path such as .spec.replicas) or \"/\" (a JSON pointer such as /spec/replicas)", p)
}

// gateDottedTokens splits `.a.b\.c` into ["a", "b.c"].
func gateDottedTokens(p string) ([]string, error) {
	var toks []string
	var cur strings.Builder
	end := func() error {
		if cur.Len() == 0 {
			return fmt.Errorf("%q has an empty field name", p)
		}
		toks = append(toks, cur.String())
		cur.Reset()
		return nil
	}
	for i := 1; i < len(p); i++ {
		switch c := p[i]; c {
		case '\\':
			if i+1 >= len(p) || !strings.ContainsRune(`.\[]*`, rune(p[i+1])) {
				return nil, fmt.Errorf("%q: a backslash escapes only . \\ [ ] or *", p)
			}
			i++
			cur.WriteByte(p[i])
		case '.':
			if err := end(); err != nil {
				return nil, err
			}
		case '[', ']', '*':
			return nil, fmt.Errorf("%q: indexes, brackets and wildcards are not supported (write \\%c for the character itself, or use a JSON pointer)", p, c)
		default:
			cur.WriteByte(c)
		}
	}
	if err := end(); err != nil {
		return nil, err
	}
	return toks, nil
}

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
	c.errs = append(c.errs, &schema.Error{Pointer: ptr, Kind: schema.KindGate, Message: fmt.Sprintf(format, a...)})
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
	g.PreRelease = Stage(str(src.stageKey))
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
		case StageAlpha, StageBeta, StageStable, StageDeprecated:
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
			case g.PreRelease == StageAlpha && g.Default != nil && *g.Default:
				c.errorf(at("default"), "an alpha gate must default to false")
			case g.PreRelease == StageStable && g.Default != nil && !*g.Default:
				c.errorf(at("default"), "a stable gate must default to true")
			case (g.PreRelease == StageBeta || g.PreRelease == StageDeprecated) && g.Default == nil && !src.bad["default"]:
				c.errorf(src.ptr, "a %s gate needs a default (true or false)", g.PreRelease)
			}
			if g.DeprecatedWarning != "" && g.PreRelease != StageDeprecated {
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
