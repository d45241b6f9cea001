// Package crdread reads the schemas a CustomResourceDefinition manifest
// declares, one per version. It is shared by the packages that read a
// schema from a CRD: convert.LoadSchema (one version, compiled), lint
// (every version, as written) and kube's CRDVersions (the public
// listing). Its errors are *problem.Error values, which each public
// package turns into a *schema.Error through schema.ErrorsOf.
package crdread

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/internal/value"
)

// The kinds of the errors of this package, with the values of
// schema.KindNotSchema and schema.KindNotFound (schema.ErrorsOf keeps a
// problem's kind as it is).
const (
	NotSchema problem.Kind = "not-schema"
	NotFound  problem.Kind = "not-found"
)

// Version is one version of a CustomResourceDefinition manifest and the
// schema it declares.
type Version struct {
	// Name is the version's name (v1, v1beta1).
	Name string
	// Storage and Served are the version's flags.
	Storage, Served bool
	// Pointer locates the schema in the manifest
	// (/spec/versions/1/schema/openAPIV3Schema).
	Pointer string
	// Schema is the openAPIV3Schema as plain values (numbers json.Number).
	Schema any

	order map[string][]string // key order below Schema
}

// JSON writes the version's schema as JSON, keys in manifest order.
func (v *Version) JSON() ([]byte, error) {
	doc, err := value.Plain(v.Schema)
	if err != nil {
		return nil, err
	}
	return encode.JSON(doc, encode.ByKeyOrder(v.order), ""), nil
}

// IsCRD reports whether data is a CustomResourceDefinition manifest.
func IsCRD(data []byte) bool {
	if !bytes.Contains(data, []byte("CustomResourceDefinition")) {
		return false
	}
	d, err := document.Read(data, document.Options{KeepText: true})
	if err != nil {
		return false
	}
	m, _ := d.Value.(map[string]any)
	kind, _ := document.ScalarText(m["kind"])
	return kind == "CustomResourceDefinition"
}

// Versions reads a CustomResourceDefinition manifest (apiextensions v1,
// or v1beta1 with a schema per version or one in spec.validation) and
// returns each version that declares a schema, in manifest order. The
// error is the reader's for unreadable input, or a *problem.Error of kind
// NotSchema for a manifest that is no CRD, NotFound for one that declares
// no schema.
func Versions(data []byte) ([]Version, error) {
	d, err := document.Read(data, ReadOptions())
	if err != nil {
		return nil, document.AsProblem(err)
	}
	return VersionsOf(d)
}

// ReadOptions are the options VersionsOf needs a document read with.
func ReadOptions() document.Options { return document.Options{KeepText: true, Order: true} }

// IsCRDValue reports whether v, a document read with ReadOptions, is a
// CustomResourceDefinition manifest.
func IsCRDValue(v any) bool {
	m, _ := v.(map[string]any)
	kind, _ := document.ScalarText(m["kind"])
	return kind == "CustomResourceDefinition"
}

// VersionsOf is Versions on a document already read with ReadOptions, so
// that a caller that dispatches by shape reads its input once.
func VersionsOf(d document.Doc) ([]Version, error) {
	if d.Empty {
		return nil, &problem.Error{Kind: problem.Syntax, Message: "the input holds no document"}
	}
	order := d.Order
	doc, _ := document.Resolve(d.Value).(map[string]any)
	if kind, _ := doc["kind"].(string); kind != "CustomResourceDefinition" {
		return nil, &problem.Error{Kind: NotSchema, Pointer: "/kind", Message: "expected a CustomResourceDefinition manifest"}
	}
	spec, _ := doc["spec"].(map[string]any)
	var common any
	if val, ok := spec["validation"].(map[string]any); ok {
		common = val["openAPIV3Schema"]
	}
	var out []Version
	versions, _ := spec["versions"].([]any)
	for i, v := range versions {
		vm, _ := v.(map[string]any)
		name, _ := vm["name"].(string)
		storage, _ := vm["storage"].(bool)
		served, _ := vm["served"].(bool)
		ver := Version{Name: name, Storage: storage, Served: served}
		if sm, ok := vm["schema"].(map[string]any); ok && sm["openAPIV3Schema"] != nil {
			ver.Pointer = pointer.Join("spec", "versions", strconv.Itoa(i), "schema", "openAPIV3Schema")
			ver.Schema = sm["openAPIV3Schema"]
		} else if common != nil {
			ver.Pointer = "/spec/validation/openAPIV3Schema"
			ver.Schema = common
		} else {
			continue
		}
		ver.order = subOrder(order, ver.Pointer)
		out = append(out, ver)
	}
	if len(versions) == 0 && common != nil {
		name, _ := spec["version"].(string)
		out = append(out, Version{Name: name, Storage: true, Served: true, Pointer: "/spec/validation/openAPIV3Schema", Schema: common, order: subOrder(order, "/spec/validation/openAPIV3Schema")})
	}
	if len(out) == 0 {
		return nil, &problem.Error{Kind: NotFound, Pointer: "/spec", Message: "the CustomResourceDefinition declares no openAPIV3Schema"}
	}
	return out, nil
}

// Pick picks one version of a CRD manifest: the one named, or the
// storage version when name is "" (the only version when there is one).
// A version that is not there is a *problem.Error of kind NotFound naming
// the versions that are.
func Pick(data []byte, name string) (*Version, error) {
	vs, err := Versions(data)
	if err != nil {
		return nil, err
	}
	return PickFrom(vs, name)
}

// PickFrom is Pick on versions already read.
func PickFrom(vs []Version, name string) (*Version, error) {
	var names []string
	for i := range vs {
		names = append(names, vs[i].Name)
		if (name == "" && vs[i].Storage) || (name != "" && vs[i].Name == name) {
			return &vs[i], nil
		}
	}
	if name == "" && len(vs) == 1 {
		return &vs[0], nil
	}
	if name == "" {
		return nil, &problem.Error{Pointer: "/spec/versions", Kind: NotFound, Message: fmt.Sprintf("no version is marked storage: pick one of %s", strings.Join(names, ", "))}
	}
	return nil, &problem.Error{Pointer: "/spec/versions", Kind: NotFound, Message: fmt.Sprintf("the CustomResourceDefinition has no version %q with a schema (it has %s)", name, strings.Join(names, ", "))}
}

// subOrder is the key order below prefix, rooted at it.
func subOrder(order map[string][]string, prefix string) map[string][]string {
	out := map[string][]string{}
	for p, keys := range order {
		if p == prefix {
			out[""] = keys
		} else if pointer.HasPrefix(p, prefix) {
			out[p[len(prefix):]] = keys
		}
	}
	return out
}
