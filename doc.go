// Package paramkit is a library for structured parameters: operator and
// chart parameters described by one nested, typed JSON Schema instead of a
// flat list of strings.
//
// The work is split across packages:
//
//   - schema: parse and compile a schema (YAML or JSON), the KUDO
//     vocabulary (trigger, immutable, oldName), a tree of nodes in source
//     order with JSON-pointer lookup.
//   - schema/edit: byte-preserving edits of a schema file (add a
//     property, keeping comments, key order and layout).
//   - params: parameter values: schema-directed decoding, validation,
//     defaulting, updates, immutability.
//   - params/gates: field-level feature gates on Kubernetes objects'
//     fields (which fields a create or update may persist).
//   - convert: v1beta1 flat parameters to a schema and back, string
//     unwrapping of v1beta1 values, schema loading in every form.
//   - convert/migrate: values across schema versions: oldName migration,
//     version chains, version sets served at once, batch migration.
//   - trigger: trigger inheritance checks and plan resolution.
//   - lint: rule sets for schemas.
//
// The entry point per job, each with a runnable example in its package:
//
//	s, err := schema.Parse(schemaYAML)                   // read a schema
//	v, err := params.Decode(s, valuesYAML)               // decode by the schema
//	v = params.Default(s, v)                             // defaults
//	err = params.Validate(s, v)                          // validate
//	r, err := (&params.Update{Schema: s, Old: v, Set: []string{"nodeCount=5"}}).Run() // -p, -P; r.Plan
//	m, err := migrate.New(s, migrate.FromVersion(old))   // oldName migration
//	set, err := migrate.LoadVersionSet(dir)              // versions served at once
//	fg, err := gates.Parse(gatesYAML)                    // field-level feature gates; fg.Apply(obj, stored)
//	out, err := edit.AddProperty(schemaYAML, "/backup/days", edit.Property{Type: "integer"}) // edit a schema file
//	findings, err := lint.Lint(schemaYAML, lint.Kudo)    // lint
//	h, err := webhook.NewHandler(opts)                   // examples/webhook: admission and conversion
//
// The package's Example is a whole program that uses them together.
//
// Every failure a caller can act on, from any package, is a *schema.Error
// (JSON pointer, line where known, a Kind to switch on, message), and
// every list of them a schema.ErrorList, which implements error: one type
// to print, whichever function returned it.
//
// The paramctl command in examples/paramctl shows every piece at work; run
// `go run ./examples/paramctl demo`.
package paramkit
