// Package kudo compiles one KUDO operator version for the code that
// admits and reconciles its Instances: the parameter schema, the plan
// names, plan resolution and the oldName migration from a previous
// version, built once and shared by every request.
//
// An OperatorVersion comes from an OperatorVersion manifest (Load: YAML or
// JSON, kudo.dev/v1beta1 or v1beta2, or a bare schema or params.yaml,
// whose plans are then unknown) or from a decoded object (FromObject: an
// unstructured.Unstructured's Object, or a typed object marshalled to
// JSON, whose apiVersion and kind a typed client leaves empty). Input it
// cannot identify is refused with a *schema.Error; it never becomes an
// operator version without plans.
//
// Its two decisions follow KUDO:
//
//   - Update: the same operator version, a new whole state of the
//     parameters. A change no trigger covers runs "update" where the
//     operator version has that plan, else "deploy"; changes that trigger
//     two plans are refused; immutable parameters may not change.
//   - Upgrade: a new operator version. The parameters move to their new
//     places by oldName, and the change runs "upgrade" where the operator
//     version has that plan, else "deploy", whatever changed (the
//     single-plan rule does not apply); immutable parameters still may
//     not change, compared after moving the old ones too.
//
// ConvertObject is the conversion of kudo.dev objects between v1beta1 and
// v1beta2 that a conversion webhook serves: Instance parameters by the
// schema of their operator version, both ways and losslessly.
//
// Nothing here imports Kubernetes: a controller-runtime operator
// (examples/operator) and `paramctl webhook` share it.
//
// # Entry points
//
//	ov, err := kudo.Load("", manifest)             // or kudo.FromObject(u.Object)
//	r, err := ov.Update(oldParams, newParams)       // r.Values, r.Plan, r.Changed
//	u, err := ov.Upgrade(prev, oldParams, newParams) // u.Values, u.Dropped (a migrate.Result); plan ov.UpgradePlan()
//	out, err := kudo.ConvertObject(ctx, obj, "kudo.dev/v1beta2", resolve) // a conversion webhook's object
package kudo
