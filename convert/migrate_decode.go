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

// migText is a YAML plain scalar read for migration: its source text,
// kept until the value is placed, so that the node it lands on decides its
// type (007 stays "007" on a string node and is 7 on an integer node).
type migText string

// migTyper keeps every plain scalar as migText.
type migTyper struct{}

func (migTyper) Scalar(text string) any   { return migText(text) }
func (t migTyper) Key(string) yamlx.Typer { return t }
func (t migTyper) Elem(int) yamlx.Typer   { return t }

// MigrateDocument reads one YAML or JSON document of values of the oldest
// version and migrates it. A JSON document means exactly what it says; the
// plain scalars of a YAML document keep their text until they are placed,
// and the node they land on gives them their type. In lossless mode the
// document is typed by the oldest version's schema instead, so that it
// comes back exactly. A document that cannot be read gives a Result whose
// only error says why.
func (m *Migration) MigrateDocument(data []byte) Result {
	var v any
	var err error
	if m.lossless {
		v, err = params.Decode(m.steps[0].from, data)
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
	return yamlx.ToValue(node, migTyper{})
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

// validateMigrated validates the migrated values, with defaults applied to
// a copy and without the property bag, against the target. Errors at a
// pointer that already has a migration error, or below one (other than
// the root), are left out: they repeat it.
func validateMigrated(s *schema.Schema, v any, known []*MigrationError) []*MigrationError {
	v = value.DeepCopy(v)
	if m, ok := v.(map[string]any); ok {
		delete(m, BagKey)
	}
	v = params.Default(s, v)
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
