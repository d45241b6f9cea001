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
// field that is absent, or not an object, is left as it is.
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
	parent, key, v, present := lookupField(obj, toks)
	if present {
		if err := convertField(set, obj, parent, key, v, field, from, to); err != nil {
			return nil, err
		}
	}
	obj["apiVersion"] = apiVersion
	return encodeObject(obj)
}

// convertField converts the value v at parent[key] and keeps the bag in
// the annotation.
func convertField(set *migrate.VersionSet, obj, parent map[string]any, key string, v any, field, from, to string) error {
	m, isObject := v.(map[string]any)
	if !isObject {
		return nil // nothing a conversion could move; admission judges it
	}
	if _, written := m[propbag.Key]; written {
		// The user wrote the bag's key into the field: converting would
		// read it as a bag. Leave the field as written; admission
		// refuses the key where the schema is closed.
		return nil
	}
	kept := readKept(obj)
	in := m
	if layers, ok := kept[field]; ok {
		in = make(map[string]any, len(m)+1)
		for k, x := range m {
			in[k] = x
		}
		in[propbag.Key] = layers
	}
	res, err := set.Convert(in, from, to, migrate.Total())
	switch {
	case err != nil && res.Values == nil:
		return err // nothing converted: an unknown or refused version
	case err != nil:
		// A total conversion fails on the values only by a hook's error.
		return schema.WrapError("kube: converting "+field+" from "+from+" to "+to, err)
	}
	out := res.Values
	delete(kept, field)
	if om, ok := out.(map[string]any); ok {
		if bag, has := om[propbag.Key]; has {
			delete(om, propbag.Key)
			kept[field] = bag
		}
	}
	parent[key] = out
	return writeKept(obj, kept)
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
