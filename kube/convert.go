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
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// conversionAnnotation, "conversion.paramkit.dev/kept", is the
// annotation in which Convert keeps what the
// version an object is converted to cannot hold (a property only a newer
// version has, a key no version declares), as autoscaling/v1 keeps an
// HPA's v2 metrics in an annotation. Its value is a JSON object from the
// field's JSON pointer to the layers of the field's property bag (see
// migrate's package documentation, "The property bag"); Convert reads it back when the object is converted
// again and removes what it restored. The user's parameters never hold
// it.
const conversionAnnotation = "conversion.paramkit.dev/kept"

// Convert converts the schema-typed field of one Kubernetes object (its
// JSON, as a conversion webhook receives it) to apiVersion: the field,
// a JSON pointer such as /spec/parameters, goes from the version the
// object's apiVersion names to the one apiVersion names through set (its
// version names are the versions of apiVersion: v1, v2), and the result
// is the object with only apiVersion, the field and the annotation
// conversion.paramkit.dev/kept changed. Numbers keep their text everywhere in the object.
//
// Conversion is total, as a conversion webhook's must be (the apiserver
// converts every write, and a failed conversion is a 500 for the user):
// it never fails because a value is invalid, in one version or both.
// Validation is admission's job, which then names what the user wrote.
// A value that does not fit its new place stays as it is there
// (migrate.Total); a value that has no place in the target travels in
// the annotation conversion.paramkit.dev/kept (a JSON object from the
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
// patch, a put, a server-side apply), not a proof of what was stored: a
// conversion webhook cannot refuse it (conversion is total), so Admit
// with Stored reads it as Convert does and refuses a write whose
// annotation restores what the stored version's schema refuses, or what
// its immutability forbids, naming the annotation.
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
// annotation. With check, it also reads the annotation as the untrusted
// data it is (any client can write it): it returns what the layers the
// annotation restores put into the field that the target's schema
// refuses, as errors at their pointers in the target's values (see
// keptMisfits). Convert does not check: a conversion webhook has no way
// to refuse (conversion is total), and the check is admission's, which
// refuses the write that carries such a layer (Admit with Stored).
func convertObject(set *migrate.VersionSet, obj map[string]any, toks []string, field, from, to string, check bool) (schema.ErrorList, error) {
	parent, key, v, present := lookupField(obj, toks)
	if !present {
		return nil, nil
	}
	return convertField(set, obj, parent, key, v, field, from, to, check)
}

// convertField converts the value v at parent[key] and keeps the bag in
// the annotation; with check, it returns the layers' misfits.
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
	res, err := set.Convert(in, from, to, migrate.Total())
	switch {
	case err != nil && res.Values == nil:
		return nil, err // nothing converted: an unknown or refused version
	case err != nil:
		// A total conversion fails on the values only by a hook's error.
		return nil, schema.ErrorIn("kube: converting "+field+" from "+from+" to "+to, err)
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
	if check && hasLayers {
		misfits = keptMisfits(set, m, out, from, to)
	}
	if target, ok := set.Version(to); ok && !check {
		// Admission (check) judges the number; the answer to the
		// apiserver keeps it as text.
		out = keepBigIntegers(target.Schema, in, out)
	}
	parent[key] = out
	return misfits, writeKept(obj, kept)
}

// keptMisfits compares the conversion of plain (the field as the client
// wrote it) with out (its conversion with the annotation's layers
// restored): every error of out against the target's schema that the
// conversion of plain alone does not have was put there by the
// annotation. A layer Convert itself wrote restores what the stored
// object held, which the stored version's admission accepted; one that
// brings an error the stored version refuses was written by someone
// else (kubectl annotate, a patch, a put, a server-side apply).
func keptMisfits(set *migrate.VersionSet, plain map[string]any, out any, from, to string) schema.ErrorList {
	target, ok := set.Version(to)
	if !ok || target.Schema == nil {
		return nil
	}
	bare, err := set.Convert(plain, from, to, migrate.Total())
	if err != nil {
		return nil
	}
	without := judgeValues(target.Schema, withoutBag(bare.Values))
	seen := make(map[string]bool, len(without))
	for _, e := range without {
		seen[e.Pointer+"\x00"+e.Keyword+"\x00"+e.Message] = true
	}
	var misfits schema.ErrorList
	for _, e := range judgeValues(target.Schema, withoutBag(out)) {
		if !seen[e.Pointer+"\x00"+e.Keyword+"\x00"+e.Message] {
			misfits = append(misfits, e)
		}
	}
	return misfits
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

// readKept reads conversionAnnotation: the bags by field pointer. An
// annotation that is not what Convert writes is ignored (and replaced on
// the next write), never a failure.
func readKept(obj map[string]any) map[string]any {
	ann := annotations(obj)
	raw, ok := ann[conversionAnnotation].(string)
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

// writeKept sets conversionAnnotation to kept, or removes it when kept is
// empty (and the annotations with it when nothing else is left).
func writeKept(obj, kept map[string]any) error {
	ann := annotations(obj)
	if len(kept) == 0 {
		if _, had := ann[conversionAnnotation]; had {
			delete(ann, conversionAnnotation)
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
	ann[conversionAnnotation] = string(raw)
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
