// Package convert moves KUDO parameters from the flat v1beta1 format to
// v1beta2's JSON Schema and back: schemas, and the string values of a
// v1beta1 Instance. Carrying values across schema versions (oldName,
// chains of versions, version sets) is convert/migrate's job.
//
// Definitions. FromV1beta1 turns a v1beta1 params.yaml or OperatorVersion
// into a v1beta2 schema as KEP-33 shows it (draft 2019-09, one property
// per parameter, in list order, types from the declared type or the YAML
// type of the default); v1beta2 input comes back unchanged. ToV1beta1 is
// the reverse a conversion webhook needs: a flat list for old clients,
// with the whole schema kept in the ParametersAnnotation so that
// FromV1beta1 restores it exactly. LoadSchema reads a schema in any of
// these forms, which is how every schema is read by paramctl and the
// webhooks.
//
// Values. A v1beta1 Instance kept its parameters as a map of strings.
// UnwrapValues types them by the schema (NODE_COUNT "3" becomes 3,
// '[foo,bar,bazz]' a list, '{foo:"bar"}' a mapping); GuessValues does
// without a schema by safe, reported rules; WrapValues writes typed
// values back as text that unwraps to exactly the same values. Unwrap
// does the same for whole documents: a flat map or an Instance manifest;
// UnwrapReader for a `---` stream of them of any length, in constant
// memory.
//
// Numbers stay json.Number from end to end; nothing passes through
// float64. Outputs keep a stable key order (the input's where there was
// one) through Converted's YAML and JSON methods.
//
// # Entry points
//
// One per job; each has a runnable example.
//
// A v1beta1 params.yaml or OperatorVersion to a v1beta2 schema
// (ExampleFromV1beta1), or any schema form read as a schema
// (ExampleLoadSchema):
//
//	c, err := convert.FromV1beta1(data, convert.InferStringTypes())
//	s, err := convert.LoadSchema(data)
//
// v1beta1 instance strings to typed values (ExampleUnwrapValues):
//
//	values, err := convert.UnwrapValues(s, map[string]string{"NODE_COUNT": "3"})
//
// Options are of one type, Option: InferStringTypes and KeepV1beta1List,
// for FromV1beta1. Migration's options are convert/migrate's Option.
package convert
