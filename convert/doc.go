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
// with the whole schema kept in an annotation
// (paramkit.dev/v1beta2-parameters) so that FromV1beta1 restores it
// exactly. LoadSchema reads a schema in any of
// these forms, which is how every schema is read by paramctl and the
// webhooks.
//
// Values. A v1beta1 Instance kept its parameters as a map of strings.
// UnwrapValues types them by the schema (NODE_COUNT "3" becomes 3,
// '[foo,bar,bazz]' a list, '{foo:"bar"}' a mapping), or, without a
// schema, by safe rules (Unwrap reports each guess); WrapValues writes typed
// values back as text that unwraps to exactly the same values. Unwrap
// does the same for whole documents: a flat map or an Instance manifest;
// UnwrapReader for a `---` stream of them of any length, in constant
// memory.
//
// Numbers stay json.Number from end to end; nothing passes through
// float64. Values given to this package are plain data only (maps,
// slices, strings, bools, nil and json.Number); params.Plain converts Go
// data first. Outputs keep a stable key order (the input's where there was
// one) through Converted's YAML and JSON methods.
//
// # Definitions: v1beta1 to v1beta2 and back
//
// The type of a converted parameter comes from its explicit `type`, else
// from the YAML type of its default (`3` is an integer, `"3"` stays a
// string); InferStringTypes narrows quoted defaults ("3", "true") and
// reports each inference as a Note. Unknown v1beta1 fields become
// `x-kudo-<field>` keywords. An OperatorVersion converts to a
// kudo.dev/v1beta2 OperatorVersion with the schema in spec.parameters.
// ToV1beta1 keeps the whole v1beta2 schema in the annotation
// paramkit.dev/v1beta2-parameters, so that v1beta2 → v1beta1 → v1beta2
// is the identity.
//
// KUDO's first params format, which early releases wrote as a map from
// name to parameter rather than a list under `parameters`, converts
// exactly as the list format would, in file order (Converted's notes say
// it was read). A field KUDO ignored (velodrome's `example:`) is kept as
// `x-kudo-example`, as in the list format. A mapping counts as a parameter
// when it has at least one parameter field and any `type` it names is a
// v1beta1 type, so `service: {type: ClusterIP, port: 80}` in a values file
// stays a value.
//
// # Reading a schema from whatever the user has
//
// LoadSchema reads a v1beta2 schema (YAML or JSON), a v1beta1 params.yaml
// in either format, an OperatorVersion of either version, or a
// CustomResourceDefinition at its storage version, errors pointing into
// the manifest (kube's CRDVersions reads every version). ReadSchema reads the same from a file of an
// fs.FS, and from a folder: a KUDO package (its params.yaml) or a Helm
// chart (its values.schema.json). They are the one way to read a schema
// from what a user has: paramctl and migrate.LoadVersionSet read schemas
// through them. Both apiextensions.k8s.io/v1 manifests and
// v1beta1 ones (a schema per version, or one in spec.validation) are read.
// `{}` and `true` are schemas; a document that is neither a schema nor a
// params file (a flat map of values such as `replicas: 3`, what a user
// passes to install and often also calls params.yaml) is refused with a
// *schema.Error of kind schema.KindNotSchema saying what was expected and
// what was found, as schema.Parse refuses it. KUDO's v1beta1 Parameter has
// no field that marks a secret, so a converted params.yaml has none (see
// package schema, "Secrets in messages").
//
// # Values: unwrapping v1beta1 strings
//
// UnwrapValues and Unwrap type each string by the node it lands on, as
// package params types text values: flow collections written tersely, as
// KUDO users did ('[foo,bar,bazz]', '{foo:"bar"}'), become the list and
// the mapping the user meant, their scalars typed by their own nodes.
// Without a schema (a nil *schema.Schema), UnwrapValues and Unwrap follow
// safe rules, and Unwrap reports every guess: a number only when the text is a JSON number ("3"
// yes; "007", "+3", "0x1F" no), a boolean only for YAML 1.2 core words,
// flow collections by the same rules, and a JSON string literal is that
// string. WrapValues is the reverse a conversion webhook needs: each value
// becomes text that unwraps by the schema to the same value (a string
// verbatim, or as a JSON string literal where the bare text would read as
// something else; anything else as compact JSON).
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
// Options are of one type, Option: InferStringTypes, for FromV1beta1.
// Migration's options are convert/migrate's Option.
package convert
