package main

import (
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// The kudo.dev group and the versions the webhook converts between.
const (
	Group   = "kudo.dev"
	V1beta1 = "kudo.dev/v1beta1"
	V1beta2 = "kudo.dev/v1beta2"
)

// ParametersAnnotation (the annotation convert.ToV1beta1 writes) keeps on a v1beta1
// object what its v1beta1 form cannot hold, so that up-conversion restores
// the v1beta2 object exactly. On an OperatorVersion it is the whole
// schema. On an Instance it holds, as a JSON object, the values no
// v1beta1 text carries (a null where the schema takes only strings, a
// value whose type its node refuses); up-conversion takes a value from it
// only while the v1beta1 text is still the one down-conversion wrote, so
// an old client's edit always wins. v1beta2 objects never carry it.
const ParametersAnnotation = "paramkit.dev/v1beta2-parameters"

// object is a decoded Kubernetes object with the accessors the webhook needs.
type object map[string]any

func decodeObject(raw []byte) (object, error) {
	if len(raw) == 0 {
		return nil, fmt.Errorf("the object is missing")
	}
	v, err := params.Decode(nil, raw)
	if err != nil {
		return nil, fmt.Errorf("the object cannot be read: %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the object is %s, not a JSON object", aType(v))
	}
	return object(m), nil
}

func (o object) str(key string) string { s, _ := o[key].(string); return s }

func (o object) apiVersion() string { return o.str("apiVersion") }
func (o object) kind() string       { return o.str("kind") }

func (o object) metadata() map[string]any { m, _ := o["metadata"].(map[string]any); return m }

func (o object) spec() map[string]any { m, _ := o["spec"].(map[string]any); return m }

// describe names the object for messages: Kind namespace/name.
func (o object) describe() string {
	md := o.metadata()
	name, _ := md["name"].(string)
	ns, _ := md["namespace"].(string)
	if name == "" {
		name, _ = md["generateName"].(string)
		if name != "" {
			name += "*"
		}
	}
	k := o.kind()
	if k == "" {
		k = "object"
	}
	switch {
	case ns != "" && name != "":
		return fmt.Sprintf("%s %s/%s", k, ns, name)
	case name != "":
		return fmt.Sprintf("%s %s", k, name)
	}
	return k
}

func (o object) namespace() string {
	ns, _ := o.metadata()["namespace"].(string)
	return ns
}

// operatorVersionName reads spec.operatorVersion.name.
func (o object) operatorVersionName() (string, error) {
	spec := o.spec()
	if spec == nil {
		return "", fmt.Errorf("%s has no spec", o.describe())
	}
	ref, _ := spec["operatorVersion"].(map[string]any)
	name, _ := ref["name"].(string)
	if name == "" {
		return "", fmt.Errorf("%s has no spec.operatorVersion.name, so its parameter schema cannot be found", o.describe())
	}
	return name, nil
}

// parameters returns spec.parameters and whether it is present (and not null).
func (o object) parameters() (any, bool) {
	spec := o.spec()
	v, ok := spec["parameters"]
	return v, ok && v != nil
}

func (o object) annotation(key string) (string, bool) {
	a, _ := o.metadata()["annotations"].(map[string]any)
	s, ok := a[key].(string)
	return s, ok
}

// unwrapper types v1beta1 texts (top-level parameters) as v1beta2 values.
type unwrapper func(texts map[string]string) map[string]any

// codec is how admission types one Instance's v1beta1 parameters.
// (Conversion between the versions, both ways, is kudo.ConvertObject's;
// admission only unwraps, as conversion up does.)
type codec struct {
	unwrap unwrapper
}

func schemaCodec(s *schema.Schema) codec { return codec{schemaUnwrapper(s)} }

// canonicalText is the v1beta1 text of a v1beta2 value: a string as it
// is, anything else as compact JSON.
func canonicalText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return string(mustBytes(params.MarshalJSON(nil, v, "")))
}

// unwrapParameters turns the v1beta1 string map into v1beta2 values. A
// value found in the bag is taken from it while its text is still the one
// down-conversion wrote. A non-string value (a hand-written manifest's
// `BACKUP_ENABLED: false`) is taken as it is.
func unwrapParameters(p map[string]any, bag map[string]any, c codec) map[string]any {
	out := make(map[string]any, len(p))
	texts := make(map[string]string, len(p))
	for k, v := range p {
		text, ok := v.(string)
		if !ok {
			out[k] = v
			continue
		}
		if bv, ok := bag[k]; ok && canonicalText(bv) == text {
			out[k] = bv
			continue
		}
		texts[k] = text
	}
	if len(texts) > 0 {
		for k, v := range c.unwrap(texts) {
			out[k] = v
		}
	}
	return out
}

// decodeBag reads the ParametersAnnotation; a bag that cannot be read is
// ignored (the texts then decide), reported by the error.
func decodeBag(o object) (map[string]any, error) {
	raw, ok := o.annotation(ParametersAnnotation)
	if !ok {
		return nil, nil
	}
	v, err := params.Decode(nil, []byte(raw))
	if err != nil {
		return nil, fmt.Errorf("annotation %s cannot be read: %w", ParametersAnnotation, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("annotation %s is %s, not a JSON object", ParametersAnnotation, aType(v))
	}
	return m, nil
}

// paramPointer is the object pointer of a parameter pointer.
func paramPointer(p string) string { return "/spec/parameters" + p }

// aType names the JSON type of v with its article: "an array".
func aType(v any) string {
	t := typeName(v)
	switch t[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + t
	}
	return "a " + t
}

// typeName names the JSON type of a value ("integer" for a number with an
// integral value, 2.0 and 1e3 included, as JSON Schema says).
func typeName(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if r, ok := new(big.Rat).SetString(string(t)); ok && r.IsInt() {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}
