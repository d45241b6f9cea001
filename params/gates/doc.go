// Package gates applies field-level feature gates to Kubernetes objects,
// after the CRD feature-gate design: a gate names the fields of an object
// it guards, and a field whose gate is off is not persisted unless it was
// stored already. Gates act on an object's fields, not on parameter
// values, which is why they live apart from package params.
//
// The entry point is [Parse] (a gates file) or [New] (gates built in Go),
// which check the gates and give a [Set]; [Set.Apply] then decides what to
// persist on each create or update, and [Set.Status] tells each gate's
// effective state:
//
//	set, err := gates.Parse(gatesYAML)
//	res := set.Apply(newObject, storedObject) // storedObject nil on create
//	// res.Object is what to persist, res.Warnings what to tell the client
//
// Errors are *schema.Error values (kind schema.KindGateList for a gate that
// breaks the rules), in a schema.ErrorList, each with its JSON pointer.
//
// # What a gate decides
//
// A gates file is a list of gates or an object with `featureGates`; every
// fault of the list (an unknown field, a missing preRelease or fieldPaths,
// a malformed field path, a beta or deprecated gate without a default) is
// reported at once. A gate's effective state comes from `enabled`, then
// `default`, then its pre-release stage (alpha off, stable on); a stable
// gate is on whatever `enabled` says. On each create or update
// ([Set.Apply]):
//
//   - a field whose gate is off is dropped when nothing was stored there,
//     and keeps its stored value when something was (neither updated nor
//     removed);
//   - a field whose gate is on takes the new object's value;
//   - a child gate (one of whose paths lies below a path of another gate)
//     counts only when every parent gate is on: a parent that is off
//     decides the whole field.
//
// [Result] says what was dropped (pointers, and a warning for the client
// for each), gives a warning for each deprecated gate whose fields the
// update touches, and reports whether the spec is unchanged after the
// gates (the signal not to bump metadata.generation). [Set.Status] tells
// each gate's effective state and why.
package gates
