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
// Errors are *schema.Error values (kind schema.KindGate for a gate that
// breaks the rules), in a schema.ErrorList, each with its JSON pointer.
package gates
