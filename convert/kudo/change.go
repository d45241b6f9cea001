package kudo

import (
	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// Update decides a change of an Instance's parameters within this
// operator version: old is what the Instance held (nil for a new
// Instance: an install, plan trigger.Deploy), desired its whole new
// parameters (not a patch: what it lacks is removed). It is
// params.Update with Desired and this version's plan resolution: the
// result's Values are defaulted and valid, Plan is the one plan the
// changes trigger ("" when nothing changed), Changed the highest changed
// pointers, a removed parameter's included. Neither old nor desired is
// changed; errors are a schema.ErrorList (invalid values, immutable
// changes, kind schema.KindConflict for changes of two plans).
func (v *OperatorVersion) Update(old, desired any) (params.Result, error) {
	if v == nil || v.schema == nil {
		return params.Result{}, schema.NewError(schema.KindUsage, "", "kudo: Update needs an operator version made by New, Load or FromObject")
	}
	if desired == nil {
		desired = map[string]any{}
	}
	return (&params.Update{Schema: v.schema, Triggers: v.triggers, Old: old, Desired: desired}).Run()
}

// Upgrade decides an operator-version change from the version from to
// this one: old is the Instance's parameters under from (nil for none),
// desired its new parameters, which may still be in from's shape (a user
// who only changed spec.operatorVersion.name) or already in this
// version's. Both are moved by oldName (values already in place stay),
// then defaulted; the new values are validated and checked for immutable
// changes against the moved old ones. The change runs one plan whatever
// changed (UpgradePlan), so no single-plan rule applies. Neither old nor
// desired is changed.
//
// The result has the shape of every migration's (migrate.Result, as
// Migration.Migrate and VersionSet.Convert give it): Values are the new
// values, moved, defaulted and valid; Dropped the values that have no
// place in this version (a key it does not declare among them), with
// their old pointers and their values hidden where a schema marks them
// secret (a caller warns about them: they are gone from Values); Lossy
// the values whose type change lost something (refused, and so never
// there, unless the migration allows it). Every failure is the error, read
// with schema.ErrorsOf (the Result is then zero, unlike a migration's): the migration's problems (with the new pointers),
// the validation's, or kind schema.KindImmutable.
func (v *OperatorVersion) Upgrade(from *OperatorVersion, old, desired any) (migrate.Result, error) {
	if v == nil || v.migration == nil || from == nil || from.schema == nil {
		return migrate.Result{}, schema.NewError(schema.KindUsage, "", "kudo: Upgrade needs two operator versions made by New, Load or FromObject")
	}
	if desired == nil {
		desired = map[string]any{}
	}
	moved, err := v.migration.MigrateHiding(desired, from.schema)
	if err != nil {
		return migrate.Result{}, err
	}
	values, err := params.Default(v.schema, orEmpty(moved.Values))
	if err != nil {
		return migrate.Result{}, err
	}
	if err := params.Validate(v.schema, values); err != nil {
		return migrate.Result{}, err
	}
	if old != nil {
		// Old values that do not fit this version stay at their new
		// place as they were (the migration's errors are the new values'
		// business, checked above; the Result is meaningful with them):
		// they still count for immutability.
		m, _ := v.migration.MigrateHiding(old, from.schema)
		oldValues, err := params.Default(v.schema, orEmpty(m.Values))
		if err != nil {
			return migrate.Result{}, err
		}
		if err := params.CheckImmutable(v.schema, oldValues, values); err != nil {
			return migrate.Result{}, err
		}
	}
	return migrate.Result{Values: values, Dropped: moved.Dropped, Lossy: moved.Lossy}, nil
}

func orEmpty(v any) any {
	if v == nil {
		return map[string]any{}
	}
	return v
}
