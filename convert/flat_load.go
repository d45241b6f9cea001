package convert

import (
	"github.com/paramkit/paramkit/internal/crdread"
	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/schema"
)

// LoadSchema reads a parameter schema in any form one arrives in; it is
// the one entry point for "a schema from whatever the user has"
// (schema.Parse reads a JSON Schema only). It takes:
//
//   - a v1beta2 schema, or any JSON Schema (YAML or JSON);
//   - a v1beta1 params.yaml: the list under parameters, or KUDO's first
//     format (a map from name to parameter);
//   - an OperatorVersion of either version (kudo.dev/v1beta1 or v1beta2);
//   - a CustomResourceDefinition manifest: its storage version's
//     openAPIV3Schema (the only version's when there is one); errors
//     point into the manifest (/spec/versions/1/schema/openAPIV3Schema/...).
//     kube's CRDVersions reads every version of a manifest, for a
//     caller that wants another one.
//
// The input is read once and dispatched by its shape: a CRD's versions
// and a v1beta1 conversion work on that one reading (a JSON Schema as
// written is then compiled from its bytes by schema.Parse, which types
// its scalars). v1beta1 input is converted on the fly as FromV1beta1 does; an
// OperatorVersion that declares no parameters gives the schema of an
// empty parameter object. Webhooks and command lines read every schema
// through it; ReadSchema reads a file or folder (a KUDO package, a Helm
// chart) with it. A document that is none of
// these (a flat map of values) is refused with a *schema.Error of kind
// schema.KindNotSchema.
//
// It fails only for what makes the schema unusable (syntax, a v1beta1
// parameter that cannot be converted, wrong keyword types, an unknown
// dialect, a refused $ref); the error is a schema.ErrorList. Pointers
// point into the input: a schema inside an OperatorVersion is reported
// under /spec/parameters.
func LoadSchema(data []byte) (*schema.Schema, error) {
	// The input is read once, with plain scalars kept as text and key
	// order recorded, and the shape of that one reading decides: a CRD's
	// versions and a v1beta1 file's conversion both work on it.
	d, err := readDoc(data)
	if err != nil {
		if de, ok := err.(*schema.Error); ok { // unreadable input
			return nil, schema.ErrorList{de}.Err()
		}
		return nil, err
	}
	if crdread.IsCRDValue(d.Value) {
		return loadCRDDoc(d)
	}
	c, err := fromRaw(d.Value, d.Order, data, options{})
	if err != nil {
		return nil, err
	}
	if !c.Changed && c.schemaPtr == "" {
		return schema.Parse(data) // as written: errors keep their lines
	}
	if c.Schema == nil {
		empty, _ := assemble(nil, false)
		return schema.FromValue(empty)
	}
	s, err := schema.Parse(c.schemaJSON())
	if err != nil {
		return nil, prefixErrors(err, c.schemaPtr)
	}
	return s, nil
}

// prefixErrors moves the pointers of a schema's errors to where the
// schema sits in a larger document.
func prefixErrors(err error, at string) error {
	var el schema.ErrorList
	if problem.As(err, &el) {
		out := make(schema.ErrorList, len(el))
		for i, e := range el {
			c := *e // keep the kind and detail; lines were of the converted text
			c.Pointer, c.Line, c.Column = at+e.Pointer, 0, 0
			out[i] = &c
		}
		return out.Err()
	}
	return err
}
