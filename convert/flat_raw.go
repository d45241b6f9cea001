package convert

import (
	"github.com/paramkit/paramkit/internal/crdread"
	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// readRaw parses exactly one YAML or JSON document with plain scalars
// left untyped (document.Text: v1beta1 meant different things by
// `default: 3` and `default: "3"`, so the converter decides per field),
// and records the source order of every mapping's keys. The
// error is a *schema.Error: the input cannot be read at all.
func readRaw(data []byte) (any, map[string][]string, error) {
	d, err := readDoc(data)
	if err != nil {
		return nil, nil, err
	}
	return d.Value, d.Order, nil
}

// readDoc reads one document with plain scalars kept as text and the
// key order recorded: what FromV1beta1 and a CRD's reader both need.
func readDoc(data []byte) (document.Doc, error) {
	d, err := document.Read(data, crdread.ReadOptions())
	if err != nil {
		return document.Doc{}, readError(err)
	}
	if d.Empty {
		return document.Doc{}, schema.NewError(schema.KindSyntax, "", "the input holds no document")
	}
	return d, nil
}

// scalar types a plain scalar by YAML 1.2 core rules and leaves any
// other value as it is, so that a switch on its type sees null, booleans
// and numbers.
func scalar(v any) any {
	if p, ok := v.(document.Text); ok {
		return p.Value()
	}
	return v
}

// isNull reports a null: an absent value, a plain null word, an explicit !!null.
func isNull(v any) bool {
	if v == nil {
		return true
	}
	p, ok := v.(document.Text)
	return ok && p.Value() == nil
}

// kindName names the kind of a raw value for messages.
func kindName(v any) string {
	if t, ok := v.(document.Text); ok {
		v = t.Value()
	}
	return value.Describe(v, "a list", "a mapping")
}

// subOrder re-roots the recorded key order below prefix.
func subOrder(order map[string][]string, prefix string) map[string][]string {
	out := map[string][]string{}
	for p, keys := range order {
		if p == prefix {
			out[""] = keys
		} else if pointer.HasPrefix(p, prefix) {
			out[p[len(prefix):]] = keys
		}
	}
	return out
}

// withoutSubtree returns order without the entries at and below prefix.
func withoutSubtree(order map[string][]string, prefix string) map[string][]string {
	out := make(map[string][]string, len(order))
	for p, keys := range order {
		if !pointer.HasPrefix(p, prefix) {
			out[p] = keys
		}
	}
	return out
}

// graft puts sub's entries below prefix into order.
func graft(order, sub map[string][]string, prefix string) {
	for p, keys := range sub {
		order[prefix+p] = keys
	}
}
