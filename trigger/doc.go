// Package trigger implements the KUDO `trigger` keyword: which plan a
// change of a parameter value runs.
//
// Every level of a schema may name a plan; a level without one inherits
// its parent's; a descendant naming a different plan than an ancestor is a
// schema error (Check), the same plan repeated is allowed. A changed value
// maps to the nearest trigger at or above it, else to the default plan, and
// an update whose changes map to more than one plan is refused (Resolver).
package trigger
