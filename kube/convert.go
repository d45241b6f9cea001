package kube

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/propbag"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// ConversionAnnotation is the annotation in which Convert keeps what the
// version an object is converted to cannot hold (a property only a newer
// version has, a key no version declares), as autoscaling/v1 keeps an
// HPA's v2 metrics in an annotation. Its value is a JSON object from the
// field's JSON pointer to the layers of the field's property bag (see
// migrate's package documentation, "The property bag"); Convert reads it back when the object is converted
// again and removes what it restored. The user's parameters never hold
// it.
const ConversionAnnotation = "conversion.paramkit.dev/kept"

// Convert converts the schema-typed field of one Kubernetes object (its
// JSON, as a conversion webhook receives it) to apiVersion: the field,
// a JSON pointer such as /spec/parameters, goes from the version the
// object's apiVersion names to the one apiVersion names through set (its
// version names are the versions of apiVersion: v1, v2), and the result
// is the object with only apiVersion, the field and the annotation
// [ConversionAnnotation] changed. Numbers keep their text everywhere in the object.
//
// Conversion is total, as a conversion webhook's must be (the apiserver
// converts every write, and a failed conversion is a 500 for the user):
// it never fails because a value is invalid, in one version or both.
// Validation is admission's job, which then names what the user wrote.
// A value that does not fit its new place stays as it is there
// (migrate.Total); a value that has no place in the target travels in
// the annotation [ConversionAnnotation] (a JSON object from the
// field's pointer to the layers of the field's property bag, see
// migrate's package documentation, "The property bag"; the user's
// parameters never hold it) and is restored when the object is converted
// back, so that v1 → v2 → v1 and v2 → v1 → v2 give back exactly what went
// in, invalid values, misspelled keys and v2-only properties included. A
// field that is absent, or not an object, is left as it is. An integer
// the conversion makes from text (an older version's string
// "99999999999999999999999" on the target's integer node) that int64
// cannot hold stays text: the apiserver decodes a larger integer in the
// answer as a float64 and would store 1e+23.
//
// The annotation is data any client can write (kubectl annotate, a
// patch, a put, a server-side apply), not a proof of what was stored,
// and is checked where it is read: a value its layers would restore
// that the target version's schema refuses (and the conversion without
// the annotation does not bring) is not applied; the conversion's own
// value stands there. A layer that overrides what the object as written
// shows (an immutable engine changed to memcached through an older
// version whose object still says redis: a value the schema accepts,
// which only the old object could refuse) is one Convert never writes:
// then none of the annotation's layers is applied and the field
// converts as written, so that even with no admission webhook the
// apiserver does not store it. Conversion cannot refuse (it is total), so the
// report is admission's: Admit with Stored reads the annotation as
// Convert does and refuses a write that carries such a layer, or whose
// restored values change what the stored version's immutability
// protects, naming the annotation. An invalid value a layer restores
// therefore does not survive a round trip (a value the target's schema
// accepts does).
//
// The error is for what prevents any conversion: a body that is not a
// JSON object, an apiVersion of another group or an unknown version, a
// direction the set refuses (migrate.Version.NoDowngrade), a failing
// hook (migrate.Version's Up and Down), a field pointer that is not one.
func Convert(set *migrate.VersionSet, object []byte, field, apiVersion string) ([]byte, error) {
	if set == nil {
		return nil, schema.NewError(schema.KindUsage, "", "kube: Convert needs a version set")
	}
	toks, err := pointer.Split(field)
	if err != nil || len(toks) == 0 || toks[0] == "apiVersion" || toks[0] == "kind" || toks[0] == "metadata" {
		return nil, schema.NewError(schema.KindUsage, "", "kube: %q is not the pointer of a field of an object's body (such as /spec/parameters)", field)
	}
	obj, err := decodeConvObject(object)
	if err != nil {
		return nil, err
	}
	fromAV, _ := obj["apiVersion"].(string)
	fromGroup, from := splitAPIVersion(fromAV)
	toGroup, to := splitAPIVersion(apiVersion)
	if to == "" {
		return nil, schema.NewError(schema.KindUsage, "", "kube: %q is not an apiVersion (GROUP/VERSION)", apiVersion)
	}
	if from == "" {
		return nil, schema.NewError(schema.KindRequired, "/apiVersion", "kube: the object has no apiVersion (GROUP/VERSION)")
	}
	if fromGroup != toGroup {
		return nil, schema.NewError(schema.KindUsage, "/apiVersion", "kube: cannot convert %s to another group (%s)", fromAV, apiVersion)
	}
	if err := set.Refused(from, to); err != nil {
		return nil, err
	}
	if from == to {
		return object, nil
	}
	if _, err := convertObject(set, obj, toks, field, from, to, false); err != nil {
		return nil, err
	}
	obj["apiVersion"] = apiVersion
	return encodeObject(obj)
}

// convertObject converts the field at toks of the decoded object obj in
// place, from version from to version to, keeping the bag in the
// annotation. The annotation is read as the untrusted data it is (any
// client can write it): what its layers would restore that the target's
// schema refuses is not applied (see keptMisfits), and convertObject
// returns it, as errors at their pointers in the target's values; with
// check, the output keeps an integer beyond int64 a number, for
// admission to judge (Admit with Stored refuses the write), where the
// answer to the apiserver keeps it text (keepBigIntegers).
func convertObject(set *migrate.VersionSet, obj map[string]any, toks []string, field, from, to string, check bool) (schema.ErrorList, error) {
	parent, key, v, present := lookupField(obj, toks)
	if !present {
		return nil, nil
	}
	return convertField(set, obj, parent, key, v, field, from, to, check)
}

// convertField converts the value v at parent[key] and keeps the bag in
// the annotation; it returns the layers' misfits, not applied.
func convertField(set *migrate.VersionSet, obj, parent map[string]any, key string, v any, field, from, to string, check bool) (schema.ErrorList, error) {
	m, isObject := v.(map[string]any)
	if !isObject {
		return nil, nil // nothing a conversion could move; admission judges it
	}
	if _, written := m[propbag.Key]; written {
		// The user wrote the bag's key into the field: converting would
		// read it as a bag. Leave the field as written; admission
		// refuses the key where the schema is closed.
		return nil, nil
	}
	kept := readKept(obj)
	in := m
	layers, hasLayers := kept[field]
	if hasLayers {
		in = make(map[string]any, len(m)+1)
		for k, x := range m {
			in[k] = x
		}
		in[propbag.Key] = layers
	}
	var plain, written any
	if hasLayers {
		// The field as written, for the conversion without the
		// annotation should the check need it, and for the round trip
		// (copies: the conversion with the annotation may share parts
		// of its input).
		plain, written = value.DeepCopy(m), value.DeepCopy(m)
	}
	res, err := set.Convert(in, from, to, migrate.Total())
	switch {
	case err != nil && res.Values == nil:
		return nil, err // nothing converted: an unknown or refused version
	case err != nil:
		// A total conversion fails on the values only by a hook's error.
		return nil, schema.WrapError("kube: converting "+field+" from "+from+" to "+to, err)
	}
	out := res.Values
	delete(kept, field)
	if om, ok := out.(map[string]any); ok {
		if bag, has := om[propbag.Key]; has {
			delete(om, propbag.Key)
			kept[field] = bag
		}
	}
	var misfits schema.ErrorList
	target, hasTarget := set.Version(to)
	if hasLayers && hasTarget && target.Schema != nil {
		// Only a result the target's schema refuses can hold a misfit:
		// the conversion without the annotation runs only then.
		if errs := judgeValues(target.Schema, out); len(errs) > 0 {
			if r, err := set.Convert(plain, from, to, migrate.Total()); err == nil {
				bare := withoutBag(r.Values)
				misfits = keptMisfits(errs, judgeValues(target.Schema, bare))
				out = dropMisfits(out, bare, misfits)
			}
		}
	}
	if hasLayers && !check {
		// The layers must restore only what the version written still
		// shows as Convert made it. A forged layer (engine memcached
		// where the object written says redis) makes this conversion
		// keep, in a bag of its own, the writer's value it overrode,
		// which the conversion without the annotation does not keep.
		// The apiserver stores this answer, even with no admission
		// webhook to judge it against the stored object, so then none
		// of the layers is applied: the field converts as written.
		// (Admission, check, judges the layers' result and names them.)
		r, err := set.Convert(written, from, to, migrate.Total())
		if err != nil {
			return nil, schema.WrapError("kube: converting "+field+" from "+from+" to "+to, err)
		}
		var bareBag any
		if om, ok := r.Values.(map[string]any); ok {
			bareBag = om[propbag.Key]
			delete(om, propbag.Key)
		}
		if overrides(kept[field], bareBag) {
			out = r.Values
			delete(kept, field)
			if bareBag != nil {
				kept[field] = bareBag
			}
		}
	}
	if hasTarget && !check {
		// Admission (check) judges the number; the answer to the
		// apiserver keeps it as text.
		out = keepBigIntegers(target.Schema, m, out)
	}
	parent[key] = out
	return misfits, writeKept(obj, kept)
}

// overrides tells whether the bag a conversion with the annotation's
// layers kept (with) holds an entry the bag of the conversion without
// them (bare) does not: a value of the object as written that a layer
// overrode, which only a layer Convert did not write makes. Layers
// Convert wrote restore what the stored object held only where the
// writer's version still shows what Convert made of it, so converting
// back needs nothing more than the conversion without them does.
func overrides(with, bare any) bool {
	seen := map[string]bool{}
	for _, e := range bagEntries(bare) {
		seen[e] = true
	}
	for _, e := range bagEntries(with) {
		if !seen[e] {
			return true
		}
	}
	return false
}

// bagEntries lists the patch entries of a bag's layers, each as its
// canonical JSON (pointer, value, was), whatever layer holds it.
func bagEntries(bag any) []string {
	layers, _ := bag.([]any)
	var out []string
	for _, l := range layers {
		lm, _ := l.(map[string]any)
		entries, _ := lm["patch"].([]any)
		for _, e := range entries {
			b, err := marshal(e)
			if err != nil {
				return append(out, "\x00unreadable")
			}
			out = append(out, string(b))
		}
	}
	return out
}

// keptMisfits returns the errors of the conversion with the
// annotation's layers restored (withLayers, against the target's schema)
// that the conversion of the field as written (without) does not have:
// the annotation put them there. A layer Convert itself wrote restores
// what the stored object held, which the stored version's schema
// accepts; one that brings an error was written by someone else
// (kubectl annotate, a patch, a put, a server-side apply) or holds what
// the schema refuses.
func keptMisfits(withLayers, without schema.ErrorList) schema.ErrorList {
	seen := make(map[string]bool, len(without))
	for _, e := range without {
		seen[e.Pointer+"\x00"+e.Keyword+"\x00"+e.Message] = true
	}
	var misfits schema.ErrorList
	for _, e := range withLayers {
		if !seen[e.Pointer+"\x00"+e.Keyword+"\x00"+e.Message] {
			misfits = append(misfits, e)
		}
	}
	return misfits
}

// dropMisfits undoes in out what the annotation restored at each
// misfit's pointer: the value there becomes bare's (the conversion
// without the annotation), or goes when bare has none. A misfit at the
// root gives bare itself.
func dropMisfits(out, bare any, misfits schema.ErrorList) any {
	done := map[string]bool{}
	for _, e := range misfits {
		p := e.Pointer
		if done[p] {
			continue
		}
		done[p] = true
		toks, err := pointer.Split(p)
		if err != nil {
			continue
		}
		if len(toks) == 0 {
			return bare
		}
		if v, ok := pointer.GetTokens(bare, toks); ok {
			out = setAt(out, toks, v)
			continue
		}
		// Remove the highest place bare does not have (backup, not
		// backup.enabled, when bare has no backup).
		n := len(toks)
		for n > 1 {
			if _, ok := pointer.GetTokens(bare, toks[:n-1]); ok {
				break
			}
			n--
		}
		out = deleteAt(out, toks[:n])
	}
	return out
}

// setAt sets the value at toks in v (objects and array elements that
// exist; missing objects on the way are created) and returns v.
func setAt(v any, toks []string, x any) any {
	if len(toks) == 0 {
		return x
	}
	switch c := v.(type) {
	case map[string]any:
		c[toks[0]] = setAt(c[toks[0]], toks[1:], x)
		return c
	case []any:
		if i, err := pointer.Index(toks[0], len(c)); err == nil && i < len(c) {
			c[i] = setAt(c[i], toks[1:], x)
		}
		return c
	case nil:
		return setAt(map[string]any{}, toks, x)
	}
	return v
}

// deleteAt removes the value at toks from v (a key of an object; an
// array element becomes null) and returns v.
func deleteAt(v any, toks []string) any {
	switch c := v.(type) {
	case map[string]any:
		if len(toks) == 1 {
			delete(c, toks[0])
		} else if x, ok := c[toks[0]]; ok {
			c[toks[0]] = deleteAt(x, toks[1:])
		}
	case []any:
		if i, err := pointer.Index(toks[0], len(c)); err == nil && i < len(c) {
			if len(toks) == 1 {
				c[i] = nil
			} else {
				c[i] = deleteAt(c[i], toks[1:])
			}
		}
	}
	return v
}

// judgeValues validates values, defaults filled in, by s, integers
// beyond int64 included (see bigIntegers): the stored version's verdict.
func judgeValues(s *schema.Schema, values any) schema.ErrorList {
	defaulted, err := params.Default(s, values)
	if err != nil {
		return schema.ErrorsOf(err)
	}
	errs := schema.ErrorsOf(params.Validate(s, defaulted))
	return append(errs, bigIntegers(s, defaulted)...)
}

// withoutBag is v without the property bag's key (a copy of the top
// object when it has one).
func withoutBag(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	if _, has := m[propbag.Key]; !has {
		return v
	}
	c := make(map[string]any, len(m))
	for k, x := range m {
		if k != propbag.Key {
			c[k] = x
		}
	}
	return c
}

// lookupField finds the field: its parent object, its key and its value.
func lookupField(obj map[string]any, toks []string) (map[string]any, string, any, bool) {
	cur := obj
	for i, t := range toks {
		x, ok := cur[t]
		if !ok {
			return nil, "", nil, false
		}
		if i == len(toks)-1 {
			return cur, t, x, true
		}
		next, ok := x.(map[string]any)
		if !ok {
			return nil, "", nil, false
		}
		cur = next
	}
	return nil, "", nil, false
}

// readKept reads ConversionAnnotation: the bags by field pointer. An
// annotation that is not what Convert writes is ignored (and replaced on
// the next write), never a failure.
func readKept(obj map[string]any) map[string]any {
	ann := annotations(obj)
	raw, ok := ann[ConversionAnnotation].(string)
	if !ok {
		return map[string]any{}
	}
	d := json.NewDecoder(strings.NewReader(raw))
	d.UseNumber()
	var kept map[string]any
	if err := d.Decode(&kept); err != nil || kept == nil {
		return map[string]any{}
	}
	return kept
}

// writeKept sets ConversionAnnotation to kept, or removes it when kept is
// empty (and the annotations with it when nothing else is left).
func writeKept(obj, kept map[string]any) error {
	ann := annotations(obj)
	if len(kept) == 0 {
		if _, had := ann[ConversionAnnotation]; had {
			delete(ann, ConversionAnnotation)
			if len(ann) == 0 {
				meta, _ := obj["metadata"].(map[string]any)
				delete(meta, "annotations")
			}
		}
		return nil
	}
	raw, err := marshal(kept)
	if err != nil {
		return err
	}
	if ann == nil {
		meta, ok := obj["metadata"].(map[string]any)
		if !ok {
			if _, has := obj["metadata"]; has {
				return schema.NewError(schema.KindType, "/metadata", "kube: the object's metadata is not an object")
			}
			meta = map[string]any{}
			obj["metadata"] = meta
		}
		if _, has := meta["annotations"]; has {
			return schema.NewError(schema.KindType, "/metadata/annotations", "kube: the object's annotations are not an object")
		}
		ann = map[string]any{}
		meta["annotations"] = ann
	}
	ann[ConversionAnnotation] = string(raw)
	return nil
}

// annotations returns the object's annotations, nil when it has none (or
// they are not an object).
func annotations(obj map[string]any) map[string]any {
	meta, _ := obj["metadata"].(map[string]any)
	ann, _ := meta["annotations"].(map[string]any)
	return ann
}

// splitAPIVersion splits GROUP/VERSION; a bare VERSION is the core group.
func splitAPIVersion(av string) (group, version string) {
	if g, v, ok := strings.Cut(av, "/"); ok {
		if g == "" || strings.Contains(v, "/") {
			return "", ""
		}
		return g, v
	}
	return "", av
}

// decodeConvObject reads one JSON object, numbers as json.Number.
func decodeConvObject(data []byte) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, schema.NewError(schema.KindSyntax, "", "kube: the object is not JSON: %v", err)
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, schema.NewError(schema.KindSyntax, "", "kube: the object is followed by more data")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, schema.NewError(schema.KindType, "", "kube: a Kubernetes object is a JSON object")
	}
	return obj, nil
}

func encodeObject(obj map[string]any) ([]byte, error) {
	b, err := marshal(obj)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// marshal writes JSON as the apiserver reads it: numbers as their text,
// no HTML escaping, no trailing newline.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, schema.NewError(schema.KindInvalid, "", "kube: cannot write the object: %v", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
