// Package paramkit is a library for structured parameters: operator and
// chart parameters described by one nested, typed JSON Schema instead of a
// flat list of strings, for operators, admission and conversion webhooks,
// CLIs and Helm charts. It follows KEP-33 "Structured Parameters" of KUDO;
// its core imports nothing from Kubernetes.
//
// This package holds no code: it is the overview. The work is split
// across packages, and each package's doc holds the behaviour it promises:
//
//   - [github.com/paramkit/paramkit/schema]: parse and compile a schema
//     (YAML or JSON), the KUDO vocabulary (trigger, immutable, oldName), a
//     tree of nodes in source order with JSON-pointer lookup, and the one
//     error type. Its doc: documents, dialects, $ref resolution and
//     refusal, limits on input, secrets in messages, the error model.
//   - [github.com/paramkit/paramkit/schema/edit]: byte-preserving edits of
//     a schema file (add a property, keeping comments, key order and
//     layout).
//   - [github.com/paramkit/paramkit/params]: parameter values:
//     schema-directed decoding, validation, defaulting, updates,
//     immutability, streams. Its doc: types from the schema, YAML 1.2 core
//     rules, flow collections, exact numbers (json.Number), defaults,
//     immutability, updates (`-p`, `-P`, Helm's syntax, undeclared keys),
//     streams and their cancellation contract, Go values.
//   - [github.com/paramkit/paramkit/params/edit]: an update written into a
//     values file in place (only the changed values' lines differ;
//     comments, key order, quoting and layout kept; new keys in schema
//     order).
//   - [github.com/paramkit/paramkit/params/gates]: field-level feature
//     gates on Kubernetes objects' fields (which fields a create or update
//     may persist). Its doc: what a gate decides.
//   - [github.com/paramkit/paramkit/convert]: the v1beta1 format: flat
//     parameters to a schema and back, unwrapping v1beta1 string values
//     (flow collections, safe guessing), reading a schema from whatever
//     the user has (convert.LoadSchema: params files, OperatorVersions,
//     CRDs).
//   - [github.com/paramkit/paramkit/convert/kudo]: one KUDO operator
//     version compiled for admission and reconciliation: its schema, its
//     plans, updates and upgrades.
//   - [github.com/paramkit/paramkit/convert/migrate]: values across schema
//     versions: oldName migration, version chains, version sets served at
//     once with a hub, property bags, batch migration. Its doc: oldName,
//     dropped and lossy values, secrets in reports, version sets, batches.
//   - [github.com/paramkit/paramkit/trigger]: trigger inheritance checks
//     and plan resolution. Its doc: inheritance, the default plan, the
//     single-plan rule.
//   - [github.com/paramkit/paramkit/lint]: rule sets for schemas (kudo,
//     cluster-app, structural), KUDO packages, Helm charts and CRDs, and
//     silencing findings. Its doc: the rule sets, what can be linted,
//     silencing.
//   - [github.com/paramkit/paramkit/kube]: a schema-typed field of
//     a Kubernetes object (spec.parameters): the review wire shapes,
//     admission with an exact JSON patch, capped warnings and denial
//     causes with Kubernetes cause types and field paths, the client-CA
//     guard; no k8s.io import. Its doc: bounded answers, deadlines.
//
// Under examples/ (no importable package of this module: examples are
// main packages or modules of their own): paramctl, the command-line tool
// (its manual is examples/paramctl/README.md) with its admission and
// conversion webhook server (manual: examples/webhook/README.md); and a
// controller-runtime operator in a module of its own (examples/operator).
//
// # Entry points
//
// The entry point per job, each with a runnable example in its package:
//
//	s, err := schema.Parse(schemaYAML)                   // read a schema
//	v, err := params.Decode(s, valuesYAML)               // decode by the schema
//	v, err = params.Default(s, v)                        // defaults
//	err = params.Validate(s, v)                          // validate
//	r, err := (&params.Update{Schema: s, Old: v, Set: []string{"nodeCount=5"}}).Run() // -p, -P; r.Plan
//	m, err := migrate.New(s, migrate.FromVersion(old))   // oldName migration
//	set, err := migrate.LoadVersionSet(os.DirFS(dir))    // versions served at once
//	fg, err := gates.Parse(gatesYAML)                    // field-level feature gates; fg.Apply(obj, stored)
//	ov, err := kudo.Load("", operatorVersionYAML)        // an operator version: ov.Update, ov.Upgrade
//	out, err := edit.AddProperty(schemaYAML, "/backup/days", edit.Property{Type: "integer"}) // edit a schema file
//	findings, err := lint.Document(schemaYAML, lint.Kudo())    // lint
//	resp, err := kube.Admit(ctx, s, review.Request)      // admission of spec.parameters: patch, warnings, causes
//
// The package's Example is a whole program that uses them together;
// Example_readme is the program the README shows.
//
// # One error model
//
// Every failure a caller can act on, from any package, is a *schema.Error
// (JSON pointer, line where known, a Kind to switch on, message), and
// every list of them a schema.ErrorList, returned as an error by its Err
// method (nil when empty): schema.ErrorsOf reads any of them back as one
// list to print, whichever function returned it. Package schema's doc,
// "Errors", says the rest.
//
// # Contexts
//
// One rule says which functions take a context.Context (always first):
// those that wait on something outside the values they are given, or
// whose work can grow beyond one pass over their input.
//
//   - Functions that read a stream take one: params.DecodeReader,
//     params.MapStream, convert.UnwrapReader, migrate.Reader (package
//     params, "Streams", gives the cancellation contract).
//   - Functions that call code the caller supplies, which may block on a
//     cluster or a network, take one and pass it on: kudo.ConvertObject's
//     resolve, kube.ConvertReview's convert.
//   - Functions that answer a request under a deadline take the request's
//     context: kube.Admit, kube.DecodeReview.
//   - params.Undeclared takes one: with no limit it builds a "did you
//     mean" suggestion for every undeclared key, work that grows with the
//     keys times the declared names, so a hostile object can make it run
//     long; it stops when the context ends.
//
// Functions on values already in memory take none: schema.Parse and
// Validate, params.Decode, Default, Validate and Update.Run,
// migrate.Migration.Migrate and VersionSet.Convert, trigger's and lint's
// functions. Their work is one pass (or a few) over a document the
// reading limits bound (package schema, "Limits on input"), and a caller under a
// deadline checks its context between calls, as kube.Admit does.
//
// # What v1 covers
//
// The compatibility promise of v1 is the library packages listed above:
// every exported name (testdata/api.txt records them, and TestAPIRecord
// keeps the record honest) and what their package docs promise. A v1.x
// release adds to them and removes or changes nothing. Not covered:
// anything under examples/ (paramctl's commands, flags, exit codes and
// output formats, the webhook server, the operators, which may change in
// a minor version), internal packages, and the wording of messages: match
// on an error's Kind, Pointer and Keyword, never on its text.
//
// The paramctl command in examples/paramctl shows every piece at work; run
// `go run ./examples/paramctl demo`.
package paramkit
