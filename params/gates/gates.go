package gates

import (
	"fmt"
	"slices"
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// The pre-release stages a gate may be in (Gate.PreRelease), as a gates
// file writes them.
const (
	stageAlpha      = "alpha"
	stageBeta       = "beta"
	stageStable     = "stable"
	stageDeprecated = "deprecated"
)

// The reasons for a gate's effective state (Status.Reason).
const (
	reasonExplicit = "explicit" // the gate's enabled field decides
	reasonDefault  = "default"  // enabled is unset and the gate's default decides
	reasonStage    = "stage"    // the pre-release stage decides
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
	// PreRelease is the gate's stage (the file's preRelease, or
	// prerelease): "alpha", "beta", "stable" or "deprecated".
	PreRelease string
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
	// Reason says what decided Effective: "explicit" (the gate's enabled
	// field), "default" (enabled is unset and the gate's default decides)
	// or "stage" (the pre-release stage: stable is always on; otherwise,
	// with neither enabled nor default set, off).
	Reason string
	// IneffectiveBecause names the parent gates (in file order) that are
	// off: the fields below their paths follow them, not this gate. Empty
	// when every parent gate is on.
	IneffectiveBecause []string
	// Warnings are notes for the person reading the gates, about the gate
	// itself (Pointer ""): a deprecated gate's warning (kind
	// schema.KindDeprecated), an enabled: false that a stable gate ignores
	// (kind schema.KindGateEffect). Read their Message.
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
// schema.ErrorList with every problem (kind schema.KindGateList), in file
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
		return nil, c.errs.Err()
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
		return nil, c.errs.Err()
	}
	return newGates(cp), nil
}

// Status returns every gate, in file order, with its effective state
// (none for a nil or zero Set).
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
func gateEffective(g Gate) (bool, string) {
	switch {
	case g.PreRelease == stageStable:
		return true, reasonStage
	case g.Enabled != nil:
		return *g.Enabled, reasonExplicit
	case g.Default != nil:
		return *g.Default, reasonDefault
	}
	return false, reasonStage
}

// newGates builds the ready form of checked gates.
func newGates(list []Gate) *Set {
	g := &Set{status: make([]Status, len(list))}
	for i, gate := range list {
		on, why := gateEffective(gate)
		st := Status{Gate: gate, Effective: on, Reason: why, IneffectiveBecause: []string{}, Warnings: []*schema.Error{}}
		if gate.PreRelease == stageDeprecated {
			st.Warnings = append(st.Warnings, schema.NewError(schema.KindDeprecated, "", "%s", gateDeprecation(gate)))
		}
		if gate.PreRelease == stageStable && gate.Enabled != nil && !*gate.Enabled {
			st.Warnings = append(st.Warnings, schema.NewError(schema.KindGateEffect, "", "enabled: false has no effect: a stable gate is always on"))
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
