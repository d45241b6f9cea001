package convert

import (
	"fmt"
	"sort"
	"strings"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// Unwrap converts a document of v1beta1 instance parameters (YAML or
// JSON) to typed v1beta2 values. The document is either a flat mapping of
// parameter names to values, or an Instance manifest (kind Instance, or
// just spec.parameters) holding that mapping in spec.parameters; an
// Instance comes back as an Instance with apiVersion kudo.dev/v1beta2 and
// nothing else changed, one that already says v1beta2 unchanged.
//
// Each value is read as the text its author wrote — `NODE_COUNT: 3` and
// `NODE_COUNT: "3"` alike give "3", and a boolean where the v1beta1 map
// held only strings (as in the KEP's example) its word — and then typed
// by s as UnwrapValues does. With s nil the values are guessed as
// UnwrapValues does with a nil schema, and every guess is a Note. A parameter left out
// because its empty text meant "not set" is a Note too.
//
// Unreadable input gives a *schema.Error; a value that is a list or
// mapping (v1beta1 held text only) or cannot take its node's type gives a
// schema.ErrorList with every such value, pointers into the input.
func Unwrap(s *schema.Schema, data []byte) (*Converted, error) {
	if err := zeroSchema(s); err != nil {
		return nil, err
	}
	raw, order, err := readRaw(data)
	if err != nil {
		return nil, err
	}
	root, ok := raw.(map[string]any)
	if !ok {
		if isNull(raw) {
			root = map[string]any{}
		} else {
			return nil, schema.ErrorList{{Kind: schema.KindType, Message: fmt.Sprintf("expected a mapping of parameter values or an Instance, not %s", kindName(raw))}}.Err()
		}
	}
	kind, _ := document.ScalarText(root["kind"])
	apiVersion, _ := document.ScalarText(root["apiVersion"])
	spec, _ := root["spec"].(map[string]any)
	instance := kind == "Instance" || (kind == "" && spec != nil && isInstanceSpec(spec))
	switch {
	case kind != "" && kind != "Instance" && apiVersion != "":
		// Without an apiVersion, kind is just a parameter of that name.
		return nil, schema.ErrorList{{Pointer: "/kind", Kind: schema.KindEnum, Message: fmt.Sprintf("cannot unwrap kind %s: expected parameter values or an Instance", kind)}}.Err()
	case instance && apiVersion == apiV1beta2:
		c := &flatConverter{order: order}
		out := c.unchanged(root, "")
		out.Schema = nil
		out.input = data
		return out, nil
	case instance && apiVersion != "" && apiVersion != apiV1beta1:
		return nil, schema.ErrorList{{Pointer: "/apiVersion", Kind: schema.KindEnum, Message: fmt.Sprintf("unknown apiVersion %q for an Instance: expected %s", apiVersion, apiV1beta1)}}.Err()
	}

	base := ""
	var vals any = root
	if instance {
		base = "/spec/parameters"
		vals = nil
		if spec != nil {
			vals = spec["parameters"]
		}
	}
	in := map[string]string{}
	var errs schema.ErrorList
	switch m := vals.(type) {
	case nil:
	case document.Text:
		if !isNull(m) {
			errs = append(errs, &schema.Error{Pointer: base, Kind: schema.KindType, Message: fmt.Sprintf("parameters must be a mapping, not %s", kindName(m))})
		}
	case map[string]any:
		for k, v := range m {
			t, ok := document.ScalarText(v)
			if !ok {
				errs = append(errs, &schema.Error{Pointer: pointer.Append(base, k), Kind: schema.KindType, Message: fmt.Sprintf("a v1beta1 parameter value is text, not %s", kindName(v))})
				continue
			}
			in[k] = t
		}
	default:
		errs = append(errs, &schema.Error{Pointer: base, Kind: schema.KindType, Message: fmt.Sprintf("parameters must be a mapping, not %s", kindName(m))})
	}

	var typed map[string]any
	var notes []Note
	if s == nil {
		typed, notes = guessValues(in)
	} else {
		var err error
		typed, err = UnwrapValues(s, in)
		if err != nil {
			ve := schema.ErrorsOf(err)
			for _, e := range ve {
				e.Pointer = base + e.Pointer
			}
			errs = append(errs, ve...)
		}
	}
	if len(errs) > 0 {
		sort.SliceStable(errs, func(i, j int) bool { return errs[i].Pointer < errs[j].Pointer })
		return nil, errs.Err()
	}
	for i := range notes {
		notes[i].Pointer = base + notes[i].Pointer
	}
	for _, k := range sortedKeys(in) {
		if _, kept := typed[k]; !kept {
			notes = append(notes, Note{Pointer: pointer.Append(base, k), Message: "empty: v1beta1's \"not set\"; left out so that the default applies"})
		}
	}
	sort.SliceStable(notes, func(i, j int) bool { return notes[i].Pointer < notes[j].Pointer })

	// Keys keep their input order; a collection written as a flow keeps
	// the order its text gave.
	outOrder := withoutSubtree(order, base)
	if rec, ok := order[base]; ok {
		outOrder[base] = rec
	}
	for k, t := range in {
		if tt := strings.TrimSpace(t); tt != "" && (tt[0] == '{' || tt[0] == '[') {
			if node, err := document.ParseFlow(tt); err == nil {
				graft(outOrder, document.NodeKeyOrder(node), pointer.Append(base, k))
			}
		}
	}

	out := &Converted{Changed: true, Notes: notes, order: outOrder}
	if !instance {
		out.Document = typed
		return out, nil
	}
	doc := document.Resolve(root).(map[string]any)
	doc["apiVersion"] = apiV1beta2
	if docSpec, ok := doc["spec"].(map[string]any); ok && docSpec["parameters"] != nil {
		docSpec["parameters"] = typed
	}
	out.Document = doc
	out.order = withAPIVersionFirst(outOrder)
	return out, nil
}

// isInstanceSpec recognises the KEP's Instance fragment (`spec:
// parameters:` without kind) by a parameters mapping.
func isInstanceSpec(spec map[string]any) bool {
	_, ok := spec["parameters"].(map[string]any)
	return ok
}
