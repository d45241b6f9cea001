package params

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/internal/secret"
	"github.com/paramkit/paramkit/schema"
)

// Decode reads exactly one YAML or JSON document, typed by the schema (s
// may be nil: YAML 1.2 core rules then apply). Input that holds no
// document (empty, or blanks and comments only) is refused with an error
// of kind schema.KindSyntax, as DecodeReader refuses it. The errors of
// what is then done with the value (Validate, Update.Run, Undeclared)
// get their lines in data from Locate.
func Decode(s *schema.Schema, data []byte) (any, error) {
	if err := zeroSchema(s); err != nil {
		return nil, err
	}
	// One document without markers is the common case (a document of a
	// stream MapStream cut): it is its own only part, so it is read
	// as one without splitting it first. Anything else (markers, no
	// document, an error, null) goes the way of decodeStream, whose
	// errors say what is wrong.
	if unmarked(data) {
		if d, err := document.Read(data, document.Options{Typer: typer(s)}); err == nil && !d.Empty && d.Value != nil {
			return d.Value, nil
		}
	}
	docs, err := decodeStream(s, data)
	if err != nil {
		return nil, err
	}
	switch len(docs) {
	case 0:
		return nil, errNoDocument()
	case 1:
		return docs[0], nil
	}
	return nil, schema.NewError(schema.KindSyntax, "", "doc 1: more than one document where one was expected")
}

// unmarked reports that no line of data starts with a document marker
// (`---`, `...`), that data opens with no byte-order mark and holds no
// carriage return (a line break that may end a marker line): splitting
// it as a stream gives data itself as the one document, or nothing.
func unmarked(data []byte) bool {
	if bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")) || bytes.IndexByte(data, '\r') >= 0 {
		return false
	}
	for _, m := range []string{"---", "..."} {
		if bytes.HasPrefix(data, []byte(m)) || bytes.Contains(data, []byte("\n"+m)) {
			return false
		}
	}
	return true
}

// decodeStream reads a `---`-separated stream held in memory, for Decode:
// each document that parses as JSON means exactly what it says; the
// others are YAML whose plain scalars take their type from the schema
// node they land on (s may be nil: YAML 1.2 core rules then apply).
func decodeStream(s *schema.Schema, data []byte) ([]any, error) {
	var out []any
	err := document.Each(data, document.Options{Typer: typer(s)}, func(d document.Doc) error {
		out = append(out, d.Value)
		return nil
	})
	if err != nil {
		return nil, decodeError(s, err, len(out))
	}
	return out, nil
}

// typer types plain scalars by s's nodes (nil: YAML 1.2 core rules).
func typer(s *schema.Schema) document.Typer {
	if s == nil {
		return nil
	}
	return typerFor(s.Root())
}

// decodeValidateRaw decodes one document of a stream read from a reader
// and validates it (DecodeReader): its errors carry lines of the whole
// stream and say `doc N:` after the first. An unreadable document gives
// a nil value.
func decodeValidateRaw(s *schema.Schema, d Document[any]) (any, error) {
	doc, err := document.Read(d.Text, document.Options{Typer: typer(s)})
	if err != nil {
		return nil, decodeError(s, d.Locate(schema.ErrorsOf(publicError(err)).Err()), d.Index)
	}
	// A value fresh from the reader is plain, its numbers within range
	// and its strings valid UTF-8: the check Validate makes of Go data a
	// caller built is not needed.
	if err := validateSound(s, doc.Value); err != nil {
		list := schema.ErrorsOf(err)
		locate(d, list)
		// Validation orders by pointer; with lines known the order is by
		// line and column first, as the package schema promises.
		list.Sort()
		if d.Index > 0 {
			return doc.Value, schema.WrapError(fmt.Sprintf("doc %d", d.Index), list.Err())
		}
		return doc.Value, list.Err()
	}
	return doc.Value, nil
}

// locate gives the errors without a line the line and column of their
// pointer in the document's text, as lines of the whole stream.
func locate(d Document[any], list schema.ErrorList) {
	locateIn(d.Text, d.Line, list)
}

// Locate gives each error of l that has no line yet the line and column
// of its pointer in data, the text of the one document the values were
// decoded from (what Decode read), as DecodeReader gives them for a
// document of a stream; then it sorts l (ErrorList.Sort: by line first).
// A pointer that is not in the text (a missing required property, a key
// an update adds) gets the place of its nearest ancestor that is; the
// root pointer keeps no line (the document is the whole file). It
// changes the entries of l in place and leaves them alone when data is
// not one readable document.
//
// It is how a command that reads one file prints `FILE:LINE:` before each
// error: the errors of Validate, of Update.Run and ApplyJSONPatch on
// values decoded from data (their pointers are into the new values,
// located in the old text), and warnings (Result.Warnings, Undeclared):
//
//	v, err := params.Decode(s, data)
//	...
//	l := schema.ErrorsOf(params.Validate(s, v))
//	params.Locate(data, l)
//	for _, e := range schema.ErrorsOf(schema.ErrorIn(file, l.Err())) {
//		fmt.Printf("%s:%d: %s: %s\n", e.File, e.Line, e.Pointer, e.Message)
//	}
func Locate(data []byte, l schema.ErrorList) {
	locateIn(data, 1, l)
	l.Sort()
}

// locateIn gives the errors of list without a line the line and column
// of their pointer in text, a document whose first line is line first of
// its file.
func locateIn(text []byte, first int, list schema.ErrorList) {
	var node *yaml.Node
	for _, e := range list {
		if e == nil || e.Line > 0 || e.Pointer == "" {
			continue // the root is where the document starts
		}
		if node == nil {
			var err error
			if node, err = document.ParseNode(text); err != nil || node == nil {
				return
			}
		}
		// Where the pointer is not in the text (a missing required
		// property), its nearest ancestor's place.
		if line, col, _ := document.Locate(node, e.Pointer); line > 0 {
			e.Line, e.Column = line+first-1, col
		}
	}
}

// decodeError is the reader's error for document i as a *schema.Error,
// with a secret value kept out of its message, and "doc i: " before its
// text past the first document (schema.ErrorIn).
func decodeError(s *schema.Schema, err error, i int) error {
	err = hideValueIn(s, publicError(err))
	if i > 0 {
		return schema.WrapError(fmt.Sprintf("doc %d", i), err)
	}
	return err
}

// hideValueIn keeps a secret value out of a decode error: a message about
// a value at a secret pointer that opens with the value quoted
// (`"x" is not a boolean`) says Hidden there instead.
func hideValueIn(s *schema.Schema, err error) error {
	var de *schema.Error
	if !errors.As(err, &de) || !s.SecretAt(de.Pointer) {
		return err
	}
	if q, qerr := strconv.QuotedPrefix(de.Message); qerr == nil {
		de.Message = secret.Hidden + de.Message[len(q):]
	} else if i := strings.Index(de.Message, " is not "); i > 0 && !strings.Contains(de.Message[:i], " ") {
		de.Message = secret.Hidden + de.Message[i:] // `1e999 is not representable`
	}
	return err
}

// nodeTyper types YAML plain scalars by the schema node they land on.
type nodeTyper struct{ n *schema.Node }

func typerFor(n *schema.Node) document.Typer {
	if n == nil {
		return nil
	}
	return nodeTyper{n}
}

func (t nodeTyper) Scalar(text string) any { return typeScalar(t.n, text) }
func (t nodeTyper) Key(k string) document.Typer {
	return typerFor(t.n.Child(k))
}
func (t nodeTyper) Elem(i int) document.Typer { return typerFor(t.n.Elem(i)) }

// typeScalar gives scalar text the type its node asks for: the YAML 1.2
// core reading when the node allows that type, else the text itself when
// the node allows strings, else the core reading (which validation then
// reports).
//
// Number text beyond the supported range (1e999999999) comes back as that
// json.Number unless the node takes it as a string, so that the caller's
// range check refuses it with a clear message instead of a type mismatch.
func typeScalar(n *schema.Node, text string) any {
	core := document.Core(text)
	if _, isNum, err := number.ParseCore(text); isNum && errors.Is(err, number.ErrTooLarge) {
		if n != nil && n.Types() != nil && n.Allows("string") {
			return text
		}
		return json.Number(text)
	}
	if n == nil {
		return core
	}
	types := n.Types()
	if types == nil {
		return core
	}
	if allowsValue(n, core) {
		return core
	}
	if core == nil && nullableNode(n) {
		// OpenAPI's nullable: true lets a string node hold null, as
		// Kubernetes reads it.
		return nil
	}
	if n.Allows("string") {
		return text
	}
	return core
}

func allowsValue(n *schema.Node, v any) bool {
	switch x := v.(type) {
	case nil:
		return n.Allows("null")
	case bool:
		return n.Allows("boolean")
	case string:
		return n.Allows("string")
	case json.Number:
		if n.Allows("number") {
			return true
		}
		return n.Allows("integer") && isIntegerText(x)
	}
	return false
}

// isIntegerText: text a person would call an integer; 1.0 on an integer
// node is kept as written and validation judges it.
func isIntegerText(n json.Number) bool {
	return !strings.ContainsAny(string(n), ".eE")
}

func nullableNode(n *schema.Node) bool {
	for _, sc := range n.Scope() {
		if sc.Nullable() {
			return true
		}
	}
	return false
}
