package lint

import (
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/internal/crdread"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/schema"
)

// CRD lints the openAPIV3Schema of each version of a
// CustomResourceDefinition manifest (only the version named, when
// version is not ""). Findings point into the manifest
// (/spec/versions/1/schema/openAPIV3Schema/properties/spec/...) and their
// messages start with the version they are about. The error is for input
// that cannot be read, is no CRD, or has no version of that name.
func CRD(data []byte, version string, sets ...*Set) ([]Finding, error) {
	vs, err := crdread.Versions(data)
	if err != nil {
		return nil, problem.Public(err, schema.ErrorsOf)
	}
	if version != "" {
		v, err := crdread.PickFrom(vs, version)
		if err != nil {
			return nil, problem.Public(err, schema.ErrorsOf)
		}
		vs = []crdread.Version{*v}
	}
	out := []Finding{}
	seen := map[string]bool{}
	for _, v := range vs {
		if seen[v.Pointer] {
			// One spec.validation schema shared by every version.
			continue
		}
		seen[v.Pointer] = true
		js, err := v.JSON()
		if err != nil {
			return nil, err
		}
		fs, err := lintDocument(js, sets)
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			f.Message = fmt.Sprintf("version %s: %s", v.Name, movePointers(f.Message, v.Schema, v.Pointer))
			f.Pointer = v.Pointer + f.Pointer
			out = append(out, f)
		}
	}
	sortFindings(out)
	locate(data, out)
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
