package convert

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/internal/jsonx"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/internal/yamlx"
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
// the way back gives the same values again. A document that cannot be
// read gives a Result whose only error says why.
func (m *Migration) MigrateDocument(data []byte) Result {
	var v any
	var err error
	if m.lossless {
		v, err = decodeDocument(m.steps[0].from, data)
	} else {
		v, err = decodeForMigration(data)
	}
	if err != nil {
		return Result{Errors: []*MigrationError{readError(err)}}
	}
	return m.Migrate(v)
}

func decodeForMigration(data []byte) (any, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		v, err := jsonx.Decode(t)
		if err == nil {
			return v, nil
		}
		var le *jsonx.LimitError
		if errors.As(err, &le) {
			return nil, err
		}
	}
	if v, ok := migFastYAML(data); ok {
		return v, nil
	}
	node, err := yamlx.ParseNode(data)
	if err != nil {
		return nil, err
	}
	return yamlx.ToValue(node, plainScalarTyper{})
}

func readError(err error) *MigrationError {
	var ye *yamlx.Error
	if errors.As(err, &ye) {
		e := &MigrationError{Pointer: ye.Pointer, Line: ye.Line, Message: ye.Msg}
		// The YAML parser puts the line into its message.
		var line int
		var rest string
		if n, _ := fmt.Sscanf(ye.Msg, "line %d:", &line); n == 1 && e.Line == 0 {
			if i := strings.IndexByte(ye.Msg, ':'); i >= 0 {
				rest = strings.TrimSpace(ye.Msg[i+1:])
			}
			e.Line, e.Message = line, rest
		}
		return e
	}
	var le *jsonx.LimitError
	if errors.As(err, &le) {
		return &MigrationError{Pointer: le.Pointer, Message: le.Msg}
	}
	var de *params.DecodeError
	if errors.As(err, &de) {
		return &MigrationError{Pointer: de.Pointer, Line: de.Line, Message: de.Message}
	}
	return &MigrationError{Message: err.Error()}
}

// validate validates the migrated values, with defaults applied to a copy
// and without the property bag, against the plan's target. Errors at a
// pointer that already has a migration error, or below one (other than
// the root), are left out: they repeat it.
func (p *migPlan) validate(v any, known []*MigrationError) []*MigrationError {
	s := p.target
	if m, ok := v.(map[string]any); ok {
		if _, has := m[BagKey]; has {
			rest := make(map[string]any, len(m))
			for k, x := range m {
				if k != BagKey {
					rest[k] = x
				}
			}
			v = rest
		}
	}
	if p.mayDefault(s.Root(), v) {
		v = params.Default(s, value.DeepCopy(v))
	}
	err := params.Validate(s, v)
	if err == nil {
		return nil
	}
	var out []*MigrationError
	var ves schema.ValidationErrors
	if !errors.As(err, &ves) {
		return []*MigrationError{{Message: err.Error()}}
	}
next:
	for _, ve := range ves {
		for _, k := range known {
			if ve.Pointer == k.Pointer || (k.Pointer != "" && pointer.HasPrefix(ve.Pointer, k.Pointer)) {
				continue next
			}
		}
		out = append(out, &MigrationError{Pointer: ve.Pointer, Message: ve.Message})
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
			for _, prop := range sc.Properties {
				declared++
				cur, ok := x[prop.Name]
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
				if sc.HasDefault || (sc != n && out[sc]) {
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
