package params

import (
	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// mergePatchPlain applies an RFC 7386 JSON merge patch to target and returns
// the result: an object patch merges key by key, a null deletes its key,
// anything else (arrays included) replaces the target whole. Neither
// argument is changed, but the result shares the parts of target that the
// patch leaves alone (copy target first to edit the result freely).
// Numbers keep their exact text. Go data other than plain values is merged
// as Plain converts it (target or patch that cannot be is merged as given).
func mergePatchPlain(target, patch any) any {
	return mergePatch(plainOr(target), plainOr(patch))
}

func mergePatch(target, patch any) any {
	pm, ok := patch.(map[string]any)
	if !ok {
		return value.DeepCopy(patch)
	}
	tm, ok := target.(map[string]any)
	out := make(map[string]any, len(tm)+len(pm))
	if ok {
		for k, v := range tm {
			out[k] = v
		}
	}
	for k, pv := range pm {
		if pv == nil {
			delete(out, k)
			continue
		}
		out[k] = mergePatch(out[k], pv)
	}
	return out
}

// DecodePatch reads one merge-patch document (a `-P` file) as Decode does,
// with one difference: a YAML null (`null`, `~`, or nothing) is null
// wherever it stands, even on a string node, since null in a merge patch
// means "delete". An empty document is the empty patch.
func DecodePatch(s *schema.Schema, data []byte) (any, error) {
	if err := zeroSchema(s); err != nil {
		return nil, err
	}
	var t document.Typer
	if s != nil {
		t = patchTyper{typerFor(s.Root())}
	}
	d, err := document.Read(data, document.Options{Typer: t})
	if err != nil {
		return nil, decodeError(s, err, 0)
	}
	if d.Empty {
		return map[string]any{}, nil
	}
	return d.Value, nil
}

// patchTyper types plain scalars by the schema, except null.
type patchTyper struct{ t document.Typer }

func (p patchTyper) Scalar(text string) any {
	if p.t == nil || document.Core(text) == nil {
		return document.Core(text)
	}
	return p.t.Scalar(text)
}

func (p patchTyper) Key(k string) document.Typer {
	if p.t == nil {
		return nil
	}
	return patchTyper{p.t.Key(k)}
}

func (p patchTyper) Elem(i int) document.Typer {
	if p.t == nil {
		return nil
	}
	return patchTyper{p.t.Elem(i)}
}
