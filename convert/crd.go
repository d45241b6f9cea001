package convert

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// CRDVersion is one version of a CustomResourceDefinition manifest and
// the schema it declares.
type CRDVersion struct {
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
func (v *CRDVersion) JSON() ([]byte, error) {
	if v == nil {
		return nil, schema.NewError(schema.KindUsage, "", "convert: no CRDVersion")
	}
	doc, err := value.Plain(v.Schema)
	if err != nil {
		return nil, notPlainError(err)
	}
	return encode.JSON(doc, encode.ByKeyOrder(v.order), ""), nil
}

// IsCRD reports whether data is a CustomResourceDefinition manifest.
func IsCRD(data []byte) bool {
	if !bytes.Contains(data, []byte("CustomResourceDefinition")) {
		return false
	}
	raw, _, err := readRaw(data)
	if err != nil {
		return false
	}
	m, _ := raw.(map[string]any)
	kind, _ := scalarText(m["kind"])
	return kind == "CustomResourceDefinition"
}

// CRDVersions reads a CustomResourceDefinition manifest (apiextensions
// v1, or v1beta1 with a schema per version or one in spec.validation)
// and returns each version that declares a schema, in manifest order.
// The error is a *schema.Error for unreadable input, or a
// schema.ErrorList for a manifest that is no CRD (schema.KindNotSchema) or
// declares no schema (schema.KindNotFound).
func CRDVersions(data []byte) ([]CRDVersion, error) {
	raw, order, err := readRaw(data)
	if err != nil {
		return nil, err
	}
	doc, _ := document.Resolve(raw).(map[string]any)
	if kind, _ := doc["kind"].(string); kind != "CustomResourceDefinition" {
		return nil, schema.ErrorList{schema.NewError(schema.KindNotSchema, "/kind", "expected a CustomResourceDefinition manifest")}.Err()
	}
	spec, _ := doc["spec"].(map[string]any)
	var common any
	if val, ok := spec["validation"].(map[string]any); ok {
		common = val["openAPIV3Schema"]
	}
	var out []CRDVersion
	versions, _ := spec["versions"].([]any)
	for i, v := range versions {
		vm, _ := v.(map[string]any)
		name, _ := vm["name"].(string)
		storage, _ := vm["storage"].(bool)
		served, _ := vm["served"].(bool)
		ver := CRDVersion{Name: name, Storage: storage, Served: served}
		if sm, ok := vm["schema"].(map[string]any); ok && sm["openAPIV3Schema"] != nil {
			ver.Pointer = pointer.Join("spec", "versions", fmt.Sprint(i), "schema", "openAPIV3Schema")
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
		out = append(out, CRDVersion{Name: name, Storage: true, Served: true, Pointer: "/spec/validation/openAPIV3Schema", Schema: common, order: subOrder(order, "/spec/validation/openAPIV3Schema")})
	}
	if len(out) == 0 {
		return nil, schema.ErrorList{schema.NewError(schema.KindNotFound, "/spec", "the CustomResourceDefinition declares no openAPIV3Schema")}.Err()
	}
	return out, nil
}

// CRDSchema picks one version of a CRD manifest: the one named, or the
// storage version when name is "" (the only version when there is one).
func CRDSchema(data []byte, name string) (*CRDVersion, error) {
	vs, err := CRDVersions(data)
	if err != nil {
		return nil, err
	}
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
		return nil, schema.ErrorList{{Pointer: "/spec/versions", Kind: schema.KindNotFound, Message: fmt.Sprintf("no version is marked storage: pick one of %s", strings.Join(names, ", "))}}.Err()
	}
	return nil, schema.ErrorList{{Pointer: "/spec/versions", Kind: schema.KindNotFound, Message: fmt.Sprintf("the CustomResourceDefinition has no version %q with a schema (it has %s)", name, strings.Join(names, ", "))}}.Err()
}

// loadCRD compiles one version's schema; errors point into the manifest.
func loadCRD(data []byte, version string) (*schema.Schema, error) {
	v, err := CRDSchema(data, version)
	if err != nil {
		return nil, err
	}
	js, err := v.JSON()
	if err != nil {
		return nil, prefixErrors(err, v.Pointer)
	}
	s, err := schema.Parse(js)
	if err != nil {
		return nil, prefixErrors(err, v.Pointer)
	}
	return s, nil
}
