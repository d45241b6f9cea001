package kudo

import (
	"fmt"
	"sort"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/trigger"
)

// Plan names with a meaning of their own in KUDO (see DefaultPlan and
// UpgradePlan).
const (
	updatePlan  = "update"
	upgradePlan = "upgrade"
)

// kindOperatorVersion is the kind of the objects Load and FromObject read.
const kindOperatorVersion = "OperatorVersion"

// OperatorVersion is one compiled operator version: its parameter schema,
// the plans it declares, plan resolution by trigger and the oldName
// migration into it. It is built once (New, Load, FromObject), is
// immutable, and is safe for concurrent use; a cache keeps one per
// operator version and drops it when the OperatorVersion changes.
type OperatorVersion struct {
	name      string
	schema    *schema.Schema
	plans     []string
	triggers  *trigger.Resolver
	migration *migrate.Migration
}

// New compiles an operator version from its schema and the plan names it
// declares (nil when unknown, as for a bare schema: the default plan is
// then trigger.Deploy, and so is an upgrade's). It refuses a schema that
// cannot be worked with: a trigger under a different trigger (kind
// schema.KindConflict), an old name claimed twice. plans is
// copied and sorted.
func New(name string, s *schema.Schema, plans []string) (*OperatorVersion, error) {
	if s == nil {
		return nil, schema.NewError(schema.KindUsage, "", "kudo: New needs a schema")
	}
	v := &OperatorVersion{name: name, schema: s}
	var opts []trigger.Option
	if plans != nil {
		v.plans = append([]string{}, plans...)
		sort.Strings(v.plans)
		opts = append(opts, trigger.DefaultPlan(v.DefaultPlan())) // KUDO's rule
	}
	var err error
	if v.triggers, err = trigger.New(s, opts...); err != nil {
		return nil, err
	}
	if v.migration, err = migrate.New(s); err != nil {
		return nil, err
	}
	return v, nil
}

// Load compiles an operator version from a file's or a request's bytes
// (YAML or JSON): an OperatorVersion manifest of kudo.dev/v1beta1 (a
// parameter list) or v1beta2 (a schema), whose spec.plans give the plan
// names, or a bare schema or v1beta1 params.yaml (plans unknown). An
// OperatorVersion is recognised by its kind, or, when kind is empty (a
// typed object marshalled to JSON), by a spec and no schema keywords at
// its root. name "" takes metadata.name.
//
// Input it cannot identify is refused with a *schema.Error: a document
// of another kind (an Instance), or one that is neither an object nor a
// schema (a flat map of values: kind schema.KindNotSchema). Errors of the
// schema itself are a schema.ErrorList pointing into the input
// (/spec/parameters/... inside a manifest).
func Load(name string, data []byte) (*OperatorVersion, error) {
	doc, err := params.Decode(nil, data)
	if err != nil {
		return nil, err
	}
	m, isMap := doc.(map[string]any)
	if isMap {
		ok, err := isOperatorVersion(m)
		if err != nil {
			return nil, err
		}
		if ok {
			if k, _ := m["kind"].(string); k == kindOperatorVersion {
				return fromObject(name, m, data)
			}
			return fromObject(name, m, nil)
		}
	}
	s, err := convert.LoadSchema(data)
	if err != nil {
		return nil, err
	}
	return New(name, s, nil)
}

// FromObject compiles an operator version from a decoded OperatorVersion
// object: the Object of an unstructured.Unstructured, or a typed object
// marshalled to JSON and decoded (params.Decode), whose apiVersion and
// kind are empty after a typed client's Get. Its name is
// metadata.name. Go data other than plain values is taken as params.Plain
// converts it. Anything that is not an OperatorVersion object (another
// kind; no kind and no spec, such as a bare schema) is refused with a
// *schema.Error of kind schema.KindNotSchema.
func FromObject(obj map[string]any) (*OperatorVersion, error) {
	v, err := params.Plain(obj)
	if err != nil {
		return nil, err
	}
	m, _ := v.(map[string]any)
	ok, err := isOperatorVersion(m)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &schema.Error{Kind: schema.KindNotSchema, Message: "not an OperatorVersion object: it has no kind and no spec (a bare schema is read with Load)"}
	}
	return fromObject("", m, nil)
}

// isOperatorVersion tells an OperatorVersion object from a schema or a
// params file, and refuses objects of other kinds.
func isOperatorVersion(m map[string]any) (bool, error) {
	kind := m["kind"]
	k, isString := kind.(string)
	switch {
	case k == kindOperatorVersion:
		return true, nil
	case k != "":
		return false, &schema.Error{Pointer: "/kind", Kind: schema.KindNotSchema, Message: fmt.Sprintf("a %s is not an OperatorVersion", k)}
	case !isString && kind != nil:
		return false, &schema.Error{Pointer: "/kind", Kind: schema.KindNotSchema, Message: fmt.Sprintf("kind is %s, not a string", typeName(kind))}
	}
	spec, isMap := m["spec"].(map[string]any)
	return isMap && spec != nil && !schemaKeywords(m), nil
}

// schemaKeywords reports whether a mapping uses JSON Schema keywords at
// its root (a schema with a property called spec declares it under
// properties, never at the root).
func schemaKeywords(m map[string]any) bool {
	for _, k := range []string{"$schema", "$id", "$ref", "type", "properties", "allOf", "anyOf", "oneOf", "$defs", "definitions", "additionalProperties", "parameters"} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// fromObject compiles an identified OperatorVersion object. data is the
// object's own text when it says its kind (so that errors keep lines);
// otherwise the object is written out with its kind.
func fromObject(name string, m map[string]any, data []byte) (*OperatorVersion, error) {
	if name == "" {
		md, _ := m["metadata"].(map[string]any)
		name, _ = md["name"].(string)
	}
	spec, _ := m["spec"].(map[string]any)
	plans := []string{} // an object says which plans it has, if none
	if raw, ok := spec["plans"]; ok && raw != nil {
		ps, ok := raw.(map[string]any)
		if !ok {
			return nil, schema.ErrorList{{Pointer: "/spec/plans", Kind: schema.KindSchema, Message: fmt.Sprintf("spec.plans must be a map from plan name to plan, not %s", typeName(raw))}}.Err()
		}
		for p := range ps {
			plans = append(plans, p)
		}
	}
	if data == nil {
		withKind := make(map[string]any, len(m)+1)
		for k, x := range m {
			withKind[k] = x
		}
		withKind["kind"] = kindOperatorVersion
		var err error
		if data, err = params.MarshalJSON(nil, withKind, ""); err != nil {
			return nil, err
		}
	}
	s, err := convert.LoadSchema(data)
	if err != nil {
		return nil, err
	}
	return New(name, s, plans)
}

// typeName names a value's kind for messages.
func typeName(v any) string { return value.Describe(v, "a list", "an object") }

// Name is the operator version's name, as an Instance's
// spec.operatorVersion.name gives it.
func (v *OperatorVersion) Name() string {
	if v == nil {
		return ""
	}
	return v.name
}

// Schema is the compiled parameter schema.
func (v *OperatorVersion) Schema() *schema.Schema {
	if v == nil {
		return nil
	}
	return v.schema
}

// Plans are the plan names the operator version declares, sorted; nil
// when unknown (it was built from a bare schema). The slice is a copy.
func (v *OperatorVersion) Plans() []string {
	if v == nil || v.plans == nil {
		return nil
	}
	return append([]string{}, v.plans...)
}

// HasPlan reports whether the operator version declares the plan.
func (v *OperatorVersion) HasPlan(name string) bool {
	if v == nil {
		return false
	}
	i := sort.SearchStrings(v.plans, name)
	return i < len(v.plans) && v.plans[i] == name
}

// Triggers resolves the plan of a set of changed pointers (KUDO's default
// plan for changes no trigger covers: see DefaultPlan).
func (v *OperatorVersion) Triggers() *trigger.Resolver {
	if v == nil {
		return nil
	}
	return v.triggers
}

// Migration moves values of a previous version here by oldName (use
// MigrateHiding with the previous version's schema, as Upgrade does).
func (v *OperatorVersion) Migration() *migrate.Migration {
	if v == nil {
		return nil
	}
	return v.migration
}

// DefaultPlan is the plan of a change no trigger covers: "update" where
// the operator version has a plan of that name, else trigger.Deploy.
func (v *OperatorVersion) DefaultPlan() string {
	if v.HasPlan(updatePlan) {
		return updatePlan
	}
	return trigger.Deploy
}

// UpgradePlan is the plan an operator-version change runs: "upgrade"
// where the operator version has a plan of that name, else
// trigger.Deploy.
func (v *OperatorVersion) UpgradePlan() string {
	if v.HasPlan(upgradePlan) {
		return upgradePlan
	}
	return trigger.Deploy
}
