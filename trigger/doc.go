// Package trigger implements the KUDO `trigger` keyword: which plan a
// change of a parameter value runs.
//
// Every level of a schema may name a plan; a level without one inherits
// its parent's; a descendant naming a different plan than an ancestor is a
// schema error (New refuses it), the same plan repeated is allowed. A
// changed value maps to the nearest trigger at or above it, else to the
// default plan (Deploy, or DefaultPlan), and an update whose
// changes map to more than one plan is refused (Resolver.Resolve).
// "Above" follows the values: a trigger under items or additionalProperties
// covers the array elements and map values below it, and a change inside a
// free-form map or array resolves through its parents.
//
// New precomputes everything once per schema; Parameters lists each
// parameter's own and effective trigger, for listings.
//
// Errors are *schema.Error values in a schema.ErrorList: a trigger that
// conflicts with an ancestor's is kind schema.KindConflict, at the
// schema pointer of the node that names the other plan, naming both plans;
// an update whose changes map to two plans gives one entry of kind
// schema.KindConflict per change, at its pointer, naming its plan and
// all of them (Error.Detail carries the plans in both cases). An
// operator version's upgrade runs one plan whatever changed ("upgrade"
// where the operator declares it, else "deploy"), so the single-plan rule
// does not apply to it: package convert/kudo decides updates and upgrades
// together.
//
// # Entry points
//
// The plan an update runs (Example), and the check of a schema's triggers
// (ExampleNew):
//
//	r, err := trigger.New(s, trigger.DefaultPlan("update")) // once per schema; err lists the conflicts
//	plan, err := r.Resolve(changedPointers)
//
// params.Update resolves the plan of an update itself; give it the
// Resolver (Update.Triggers) to build it once per schema.
package trigger
