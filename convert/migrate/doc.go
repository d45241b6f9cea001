// Package migrate carries parameter values across schema versions: from
// one version to a newer one by the new schema's oldName keywords
// (Migration), and between any two of a set of named versions served at
// once, in both directions (VersionSet). Schemas in any form convert
// reads (v1beta2, v1beta1, a CRD) load through convert.LoadSchema; this
// package imports convert, never the reverse.
//
// Migration handles renamed and moved properties, chains of versions,
// type changes (lossy ones refused unless allowed, and reported either
// way), property bags that make round trips lossless (BagKey), and batch
// migration of many documents at once (Stream, Reader). Conversions that
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
// a batch (ExampleStream, ExampleReader):
//
//	m, err := migrate.New(target, migrate.FromVersion(old), migrate.ThroughVersions(mid...))
//	r := m.MigrateDocument(data) // r.Values, r.Dropped, r.Lossy, r.Errors
//	results, err := migrate.Stream(ctx, m, docs, 0) // err: ctx's, when it ended first
//
// Conversion between any two versions of a set served at once, both ways
// (ExampleNewVersionSet, ExampleVersionSet_Convert):
//
//	set, err := migrate.LoadVersionSet(dir) // or NewVersionSet(versions)
//	r, err := set.Convert(values, "v1", "v3")
//
// Which of the two: a Migration goes one way, from one version to a newer
// one (an operator's upgrade); a VersionSet converts between named
// versions in both directions (a conversion webhook, a storage
// migration). New's documentation says more.
//
// Options are of one type, Option; each function names those that apply
// to it and refuses others, naming them. Property tests of conversions
// draw values from convert/migrate/migratetest.
package migrate
