package kudo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strconv"

	"github.com/go-openapi/jsonpointer"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/kudoparams"
	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// The versions ConvertObject converts between.
const (
	v1beta1 = kudoparams.V1beta1
	v1beta2 = kudoparams.V1beta2
)

// maxAnnotationBytes is the apiserver's limit on all annotations of an
// object together.
const maxAnnotationBytes = 256 << 10

// ConvertObject converts one kudo.dev object (its JSON, as a conversion
// review carries it) to apiVersion to, kudo.dev/v1beta1 or
// kudo.dev/v1beta2, changing only apiVersion and the converted fields.
// An object already at to is returned as it is; kinds other than Instance
// and OperatorVersion only change apiVersion.
//
// Instance parameters are unwrapped (the v1beta1 string map to typed
// v1beta2 values) or wrapped back by the schema of the operator version
// named in spec.operatorVersion.name, which resolve finds. Both ways are
// lossless: a v1beta2 value no v1beta1 text carries (a null where the
// schema takes only strings, a value its node refuses) rides in
// [convert.ParametersAnnotation] on the way down, and the way up takes it
// back while the text is still the one written on the way down, so an
// old client's edit always wins. Text that cannot take its node's type
// stays the string it was.
//
// resolve returns (nil, nil) when the operator version has no schema and
// the parameters are to be converted by safe guessing instead (the
// rules of convert.UnwrapValues without a schema, keeping only numbers a kube-apiserver writes
// back exactly); any error it returns refuses the object. The option
// GuessWithoutOperatorVersion chooses the same guessing for an Instance
// that names no operator version (without it that is refused).
//
// OperatorVersion parameters go from the v1beta1 list to a schema and
// back (the whole schema rides in [convert.ParametersAnnotation] on the way
// down). An error is a *schema.Error naming the object (Kind
// namespace/name); it wraps the error of resolve, so errors.Is sees a
// resolver's sentinel through it.
func ConvertObject(ctx context.Context, raw []byte, to string, resolve func(ctx context.Context, namespace, name string) (*OperatorVersion, error), opts ...Option) ([]byte, error) {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	out, err := convertObject(ctx, raw, to, o.guess, resolve)
	if err != nil {
		return nil, asSchemaError(err)
	}
	return out, nil
}

// asSchemaError makes err a *schema.Error with the same message: of the
// kind of the *schema.Error it wraps where that kind prints no pointer
// (syntax, limit, not-found), else KindRefused.
func asSchemaError(err error) error {
	kind := schema.KindRefused
	var se *schema.Error
	if errors.As(err, &se) {
		switch se.Kind {
		case schema.KindSyntax, schema.KindLimit, schema.KindNotFound:
			kind = se.Kind
		}
	}
	return schema.NewError(kind, "", "%w", err)
}

func convertObject(ctx context.Context, raw []byte, to string, guess bool, resolve func(ctx context.Context, namespace, name string) (*OperatorVersion, error)) ([]byte, error) {
	if to != v1beta1 && to != v1beta2 {
		return nil, fmt.Errorf("cannot convert to %q: only between %s and %s", to, v1beta1, v1beta2)
	}
	o, err := decodeObject(raw)
	if err != nil {
		return nil, err
	}
	from := o.apiVersion()
	if from == to {
		return raw, nil
	}
	if from != v1beta1 && from != v1beta2 {
		return nil, fmt.Errorf("%s has apiVersion %q; this webhook converts between %s and %s", o.describe(), from, v1beta1, v1beta2)
	}
	switch o.kind() {
	case "Instance":
		err = convertInstance(ctx, o, to, guess, resolve)
	case kindOperatorVersion:
		out, err := convertOperatorVersion(raw, to)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o.describe(), err)
		}
		return out, nil
	}
	// Other kinds (Operator) have the same fields in both versions.
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.describe(), err)
	}
	o["apiVersion"] = to
	return params.MarshalJSON(nil, map[string]any(o), "")
}

// convertInstance converts spec.parameters of an Instance in place.
func convertInstance(ctx context.Context, o object, to string, guess bool, resolve func(ctx context.Context, namespace, name string) (*OperatorVersion, error)) error {
	p, present := o.parameters()
	if !present {
		o.deleteAnnotation(convert.ParametersAnnotation)
		return nil
	}
	m, ok := p.(map[string]any)
	if !ok {
		if to == v1beta1 {
			return fmt.Errorf("spec.parameters is %s; v1beta1 holds parameters as an object of strings", aType(p))
		}
		return fmt.Errorf("spec.parameters is %s, not an object of strings", aType(p))
	}
	c, err := codecFor(ctx, o, guess, resolve)
	if err != nil {
		return err
	}
	if to == v1beta2 {
		bag, _ := decodeBag(o)
		o.spec()["parameters"] = unwrapParameters(m, bag, c)
		o.deleteAnnotation(convert.ParametersAnnotation)
		return nil
	}
	texts, bag := wrapParameters(m, c)
	o.spec()["parameters"] = texts
	if bag == nil {
		o.deleteAnnotation(convert.ParametersAnnotation)
		return nil
	}
	raw := string(mustBytes(params.MarshalJSON(nil, bag, "")))
	if len(raw) > maxAnnotationBytes {
		return fmt.Errorf("the parameters %v have no exact v1beta1 text and are too large (%d bytes) to keep in annotation %s (the apiserver allows %d bytes of annotations)", sortedKeys(bag), len(raw), convert.ParametersAnnotation, maxAnnotationBytes)
	}
	o.setAnnotation(convert.ParametersAnnotation, raw)
	return nil
}

// codecFor finds how to convert the parameters of an Instance: by its
// operator version's schema, else (resolve said so, or guess and no
// name) by safe guessing.
func codecFor(ctx context.Context, o object, guess bool, resolve func(ctx context.Context, namespace, name string) (*OperatorVersion, error)) (codec, error) {
	name, err := o.operatorVersionName()
	if err != nil {
		if guess {
			return guessCodec, nil
		}
		return codec{}, err
	}
	ver, err := resolve(ctx, o.namespace(), name)
	if err != nil {
		return codec{}, err
	}
	if ver == nil {
		return guessCodec, nil
	}
	return schemaCodec(ver.Schema()), nil
}

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

// guessCodec works without a schema: convert.UnwrapValues' safe rules,
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

// decodeBag reads the convert.ParametersAnnotation; a bag that cannot be read is
// ignored (the texts then decide), reported by the error.
func decodeBag(o object) (map[string]any, error) {
	raw, ok := o.annotation(convert.ParametersAnnotation)
	if !ok {
		return nil, nil
	}
	v, err := params.Decode(nil, []byte(raw))
	if err != nil {
		return nil, fmt.Errorf("annotation %s cannot be read: %w", convert.ParametersAnnotation, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("annotation %s is %s, not a JSON object", convert.ParametersAnnotation, aType(v))
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
	t := jsonTypeName(v)
	switch t[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + t
	}
	return "a " + t
}

// jsonTypeName names the JSON type of a value ("integer" for a number with an
// integral value, 2.0 and 1e3 included, as JSON Schema says).
func jsonTypeName(v any) string {
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

// schemaUnwrapper types v1beta1 text by the schema as convert.UnwrapValues
// does. Text that cannot take its node's type stays the string it was, so
// that a stored object with a bad value still converts (and converts back
// to the same text); validation reports it where it matters.
func schemaUnwrapper(s *schema.Schema) unwrapper {
	return func(texts map[string]string) map[string]any {
		out, err := convert.UnwrapValues(s, texts)
		if err == nil {
			return out
		}
		bad := badKeys(err)
		rest := make(map[string]string, len(texts))
		for k, t := range texts {
			// An error without pointers keeps every text.
			if len(bad) > 0 && !bad[k] {
				rest[k] = t
			}
		}
		if out, err = convert.UnwrapValues(s, rest); err != nil {
			out, rest = map[string]any{}, nil
		}
		for k, t := range texts {
			if _, done := rest[k]; !done {
				out[k] = t
			}
		}
		return out
	}
}

// schemaWrapper writes values as v1beta1 text by the schema as
// convert.WrapValues does, returning the values no text carries.
func schemaWrapper(s *schema.Schema) wrapper {
	return func(values map[string]any) (map[string]string, map[string]any) {
		return wrapWith(s, values)
	}
}

// guessWrapper writes values as text that guessUnwrapper reads back: a
// string verbatim where it reads back as itself, else as a JSON string
// literal; anything else as compact JSON. What reads back otherwise (a
// number the apiserver would not keep exactly) goes into the bag.
func guessWrapper(values map[string]any) (map[string]string, map[string]any) {
	texts := make(map[string]string, len(values))
	var bag map[string]any
	for k, v := range values {
		var candidates []string
		if s, ok := v.(string); ok {
			candidates = []string{s, string(mustBytes(params.MarshalJSON(nil, s, "")))}
		} else {
			candidates = []string{string(mustBytes(params.MarshalJSON(nil, v, "")))}
		}
		done := false
		for _, c := range candidates {
			if back := guessOne(c); sameType(back, v) && params.Equal(back, v) {
				texts[k], done = c, true
				break
			}
		}
		if !done {
			if bag == nil {
				bag = map[string]any{}
			}
			bag[k] = v
			texts[k] = canonicalText(v)
		}
	}
	return texts, bag
}

// sameType is true when a and b are both strings or both not strings
// (params.Equal already tells the other types apart).
func sameType(a, b any) bool {
	_, as := a.(string)
	_, bs := b.(string)
	return as == bs
}

func wrapWith(s *schema.Schema, values map[string]any) (map[string]string, map[string]any) {
	texts, err := convert.WrapValues(s, values)
	if err == nil {
		return texts, nil
	}
	bad := badKeys(err)
	bag := make(map[string]any, len(bad))
	rest := make(map[string]any, len(values))
	for k, v := range values {
		if _, isBad := bad[k]; isBad || len(bad) == 0 {
			bag[k] = v
		} else {
			rest[k] = v
		}
	}
	if texts, err = convert.WrapValues(s, rest); err != nil {
		texts, bag = map[string]string{}, values
	}
	for k, v := range bag {
		texts[k] = canonicalText(v)
	}
	return texts, bag
}

// badKeys names the top-level keys a convert error points at.
func badKeys(err error) map[string]bool {
	var ves schema.ErrorList
	if !problem.As(err, &ves) {
		return nil
	}
	out := map[string]bool{}
	for _, e := range ves {
		if p, err := jsonpointer.New(e.Pointer); err == nil && !p.IsEmpty() {
			toks := p.DecodedTokens()
			out[toks[0]] = true
		}
	}
	return out
}

// guessOne types one text by the safe rules of convert.UnwrapValues
// without a schema (which never fail), keeping only what an apiserver
// stores exactly (see guessUnwrapper).
func guessOne(text string) any {
	v, _ := convert.UnwrapValues(nil, map[string]string{"v": text})
	if storable(v["v"]) {
		return v["v"]
	}
	return text
}

// storable reports whether every number in v survives a kube-apiserver,
// which reads numbers as int64 or float64 and writes them back.
func storable(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for _, x := range t {
			if !storable(x) {
				return false
			}
		}
	case []any:
		for _, x := range t {
			if !storable(x) {
				return false
			}
		}
	case string, bool, nil:
	default:
		return storedExactly(v, canonicalText(v))
	}
	return true
}

// convertOperatorVersion converts an OperatorVersion between the v1beta1
// parameter list and the v1beta2 schema (the whole schema rides in
// convert.ParametersAnnotation on the way down, so the way up restores
// it exactly).
func convertOperatorVersion(raw []byte, to string) ([]byte, error) {
	var c *convert.Converted
	var err error
	if to == v1beta2 {
		if c, err = convert.FromV1beta1(raw); err == nil {
			err = keepList(raw, c)
		}
	} else {
		c, err = convert.ToV1beta1(raw)
	}
	if err != nil {
		return nil, err
	}
	doc, ok := c.Document.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the OperatorVersion converted to %s, not an object", aType(c.Document))
	}
	doc["apiVersion"] = to
	return c.JSON("")
}

// keepList keeps the v1beta1 list an old client wrote (raw, converted
// to c) in the list annotation of the v1beta2 object where the schema
// would not give that list back (its order, fields it left out), so that
// convert.ToV1beta1 gives the client its own list back once the object is
// stored as v1beta2 (a stored object keeps no key order). A v1beta2
// object that went down and up stays exactly itself: its list is what the
// schema gives.
func keepList(raw []byte, c *convert.Converted) error {
	if !c.Changed {
		return nil
	}
	in, err := document.Read(raw, document.Options{})
	if err != nil {
		return nil // FromV1beta1 read it: nothing to keep
	}
	spec, _ := mapOf(in.Value)["spec"].(map[string]any)
	list, ok := spec["parameters"].([]any)
	if !ok {
		return nil
	}
	js, err := c.JSON("")
	if err != nil {
		return err
	}
	if down, err := convert.ToV1beta1(js); err == nil {
		if dspec, _ := mapOf(down.Document)["spec"].(map[string]any); value.Equal(dspec["parameters"], list) {
			return nil
		}
	}
	doc := mapOf(c.Document)
	if doc == nil {
		return nil
	}
	md, _ := doc["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		doc["metadata"] = md
	}
	anns, _ := md["annotations"].(map[string]any)
	if anns == nil {
		anns = map[string]any{}
		md["annotations"] = anns
	}
	anns[kudoparams.ListAnnotation] = string(encode.JSON(list, nil, "")) // canonical: sorted keys
	return nil
}

// mapOf is v as an object, nil when it is none.
func mapOf(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// mustBytes is the JSON of a value ConvertObject decoded or built itself,
// a plain value params.MarshalJSON cannot fail on: a failure is a bug,
// never a half-written answer.
func mustBytes(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
