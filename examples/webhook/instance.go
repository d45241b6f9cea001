package webhook

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/jsonx"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/internal/yamlx"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// The kudo.dev group and the versions the webhook converts between.
const (
	Group   = "kudo.dev"
	V1beta1 = "kudo.dev/v1beta1"
	V1beta2 = "kudo.dev/v1beta2"
)

// ParametersAnnotation holds, on a v1beta1 Instance made by down-conversion,
// the v1beta2 values that no v1beta1 text carries exactly (a string "3"
// where the schema allows a string or an integer, a null where it allows
// only strings), as a JSON object. Up-conversion takes a value from it only
// while the v1beta1 text is still the one down-conversion wrote, so an old
// client's edit always wins; v1beta2 objects never carry it.
const ParametersAnnotation = "paramkit.dev/v1beta2-parameters"

// object is a decoded Kubernetes object with the accessors the webhook needs.
type object map[string]any

func decodeObject(raw []byte) (object, error) {
	if len(raw) == 0 {
		return nil, fmt.Errorf("the object is missing")
	}
	v, err := jsonx.Decode(raw)
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

// unwrapper types the text of one top-level v1beta1 parameter.
type unwrapper func(key, text string) any

// schemaUnwrapper types text by the schema node the key lands on.
func schemaUnwrapper(s *schema.Schema) unwrapper {
	root := s.Root()
	return func(key, text string) any { return unwrapText(root.Child(key), text) }
}

// guessUnwrapper types text without a schema, and only where nothing is
// lost: a scalar becomes a number, boolean or null only when a
// kube-apiserver, which reads numbers as int64 or float64, writes that
// value back as exactly the text ("3", "true", "1.5"; not "007", "+1",
// "0x1F", "1E3", "1.10" or "9007199254740993"); a flow or block collection
// is unwrapped only when every plain scalar in it passes the same test.
// Anything else stays a string.
func guessUnwrapper(_, text string) any { return safeGuess(text) }

func safeGuess(text string) any {
	if !utf8.ValidString(text) {
		return text
	}
	v, err := params.ParseText(nil, text)
	if err != nil {
		return text
	}
	switch v.(type) {
	case string:
		return text // never a changed string (block text is folded)
	case map[string]any, []any:
		if collectionIsExact(text) {
			return v
		}
		return text
	}
	if storedExactly(v, text) {
		return v
	}
	return text
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

// collectionIsExact reports whether every plain scalar of a collection
// text reads back to its own text.
func collectionIsExact(text string) bool {
	trimmed := strings.TrimSpace(text)
	var n *yaml.Node
	var err error
	if trimmed != "" && (trimmed[0] == '[' || trimmed[0] == '{') {
		n, err = yamlx.ParseFlow(trimmed)
	} else {
		n, err = yamlx.ParseNode([]byte(text))
	}
	if err != nil || n == nil {
		return false
	}
	budget := 100_000
	var exact func(n *yaml.Node, depth int) bool
	exact = func(n *yaml.Node, depth int) bool {
		budget--
		if budget < 0 || depth > yamlx.MaxDepth {
			return false
		}
		switch n.Kind {
		case yaml.ScalarNode:
			if n.Style&yaml.TaggedStyle != 0 {
				return false
			}
			if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
				return true
			}
			v := yamlx.Core(n.Value)
			if s, ok := v.(string); ok {
				return s == n.Value
			}
			return storedExactly(v, n.Value)
		case yaml.SequenceNode, yaml.MappingNode:
			for i, c := range n.Content {
				if n.Kind == yaml.MappingNode && i%2 == 0 {
					if c.Kind != yaml.ScalarNode || c.Tag == "!!merge" {
						return false
					}
					continue
				}
				if !exact(c, depth+1) {
					return false
				}
			}
			return true
		}
		return false // aliases and anything unusual
	}
	return exact(n, 0)
}

// canonicalText is the v1beta1 text of a v1beta2 value: a string as it
// is, anything else as compact JSON.
func canonicalText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return string(encode.JSON(v, nil, ""))
}

// sameValue is exact equality: numbers by their text, so that 1E3 and
// 1000 count as different and down-conversion keeps the text.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !sameValue(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		return ok && x == y
	}
	return value.Equal(a, b)
}

// wrapParameters turns v1beta2 parameters into the v1beta1 string map:
// each value becomes text that unwraps to exactly the same value (a string
// verbatim where that reads back, else compact JSON). Values no text
// carries exactly go into the returned bag, keyed by parameter name; their
// text is canonicalText.
func wrapParameters(p map[string]any, unwrap unwrapper) (texts map[string]any, bag map[string]any) {
	texts = make(map[string]any, len(p))
	for k, v := range p {
		if s, ok := v.(string); ok && sameValue(unwrap(k, s), v) {
			texts[k] = s
			continue
		}
		if t := string(encode.JSON(v, nil, "")); sameValue(unwrap(k, t), v) {
			texts[k] = t
			continue
		}
		if bag == nil {
			bag = map[string]any{}
		}
		bag[k] = v
		texts[k] = canonicalText(v)
	}
	return texts, bag
}

// unwrapParameters turns the v1beta1 string map into v1beta2 values. A
// value found in the bag is taken from it while its text is still the one
// down-conversion wrote. A non-string value (a hand-written manifest's
// `BACKUP_ENABLED: false`) is taken as it is.
func unwrapParameters(p map[string]any, bag map[string]any, unwrap unwrapper) map[string]any {
	out := make(map[string]any, len(p))
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
		out[k] = unwrap(k, text)
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
	v, err := jsonx.Decode([]byte(raw))
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

// paramPointer is the object pointer of a parameter pointer.
func paramPointer(p string) string { return "/spec/parameters" + p }

// keyPointer is the object pointer of a top-level parameter.
func keyPointer(k string) string { return pointer.Append("/spec/parameters", k) }

// aType names the JSON type of v with its article: "an array".
func aType(v any) string {
	t := value.TypeName(v)
	switch t[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + t
	}
	return "a " + t
}
