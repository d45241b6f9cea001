package convert

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/jsonx"
	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/internal/yamlx"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// PlainScalar is a YAML plain scalar (one written without quotes: 007,
// 1.10, yes, 0x1F, ~) that no schema node has typed, kept exactly as it
// was written.
//
// Types come from the schema, never from guessing. Where the value lands
// on a node that has a type, that node types the text (007 is "007" on a
// string node and 7 on an integer node). Where no node types it, such as
// under a key the schema does not declare or inside a free-form object,
// the text means what YAML 1.2 core rules say (Value), and it is carried
// as written: through every step of a conversion, in the property bag
// (BagKey) and in Dropped reports. A conversion back, or a later version
// whose schema does type it, so still sees what its author wrote, and a
// YAML writer can write it back unchanged. JSON has no untyped scalars:
// MarshalJSON writes what the text means.
//
// Decode and Migration.MigrateDocument read it; Migration,
// VersionSet.Convert and VersionSet.ConvertObject carry it, and their
// Result.Values and Dropped values hold it wherever no node typed it.
type PlainScalar string

// Value returns what the text means by YAML 1.2 core rules: nil, a
// boolean, an exact json.Number, or a string (also for number text JSON
// cannot hold, such as .inf).
func (p PlainScalar) Value() any { return yamlx.Core(string(p)) }

// MarshalJSON writes what the text means (Value): JSON has no plain
// scalars.
func (p PlainScalar) MarshalJSON() ([]byte, error) { return encode.JSON(p.Value(), nil, ""), nil }

// plainScalarTyper keeps every plain scalar of a YAML document as a
// PlainScalar, for the readers that decide types later: the v1beta1
// converter (v1beta1 meant different things by `default: 3` and
// `default: "3"`) and migration (the node a value lands on decides).
// Quoted, block and explicitly tagged scalars arrive as the Go type they
// already are.
type plainScalarTyper struct{}

func (plainScalarTyper) Scalar(text string) any   { return PlainScalar(text) }
func (t plainScalarTyper) Key(string) yamlx.Typer { return t }
func (t plainScalarTyper) Elem(int) yamlx.Typer   { return t }

// Decode reads one YAML or JSON document of values of the version s
// describes, for a conversion (VersionSet.Convert, ConvertObject,
// Migration.Migrate and Down). It reads as params.Decode does (a JSON
// document means exactly what it says; a YAML plain scalar is typed by the
// node of s it lands on), except that a plain scalar no node of s types
// stays a PlainScalar: a conversion carries it as written, to the node of
// another version that types it, or else unchanged. Errors are
// *params.DecodeError, as params.Decode gives.
func Decode(s *schema.Schema, data []byte) (any, error) {
	v, err := decodeTyped(s, data)
	if err != nil {
		return nil, decodeError(err)
	}
	return v, nil
}

// decodeTyped is Decode with the readers' own errors.
func decodeTyped(s *schema.Schema, data []byte) (any, error) {
	var root *schema.Node
	if s != nil {
		root = s.Root()
	}
	if v, done, err := decodeJSON(data, false); done {
		return v, err
	}
	// One document, as params.Decode wants it.
	parts := yamlx.SplitDocuments(data)
	switch len(parts) {
	case 0:
		return nil, &params.DecodeError{Message: "the input holds no document"}
	case 1:
		data = parts[0]
	default:
		return nil, &params.DecodeError{Document: 1, Message: "more than one document where one was expected"}
	}
	if v, done, err := decodeJSON(data, true); done {
		return v, err
	}
	if v, ok := migFastYAML(data); ok {
		// Fresh maps, no aliases: typed in place.
		if err := typePlainScalars(root, v, ""); err != nil {
			return nil, err
		}
		return v, nil
	}
	node, err := yamlx.ParseNode(data)
	if err != nil {
		return nil, err
	}
	// The typer types each place of the document as it is read, aliases
	// too, each where it lands.
	return yamlx.ToValue(node, schemaTyper{root})
}

// decodeJSON reads data as JSON when it is: done is false when it is not
// (it is YAML then). As in params.Decode, the whole input is tried only
// when it is an object or an array, and a single document whatever it is
// (-0 alone means what JSON says).
func decodeJSON(data []byte, scalars bool) (v any, done bool, err error) {
	t := bytes.TrimSpace(data)
	if len(t) == 0 || (!scalars && t[0] != '{' && t[0] != '[') {
		return nil, false, nil
	}
	v, err = jsonx.Decode(t)
	if err == nil {
		return v, true, nil
	}
	var le *jsonx.LimitError
	if errors.As(err, &le) {
		return nil, true, err
	}
	return nil, false, nil
}

// schemaTyper types plain scalars by the node they land on; where there is
// none, or it has no type, they stay PlainScalar.
type schemaTyper struct{ n *schema.Node }

func (t schemaTyper) Scalar(text string) any { return typePlainScalar(t.n, text) }
func (t schemaTyper) Key(k string) yamlx.Typer {
	if t.n == nil {
		return t
	}
	return schemaTyper{t.n.Child(k)}
}
func (t schemaTyper) Elem(i int) yamlx.Typer {
	if t.n == nil {
		return t
	}
	return schemaTyper{t.n.Elem(i)}
}

// typePlainScalar types plain scalar text by its node as params.Decode
// does, and keeps it as written where the node has no type. Number text
// beyond the supported range comes back as a json.Number (unless the node
// takes strings) so that the reader refuses it, as params.Decode does.
func typePlainScalar(n *schema.Node, text string) any {
	typed := n != nil && n.Types() != nil
	if _, isNum, err := number.ParseCore(text); isNum && errors.Is(err, number.ErrTooLarge) {
		if typed && n.Allows("string") {
			return text
		}
		return json.Number(text)
	}
	if !typed {
		return PlainScalar(text)
	}
	if yamlx.Core(text) == nil && nullable(n) {
		// OpenAPI's nullable lets a string node hold null, as Kubernetes
		// (and params.Decode) reads it; ParseText reads text values,
		// where ~ on a string node is "~".
		return nil
	}
	v, _ := params.ParseText(n, text) // a misfit is validation's to report
	return v
}

func nullable(n *schema.Node) bool {
	for _, sc := range n.Scope() {
		if sc.Nullable {
			return true
		}
	}
	return false
}

// typePlainScalars types the PlainScalar values of m, a document read by
// migFastYAML (mappings and scalars only), in place by the nodes under n.
func typePlainScalars(n *schema.Node, m map[string]any, ptr string) error {
	for k, x := range m {
		var c *schema.Node
		if n != nil {
			c = n.Child(k)
		}
		switch t := x.(type) {
		case map[string]any:
			if err := typePlainScalars(c, t, pointer.Append(ptr, k)); err != nil {
				return err
			}
		case PlainScalar:
			v := typePlainScalar(c, string(t))
			if num, ok := v.(json.Number); ok {
				if err := number.Check(num); err != nil {
					return &params.DecodeError{Pointer: pointer.Append(ptr, k), Message: err.Error()}
				}
			}
			m[k] = v
		}
	}
	return nil
}

// hasPlainScalar reports whether v holds a PlainScalar anywhere.
func hasPlainScalar(v any) bool {
	switch t := v.(type) {
	case PlainScalar:
		return true
	case map[string]any:
		for _, x := range t {
			if hasPlainScalar(x) {
				return true
			}
		}
	case []any:
		for _, x := range t {
			if hasPlainScalar(x) {
				return true
			}
		}
	}
	return false
}

// plainScalarsMeaning gives v with every PlainScalar replaced by what it
// means (YAML 1.2 core rules), for validation, which sees plain values: a
// copy when there is any, else v itself.
func plainScalarsMeaning(v any) any {
	if !hasPlainScalar(v) {
		return v
	}
	return migResolve(nil, v)
}

// droppedAsWritten returns the value a Dropped report gives for d, a
// value dropped from src (d.Pointer is in src's coordinates): as it was
// in src when it holds PlainScalar text, else d.Value. The report carries
// it without a schema to interpret it, so it keeps what was written
// (placing a dropped value types its text by YAML 1.2 core rules; the
// check makes sure that this is the only difference).
func droppedAsWritten(src any, d Dropped) any {
	raw, ok := pointer.Get(src, d.Pointer)
	if !ok || !hasPlainScalar(raw) || !value.Identical(migResolve(nil, raw), d.Value) {
		return d.Value
	}
	return value.DeepCopy(raw)
}

// typeUnder types the PlainScalar values of v by the nodes under n, as
// Decode reads them: where a node has a type it decides, elsewhere the
// text stays as written. It works in place: v must be the caller's own.
func typeUnder(n *schema.Node, v any) any {
	switch t := v.(type) {
	case PlainScalar:
		return typePlainScalar(n, string(t))
	case map[string]any:
		for k, x := range t {
			var c *schema.Node
			if n != nil {
				c = n.Child(k)
			}
			t[k] = typeUnder(c, x)
		}
	case []any:
		for i, x := range t {
			var c *schema.Node
			if n != nil {
				c = n.Elem(i)
			}
			t[i] = typeUnder(c, x)
		}
	}
	return v
}
