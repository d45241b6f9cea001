package kube

import (
	"github.com/paramkit/paramkit/internal/crdread"
	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/schema"
)

// CRDVersions reads a CustomResourceDefinition manifest (YAML or JSON;
// apiextensions.k8s.io/v1, or v1beta1 with a schema per version or one in
// spec.validation) and returns each version that declares a schema, in
// manifest order: its name and flags, its openAPIV3Schema compiled as an
// object's schema (schema.KubernetesObject), and the pointer of that
// schema in the manifest. convert.LoadSchema reads
// the storage version of a manifest; CRDVersions is for a caller that
// wants another one, or all of them.
//
// The error is a *schema.Error: for input that cannot be read (its
// syntax), a manifest that is no CRD (schema.KindNotSchema at /kind), one
// that declares no schema (schema.KindNotFound), or a version whose
// schema does not compile (its errors, pointing into the manifest:
// /spec/versions/1/schema/openAPIV3Schema/...).
func CRDVersions(data []byte) ([]CRDVersion, error) {
	vs, err := crdread.Versions(data)
	if err != nil {
		return nil, problem.Public(err, schema.ErrorsOf)
	}
	out := make([]CRDVersion, 0, len(vs))
	for i := range vs {
		v := &vs[i]
		js, err := v.JSON()
		if err == nil {
			var s *schema.Schema
			if s, err = schema.Parse(js, schema.KubernetesObject()); err == nil {
				out = append(out, CRDVersion{Name: v.Name, Schema: s, Served: v.Served, Storage: v.Storage, Pointer: v.Pointer})
				continue
			}
		}
		return nil, atPointer(err, v.Pointer)
	}
	return out, nil
}

// atPointer moves the pointers of a schema's errors to where the schema
// sits in the manifest; lines were of the schema's own text and are left
// out.
func atPointer(err error, at string) error {
	el := schema.ErrorsOf(err)
	out := make(schema.ErrorList, len(el))
	for i, e := range el {
		c := *e
		c.Pointer, c.Line, c.Column = at+e.Pointer, 0, 0
		out[i] = &c
	}
	return out.Err()
}
