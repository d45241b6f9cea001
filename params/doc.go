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
//	v, err = params.Default(s, v)
//	err = params.Validate(s, v) // every error, each with its pointer
//
// An update from `-P` files and `-p` strings, with its plan
// (ExampleUpdate, ExampleUpdate_filesAndSet):
//
//	patch, err := params.DecodePatch(s, fileData)
//	r, err := (&params.Update{Schema: s, Old: old, Patches: []any{patch}, Set: []string{"nodeCount=5"}}).Run()
//	// r.Values, r.Plan, r.Changed, r.Warnings
//
// Typed getters for operator code (ExampleString):
//
//	n, err := params.Int64(v, "/nodeCount")
//
// Every error is a *schema.Error or a schema.ErrorList's Err: one loop over
// schema.ErrorsOf(err) prints any of them (Example_errors). Errors of a
// stream carry lines; for values decoded from one document, Locate gives
// the errors and warnings of Validate, Update.Run and Undeclared the
// lines of their pointers in its text (ExampleLocate), and
// schema.ErrorIn names the file.
//
// Zero values are refused, never a panic: a function given a Schema not
// made by schema.Parse or FromValue (a zero &schema.Schema{};
// nil means no schema where a function says so), a zero Update, or a
// stream function given no context, reader or callback,
// fails with an error of kind schema.KindUsage.
//
// # Types come from the schema
//
// A value written as text (a plain YAML scalar, a `-p` value, a v1beta1
// string) takes the type of the schema node it lands on, never a guess:
// on a string node `yes`, `1.10`, `0x1F` and `007` stay exactly those
// strings; on an integer node `3` is 3 and `9007199254740993` stays exact;
// `1.5` on an integer node is a validation error (kind schema.KindType).
// Where the schema says nothing, YAML 1.2 core rules apply, not YAML
// 1.1's: `yes` and `on` are strings. A document that parses as JSON means
// exactly what it says (`1` is a number, even on a string node, and fails
// validation there), also each document of a `---` stream, which then
// takes the JSON path document by document; only YAML plain scalars and
// text values take their type from the schema. Flow collections written
// tersely, as KUDO users did (`[foo,bar,bazz]`, `{foo:"bar"}`), read as
// what the user meant, ["foo","bar","bazz"] and {"foo":"bar"}, and text
// inside them is typed by its own node too (`-p obj={"a":1}` with a
// string a gives "1"). A text value that cannot take its node's type is a
// validation error of its document, reported with all the others, not a
// read error.
//
// # Exact numbers
//
// Every number is a json.Number from input to output: decoding, defaults,
// merge patches, validation (decimals of up to 18 digits are compared as
// integers, the rest through big.Rat), MarshalJSON and MarshalYAML keep
// its text, and nothing passes through float64. Float is the one getter
// that gives a float64, on request.
//
// # Defaults
//
// Default fills missing properties from `default`, through nested
// objects, array items and additionalProperties and patternProperties
// values; a default is itself defaulted below. A missing parent object is
// created when something below it has a default (so templates can read
// `.Params.backup.enabled`), unless a required property in it would stay
// missing. A given value is never overwritten, and a given null stays.
// With the option Structural() defaulting follows a kube-apiserver
// defaulting a CRD object: no parent is created, and a null on a
// non-nullable property is dropped, then defaulted if it has a default;
// Validate with Structural() honours `nullable: true` as the apiserver
// does.
//
// # Immutability
//
// `immutable: true` covers the node and everything under it (through $ref
// and allOf, under items and additionalProperties too): CheckImmutable
// refuses an update that changes, adds or removes any of it, compared
// after defaulting both sides, so a value that was and stays its default
// is no change. A first install (no old values) is free. Each violation is
// an entry of kind schema.KindImmutable that never quotes the values.
//
// # Updates
//
// Update.Set takes `-p KEY=VALUE` as the user typed it (its
// documentation gives the forms of KEY). Charts' schemas nest their keys in branches, and
// a value the schema accepts is never refused for the way it was written:
//
//   - Keys. A key is found through properties, patternProperties,
//     additionalProperties, $ref and allOf, and into every branch of
//     anyOf, oneOf and if/then/else (schema.Node.ChildNodes): it is
//     declared when any branch declares it, and refused only where every
//     branch forbids it (`additionalProperties: false`). The final
//     validation decides the rest.
//   - Types. VALUE is read by the node of each branch that governs the
//     key; readings other than a string come first, as for a node of
//     several types ("10" is 10 where a branch takes integers). When the
//     first readings fail the final validation, the others are tried,
//     those that change the fewest assignments first (at most 64
//     validations), and the first combination that validates is kept:
//     `storage.size=10` is 10 under `kind: disk` and "10" under
//     `kind: bucket` when then and else type size differently. Typing by
//     the union of the branches' types would refuse the second.
//   - Helm's lists. Where a node says array (type array, or items or
//     prefixItems), `tags={a,b}` is the list of a and b, each element typed
//     by its own node (the first reading that node accepts); `\,` is a
//     comma inside an element; `{}` is the empty list. Where a node also
//     says object, YAML's reading (`{a: 1}`, a mapping) comes first. Where
//     the schema says string, `{a,b}` stays that text. YAML's flow lists
//     (`[a, b]`) work as before.
//   - Helm's indexes. `hosts[1]=z`, anywhere in a dotted path
//     (`a.b[0].c=1`), sets element 1, typed by the items; a missing list is
//     created (where the schema allows an array) and a short one grown
//     with null to reach the index, as Helm's --set does; the elements
//     filled with null must then be allowed by the items. Setting an
//     index is idempotent however the list grew. The index forms of JSON
//     pointers and dotted paths (`hosts/1`, `hosts.1`) keep their rule:
//     the index must exist.
//   - null. The text null (`null`, `Null`, `NULL`, unquoted) removes the
//     key, creating nothing on the way, and the key's default (if any)
//     fills it again; where a node allows null in so many words (a type
//     list with "null", `nullable: true`, null in an enum or const) it sets
//     null, unless the final validation then refuses null (JSON Schema
//     does not read nullable), when the key is removed. In an array it
//     sets the element to null. `"null"` (quoted) is the string.
//
// Where paramkit differs from Helm's --set, and why: types come from the
// schema, not from the text (Helm keeps `1.5` a string and makes `true`
// a boolean on a string node); `{a,b}` is a list only where the schema says
// array, and `{}` the empty list (Helm's gives [""]); a KEY holding "/" is
// a JSON pointer (`-p /labels/app.kubernetes.io~1name=web`; Helm reads the
// "/" literally); one -p sets one key, so a comma outside `{}` is text
// (Helm's `a=1,b=2` sets two); in a KEY only `\.`, `\\`, `\[` and `\]`
// are escapes; null gives the key back to its default (Helm's leaves it
// out of the chart's defaults too), since Update applies defaults after
// the edits. Patch operations (Update.Operations) take the same KEY forms, a Helm
// index being an index like any other, and null sets null, as RFC 6902
// says.
//
// An RFC 6902 JSON Patch document is another thing: ApplyJSONPatch applies
// one (add, remove, replace, move, copy and test) to values, taking every
// value exactly as JSON gives it ("5" stays a string, where
// Update.Operations type it from text), numbers exact, pointers by RFC 6901 strictly, and
// then validates the result; the input values are never modified.
//
// The pipeline (Update.Run) applies the merge patches (`-P`, RFC 7386:
// null deletes, arrays are replaced whole), then the assignments in order,
// then the operations, then defaults, one validation of the result,
// immutability, and the plan: each change maps to the nearest `trigger`
// at or above it, else to the default plan (package trigger), and an
// update whose changes map to two plans is refused, naming each path and
// its plan (kind schema.KindConflict). Nothing is returned as new
// values unless every step passed. Without Old the update is an install:
// plan "deploy", no single-plan rule, no immutability. Result.Changed
// lists the highest pointers that differ between the old and the new
// values, both defaulted; nothing changed gives an empty Changed and no
// plan. Update.Desired takes a whole new state instead of edits (what an
// operator holds), through the same pipeline. A malformed assignment (no
// `=`) is a *schema.Error of kind schema.KindUsage wrapping ErrMalformed;
// a bad path or value is an error of its own kind.
//
// Sparse results. Result.Values are the defaulted values, what an
// operator's templates read. With Update.Sparse they are the values as the
// user wrote them plus the change, no default materialized, as
// convert/migrate's results are: write those back to a values file
// (package params/edit edits one in place), so that a later change of a
// schema's default still reaches every value the user never set. Sparse
// changes nothing else: validation, immutability, Changed and the plan
// are those of the defaulted values; Default gives the whole state back.
//
// Undeclared keys. A typo such as `-p replicsa=4` would otherwise be
// written silently wherever the schema leaves additional properties open,
// as most schemas do. A key is undeclared when its parent lists
// `properties` (or `patternProperties`), the key matches none, and the
// parent has no `additionalProperties` schema of its own; keys of
// free-form objects never are, and a null in a merge patch (a deletion)
// names nothing. Every key the edits write that is undeclared is a
// warning in Result.Warnings (kind schema.KindUndeclared, naming the
// closest declared names); Update.Strict makes them errors; Undeclared
// finds them in whole values (the admission webhook warns with it). Where
// the schema forbids the key (`additionalProperties: false`) the refusal
// is a validation error, with the same suggestion.
//
// # Streams and cancellation
//
// A `---` stream of any length is read one document at a time, in a fixed
// window. There is one function per job, and all of them have one shape:
// the context, the schema or migration where there is one, the reader,
// a worker count (all cores when <= 0), then emit, a
// func(Document[T]) error called once a document in input order, from the
// calling goroutine. A Document carries the document's Index, Line and
// Text, what the function made of it (Value, of type T) and its verdict
// (Err, nil when it passed):
//
//   - DecodeReader decodes and validates parameter values (T is any).
//   - MapStream runs work of one's own on each document (T is work's
//     result); a stream held in memory is a bytes.Reader.
//   - migrate.Reader migrates values to a new schema version (T is
//     migrate.Result).
//   - convert.UnwrapReader unwraps v1beta1 string values (T is
//     *convert.Converted).
//
// The last three run on MapStream, and all four keep one contract with
// their caller:
//
//   - The caller's context governs the whole run. A context already done
//     when the call starts stops it before anything is read.
//   - nil means that every document of the stream was emitted (given to
//     emit), in input order, exactly once.
//   - A run that stops early returns why, never nil: the context's error
//     (errors.Is(err, context.Canceled) or context.DeadlineExceeded), the
//     reader's error, or emit's. Every document before the stop has been
//     emitted; none after it is.
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
//	err := params.DecodeReader(ctx, s, r, 0, func(d params.Document[any]) error { ... })
//	// err == nil: every document was read and handed to the function
//
// # Go values
//
// The decoders give plain values, and every function works on them. A
// value built in Go may hold other Go data (an int, a []string, a
// map[string]string, a struct with json tags): the functions that take
// values (Validate, Default, CheckImmutable, Diff, Undeclared,
// Update.Run, MarshalYAML, MarshalJSON and gates.Set.Apply) first
// convert them as Plain does, the way encoding/json would write them, so
// that a Go int 5 and json.Number("5") are one value everywhere, and both
// encoders write the same thing. A plain value is used as it is, without a
// copy.
//
// No function changes the values it is given (TestFunctionsLeaveTheirInputsAlone
// at the repository root checks each): what differs comes back as a new
// value. Default copies on write, so its result may share the parts that
// needed no change with its input: copy it (a decoded copy of its
// MarshalJSON) before editing it in place.
//
// What cannot be a value (a channel, a func, NaN, a map with bool keys, a
// value that holds itself) is an error naming its JSON pointer, from
// Plain, Validate, Default, CheckImmutable, Update.Run, MarshalYAML and
// MarshalJSON; Diff and gates.Set.Apply work on such a value as given,
// where its Go data equals nothing.
//
// The typed getter Get reads plain values only: it reports other Go data
// at a pointer by its Go type.
package params
