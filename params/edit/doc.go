// Package edit writes an update into a values file in place: the values
// counterpart of schema/edit. Given a file's bytes, the schema, the values
// the file holds and the values an update produced, [Values] returns the
// file with only the lines of the changed values changed; comments, key
// order, quoting and layout stay as the author wrote them.
//
// It works for every kind of update, since it looks only at the result:
//
//	old, _ := params.Decode(s, src)
//	r, err := (&params.Update{Schema: s, Old: old, Set: []string{"image.tag=1.2"}, Sparse: true}).Run()
//	out, err := edit.Values(s, src, old, r.Values)
//
// Run the update with params.Update.Sparse so that no default the user
// never wrote lands in the file.
package edit
