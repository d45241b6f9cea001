package params

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/paramkit/paramkit/internal/jsonx"
	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/internal/secret"
	"github.com/paramkit/paramkit/internal/stream"
	"github.com/paramkit/paramkit/internal/yamlx"
	"github.com/paramkit/paramkit/schema"
)

// Document is one decoded document of a stream.
type Document struct {
	// Index is the document's position in the stream, from 0.
	Index int
	// Line is the line of the stream where the document's text starts,
	// from 1.
	Line int
	// Value is the decoded value.
	Value any
	// JSON is true when the document was JSON text (which means exactly
	// what it says) rather than YAML (whose plain scalars take their type
	// from the schema).
	JSON bool
}

// Decode reads exactly one YAML or JSON document, typed by the schema (s
// may be nil: YAML 1.2 core rules then apply).
func Decode(s *schema.Schema, data []byte) (any, error) {
	docs, err := DecodeStream(s, data)
	if err != nil {
		return nil, err
	}
	switch len(docs) {
	case 0:
		return nil, &schema.Error{Kind: schema.KindSyntax, Message: "the input holds no document"}
	case 1:
		return docs[0].Value, nil
	}
	return nil, fmt.Errorf("doc 1: %w", &schema.Error{Kind: schema.KindSyntax, Message: "more than one document where one was expected"})
}

// DecodeStream reads a `---`-separated stream. Each document that parses
// as JSON means exactly what it says; the others are YAML whose plain
// scalars take their type from the schema node they land on (s may be nil:
// YAML 1.2 core rules then apply).
func DecodeStream(s *schema.Schema, data []byte) ([]Document, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		// Fast path: one JSON document, the common case for webhooks and APIs.
		if v, err := jsonx.Decode(t); err == nil {
			return []Document{{Line: 1, Value: v, JSON: true}}, nil
		}
	}
	sp := stream.SplitBytes(data)
	var out []Document
	for {
		d, err := sp.Next()
		if err != nil { // io.EOF: a bytes.Reader fails in no other way
			return out, nil
		}
		doc, err := decodeRaw(s, RawDocument(d))
		if err != nil {
			return nil, err
		}
		out = append(out, doc)
	}
}

// decodeRaw decodes one document of a stream; its error says `doc N:`
// after the first and carries lines of the whole stream.
func decodeRaw(s *schema.Schema, d RawDocument) (Document, error) {
	v, isJSON, err := decodeOne(s, d.Text)
	if err != nil {
		if err = d.Locate(err); d.Index > 0 {
			// Where in the stream: the error is still a *schema.Error
			// to errors.As.
			return Document{}, fmt.Errorf("doc %d: %w", d.Index, err)
		}
		return Document{}, err
	}
	return Document{Index: d.Index, Line: d.Line, Value: v, JSON: isJSON}, nil
}

func decodeOne(s *schema.Schema, data []byte) (any, bool, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 {
		v, err := jsonx.Decode(t)
		if err == nil {
			return v, true, nil
		}
		var le *jsonx.LimitError
		if errors.As(err, &le) {
			return nil, true, &schema.Error{Pointer: le.Pointer, Kind: schema.KindLimit, Message: le.Msg}
		}
	}
	node, err := yamlx.ParseNode(data)
	if err != nil {
		return nil, false, yamlError(err)
	}
	var t yamlx.Typer
	if s != nil {
		t = typerFor(s.Root())
	}
	v, err := yamlx.ToValue(node, t)
	if err != nil {
		return nil, false, hideValueIn(s, yamlError(err))
	}
	return v, false, nil
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

func yamlError(err error) error {
	var ye *yamlx.Error
	if errors.As(err, &ye) {
		return &schema.Error{Line: ye.Line, Pointer: ye.Pointer, Kind: schema.KindSyntax, Message: ye.Msg}
	}
	return &schema.Error{Kind: schema.KindSyntax, Message: err.Error()}
}

// nodeTyper types YAML plain scalars by the schema node they land on.
type nodeTyper struct{ n *schema.Node }

func typerFor(n *schema.Node) yamlx.Typer {
	if n == nil {
		return nil
	}
	return nodeTyper{n}
}

func (t nodeTyper) Scalar(text string) any { return typeScalar(t.n, text) }
func (t nodeTyper) Key(k string) yamlx.Typer {
	return typerFor(t.n.Child(k))
}
func (t nodeTyper) Elem(i int) yamlx.Typer { return typerFor(t.n.Elem(i)) }

// typeScalar gives scalar text the type its node asks for: the YAML 1.2
// core reading when the node allows that type, else the text itself when
// the node allows strings, else the core reading (which validation then
// reports).
//
// Number text beyond the supported range (1e999999999) comes back as that
// json.Number unless the node takes it as a string, so that the caller's
// range check refuses it with a clear message instead of a type mismatch.
func typeScalar(n *schema.Node, text string) any {
	core := yamlx.Core(text)
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
		if sc.Nullable {
			return true
		}
	}
	return false
}
