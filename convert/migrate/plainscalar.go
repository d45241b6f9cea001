package migrate

import (
	"encoding/json"
	"errors"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/number"
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
// The v1beta1 converter (package convert) reads the same document.Text:
// v1beta1 meant different things by `default: 3` and `default: "3"`.
type plainScalar = document.Text

// decodeDocument reads one YAML or JSON document of values of the version
// s describes, for a conversion (VersionSet.ConvertDocument, lossless
// Migration.MigrateDocument). It reads as params.Decode does (a JSON
// document means exactly what it says; a YAML plain scalar is typed by the
// node of s it lands on), except that a plain scalar no node of s types
// stays a plainScalar, for the node of another version to type. The
// errors are *schema.Error values, as params.Decode gives.
func decodeDocument(s *schema.Schema, data []byte) (any, error) {
	var root *schema.Node
	if s != nil {
		root = s.Root()
	}
	// One document, as params.Decode wants it.
	docs, err := document.ReadStream(data, document.Options{Typer: schemaTyper{root}})
	if err != nil {
		if len(docs) > 0 {
			return nil, errMoreThanOne()
		}
		return nil, readError(err)
	}
	switch len(docs) {
	case 0:
		return nil, schema.NewError(schema.KindSyntax, "", "the input holds no document")
	case 1:
		return docs[0].Value, nil
	}
	return nil, errMoreThanOne()
}

// errMoreThanOne is the error params.Decode gives for a stream (a new one
// each time: callers may change the message of what they are given).
func errMoreThanOne() error {
	return schema.NewError(schema.KindSyntax, "", "doc 1: more than one document where one was expected")
}

// schemaTyper types plain scalars by the node they land on; where there is
// none, or it has no type, they stay plainScalar.
type schemaTyper struct{ n *schema.Node }

func (t schemaTyper) Scalar(text string) any { return typePlainScalar(t.n, text) }
func (t schemaTyper) Key(k string) document.Typer {
	if t.n == nil {
		return t
	}
	return schemaTyper{t.n.Child(k)}
}
func (t schemaTyper) Elem(i int) document.Typer {
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
	if document.Core(text) == nil && nullable(n) {
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
		if sc.Nullable() {
			return true
		}
	}
	return false
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
	return document.Resolve(v)
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
