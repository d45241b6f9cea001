// Package document is paramkit's one reader of YAML and JSON documents.
// Every package reads documents through it, so that they all detect the
// format, keep key order and number text, apply the limits and report
// syntax errors the same way.
//
// A document whose text parses as JSON means exactly what it says. Any
// other document is YAML: its plain scalars (written without quotes) are
// typed by a Typer (the schema node they land on), by the YAML 1.2 core
// schema, or, in the text-keeping mode, kept as Text for a later node to
// type. Numbers are json.Number with their exact text. Errors are
// *problem.Error of kind problem.Syntax or problem.Limit, with the line
// and column an editor shows.
//
// Read and ReadStream are the entry points. The parts they are built of
// serve the readers of text that is not a whole document: DecodeJSON (a
// JSON value without reflection, limits checked), ParseNode and ToValue
// (a YAML node tree, typed by a Typer), ParseFlow (the terse flow
// collections KUDO users wrote), Locate (the line of a JSON pointer) and
// Split (a `---` stream).
package document

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/problem"
)

// Limits on input, the same for JSON and YAML (package schema's doc,
// "Limits on input").
const (
	// MaxDocumentBytes bounds one document's text: a 100 MB string is
	// refused before the parser spends seconds and memory on it.
	MaxDocumentBytes = 32 << 20
	// MaxDepth bounds the nesting of arrays and objects.
	MaxDepth = 1000
	// MaxNodes bounds the values one YAML document expands to, counting
	// each expansion of an alias again, so that alias bombs stop early.
	MaxNodes = 1_000_000
)

// Text is a YAML plain scalar (007, 1.10, yes, ~) that no Typer typed,
// kept as written in the text-keeping mode so that a schema node can
// decide its type later.
type Text string

// Value returns what the text means by YAML 1.2 core rules: nil, a
// boolean, an exact json.Number, or a string.
func (t Text) Value() any { return Core(string(t)) }

// Options say how to read.
type Options struct {
	// Typer types plain scalars; nil means the YAML 1.2 core schema (or
	// Text, with KeepText).
	Typer Typer
	// KeepText keeps plain scalars that no Typer types as Text.
	KeepText bool
	// Order records the source order of every object's keys in Doc.Order.
	Order bool
	// Into, when not nil, is an empty map that the fast path may fill as
	// the top level (Doc.Filled then says so). When it does not, Into may
	// hold part of a document and must be cleared before reuse.
	Into map[string]any
}

// Doc is one document read.
type Doc struct {
	// Value is the document's value (nil for an empty document).
	Value any
	// JSON is true when the text was JSON, which means exactly what it says.
	JSON bool
	// Empty is true when the document holds nothing but blanks and comments.
	Empty bool
	// Order is the source order of object keys by JSON pointer of the
	// object, when Options.Order asked for it.
	Order map[string][]string
	// Filled is true when Value is Options.Into.
	Filled bool
	// Line is the line of the stream where the document starts (Each).
	Line int
}

// Read reads exactly one document. A leading `---` is allowed; a second
// document is an error. A document holding only blanks and comments is
// Empty.
func Read(data []byte, o Options) (Doc, error) {
	if len(data) > MaxDocumentBytes {
		return Doc{}, sizeError(len(data))
	}
	trimmed := bytes.Trim(data, " \t\r\n") // JSON white space only: "\v0" is not JSON
	if len(trimmed) == 0 {
		return Doc{Empty: true}, nil
	}
	var jerr error
	if mayBeJSON(trimmed) {
		v, err := DecodeJSON(trimmed)
		if err == nil {
			d := Doc{Value: v, JSON: true}
			if o.Order {
				d.Order = jsonKeyOrder(trimmed)
			}
			return d, nil
		}
		var le *JSONLimitError
		if errors.As(err, &le) {
			kind := problem.Limit
			if le.Duplicate {
				kind = problem.Syntax
			}
			return Doc{}, &problem.Error{Kind: kind, Pointer: le.Pointer, Message: le.Msg}
		}
		jerr = err
	}
	if !o.Order {
		if v, ok := fastYAMLInto(data, o.Into); ok {
			if o.Typer != nil || !o.KeepText {
				if err := typeMap(v, typerOf(o)); err != nil {
					err.Pointer = pointer.Abbrev(err.Pointer)
					return Doc{}, err
				}
			}
			return Doc{Value: v, Filled: o.Into != nil}, nil
		}
	}
	node, err := ParseNode(data)
	if err != nil {
		return Doc{}, yamlError(data, err, jerr)
	}
	if node == nil {
		return Doc{Empty: true}, nil
	}
	v, err := ToValue(node, typerOf(o))
	if err != nil {
		return Doc{}, yamlError(data, err, nil)
	}
	d := Doc{Value: v}
	if o.Order {
		d.Order = NodeKeyOrder(node)
	}
	return d, nil
}

// ReadStream reads a `---` stream. Input whose first byte opens a JSON
// object or array and that is one JSON document is that document; any
// other input is split into documents, each read as Read does (so each
// document that is JSON text means what it says). Documents holding only
// blanks and comments are left out. On an error the documents read
// before it come back with it: the failing one is number len(docs).
// Error lines count from the start of the stream.
func ReadStream(data []byte, o Options) ([]Doc, error) {
	var out []Doc
	err := Each(data, o, func(d Doc) error {
		out = append(out, d)
		return nil
	})
	return out, err
}

// Each reads a stream as ReadStream does and calls fn with each document
// in order, without collecting them. It stops at the first error, the
// reader's or fn's.
func Each(data []byte, o Options, fn func(Doc) error) error {
	if opensJSON(data) && len(data) <= MaxDocumentBytes {
		t := bytes.Trim(data, " \t\r\n")
		if v, err := DecodeJSON(t); err == nil {
			d := Doc{Value: v, JSON: true, Line: 1}
			if o.Order {
				d.Order = jsonKeyOrder(t)
			}
			return fn(d)
		}
	}
	o.Into = nil
	for _, p := range Split(data) {
		d, err := Read(p.Text, o)
		if err != nil {
			var pe *problem.Error
			if errors.As(err, &pe) && pe.Line > 0 {
				pe.Line += p.Line - 1 // a line of the stream, not of the document
			}
			return err
		}
		d.Line = p.Line
		if err := fn(d); err != nil {
			return err
		}
	}
	return nil
}

// typerOf is the Typer the YAML reader uses for o.
func typerOf(o Options) Typer {
	if o.KeepText {
		return keepTyper{o.Typer}
	}
	return o.Typer
}

// keepTyper keeps the plain scalars its Typer does not reach as Text.
type keepTyper struct{ t Typer }

func (k keepTyper) Scalar(s string) any {
	if k.t == nil {
		return Text(s)
	}
	return k.t.Scalar(s)
}

func (k keepTyper) Key(s string) Typer {
	if k.t == nil {
		return k
	}
	return keepTyper{k.t.Key(s)}
}

func (k keepTyper) Elem(i int) Typer {
	if k.t == nil {
		return k
	}
	return keepTyper{k.t.Elem(i)}
}

// typeMap types, in place, the Text values of a document the fast path
// read (mappings and scalars only) as the YAML reader would have typed
// them with t. The pointer of an error is built on the way back.
func typeMap(m map[string]any, t Typer) *problem.Error {
	for k, x := range m {
		var kt Typer
		if t != nil {
			kt = t.Key(k)
		}
		switch v := x.(type) {
		case map[string]any:
			if err := typeMap(v, kt); err != nil {
				err.Pointer = pointer.Append("", k) + err.Pointer
				return err
			}
		case Text:
			typed, err := typeScalar(kt, string(v))
			if err != nil {
				err.Pointer = pointer.Append("", k)
				return err
			}
			m[k] = typed
		}
	}
	return nil
}

// mayBeJSON reports whether trimmed text may be a JSON document, without
// the cost of a failed attempt on the usual YAML document: JSON opens
// with a bracket or a quote, or is a scalar (a number, true, false,
// null) with no space or colon in it.
func mayBeJSON(t []byte) bool {
	switch c := t[0]; {
	case c == '{' || c == '[' || c == '"':
		return true
	case c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n':
		return !bytes.ContainsAny(t, " \t\r\n:")
	}
	return false
}

// typeScalar is what ToValue gives a plain scalar: the Typer's value, or
// the core reading; numbers out of range are a limit.
func typeScalar(t Typer, s string) (any, *problem.Error) {
	if t != nil {
		v := t.Scalar(s)
		if n, ok := v.(json.Number); ok {
			if err := number.Check(n); err != nil {
				return nil, &problem.Error{Kind: problem.Limit, Message: err.Error()}
			}
		}
		return v, nil
	}
	if _, ok, err := number.ParseCore(s); ok && errors.Is(err, number.ErrTooLarge) {
		return nil, &problem.Error{Kind: problem.Limit, Message: err.Error()}
	}
	return Core(s), nil
}

func sizeError(n int) *problem.Error {
	return &problem.Error{Kind: problem.Limit, Message: fmt.Sprintf("the document is %d bytes, larger than the %d MiB limit", n, MaxDocumentBytes>>20)}
}

// opensJSON reports whether the first byte of data other than white space
// opens a JSON object or array.
func opensJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}
