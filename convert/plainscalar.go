package convert

import (
	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/yamlx"
)

// PlainScalar is a YAML plain scalar (one written without quotes: 007,
// 1.10, yes, 0x1F, ~) that no schema node has typed, kept exactly as it
// was written.
//
// Types come from the schema, never from guessing. Where the value lands
// on a node that has a type, that node types the text (007 is "007" on a
// string node and 7 on an integer node). Where no node types it, the text
// means what YAML 1.2 core rules say (Value). JSON has no untyped
// scalars: MarshalJSON writes what the text means.
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
