package lint

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// crdVersion is one version of a CustomResourceDefinition manifest that
// declares a schema: its name, where the schema sits in the manifest
// and the schema as JSON, keys in manifest order.
type crdVersion struct {
	name, pointer string
	schema        any
	json          []byte
}

// isCRD reports whether data is a CustomResourceDefinition manifest.
func isCRD(data []byte) bool {
	if !bytes.Contains(data, []byte("CustomResourceDefinition")) {
		return false
	}
	doc, _, err := decode(data)
	if err != nil {
		return false
	}
	m, _ := doc.(map[string]any)
	return m["kind"] == "CustomResourceDefinition"
}

// crdVersions reads the versions of a CRD manifest (apiextensions v1, or
// v1beta1 with a schema per version or one in spec.validation) that
// declare a schema, in manifest order; a schema shared by several
// versions (spec.validation) comes once, named by its first version.
func crdVersions(data []byte) ([]crdVersion, error) {
	doc, order, err := decode(data)
	if err != nil {
		return nil, err
	}
	m, _ := doc.(map[string]any)
	spec, _ := m["spec"].(map[string]any)
	const common = "/spec/validation/openAPIV3Schema"
	commonSchema, _ := pointer.Get(doc, common)
	var out []crdVersion
	seen := map[string]bool{}
	add := func(name, at string) {
		if seen[at] {
			return
		}
		seen[at] = true
		s, _ := pointer.Get(doc, at)
		out = append(out, crdVersion{name: name, pointer: at, schema: s, json: encode.JSON(s, encode.ByKeyOrder(subOrder(order, at)), "")})
	}
	versions, _ := spec["versions"].([]any)
	for i, v := range versions {
		vm, _ := v.(map[string]any)
		name, _ := vm["name"].(string)
		at := pointer.Join("spec", "versions", fmt.Sprint(i), "schema", "openAPIV3Schema")
		if s, ok := pointer.Get(doc, at); ok && s != nil {
			add(name, at)
		} else if commonSchema != nil {
			add(name, common)
		}
	}
	if len(versions) == 0 && commonSchema != nil {
		name, _ := spec["version"].(string)
		add(name, common)
	}
	if len(out) == 0 {
		return nil, schema.ErrorList{schema.NewError(schema.KindNotFound, "/spec", "the CustomResourceDefinition declares no openAPIV3Schema")}.Err()
	}
	return out, nil
}

// subOrder is the key order below prefix, re-rooted there.
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

// lintCRD lints the openAPIV3Schema of each version of a
// CustomResourceDefinition manifest. Findings point into the manifest
// (/spec/versions/1/schema/openAPIV3Schema/properties/spec/...) and their
// messages start with the version they are about.
func lintCRD(data []byte, sets []*Set) ([]Finding, error) {
	vs, err := crdVersions(data)
	if err != nil {
		return nil, err
	}
	out := []Finding{}
	for _, v := range vs {
		fs, err := lintDocument(v.json, sets)
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			f.Message = fmt.Sprintf("version %s: %s", v.name, movePointers(f.Message, v.schema, v.pointer))
			f.Pointer = v.pointer + f.Pointer
			out = append(out, f)
		}
	}
	locate(data, out)
	sortFindings(out)
	return out, nil
}

// movePointers moves the schema pointers a message names to where the
// schema sits: each word starting with / that resolves in the schema.
func movePointers(msg string, doc any, at string) string {
	words := strings.Split(msg, " ")
	for i, w := range words {
		core := strings.TrimLeft(w, "(")
		trimmed := strings.TrimRight(core, ":),;.")
		if !strings.HasPrefix(trimmed, "/") {
			continue
		}
		if _, ok := pointer.Get(doc, trimmed); !ok {
			continue
		}
		words[i] = strings.Replace(w, trimmed, at+trimmed, 1)
	}
	return strings.Join(words, " ")
}
