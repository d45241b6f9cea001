// Package params works on parameter values: plain Go data
// (map[string]any, []any, string, bool, nil and json.Number for every
// number) decoded with a schema in hand, validated, defaulted, updated and
// encoded back without a number ever passing through float64.
//
// Below it, package params/gates applies field-level feature gates to
// Kubernetes objects (gates.Parse, then Set.Apply): gates act on an
// object's fields, not on parameter values.
//
// # Entry points
//
// One per job; each has a runnable example.
//
// Decode, default, validate (Example):
//
//	v, err := params.Decode(s, data) // YAML or JSON, typed by the schema
//	v = params.Default(s, v)
//	err = params.Validate(s, v) // every error, each with its pointer
//
// An update from `-P` files and `-p` strings, with its plan
// (ExampleUpdate, ExampleUpdate_filesAndSet):
//
//	patch, err := params.DecodePatch(s, fileData)
//	r, err := (&params.Update{Schema: s, Old: old, Patches: []any{patch}, Set: []string{"nodeCount=5"}}).Run()
//	// r.Values, r.Plan, r.Changed
//
// Typed getters for operator code (Example_getters):
//
//	n, err := params.Int64(v, "/nodeCount")
//
// # Streams and cancellation
//
// A `---` stream of any length is read one document at a time, in a fixed
// window, by MapStream (any work on each document, on all cores) and
// DecodeReader (decoding); convert.UnwrapReader and migrate.Reader are
// built on MapStream, and migrate.Stream works on documents already in
// memory. Every one of them keeps one contract with its caller:
//
//   - The caller's context governs the whole run. A context already done
//     when the call starts stops it before anything is read.
//   - nil means that every document of the stream was emitted (given to
//     emit), in input order, exactly once.
//   - A run that stops early returns why, never nil: the context's error
//     (errors.Is(err, context.Canceled) or context.DeadlineExceeded), the
//     reader's error, or emit's. Every document before the stop has been
//     emitted; none after it is. (migrate.Stream has no emit and no
//     reader: nil means it migrated every document; after a stop, the
//     Result of each document it did not migrate says so.)
//   - Once the run stops (emit returned an error, or the context ended),
//     no further emit call begins. A context that ends after the last
//     document was emitted stops nothing, and the run returns nil.
//   - When the function returns, none of the goroutines it started is
//     left. After a stop it reads the reader once more at most, and it
//     waits for a Read that is under way, so a reader that can block (a
//     pipe, a network body) should return when the context ends, as an
//     HTTP request's body does when its request is cancelled.
//
// So a caller needs one test:
//
//	err := params.DecodeReader(ctx, s, r, func(d params.Document) error { ... })
//	// err == nil: every document was read and handed to the function
//
// # Go values
//
// The decoders give plain values, and every function works on them. A
// value built in Go may hold other Go data (an int, a []string, a
// map[string]string, a struct with json tags): the functions that take
// values (Validate, ValidateStructural, Default, CheckImmutable, Diff,
// MergePatch, Update.Run, MarshalYAML, MarshalJSON and gates.Set.Apply) first
// convert them as Plain does, the way encoding/json would write them, so
// that a Go int 5 and json.Number("5") are one value everywhere, and both
// encoders write the same thing. A plain value is used as it is, without a
// copy.
//
// What cannot be a value (a channel, a func, NaN, a map with bool keys, a
// value that holds itself) is an error naming its JSON pointer, from
// Plain, Validate, ValidateStructural, CheckImmutable, Update.Run and
// MarshalYAML. MarshalJSON, which has no error to return, returns nil for
// it (no JSON text is empty); Default, Diff, MergePatch and gates.Set.Apply
// work on such a value as given, where its Go data equals nothing.
//
// The typed getters (String, Int64, Map, ...) read plain values only: they
// report other Go data at a pointer by its Go type.
package params
