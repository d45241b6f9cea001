// Package migrate carries parameter values across schema versions: from
// one version to a newer one by the new schema's oldName keywords
// (Migration), and between any two of a set of named versions served at
// once, in both directions (VersionSet). Schemas in any form convert
// reads (v1beta2, v1beta1, a CRD) load through convert.LoadSchema; this
// package imports convert, never the reverse.
//
// Migration handles renamed and moved properties, chains of versions,
// type changes (lossy ones refused unless allowed, and reported either
// way), property bags that make round trips lossless (x-paramkit-bag), and batch
// migration of a `---` stream of any length (Reader). Conversions that
// read bytes (VersionSet.ConvertDocument, ConvertObjectDocument,
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
// Migration between two versions, by the new schema's oldName keywords
// (ExampleNew); through versions in between (ExampleNew_throughVersions);
// a `---` stream of many documents (ExampleReader):
//
//	m, err := migrate.New(target, migrate.FromVersion(old), migrate.ThroughVersions(mid...))
//	r, err := m.MigrateDocument(data) // r.Values, r.Dropped, r.Lossy; schema.ErrorsOf(err)
//	err = migrate.Reader(ctx, m, in, 0, func(d params.Document[migrate.Result]) error { ... }) // d.Value, d.Err
//
// Conversion between any two versions of a set served at once, both ways
// (ExampleNewVersionSet, ExampleVersionSet_Convert):
//
//	set, err := migrate.LoadVersionSet(os.DirFS(dir)) // or NewVersionSet(versions)
//	r, err := set.Convert(values, "v1", "v3")
//
// Which of the two: a Migration goes one way, from one version to a newer
// one (an operator's upgrade); a VersionSet converts between named
// versions in both directions (a conversion webhook, a storage
// migration). New's documentation says more.
//
// Every one of them (Migrate, MigrateDocument, MigrateHiding, Down, and a
// set's Convert, ConvertDocument, ConvertObject, ConvertObjectDocument)
// returns (Result, error): the error holds every failure, read with
// schema.ErrorsOf; the Result is the report (values, dropped, lossy), and
// with an error it is meaningful exactly when the errors are about the
// values (see Result). kudo's OperatorVersion.Upgrade has the same shape.
//
// Options are of one type, Option; each function names those that apply
// to it and refuses others, naming them. Property tests of conversions
// draw values from convert/migrate/migratetest.
//
// # Migration by oldName
//
// A node's `oldName` (a string or a list; a name starting with "/" is a
// JSON pointer into the old values) maps a value of the previous version
// into its new place. A list is tried in order: the first name present
// wins, and any other present is reported as dropped. A value whose path
// the new schema still declares (properties, or an explicit
// additionalProperties or patternProperties schema, not mere openness)
// carries over unchanged. A chain of versions (ThroughVersions) applies
// each step's migration in order, so no version has to be installed in
// between.
//
// Every document gets a report, and nothing disappears without appearing
// in it: a value that maps nowhere is in Result.Dropped (its old pointer
// and value); a type change that loses information (a number to an
// integer by truncation) is in Result.Lossy (the new pointer, from and to)
// and is refused (an error of kind schema.KindType, its Detail holding
// both values) unless AllowLossy is given. A change is lossy by value:
// 2593.0 to 2593 is not. Down-conversion keeps what an older version
// cannot hold in a property bag under the top-level key x-paramkit-bag
// (see "The property bag"), so that new → old → new is the identity
// (Migration.Down; VersionSet for both directions).
//
// Secrets: a value is secret when any schema on its way marks it
// (writeOnly or format: password; see package schema, "Secrets in
// messages"): the oldest version (FromVersion, or Migration.MigrateHiding
// when that schema only hides), each version in between and the target.
// Dropped.Hidden and Lossy.Hidden are then set and the values left out
// (the input still holds them at the pointer).
//
// # Version sets
//
// A version set is a folder of schemas, one per version (NAME.yaml or
// NAME.json), ordered by its versions.yaml (`[v1, v2, {name: v3, preview:
// true}]`; `downgrade: false` makes a version upgrade-only), or else by
// the version order of the names (v1alpha1 < v1beta1 < v1 < v2,
// 0.1.0 < 0.2.0). The hub is the newest version not marked preview, and
// every conversion goes A → hub → B. ConvertObject and RewriteObjects
// convert whole Kubernetes objects: apiVersion and kind are rewritten, and
// metadata keeps name, namespace, labels, annotations and owner references
// and drops what the server sets, so the output can be applied (an
// operator's start-up rewrite of its stored objects). VersionSet.Refused
// tells whether the set refuses a conversion, VersionSet.Losses where one
// loses values (found by sampling). CaseInsensitiveNames matches property names
// that differ only in case between adjacent versions, and reports each
// match.
//
// # The property bag
//
// x-paramkit-bag is the reserved top-level key of a values document under which a
// lossless conversion keeps what the version it converts to cannot hold:
// the property bag of the storage-versioning design. It lives in the
// values themselves (not in an annotation) so that it travels with them,
// through every store and client, and is not edited by accident. Its
// value is a list of layers, oldest first; each conversion step pushes
// one when it has something to keep, and the same step converting back
// pops and applies it:
//
//	x-paramkit-bag:
//	- step: 9c0f3e5d21a4b7e8   # the pair of schemas, by content
//	  dir: down                 # the direction that pushed the layer
//	  patch:                    # how to turn the generated values back into the original
//	  - pointer: /backup/region # in the coordinates of the version converted from
//	    value: eu-west-1        # absent: remove the value there
//	    was: null               # what the generated conversion gives there; absent: nothing
//
// An entry is applied only where the generated values still hold what
// they held when the layer was made ("was"), so that a change made in the
// other version meanwhile wins over the bag. Both are compared by what
// they mean in that version (text typed by its node; YAML 1.2 core rules
// where none types it), so that a bag written as YAML and read back by
// ConvertDocument compares as it was made.
//
// While a conversion runs, the bag carries a YAML plain scalar that no
// node typed as written; restored, it is typed by the node it lands on.
// The result gives what such text means by YAML 1.2 core rules, like every
// other value (007 is 7). Validation inside this
// package ignores the key; callers that validate values carrying a bag
// against a closed schema remove the key first (and put it back before
// converting again). To keep the bag elsewhere, such as an annotation of
// the enclosing object, move the key's value there and back.
//
// # Batches
//
// Reader is the one way to migrate many documents: a `---` stream of any
// length, on all cores, in input order and constant memory (see package
// params, "Streams and cancellation", for its contract). 10,000
// documents of the KEP upgrade example (BenchmarkMigrateBatch) migrate at
// about 280,000 documents a second on one core and 485,000 with two
// workers on two cores (idle 2-core machine): 1.7 times one core, 1.6
// times one worker that has the second core for the garbage collector. A
// single batch from a fresh heap collects more often and gets 1.6 to 1.7
// (BenchmarkMigrateBatchSpeedup).
package migrate
