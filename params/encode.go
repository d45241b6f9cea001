package params

import (
	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/value"
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

func ordererFor(s *schema.Schema) encode.Orderer {
	if s == nil {
		return nil
	}
	return nodeOrderer{s.Root()}
}

type nodeOrderer struct{ n *schema.Node }

func (o nodeOrderer) Order(keys []string) []string {
	if o.n == nil {
		return keys
	}
	present := make(map[string]bool, len(keys))
	for _, k := range keys {
		present[k] = true
	}
	out := make([]string, 0, len(keys))
	for _, sc := range o.n.Scope() {
		for _, p := range sc.Properties() {
			if present[p.Name()] {
				out = append(out, p.Name())
				delete(present, p.Name())
			}
		}
	}
	for _, k := range keys {
		if present[k] {
			out = append(out, k)
		}
	}
	return out
}

func (o nodeOrderer) Key(k string) encode.Orderer {
	if o.n == nil {
		return nil
	}
	return nodeOrderer{o.n.Child(k)}
}

func (o nodeOrderer) Elem(i int) encode.Orderer {
	if o.n == nil {
		return nil
	}
	return nodeOrderer{o.n.Elem(i)}
}
