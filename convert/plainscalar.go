package convert

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/paramkit/paramkit/internal/jsonx"
	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/yamlx"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// plainScalar is a YAML plain scalar (one written without quotes: 007,
// 1.10, yes, 0x1F, ~) that no schema node has typed yet, kept as its text.
//
// Types come from the schema, never from guessing. Where the value lands
// on a node that has a type, that node types the text (007 is "007" on a
// string node and 7 on an integer node). So that the node of a later
// version can still decide, a conversion carries text that no node of the
// source version types as written, through every step and in the property
// bag while it runs. What no node on the way types means what YAML 1.2
// core rules say (Value): that is what every result gives its caller
// (settleResult). The type never leaves the package.
//
// The v1beta1 converter uses it too: v1beta1 meant different things by
// `default: 3` and `default: "3"`.
type plainScalar string

// Value returns what the text means by YAML 1.2 core rules: nil, a
// boolean, an exact json.Number, or a string (also for number text JSON
// cannot hold, such as .inf).
func (p plainScalar) Value() any { return yamlx.Core(string(p)) }

// plainScalarTyper keeps every plain scalar of a YAML document as a
// plainScalar, for the readers that decide types later: the v1beta1
// converter and migration (the node a value lands on decides). Quoted,
// block and explicitly tagged scalars arrive as the Go type they already
// are.
type plainScalarTyper struct{}

func (plainScalarTyper) Scalar(text string) any   { return plainScalar(text) }
func (t plainScalarTyper) Key(string) yamlx.Typer { return t }
func (t plainScalarTyper) Elem(int) yamlx.Typer   { return t }

// decodeDocument reads one YAML or JSON document of values of the version
// s describes, for a conversion (VersionSet.ConvertDocument, lossless
// Migration.MigrateDocument). It reads as params.Decode does (a JSON
// document means exactly what it says; a YAML plain scalar is typed by the
// node of s it lands on), except that a plain scalar no node of s types
// stays a plainScalar, for the node of another version to type. The
// errors are the readers' own (decodeError makes a *schema.Error of
// them, as params.Decode gives).
func decodeDocument(s *schema.Schema, data []byte) (any, error) {
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
		return nil, &schema.Error{Kind: schema.KindSyntax, Message: "the input holds no document"}
	case 1:
		data = parts[0]
	default:
		return nil, fmt.Errorf("doc 1: %w", &schema.Error{Kind: schema.KindSyntax, Message: "more than one document where one was expected"})
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
// none, or it has no type, they stay plainScalar.
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
		return plainScalar(text)
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

// typePlainScalars types the plainScalar values of m, a document read by
// migFastYAML (mappings and scalars only), in place by the nodes under n.
func typePlainScalars(n *schema.Node, m map[string]any, ptr string) error {
	for k, x := range m {
		c := n.Child(k)
		switch t := x.(type) {
		case map[string]any:
			if err := typePlainScalars(c, t, pointer.Append(ptr, k)); err != nil {
				return err
			}
		case plainScalar:
			v := typePlainScalar(c, string(t))
			if num, ok := v.(json.Number); ok {
				if err := number.Check(num); err != nil {
					return &schema.Error{Pointer: pointer.Append(ptr, k), Kind: schema.KindLimit, Message: err.Error()}
				}
			}
			m[k] = v
		}
	}
	return nil
}

// hasPlainScalar reports whether v holds a plainScalar anywhere.
func hasPlainScalar(v any) bool {
	switch t := v.(type) {
	case plainScalar:
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

// plainScalarsMeaning gives v with every plainScalar replaced by what it
// means (YAML 1.2 core rules): a copy when there is any, else v itself.
// Validation sees such plain values, and so does every caller: a result
// settles its text this way (settleResult).
func plainScalarsMeaning(v any) any {
	if !hasPlainScalar(v) {
		return v
	}
	return resolve(v)
}

// settleResult gives every value of r that holds text no node typed on
// the way what the text means by YAML 1.2 core rules (007 is 7, yes is
// "yes", ~ is null), as DESIGN says values are where the schema says
// nothing: the values (the property bag in them too), what was dropped and
// the lossy changes. The text is carried as written only inside a
// conversion, so that a node of a later step can still type it; callers
// see plain values. What holds no text is left as it is (no copy).
func settleResult(r *Result) {
	r.Values = plainScalarsMeaning(r.Values)
	for i := range r.Dropped {
		r.Dropped[i].Value = plainScalarsMeaning(r.Dropped[i].Value)
	}
	for i := range r.Lossy {
		r.Lossy[i].From = plainScalarsMeaning(r.Lossy[i].From)
		r.Lossy[i].To = plainScalarsMeaning(r.Lossy[i].To)
	}
}

// typeUnder types the plainScalar values of v by the nodes under n, as
// decodeDocument reads them: where a node has a type it decides, elsewhere the
// text stays as written. It works in place: v must be the caller's own.
func typeUnder(n *schema.Node, v any) any {
	switch t := v.(type) {
	case plainScalar:
		return typePlainScalar(n, string(t))
	case map[string]any:
		for k, x := range t {
			t[k] = typeUnder(n.Child(k), x)
		}
	case []any:
		for i, x := range t {
			t[i] = typeUnder(n.Elem(i), x)
		}
	}
	return v
}
