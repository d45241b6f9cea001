package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/kcel"
	"github.com/paramkit/paramkit/internal/kubectlyaml"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// Definition is a CustomResourceDefinition compiled to judge objects of
// its kind as kube-apiserver judges them (Judge): its group, names and
// scope, and each version's schema compiled once. It is safe for
// concurrent use and cannot be changed through what it hands out.
type Definition struct {
	group, kind, plural string
	namespaced          bool
	versions            []definitionVersion
}

type definitionVersion struct {
	name            string
	served, storage bool
	status          bool // the status subresource is on
	schema          *schema.Schema
	rules           bool // the schema has x-kubernetes-validations rules
	// specReplicas is the scale subresource's specReplicasPath
	// (".spec.replicas"), "" without the subresource.
	specReplicas string
}

// ReadDefinition reads a CustomResourceDefinition manifest (YAML or
// JSON; apiextensions.k8s.io/v1, or v1beta1) and compiles the schema of
// each of its versions. The error is a *schema.Error or schema.ErrorList
// pointing into the manifest, as CRDVersions gives.
func ReadDefinition(manifest []byte) (*Definition, error) {
	vs, err := CRDVersions(manifest)
	if err != nil {
		return nil, err
	}
	d, err := document.Read(manifest, document.Options{})
	if err != nil {
		return nil, schema.ErrorsOf(document.AsProblem(err)).Err()
	}
	doc, _ := document.Resolve(d.Value).(map[string]any)
	spec, _ := doc["spec"].(map[string]any)
	names, _ := spec["names"].(map[string]any)
	def := &Definition{}
	def.group, _ = spec["group"].(string)
	def.kind, _ = names["kind"].(string)
	def.plural, _ = names["plural"].(string)
	scope, _ := spec["scope"].(string)
	def.namespaced = scope != "Cluster"
	var errs schema.ErrorList
	if def.group == "" {
		errs = append(errs, schema.NewError(schema.KindNotSchema, "/spec/group", "the CustomResourceDefinition names no group"))
	}
	if def.kind == "" {
		errs = append(errs, schema.NewError(schema.KindNotSchema, "/spec/names/kind", "the CustomResourceDefinition names no kind"))
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	// The status subresource: per version (v1), or for all (v1beta1's
	// spec.subresources).
	_, common := subresources(spec)["status"]
	commonReplicas := specReplicasPath(subresources(spec))
	raw, _ := spec["versions"].([]any)
	status := map[string]bool{}
	replicas := map[string]string{}
	for _, r := range raw {
		m, _ := r.(map[string]any)
		name, _ := m["name"].(string)
		_, own := subresources(m)["status"]
		status[name] = own || common
		replicas[name] = specReplicasPath(subresources(m))
	}
	for _, v := range vs {
		st, ok := status[v.Name]
		if !ok {
			st = common
		}
		sr := replicas[v.Name]
		if sr == "" {
			sr = commonReplicas
		}
		def.versions = append(def.versions, definitionVersion{name: v.Name, served: v.Served, storage: v.Storage, status: st, schema: v.Schema,
			rules: hasRules(v.Schema.Document(), 0), specReplicas: sr})
	}
	return def, nil
}

// specReplicasPath is the scale subresource's specReplicasPath among a
// CRD's subresources, "" without one.
func specReplicasPath(sub map[string]any) string {
	scale, _ := sub["scale"].(map[string]any)
	p, _ := scale["specReplicasPath"].(string)
	return p
}

func subresources(m map[string]any) map[string]any {
	s, _ := m["subresources"].(map[string]any)
	return s
}

// Group is the API group of the kind (example.com).
func (d *Definition) Group() string { return d.group }

// Kind is the kind the definition defines (Widget).
func (d *Definition) Kind() string { return d.kind }

// Namespaced reports whether objects of the kind live in a namespace.
func (d *Definition) Namespaced() bool { return d.namespaced }

// Versions are the names of the versions that declare a schema, in
// manifest order.
func (d *Definition) Versions() []string {
	out := make([]string, len(d.versions))
	for i, v := range d.versions {
		out[i] = v.name
	}
	return out
}

// Defines reports whether an object of apiVersion and kind is of this
// definition's group and kind (whatever its version), so that a caller
// holding several definitions picks the one that judges an object.
func (d *Definition) Defines(apiVersion, kind string) bool {
	group, _ := splitAPIVersion(apiVersion)
	return d != nil && group == d.group && kind == d.kind
}

// FieldValidation is what Judge does with a field the schema does not
// declare, as the apiserver's fieldValidation parameter says: every such
// field is pruned, and Strict (kubectl's default) refuses the object
// naming each, Warn names each in a warning, Ignore says nothing.
type FieldValidation string

// The field validation modes of the apiserver.
const (
	FieldValidationStrict FieldValidation = "Strict"
	FieldValidationWarn   FieldValidation = "Warn"
	FieldValidationIgnore FieldValidation = "Ignore"
)

// JudgeOptions are the request around an object: an update's stored
// object and the field validation mode. The zero value is a create under
// Strict field validation.
type JudgeOptions struct {
	// Old is the stored object (YAML or JSON) for an update; nil for a
	// create.
	Old []byte
	// FieldValidation is Strict when empty.
	FieldValidation FieldValidation
}

// Verdict is the apiserver's verdict on one object.
type Verdict struct {
	// Object is the object as the apiserver would store it: pruned,
	// defaulted, status as the subresource leaves it. It is nil when the
	// object was refused before its schema could be applied (its
	// identity).
	Object map[string]any
	// Errors refuse the object; each has its pointer in the object (its
	// Kubernetes field path from FieldPath("")), the line in the text
	// where known, and a Kind (CauseType gives Kubernetes' cause type).
	// They are sorted by place in the document, then pointer.
	Errors schema.ErrorList
	// Warnings are what the apiserver would warn of (unknown fields
	// under FieldValidationWarn).
	Warnings schema.ErrorList
}

// Valid reports whether the apiserver would accept the object.
func (v *Verdict) Valid() bool { return v != nil && len(v.Errors) == 0 }

// Judge judges one object (a YAML or JSON document) as kube-apiserver
// judges a create, or an update when o.Old is set, of a custom resource
// under this definition, in the apiserver's order:
//
//   - the object is read as kubectl sends it (sigs.k8s.io/yaml: yes is a
//     boolean, 1.10 is 1.1, an unquoted 2160 is a number), and where
//     paramkit's schema-typed reading differs at a refused value the
//     error says how to write it (quote it);
//   - its identity: apiVersion and kind name the definition's group and
//     kind and a served version, whose schema then judges it;
//   - metadata as the apiserver checks a custom resource's: name or
//     generateName (lowercase RFC 1123 subdomain; the name generated from
//     it too), namespace, labels, annotations and their total size,
//     finalizers, owner references, timestamps that must decode;
//   - unknown fields (of the status too) pruned by the structural schema
//     (x-kubernetes-preserve-unknown-fields and
//     x-kubernetes-embedded-resource honoured), reported as
//     o.FieldValidation says;
//   - nulls of non-nullable fields dropped and defaults applied as the
//     apiserver defaults; status dropped on a create and kept as stored
//     on an update where the status subresource is on;
//   - validation by the version's schema as Kubernetes reads it
//     (nullable, x-kubernetes-int-or-string, the apiserver's formats, list
//     types) and of the scale subresource's replicas (0 to 2147483647
//     where specReplicasPath points), then its x-kubernetes-validations
//     CEL rules (at the root, apiVersion, kind, metadata.name and
//     metadata.generateName visible), transition rules (oldSelf) against
//     the stored object on an update; as the apiserver, the rules do not
//     run on an object already refused for a type (a broken string format
//     and an integer decoded as a float included), a required or enum
//     value, or a length, in its metadata too (an owner reference without
//     uid, no name);
//   - on an update, validation ratchets as the apiserver's does: an
//     error of a value equal to its stored one (or to the stored value
//     of its nearest ancestor that correlates) is not reported.
//
// The error is for what is not an object at all (text that cannot be
// read, a document that is not a map): the apiserver would not get that
// far. A nil or zero Definition gives an error of kind schema.KindUsage.
func (d *Definition) Judge(ctx context.Context, object []byte, o *JudgeOptions) (*Verdict, error) {
	if d == nil || d.kind == "" {
		return nil, schema.NewError(schema.KindUsage, "", "kube: Judge on a Definition not made by ReadDefinition")
	}
	if ctx == nil {
		return nil, schema.NewError(schema.KindUsage, "", "kube: Judge needs a context")
	}
	if o == nil {
		o = &JudgeOptions{}
	}
	mode := o.FieldValidation
	switch mode {
	case "":
		mode = FieldValidationStrict
	case FieldValidationStrict, FieldValidationWarn, FieldValidationIgnore:
	default:
		return nil, schema.NewError(schema.KindUsage, "", "kube: field validation %q is none of Strict, Warn and Ignore", mode)
	}
	obj, err := readObject(object)
	if err != nil {
		return nil, err
	}
	var old map[string]any
	if o.Old != nil {
		if old, err = readObject(o.Old); err != nil {
			return nil, fmt.Errorf("the stored object: %w", err)
		}
	}
	j := &judgement{def: d, text: object}
	v := j.run(ctx, obj, old, mode)
	return v, ctx.Err()
}

// readObject reads a manifest document as kubectl does; it must be a map.
func readObject(data []byte) (map[string]any, error) {
	v, err := kubectlyaml.Read(data)
	if err != nil {
		return nil, schema.NewError(schema.KindSyntax, "", "%s", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, schema.NewError(schema.KindType, "", "a Kubernetes object is a map of apiVersion, kind, metadata and its fields, not %s", describe(v))
	}
	return m, nil
}

// judgement is one Judge call.
type judgement struct {
	def    *Definition
	text   []byte
	node   *yaml.Node // the text parsed by paramkit, for lines; lazily
	parsed bool
	// typed is the text as paramkit's schema-typed reading reads it, for
	// hints; read once, on the first type error.
	typed    any
	typedErr error
	decoded  bool
	errs     schema.ErrorList
	warnings schema.ErrorList
}

func (j *judgement) fail(kind schema.Kind, ptr, format string, args ...any) *schema.Error {
	e := schema.NewError(kind, ptr, format, args...)
	j.errs = append(j.errs, e)
	return e
}

func (j *judgement) run(ctx context.Context, obj, old map[string]any, mode FieldValidation) *Verdict {
	ver := j.identity(obj)
	if ver == nil {
		return j.verdict(nil)
	}
	validateMetadata(j, obj, old)
	s := ver.schema
	// Unknown fields: the apiserver's strict decoding reads the whole
	// body, status included, before the status is reset below.
	var pruned []string
	pruneObject(obj, s.Root(), "", true, &pruned, 0)
	// Status: the main resource does not write it where the subresource
	// is on.
	if ver.status {
		if old == nil {
			delete(obj, "status")
		} else if st, ok := old["status"]; ok {
			obj["status"] = value.DeepCopy(st)
			var stored []string // the stored status: pruned when stored
			pruneObject(obj, s.Root(), "", true, &stored, 0)
		} else {
			delete(obj, "status")
		}
	}
	for _, p := range pruned {
		fp := schema.NewError(schema.KindUndeclared, p, "").FieldPath("")
		switch mode {
		case FieldValidationStrict:
			j.fail(schema.KindUndeclared, p, "unknown field %q", fp)
		case FieldValidationWarn:
			j.warnings = append(j.warnings, schema.NewError(schema.KindUndeclared, p, "unknown field %q", fp))
		}
	}
	if ctx.Err() != nil {
		return j.verdict(obj)
	}
	dv, err := params.Default(s, obj, params.Structural())
	if err != nil {
		j.errs = append(j.errs, schema.ErrorsOf(err)...)
		return j.verdict(obj)
	}
	obj, _ = dv.(map[string]any)
	embeddedResources(j, obj, s.Root(), "", false, 0)
	// Metadata and embedded resources are checked before the rules: a
	// required value missing there blocks them as it does in the schema
	// (rulesNotRun below).
	var verr error
	if old != nil {
		// Transition rules (oldSelf) judge the change against the stored
		// object, as the apiserver holds it: pruned and defaulted.
		stored := value.DeepCopy(old).(map[string]any)
		var none []string
		pruneObject(stored, s.Root(), "", true, &none, 0)
		do, err := params.Default(s, stored, params.Structural())
		if err != nil {
			do = stored
		}
		verr = params.ValidateUpdate(s, obj, do, params.Structural())
	} else {
		verr = params.Validate(s, withGeneratedName(obj), params.Structural())
	}
	for _, e := range schema.ErrorsOf(verr) {
		j.errs = append(j.errs, j.hint(e, ver.schema))
	}
	kubeNumbers(j, obj, s.Root(), "", 0)
	if ver.specReplicas != "" {
		j.scaleReplicas(obj, ver.specReplicas)
	}
	if ver.rules && blocksRules(j.errs) {
		j.rulesNotRun()
	}
	return j.verdict(obj)
}

// scaleReplicas judges the replicas at the scale subresource's
// specReplicasPath as the apiserver's ValidateScaleSpec does on every
// create and update, whatever the schema says: absent, or an integer from
// 0 to 2147483647. The apiserver names the field by the path as the CRD
// writes it (".spec.replicas"); paramkit by its pointer.
func (j *judgement) scaleReplicas(obj map[string]any, path string) {
	var cur any = obj
	ptr := ""
	for _, key := range strings.Split(strings.TrimPrefix(path, "."), ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			j.fail(schema.KindInvalid, ptr, "Invalid value: 0: %s accessor error: %v is of the type %s, expected map[string]interface{}", path, cur, goType(cur))
			return
		}
		if cur, ok = m[key]; !ok || cur == nil {
			return
		}
		ptr += "/" + pointer.Escape(key)
	}
	n, isNum := cur.(json.Number)
	v, err := strconv.ParseInt(string(n), 10, 64)
	switch {
	case !isNum || err != nil:
		j.fail(schema.KindInvalid, ptr, "Invalid value: 0: %s accessor error: %v is of the type %s, expected int64", path, cur, goType(cur))
	case v < 0:
		j.fail(schema.KindInvalid, ptr, "Invalid value: %d: should be a non-negative integer", v)
	case v > math.MaxInt32:
		j.fail(schema.KindInvalid, ptr, "Invalid value: %d: should be less than or equal to %d", v, math.MaxInt32)
	}
}

// goType is the Go type the apiserver's unstructured object holds a
// decoded JSON value as, for its accessor errors.
func goType(v any) string {
	switch t := v.(type) {
	case string:
		return "string"
	case bool:
		return "bool"
	case json.Number:
		if _, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return "int64"
		}
		return "float64"
	case []any:
		return "[]interface {}"
	case map[string]any:
		return "map[string]interface {}"
	}
	return "<nil>"
}

// blocksRules reports whether errors hold one that keeps kube-apiserver
// from running x-kubernetes-validations rules (apiextensions-apiserver's
// hasBlockingErr over all its errors, metadata's and decoding's too): a
// wrong type (a string format broken, an integer decoded as a float), a
// missing required value, a value outside an enum, too long or too many.
func blocksRules(errs schema.ErrorList) bool {
	for _, e := range errs {
		if e.Keyword == "x-kubernetes-validations" {
			continue // the rules' own results, whatever their reason
		}
		switch e.Kind {
		case schema.KindType, schema.KindRequired, schema.KindEnum:
			return true
		}
		switch e.Keyword {
		case "maxLength", "maxItems", "maxProperties":
			return true
		case "format":
			if strings.HasPrefix(e.Message, "must be of type ") {
				return true
			}
		}
	}
	return false
}

// rulesNotRun replaces what the rules found by the one error saying
// they did not run: the schema ran them on a value only Judge refused
// (its metadata, an integer the apiserver decodes as a float).
func (j *judgement) rulesNotRun() {
	out := j.errs[:0]
	for _, e := range j.errs {
		if e.Keyword != "x-kubernetes-validations" {
			out = append(out, e)
		}
	}
	j.errs = out
	e := j.fail(schema.KindInvalid, "", kcel.RulesNotChecked)
	e.Keyword = "x-kubernetes-validations"
}

// hasRules reports whether a schema document holds an
// x-kubernetes-validations rule anywhere.
func hasRules(doc any, depth int) bool {
	if depth > document.MaxDepth {
		return false
	}
	switch t := doc.(type) {
	case map[string]any:
		if r, ok := t["x-kubernetes-validations"].([]any); ok && len(r) > 0 {
			return true
		}
		for _, c := range t {
			if hasRules(c, depth+1) {
				return true
			}
		}
	case []any:
		for _, c := range t {
			if hasRules(c, depth+1) {
				return true
			}
		}
	}
	return false
}

// generatedSuffix stands for the five random characters the apiserver
// appends to a generateName (from its alphabet
// bcdfghjklmnpqrstvwxz2456789).
const generatedSuffix = "xxxxx"

// generatedPrefix is the part of a generateName the apiserver keeps
// before the random characters.
func generatedPrefix(gen string) string {
	if len(gen) > maxGeneratedNameLength {
		return gen[:maxGeneratedNameLength]
	}
	return gen
}

// withGeneratedName is obj as the apiserver validates a create that has a
// generateName and no name: the name made from it, the generateName cut
// to 58 characters and five random ones added (so that rules at the root
// read a metadata.name). obj itself is left as it is.
func withGeneratedName(obj map[string]any) map[string]any {
	meta, _ := obj["metadata"].(map[string]any)
	gen, _ := meta["generateName"].(string)
	if name, _ := meta["name"].(string); name != "" || gen == "" {
		return obj
	}
	c := maps.Clone(obj)
	m := maps.Clone(meta)
	m["name"] = generatedPrefix(gen) + generatedSuffix
	c["metadata"] = m
	return c
}

// verdict sorts what was found by place in the document and returns it.
func (j *judgement) verdict(obj map[string]any) *Verdict {
	j.locate(j.errs)
	j.locate(j.warnings)
	j.errs.Sort()
	j.warnings.Sort()
	return &Verdict{Object: obj, Errors: j.errs, Warnings: j.warnings}
}

// locate gives each error the line and column of its pointer in the
// text, as paramkit reads it (the nearest ancestor where the value is
// not written).
func (j *judgement) locate(l schema.ErrorList) {
	if len(l) == 0 {
		return
	}
	if !j.parsed {
		j.parsed = true
		j.node, _ = document.ParseNode(j.text)
	}
	if j.node == nil {
		return
	}
	for _, e := range l {
		if e.Line == 0 {
			e.Line, e.Column, _ = document.Locate(j.node, e.Pointer)
		}
	}
}

// identity checks apiVersion and kind against the definition and
// returns the version that judges the object, or nil (an error said why).
func (j *judgement) identity(obj map[string]any) *definitionVersion {
	d := j.def
	av, ok := obj["apiVersion"].(string)
	if !ok || av == "" {
		j.fail(schema.KindRequired, "/apiVersion", "Object 'apiVersion' is missing: a %s has apiVersion %s/VERSION", d.kind, d.group)
		return nil
	}
	kind, ok := obj["kind"].(string)
	if !ok || kind == "" {
		j.fail(schema.KindRequired, "/kind", "Object 'Kind' is missing: this definition's kind is %s", d.kind)
		return nil
	}
	group, version := splitAPIVersion(av)
	if group != d.group || kind != d.kind {
		j.fail(schema.KindNotFound, "/kind", "no %s in %s: the CustomResourceDefinition defines %s in group %s", kind, av, d.kind, d.group)
		return nil
	}
	var served []string
	var ver *definitionVersion
	for i := range d.versions {
		v := &d.versions[i]
		if v.served {
			served = append(served, v.name)
			if v.name == version {
				ver = v
			}
		}
	}
	if ver == nil {
		j.fail(schema.KindNotFound, "/apiVersion", "the server could not find the requested resource: %s is not a served version of %s (served: %s)", version, d.kind, strings.Join(served, ", "))
		return nil
	}
	return ver
}

// hint adds to a validation error at a value that paramkit's
// schema-typed reading would have read as the schema wants (an unquoted
// 2160 on a string field) how to write it so that kubectl sends that.
func (j *judgement) hint(e *schema.Error, s *schema.Schema) *schema.Error {
	if e.Kind != schema.KindType || e.Pointer == "" || s.SecretAt(e.Pointer) {
		return e
	}
	if !j.decoded {
		j.decoded = true
		j.typed, j.typedErr = params.Decode(s, j.text)
	}
	if j.typedErr != nil {
		return e
	}
	want, ok := pointer.Get(j.typed, e.Pointer)
	if !ok {
		return e
	}
	str, isStr := want.(string)
	if n := s.Lookup(e.Pointer); !isStr || n == nil || !n.Allows("string") {
		return e
	}
	c := *e
	c.Message = fmt.Sprintf("%s (kubectl reads the unquoted %s as %s: write %q to send a string)", e.Message, str, kubectlWord(str), str)
	return &c
}

// kubectlWord says what kubectl's YAML 1.1 reading makes of text.
func kubectlWord(text string) string {
	v, err := kubectlyaml.Read([]byte("v: " + text))
	if m, ok := v.(map[string]any); ok && err == nil {
		return describe(m["v"])
	}
	return "another type"
}

// pruneObject removes, in place, the fields of x that the structural
// schema n does not declare, adding their pointers to pruned: keys of an
// object with properties (or none) and no additionalProperties schema,
// unless x-kubernetes-preserve-unknown-fields keeps them. The root and
// embedded resources keep apiVersion, kind and metadata; metadata keeps
// ObjectMeta's fields.
func pruneObject(x any, n *schema.Node, ptr string, root bool, pruned *[]string, depth int) {
	if n == nil || depth > document.MaxDepth {
		return
	}
	switch t := x.(type) {
	case map[string]any:
		embedded := root || boolKeyword(n, "x-kubernetes-embedded-resource")
		preserve := boolKeyword(n, "x-kubernetes-preserve-unknown-fields")
		ap := n.AdditionalProperties()
		for _, k := range slices.Sorted(maps.Keys(t)) {
			p := ptr + "/" + pointer.Escape(k)
			if embedded && (k == "apiVersion" || k == "kind") {
				continue
			}
			if embedded && k == "metadata" {
				pruneMetadata(t[k], p, pruned)
				if root {
					continue
				}
			}
			if c := n.Property(k); c != nil {
				pruneObject(t[k], c, p, false, pruned, depth+1)
				continue
			}
			if ap != nil && !ap.IsFalse() {
				pruneObject(t[k], ap, p, false, pruned, depth+1)
				continue
			}
			if preserve || (embedded && k == "metadata") {
				continue
			}
			delete(t, k)
			*pruned = append(*pruned, p)
		}
	case []any:
		items := n.Items()
		for i, e := range t {
			pruneObject(e, items, fmt.Sprintf("%s/%d", ptr, i), false, pruned, depth+1)
		}
	}
}

// objectMetaFields are the JSON names of metav1.ObjectMeta's fields.
var objectMetaFields = map[string]bool{
	"name": true, "generateName": true, "namespace": true, "selfLink": true, "uid": true,
	"resourceVersion": true, "generation": true, "creationTimestamp": true, "deletionTimestamp": true,
	"deletionGracePeriodSeconds": true, "labels": true, "annotations": true, "ownerReferences": true,
	"finalizers": true, "managedFields": true,
}

func pruneMetadata(x any, ptr string, pruned *[]string) {
	m, ok := x.(map[string]any)
	if !ok {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !objectMetaFields[k] {
			delete(m, k)
			*pruned = append(*pruned, ptr+"/"+pointer.Escape(k))
		}
	}
}

func boolKeyword(n *schema.Node, name string) bool {
	v, _ := n.Keyword(name)
	b, _ := v.(bool)
	return b
}

// embeddedResources checks the objects below x-kubernetes-embedded-resource
// nodes as the apiserver does (apiextensions' schema/objectmeta
// validateEmbeddedResource): apiVersion and kind are required, a string,
// not empty; apiVersion parses as GROUP/VERSION, kind is a DNS-1035 label
// in any case; their metadata is checked as objectMeta says.
func embeddedResources(j *judgement, x any, n *schema.Node, ptr string, embedded bool, depth int) {
	if n == nil || x == nil || depth > document.MaxDepth {
		return
	}
	switch t := x.(type) {
	case map[string]any:
		if embedded && boolKeyword(n, "x-kubernetes-embedded-resource") {
			embeddedIdentity(j, t, ptr)
			if meta, ok := t["metadata"].(map[string]any); ok {
				objectMeta(j, meta, ptr+"/metadata", true)
			}
		}
		ap := n.AdditionalProperties()
		for _, k := range slices.Sorted(maps.Keys(t)) {
			c := n.Property(k)
			if c == nil {
				c = ap
			}
			embeddedResources(j, t[k], c, ptr+"/"+pointer.Escape(k), true, depth+1)
		}
	case []any:
		for i, e := range t {
			embeddedResources(j, e, n.Items(), pointer.AppendIndex(ptr, i), true, depth+1)
		}
	}
}

func embeddedIdentity(j *judgement, m map[string]any, ptr string) {
	for _, key := range []string{"apiVersion", "kind"} {
		p := ptr + "/" + key
		v, found := m[key]
		if !found {
			j.fail(schema.KindRequired, p, "Required value")
			continue
		}
		str, ok := v.(string)
		switch {
		case !ok:
			j.fail(schema.KindInvalid, p, "Invalid value: %s: must be a string", quoteValue(v))
		case str == "":
			j.fail(schema.KindInvalid, p, "Invalid value: \"\": must not be empty")
		case key == "apiVersion" && strings.Count(str, "/") > 1:
			j.fail(schema.KindInvalid, p, "Invalid value: %q: unexpected GroupVersion string: %s", str, str)
		case key == "kind" && !dns1035Label(strings.ToLower(str)):
			j.fail(schema.KindInvalid, p, "Invalid value: %q: may have mixed case, but should otherwise match: %s", str, dns1035LabelMsg)
		}
	}
}

// kubeNumbers refuses what the apiserver's decoding and OpenAPI
// validation refuse where JSON Schema accepts: a node marked
// x-kubernetes-int-or-string holds an integer or a string (8080.5 and
// true are neither), and an integer node holds an integer the apiserver
// decodes as one (an int64; 1e+23, which kubectl sends for
// 99999999999999999999999, decodes as a float and is refused).
func kubeNumbers(j *judgement, x any, n *schema.Node, ptr string, depth int) {
	if n == nil || x == nil || depth > document.MaxDepth {
		return
	}
	if boolKeyword(n, "x-kubernetes-int-or-string") {
		switch t := x.(type) {
		case string:
			return
		case json.Number:
			if _, err := strconv.ParseInt(t.String(), 10, 64); err == nil {
				return
			}
		}
		j.fail(schema.KindType, ptr, "must be of type integer or string, not %s", describe(x))
		return
	}
	if num, ok := x.(json.Number); ok && n.Allows("integer") && !n.Allows("number") {
		if _, err := strconv.ParseInt(num.String(), 10, 64); err != nil && integral(num) && !(n.Format() == "int64" && inFloatRange(num)) {
			j.fail(schema.KindType, ptr, "must be of type integer: the apiserver decodes %s as a floating-point number", num)
		}
		return
	}
	switch t := x.(type) {
	case map[string]any:
		ap := n.AdditionalProperties()
		for k, v := range t {
			c := n.Property(k)
			if c == nil {
				c = ap
			}
			kubeNumbers(j, v, c, ptr+"/"+pointer.Escape(k), depth+1)
		}
	case []any:
		for i, e := range t {
			kubeNumbers(j, e, n.Items(), fmt.Sprintf("%s/%d", ptr, i), depth+1)
		}
	}
}

// integral reports whether number text is an integer in value (1e+23 is,
// 1.5 is not); JSON Schema's integer.
func integral(n json.Number) bool {
	r, ok := new(big.Rat).SetString(n.String())
	return ok && r.IsInt()
}

// inFloatRange reports whether an integral number is one a float64 holds
// exactly as a JSON integer (go-openapi's IsFloat64AJSONInteger bounds).
func inFloatRange(n json.Number) bool {
	r, ok := new(big.Rat).SetString(n.String())
	if !ok {
		return false
	}
	limit := new(big.Rat).SetInt64(1<<53 - 1)
	return r.Cmp(limit) <= 0 && r.Cmp(new(big.Rat).Neg(limit)) >= 0
}

// describe names the kind of a value for a message ("a string", "a
// list", "an object").
func describe(v any) string { return value.Describe(v, "a list", "an object") }
