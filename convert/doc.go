// Package convert moves KUDO parameters from the flat v1beta1 format to
// v1beta2's JSON Schema and back, and carries parameter values across
// schema versions.
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
// does the same for whole documents: a flat map or an Instance manifest.
//
// Numbers stay json.Number from end to end; nothing passes through
// float64. Outputs keep a stable key order (the input's where there was
// one) through Converted's YAML and JSON methods.
//
// Migration between schema versions (oldName, chains of versions, type
// changes, property bags, batch migration) lives here too. Conversions
// that read bytes (VersionSet.ConvertDocument, ConvertObjectDocument,
// Migration.MigrateDocument) keep the text of a YAML plain scalar that no
// node of the source version types (007 under a key it does not declare)
// until a node of a version on the way types it: "007" on a string node,
// 7 on an integer node. Where no node types it, it means what YAML 1.2
// core rules say (007 is 7, yes is "yes"). Every result holds plain values
// only: maps, slices, strings, bools, nil and json.Number.
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
// Migration between two versions, by the new schema's oldName keywords
// (ExampleNewMigration); through versions in between
// (ExampleNewMigration_throughVersions); a batch (ExampleMigrateStream):
//
//	m, err := convert.NewMigration(target, convert.FromVersion(old), convert.ThroughVersions(mid...))
//	r := m.MigrateDocument(data) // r.Values, r.Dropped, r.Lossy, r.Errors
//
// Conversion between any two versions of a set served at once, both ways
// (ExampleNewVersionSet, ExampleVersionSet_Convert):
//
//	set, err := convert.LoadVersionSet(dir) // or NewVersionSet(versions)
//	r, err := set.Convert(values, "v1", "v3")
//
// Which of the two: a Migration goes one way, from one version to a newer
// one (an operator's upgrade); a VersionSet converts between named
// versions in both directions (a conversion webhook, a storage
// migration). NewMigration's documentation says more.
//
// Options are of one type, Option; each function names those that apply
// to it and refuses others. Property tests of conversions draw values
// from convert/converttest.
package convert
