// Package schema reads a parameter schema (JSON Schema draft-04, draft-06,
// draft-07, 2019-09 or 2020-12, written as YAML or JSON), compiles it
// once for validation, and exposes it as a tree of Nodes in source order
// that the other paramkit packages walk. It knows the KUDO vocabulary
// (trigger, immutable, oldName), refuses every $ref that would leave the
// document, and holds paramkit's one error type.
//
// A *Schema is immutable after Parse and safe for concurrent use.
//
// # Entry points
//
// Read a schema, then walk it or validate against it (Example,
// ExampleParse_errors, ExampleSchema_Validate):
//
//	s, err := schema.Parse(data)
//	n := s.Lookup("/topology/0/labels/1/key") // the node values at that pointer take
//	err = s.Validate(v) // the values as they are; params.Validate converts Go data first
//
// [Schema.Lookup] and [Node.Child] give the one node a value takes;
// [Node.ChildNodes] and [Node.ElemNodes] give every node that may govern
// it, branch by branch of anyOf, oneOf and if/then/else, for a caller that
// must not refuse what some branch accepts (ExampleNode_ChildNodes).
//
// Decoding, defaulting and updating values by a schema are package params'
// job; a v1beta1 params.yaml, an OperatorVersion or a CRD read as a schema
// is convert.LoadSchema's. Editing a schema file in place, keeping its
// bytes, is package schema/edit's (edit.AddProperty).
//
// # Documents
//
// [Parse] reads YAML or JSON; a document that parses as JSON means exactly
// what it says. `{}` and `true` are schemas. A document that is no schema
// at all (a flat map of values such as `replicas: 3`, a params file or a
// manifest: an object none of whose root keys is a schema keyword of any
// supported draft) is refused with a *Error of kind [KindNotSchema] that
// says what was expected and what was found. [CheckJSONFile] holds a file
// named *.json to JSON, as Helm does: a trailing comma, which the YAML
// reader would accept, is a syntax error naming its line.
//
// # Dialects
//
// `$schema` may name draft-04, draft-06, draft-07, 2019-09 or 2020-12
// ([Schema.Dialect] gives its URI); a schema without `$schema` is 2020-12
// unless [DefaultDialect] says otherwise. Each is read with its own spelling: in
// draft-04 the identifier is `id` (not `$id`), `exclusiveMinimum` and
// `exclusiveMaximum` are booleans beside `minimum` and `maximum`, there
// are no boolean schemas (`properties: {a: true}` is refused, as the
// engine refuses it), and `definitions` and `dependencies` are the
// draft-04 forms. The node tree, validation, defaults, package lint and
// `paramctl --schema` all follow the dialect. Real draft-04 schemas work as
// they are: SchemaStore's tsconfig.json schema reads, validates its own test
// documents, and lints without a false finding.
//
// # References stay in the document
//
// A $ref resolves inside the schema (`#/$defs/…`, `#/definitions/…`,
// anchors, embedded `$id` resources) or to a built-in dialect
// meta-schema. `http:`, `https:`, `file:` and relative references are
// refused, never fetched or read: the error is a *Error of kind
// [KindRefused]. A schema that
// arrives in a webhook request therefore cannot read the server's files or
// reach the network. The JSON-Schema-Test-Suite's remote-reference cases
// are refused by design.
//
// # Limits on input
//
// Hostile documents get a bounded, clear error (kind [KindLimit] or
// [KindSyntax]), never a hang or a crash. The limits are the same for
// JSON and YAML, for schemas and values, in every package (one reader
// does all the reading):
//
//   - a document (JSON or YAML, one of a `---` stream, a text value) is at
//     most 32 MiB; a 100 MB string is refused before it is parsed;
//   - nesting is at most 1,000 levels, also inside flow text such as
//     `-p a=[[[…]]]`;
//   - a YAML document expands (through aliases) to at most 1,000,000
//     values: the billion-laughs bomb stops there;
//   - a number has at most 4,096 characters and an exponent within
//     ±9,999: `1e999999999` is refused in JSON, in YAML and in text values,
//     unless the schema node takes it as a string;
//   - no duplicate keys, and valid UTF-8 only, in JSON, YAML, flow text and
//     text values; params.Validate refuses a value holding a string that
//     is not UTF-8;
//   - an error's pointer is at most 512 bytes: longer ones (a document
//     nested a thousand levels, huge keys) end in `/…`.
//
// A text value that breaks one of these limits is an error even where its
// node would take the text as a string. Webhooks add their own bounds
// (request bodies, timeouts; package kube bounds their answers).
//
// # Secrets in messages
//
// A node marked `writeOnly: true` or `format: password`, and every node
// below it, holds a secret. paramkit never quotes such a value in a
// message, warning, report or annotation, from the library, paramctl or
// the webhooks: the message names the place and the type and says
// "(value hidden)" ([Hidden]) where the value would stand:
//
//	/db/password: expected string, but got boolean (value hidden)
//	/pin: must be <= 9999 but found (value hidden)
//	/pin: "replace pin=(value hidden)": /pin does not exist
//
// The rules:
//
//   - A node reached through $ref, allOf, anyOf/oneOf, items,
//     additionalProperties or patternProperties from a secret one is a
//     secret there ([Schema.SecretAt] for a value's pointer;
//     [Node.Secret] for the node and its ancestors in the schema
//     document). An assignment or text given where an object holding a
//     secret belongs is hidden whole.
//   - In a migration, a value is secret when any schema on its way marks
//     it: the oldest version, each version in between and the target
//     (package convert/migrate says how its reports hide values).
//   - Covered: validation messages (type, format, minimum/maximum,
//     multipleOf: the engine's messages that echo the value), decode errors
//     of a tagged YAML scalar, `-p`/`--add`/`--replace` echoes and their
//     "from" notes, immutability (which never quotes values), migration
//     errors, dropped and lossy entries, unwrap/wrap errors, the webhook's
//     denials, warnings and audit annotations, every lint finding (a
//     default, enum member, const or example of a secret node, in any rule
//     set), the allowed values of a secret's enum and const, and the
//     defaults and enum values paramctl list shows.
//   - Not hidden: the values themselves in documents paramkit writes (the
//     output of an update, a migration, defaults, a property bag, the
//     schema itself), schema text that is no value (a pattern, a bound),
//     key names, string lengths, and what is said where no schema is
//     known (unwrapping by
//     guess, a malformed `-p` key, the typed getters (params.Int64, …), JSON
//     syntax errors, which have no pointer).
//   - KUDO's v1beta1 Parameter (name, displayName, description, required,
//     default, trigger, value-type, immutable, enum) has no field that marks
//     a secret, so a converted params.yaml has none: add `writeOnly: true`
//     to the v1beta2 schema.
//
// # Kubernetes extensions: CEL rules, list types, formats
//
// A schema that carries any x-kubernetes-* keyword, or that was read with
// the [Kubernetes] option (a CRD version's openAPIV3Schema), is judged as
// kube-apiserver v1.37 judges a custom resource, wherever it validates:
//
//   - x-kubernetes-validations rules are compiled once (on the first
//     validation) and evaluated with cel-go configured as the apiserver
//     configures it: self typed from the structural schema (objects with
//     declared fields, maps, lists; format byte as bytes, duration as
//     duration, date and date-time as timestamp; int-or-string as dyn), the
//     Kubernetes libraries (lists, regex, strings and sets at the
//     apiserver's versions, URLs, quantities, IPs and CIDRs, format,
//     semver), the per-rule
//     runtime cost limit and the per-object budget; message,
//     messageExpression, reason and fieldPath as the apiserver uses them.
//     Numbers are read exactly: an integer is an int64 from its digits.
//   - x-kubernetes-list-type set refuses a repeated item, map a repeat of
//     the x-kubernetes-list-map-keys ([KindDuplicate], at the second one).
//   - formats are the apiserver's, not JSON Schema's: int32 and int64
//     ranges, byte as base64, duration as Go and Scala durations ("1h30m",
//     "3 days"), date-time, uuid, ipv4, cidr, k8s-short-name, ….
//
// A failed rule is an [Error] whose Keyword is x-kubernetes-validations
// and whose Detail.SchemaPointer names the rule; its Kind follows the
// rule's reason ([KindInvalid], [KindRequired], [KindForbidden],
// [KindDuplicate]). A rule that does not compile is an Error of
// [KindSchema] at the value it was to judge. [Schema.Validate] judges a
// value as created: transition rules (those naming oldSelf) do not run.
// [Schema.ValidateUpdate] judges it as an update from an old value: they
// run where the node has a value in both (map-list items correlated by
// their keys), and a rule that fails on a value left unchanged is not
// reported, as the apiserver ratchets it. [CheckRules] compiles every
// rule as the apiserver does when a CRD is created (undeclared
// references, types, estimated cost) for lint's structural set. A secret
// (writeOnly, format password) is never quoted: a rule on a value that
// is or holds one gives its message, never its messageExpression.
//
// # Errors
//
// This package holds paramkit's one error type, for every package
// (schema, params, convert, trigger, lint and the packages below them):
// every failure a caller can act on is an *[Error] — the file, the JSON
// pointer, the line and column where known, a [Kind] a program can switch on
// ([KindRequired], [KindType], [KindInvalid], [KindImmutable],
// [KindConflict], [KindSyntax], [KindUsage], …; never empty; a failure
// of validation names its keyword in [Error.Keyword]) and the message
// — or several of them: an [ErrorList], a plain slice that is no error
// itself ([ErrorList.Err] gives it as one, nil when it is empty, and
// [ErrorsOf] gives the list back; errors.As into a *schema.Error finds
// its first entry). Validation
// reports every problem at once, each with its JSON pointer. Validation,
// decoding, updates, the typed getters, gates and migration results all
// give them, so one loop prints any of them, with no type switch
// (Example_errors in package params):
//
//	for _, e := range schema.ErrorsOf(err) {
//		fmt.Printf("%s: %s (%s)\n", e.Pointer, e.Message, e.Kind)
//	}
//
// [ErrorsOf] gives the entries of any error as a list, every branch of
// errors.Join and of a `%w` chain included, so that a command that joins
// the errors of its files prints each with its file and line; an error
// of another package becomes an entry of [KindForeign] with its text
// unchanged. [NewError] makes one and never leaves Kind empty;
// [ErrorIn] sets the file an error is in ([Error.File], never written
// into the message) and keeps the type. errors.Is finds what an Error
// wraps: params.ErrMalformed for a `-p` that is no assignment, fs.ErrNotExist
// for a missing file, the foreign error of a KindForeign entry. Data a failure carries beyond its message (where
// the failing keyword is in the schema, the two plans of a conflict, a
// lossy change's old and new value) is in [Error.Detail]. A missing
// required property and a property the schema forbids are errors at the
// property's own pointer (/spec/name), one a property.
//
// Messages quote schema text (patterns, formats, enum values, consts,
// bounds) as JSON writes it (`does not match pattern "^it's$"`, `value
// must be one of 1, 2`), and a list comes in one order on every run: by
// line and column where known, then pointer (array indices by number),
// then the failing keyword. A Kubernetes caller gets the field path of an
// Error ([Error.FieldPath]: `e.FieldPath("spec.parameters")` is
// `spec.parameters.a.b[0]` for the pointer `/a/b/0`) and a condition
// reason for its Kind ([Kind.Reason]: `NotFound`). Warnings are told from
// errors by their Kind ([Kind.Warning]).
package schema
