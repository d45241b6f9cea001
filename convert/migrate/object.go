package migrate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/schema"
)

// ObjectTarget names what a Kubernetes object converted by
// VersionSet.ConvertObject becomes. A struct, so that what a conversion
// can set grows without changing ConvertObject's signature.
type ObjectTarget struct {
	// APIVersion is the object's new apiVersion, GROUP/VERSION (or a
	// core VERSION); required.
	APIVersion string
	// Kind replaces the object's kind when not empty.
	Kind string
}

// keptMetadata are the metadata fields an object keeps when it is
// rewritten for another version: what its author set. The rest (uid,
// resourceVersion, generation, creationTimestamp, managedFields, selfLink,
// deletionTimestamp, deletionGracePeriodSeconds) is set by the server, and
// an object carrying it could not be created under the new group.
var keptMetadata = []string{"name", "generateName", "namespace", "labels", "annotations", "ownerReferences", "finalizers"}

// ConvertObject converts one stored Kubernetes object of version from to
// version to. The versions' schemas describe the whole object (as a CRD
// version's openAPIV3Schema does); apiVersion, kind and metadata are set
// aside, the rest converts as Convert does, and the object is put back
// together with target's apiVersion and kind (the object's own when
// target.Kind is "") and the metadata its author set (name, generateName,
// namespace, labels, annotations, ownerReferences, finalizers; what the
// server sets, such as uid, resourceVersion and managedFields, is left
// out), so that the result can be applied to a cluster. The input is not
// modified.
func (s *VersionSet) ConvertObject(obj any, from, to string, target ObjectTarget, opts ...Option) (Result, error) {
	if err := checkAPIVersion(target.APIVersion); err != nil {
		return Result{}, err
	}
	i, j, o, err := s.start(from, to, opts)
	if err != nil {
		return Result{}, err
	}
	return done(s.convertObject(obj, i, j, target, o))
}

// ConvertObjectDocument reads one YAML or JSON document holding a stored
// Kubernetes object of version from and converts it as ConvertObject
// does. The document is read as ConvertDocument reads one, by from's
// schema (which describes the whole object): a YAML plain scalar no node
// of from types keeps its text until a node of a version on the way types
// it, and otherwise means what YAML 1.2 core rules say. The error is
// ConvertObject's (Convert's), or a *schema.Error for a document that
// cannot be read (with the zero Result).
func (s *VersionSet) ConvertObjectDocument(data []byte, from, to string, target ObjectTarget, opts ...Option) (Result, error) {
	if err := checkAPIVersion(target.APIVersion); err != nil {
		return Result{}, err
	}
	i, j, o, err := s.start(from, to, opts)
	if err != nil {
		return Result{}, err
	}
	obj, err := decodeDocument(s.versions[i].Schema, data)
	if err != nil {
		return Result{}, readError(err)
	}
	return done(s.convertObject(obj, i, j, target, o))
}

func (s *VersionSet) convertObject(obj any, i, j int, target ObjectTarget, o options) (Result, schema.ErrorList) {
	m, ok := obj.(map[string]any)
	if !ok {
		res := Result{Values: obj}
		settleResult(&res)
		return res, schema.ErrorList{{Kind: schema.KindType, Message: fmt.Sprintf("a Kubernetes object is an object, not %s", typeOfValue(obj))}}
	}
	kind, _ := textValue(m["kind"])
	if target.Kind != "" {
		kind = target.Kind
	}
	var errs schema.ErrorList
	if kind == "" {
		errs = append(errs, &schema.Error{Pointer: "/kind", Kind: schema.KindRequired, Message: "the object has no kind (give the new one)"})
	}
	body := make(map[string]any, len(m))
	for k, x := range m {
		if k != "apiVersion" && k != "kind" && k != "metadata" {
			body[k] = x
		}
	}
	meta, err := keepMetadata(m["metadata"])
	if err != nil {
		errs = append(errs, err)
	}
	res, runErrs := s.run(body, i, j, o, s.refusal(j, i) == nil)
	out, ok := res.Values.(map[string]any)
	if !ok {
		out = map[string]any{}
	}
	out["apiVersion"] = target.APIVersion
	out["kind"] = kind
	if meta != nil {
		out["metadata"] = meta
	}
	res.Values = out
	return res, append(errs, runErrs...)
}

func checkAPIVersion(av string) error {
	group, version, ok := strings.Cut(av, "/")
	if av == "" || (ok && (group == "" || version == "" || strings.Contains(version, "/"))) {
		return schema.NewError(schema.KindUsage, "", "migrate: %q is not an apiVersion (GROUP/VERSION, or VERSION for the core group)", av)
	}
	return nil
}

func keepMetadata(v any) (map[string]any, *schema.Error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, &schema.Error{Pointer: "/metadata", Kind: schema.KindType, Message: fmt.Sprintf("metadata is %s, not an object", typeOfValue(v))}
	}
	out := make(map[string]any, len(keptMetadata))
	for _, k := range keptMetadata {
		if x, has := m[k]; has {
			// A copy, with text no node typed settled as in the Result.
			out[k] = document.Resolve(x)
		}
	}
	return out, nil
}

// RewriteObjects is the operator's start-up rewrite of stored objects (the
// BareMetalHost v1alpha2 document's chosen approach): given the objects
// read in the old format, it returns them in the new one and a Result for
// each (what was dropped, what changed lossily), changing nothing else.
// It fails as a whole, before converting anything, when the set refuses
// the direction or does not know a version (nil slices). Otherwise every
// object is converted, and the error gathers the failures of all of them,
// each at its pointer into objects: /3/spec/clockSpeed is object 3's
// /spec/clockSpeed. An object with an error under its index failed and is
// not to be written back; its Result is meaningful as Result says.
func (s *VersionSet) RewriteObjects(objects []any, from, to, apiVersion, kind string, opts ...Option) ([]any, []Result, error) {
	target := ObjectTarget{APIVersion: apiVersion, Kind: kind}
	if err := checkAPIVersion(target.APIVersion); err != nil {
		return nil, nil, err
	}
	i, j, o, err := s.start(from, to, opts)
	if err != nil {
		return nil, nil, err
	}
	out := make([]any, len(objects))
	results := make([]Result, len(objects))
	var errs schema.ErrorList
	for n, obj := range objects {
		r, objErrs := s.convertObject(obj, i, j, target, o)
		out[n], results[n] = r.Values, r
		at := "/" + strconv.Itoa(n)
		for _, e := range objErrs {
			c := *e
			c.Pointer = at + c.Pointer
			errs = append(errs, &c)
		}
	}
	return out, results, errs.Err()
}
