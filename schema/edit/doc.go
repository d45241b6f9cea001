// Package edit changes schema documents in place, keeping every byte it
// does not need to change: key order, comments, quoting and layout stay
// as the author wrote them. The core schema model (parsing, validation,
// the node tree) lives in package schema; this package owns the edits.
//
// The entry point is [AddProperty], which adds a parameter described by
// a [Property] at a JSON pointer into the values:
//
//	out, err := edit.AddProperty(doc, "/backup/retentionDays", edit.Property{
//		Type: "integer", Default: json.Number("7"), HasDefault: true,
//	})
//
// The result is checked before it is returned: it parses, compiles, reads
// back as exactly the intended document and accepts the default.
package edit
