package params

import (
	"io"

	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params/internal/order"
	"github.com/paramkit/paramkit/schema"
)

// MarshalYAML writes v as YAML with exact numbers, quoting every string a
// YAML reader would take for something else, and with object keys in the
// order of the schema's properties (others after them, sorted). s may be
// nil. Go data other than plain values is written as Plain converts it; a
// part that cannot be a value (a channel, NaN) gives Plain's *schema.Error.
func MarshalYAML(s *schema.Schema, v any) ([]byte, error) {
	if err := zeroSchema(s); err != nil {
		return nil, err
	}
	v, err := value.Plain(v)
	if err != nil {
		return nil, notPlain(err, "")
	}
	out, err := encode.YAML(v, ordererFor(s))
	return out, publicError(err)
}

// WriteYAML writes to w the bytes MarshalYAML gives for v, a part at a
// time: a large document (a 4 MB values file) is never held whole as
// text beside its values. An error of w ends the writing, part of the
// document written; an error of v (as from MarshalYAML) comes before
// anything is written.
func WriteYAML(s *schema.Schema, w io.Writer, v any) error {
	if err := zeroSchema(s); err != nil {
		return err
	}
	if w == nil {
		return schema.NewError(schema.KindUsage, "", "params.WriteYAML needs a writer")
	}
	v, err := value.Plain(v)
	if err != nil {
		return notPlain(err, "")
	}
	return publicError(encode.YAMLTo(w, v, ordererFor(s)))
}

// MarshalJSON writes v as JSON, keys in schema order as MarshalYAML does
// (s may be nil). indent "" gives compact JSON. Go data other than plain
// values is written as Plain converts it, so MarshalJSON and MarshalYAML
// write the same value. A v that cannot be a value (a channel, NaN) is an
// error naming its pointer, as from MarshalYAML. It never returns nil
// bytes without an error.
func MarshalJSON(s *schema.Schema, v any, indent string) ([]byte, error) {
	if err := zeroSchema(s); err != nil {
		return nil, err
	}
	v, err := value.Plain(v)
	if err != nil {
		return nil, notPlain(err, "")
	}
	out := encode.JSON(v, ordererFor(s), indent)
	if out == nil { // never nil bytes without an error
		return nil, schema.NewError(schema.KindInvalid, "", "params.MarshalJSON wrote nothing")
	}
	return out, nil
}

func ordererFor(s *schema.Schema) encode.Orderer { return order.For(s) }
