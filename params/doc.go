// Package params works on parameter values: plain Go data
// (map[string]any, []any, string, bool, nil and json.Number for every
// number) decoded with a schema in hand, validated, defaulted, updated and
// encoded back without a number ever passing through float64.
//
// # Go values
//
// The decoders give plain values, and every function works on them. A
// value built in Go may hold other Go data (an int, a []string, a
// map[string]string, a struct with json tags): the functions that take
// values (Validate, ValidateStructural, Default, CheckImmutable, Diff,
// MergePatch, Update.Run, MarshalYAML, MarshalJSON and Gates.Apply) first
// convert them as Plain does, the way encoding/json would write them, so
// that a Go int 5 and json.Number("5") are one value everywhere, and both
// encoders write the same thing. A plain value is used as it is, without a
// copy.
//
// What cannot be a value (a channel, a func, NaN, a map with bool keys, a
// value that holds itself) is an error naming its JSON pointer, from
// Plain, Validate, ValidateStructural, CheckImmutable, Update.Run and
// MarshalYAML. MarshalJSON, which has no error to return, returns nil for
// it (no JSON text is empty); Default, Diff, MergePatch and Gates.Apply
// work on such a value as given, where its Go data equals nothing.
//
// The typed getters (String, Int64, Map, ...) read plain values only: they
// report other Go data at a pointer by its Go type.
package params
