// Package paramkit is a library for structured parameters: operator and
// chart parameters described by one nested, typed JSON Schema instead of a
// flat list of strings.
//
// The work is split across packages:
//
//   - schema: parse and compile a schema (YAML or JSON), the KUDO
//     vocabulary (trigger, immutable, oldName), a tree of nodes in source
//     order with JSON-pointer lookup.
//   - params: parameter values: schema-directed decoding, validation,
//     defaulting, updates, immutability, feature gates.
//   - convert: v1beta1 flat parameters to a schema, string unwrapping,
//     oldName migration, version chains.
//   - trigger: trigger inheritance checks and plan resolution.
//   - lint: rule sets for schemas.
//
// A short example, validating values against a schema:
//
//	s, err := schema.Parse(schemaYAML)
//	if err != nil { ... }              // schema.ErrorList, each with a pointer
//	docs, err := params.DecodeStream(s, valuesYAML)
//	for _, d := range docs {
//		if err := params.Validate(s, d.Value); err != nil {
//			for _, e := range schema.ErrorsOf(err) {
//				fmt.Println(e.Pointer, e.Kind, e.Message)
//			}
//		}
//	}
//
// Every failure a caller can act on, from any package, is a *schema.Error
// (JSON pointer, line where known, a Kind to switch on, message), and
// every list of them a schema.ErrorList, which implements error: one type
// to print, whichever function returned it.
//
// The paramctl command in examples/paramctl shows every piece at work; run
// `go run ./examples/paramctl demo`.
package paramkit
