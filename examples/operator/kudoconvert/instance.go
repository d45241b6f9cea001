package kudoconvert

import (
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// The kudo.dev group and the versions the webhook converts between.
const (
	Group   = "kudo.dev"
	V1beta1 = "kudo.dev/v1beta1"
	V1beta2 = "kudo.dev/v1beta2"
)

// ParametersAnnotation (convert.ParametersAnnotation) keeps on a v1beta1
// object what its v1beta1 form cannot hold, so that up-conversion restores
// the v1beta2 object exactly. On an OperatorVersion it is the whole
// schema. On an Instance it holds, as a JSON object, the values no
// v1beta1 text carries (a null where the schema takes only strings, a
// value whose type its node refuses); up-conversion takes a value from it
// only while the v1beta1 text is still the one down-conversion wrote, so
// an old client's edit always wins. v1beta2 objects never carry it.
const ParametersAnnotation = convert.ParametersAnnotation

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

func (o object) setAnnotation(key, val string) {
	md := o.metadata()
	if md == nil {
		md = map[string]any{}
		o["metadata"] = md
	}
	a, _ := md["annotations"].(map[string]any)
	if a == nil {
		a = map[string]any{}
		md["annotations"] = a
	}
	a[key] = val
}

func (o object) deleteAnnotation(key string) {
	md := o.metadata()
	a, _ := md["annotations"].(map[string]any)
	if _, ok := a[key]; !ok {
		return
	}
	delete(a, key)
	if len(a) == 0 {
		delete(md, "annotations")
	}
}

// unwrapper types v1beta1 texts (top-level parameters) as v1beta2 values.
type unwrapper func(texts map[string]string) map[string]any

// wrapper writes v1beta2 values as v1beta1 texts that unwrap to the same
// values, and returns those no text carries (their text is canonicalText).
type wrapper func(values map[string]any) (texts map[string]string, bag map[string]any)

// codec is how one Instance's parameters go between the versions.
type codec struct {
	unwrap unwrapper
	wrap   wrapper
}

func schemaCodec(s *schema.Schema) codec { return codec{schemaUnwrapper(s), schemaWrapper(s)} }

// guessCodec works without a schema: convert.GuessValues' safe rules,
// keeping a guessed number only when a kube-apiserver, which reads
// numbers as int64 or float64, writes it back as exactly the same number
// ("3", "1.5"; not "1.10" or "99999999999999999999", which stay strings).
var guessCodec = codec{guessUnwrapper, guessWrapper}

func guessUnwrapper(texts map[string]string) map[string]any {
	out := make(map[string]any, len(texts))
	for k, t := range texts {
		out[k] = guessOne(t)
	}
	return out
}

// storedExactly reports whether a scalar stored by a kube-apiserver is
// written back as text: numbers there become int64 or float64.
func storedExactly(v any, text string) bool {
	n, ok := v.(json.Number)
	if !ok {
		return canonicalText(v) == text
	}
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return strconv.FormatInt(i, 10) == text
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		return false
	}
	b, err := json.Marshal(f)
	return err == nil && string(b) == text
}

// canonicalText is the v1beta1 text of a v1beta2 value: a string as it
// is, anything else as compact JSON.
func canonicalText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return string(mustBytes(params.MarshalJSON(nil, v, "")))
}

// wrapParameters turns v1beta2 parameters into the v1beta1 string map
// and the bag of values no text carries.
func wrapParameters(p map[string]any, c codec) (texts map[string]any, bag map[string]any) {
	t, bag := c.wrap(p)
	texts = make(map[string]any, len(t))
	for k, v := range t {
		texts[k] = v
	}
	return texts, bag
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

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

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
