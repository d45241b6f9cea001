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
// # Updates
//
// Update.Set takes `-p KEY=VALUE` as the user typed it (see Assignment
// for the forms of KEY). Charts' schemas nest their keys in branches, and
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
// the edits. Patch operations (Operation) take the same KEY forms, a Helm
// index being an index like any other, and null sets null, as RFC 6902
// says.
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
