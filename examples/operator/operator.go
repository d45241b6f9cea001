package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/trigger"
)

// LastAppliedAnnotation keeps, on the Instance, the operator version and
// parameters the operator last acted on, as KUDO does: the next reconcile
// compares the Instance's spec against it.
const LastAppliedAnnotation = "kudo.dev/last-applied-instance-state"

// upgradePlan runs an operator-version upgrade where the operator has it.
const upgradePlan = "upgrade"

// operatorVersion is one compiled operator version: built once, used for
// every reconcile.
type operatorVersion struct {
	name      string
	schema    *schema.Schema
	plans     []string
	triggers  *trigger.Resolver
	migration *migrate.Migration // oldName migration into this version
}

func (v *operatorVersion) hasPlan(p string) bool {
	for _, x := range v.plans {
		if x == p {
			return true
		}
	}
	return false
}

// operator knows the operator versions installed (one file per version
// in a directory, NAME.yaml: a v1beta2 schema or an OperatorVersion
// manifest of either version).
type operator struct {
	dir      string
	versions map[string]*operatorVersion
}

func newOperator(dir string) *operator {
	return &operator{dir: dir, versions: map[string]*operatorVersion{}}
}

// version loads an operator version once.
func (o *operator) version(name string) (*operatorVersion, error) {
	if v, ok := o.versions[name]; ok {
		return v, nil
	}
	if name == "" || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return nil, fmt.Errorf("%q is not an operator version name", name)
	}
	path := filepath.Join(o.dir, name+".yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("operator version %q: %w", name, err)
	}
	s, err := convert.LoadSchema(data)
	if err != nil {
		return nil, fmt.Errorf("operator version %q (%s): %w", name, path, err)
	}
	v := &operatorVersion{name: name, schema: s, plans: planNames(data)}
	var opts []trigger.Option
	if v.plans != nil {
		opts = append(opts, trigger.KudoPlans(v.plans))
	}
	if v.triggers, err = trigger.New(s, opts...); err != nil {
		return nil, fmt.Errorf("operator version %q: %w", name, err)
	}
	if v.migration, err = migrate.New(s); err != nil {
		return nil, fmt.Errorf("operator version %q: %w", name, err)
	}
	o.versions[name] = v
	return v, nil
}

// operatorVersionManifest is the part of an OperatorVersion manifest the
// operator reads as Go types. sigs.k8s.io/yaml reads Kubernetes YAML into
// structs as encoding/json would read its JSON form; parameter values
// never go through it (it would read 1.10 as 1.1): the schema comes from
// convert.LoadSchema.
type operatorVersionManifest struct {
	Spec struct {
		Plans map[string]json.RawMessage `json:"plans"`
	} `json:"spec"`
}

// planNames reads spec.plans of an OperatorVersion manifest; nil for a
// bare schema.
func planNames(data []byte) []string {
	var m operatorVersionManifest
	if err := yaml.Unmarshal(data, &m); err != nil || m.Spec.Plans == nil {
		return nil
	}
	names := make([]string, 0, len(m.Spec.Plans))
	for p := range m.Spec.Plans {
		names = append(names, p)
	}
	sort.Strings(names)
	return names
}

// decision is what one reconcile decided.
type decision struct {
	// Instance names the Instance, namespace/name.
	Instance string `json:"instance"`
	// OperatorVersion is the version the Instance asks for.
	OperatorVersion string `json:"operatorVersion"`
	// Plan is the plan to run; "" when nothing changed.
	Plan string `json:"plan"`
	// Upgrade is set when the operator version changed (from which).
	Upgrade string `json:"upgradeFrom,omitempty"`
	// Changed lists the parameters that changed ([""] for an install).
	Changed []string `json:"changed"`
	// Dropped lists old parameters that had no place in the new version.
	Dropped []string `json:"dropped"`
	// Warnings name the parameter keys of the change that the schema does
	// not declare (a typo an open schema accepts), with the closest
	// declared names.
	Warnings []string `json:"warnings,omitempty"`
	// Params are the values the templates see (.Params), defaulted.
	Params any `json:"params"`

	// spec, when set, replaces the Instance's spec.parameters on --write:
	// an upgrade moves them into the new version's shape, as KUDO's
	// admission webhook does.
	spec   any
	schema *operatorVersion
}

// instance is the part of an Instance manifest the operator reads.
type instance struct {
	doc       map[string]any
	name      string
	version   string // spec.operatorVersion.name
	v1beta1   bool
	params    any // spec.parameters as written ({} when absent)
	hasLast   bool
	lastOV    string
	lastValue any
}

// instanceManifest is the Kubernetes part of an Instance manifest, read
// into Go types by sigs.k8s.io/yaml. The parameters are not in it: they
// are values, read by params.Decode so that every number keeps its text.
type instanceManifest struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name        string            `json:"name"`
		Namespace   string            `json:"namespace"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
	Spec struct {
		OperatorVersion struct {
			Name string `json:"name"`
		} `json:"operatorVersion"`
	} `json:"spec"`
}

func readInstance(data []byte) (*instance, error) {
	doc, err := params.Decode(nil, data)
	if err != nil {
		return nil, err
	}
	m, ok := doc.(map[string]any)
	if !ok || m["kind"] != "Instance" {
		return nil, errors.New("expected an Instance manifest")
	}
	var man instanceManifest
	if err := yaml.Unmarshal(data, &man); err != nil {
		return nil, fmt.Errorf("the Instance manifest: %w", err)
	}
	in := &instance{doc: m, params: map[string]any{}}
	in.name = strings.TrimPrefix(man.Metadata.Namespace+"/"+man.Metadata.Name, "/")
	in.version = man.Spec.OperatorVersion.Name
	if in.version == "" {
		return nil, fmt.Errorf("Instance %s has no spec.operatorVersion.name", in.name)
	}
	in.v1beta1 = man.APIVersion == convert.V1beta1
	spec, _ := m["spec"].(map[string]any)
	if p, ok := spec["parameters"]; ok && p != nil {
		in.params = p
	}
	if raw, ok := man.Metadata.Annotations[LastAppliedAnnotation]; ok {
		last, err := params.Decode(nil, []byte(raw))
		if err != nil {
			return nil, fmt.Errorf("annotation %s: %w", LastAppliedAnnotation, err)
		}
		lm, _ := last.(map[string]any)
		in.lastOV, _ = lm["operatorVersion"].(string)
		in.lastValue = lm["parameters"]
		in.hasLast = in.lastOV != ""
	}
	return in, nil
}

// desired returns the Instance's parameters typed: a v1beta1 Instance's
// strings unwrapped by the schema.
func (in *instance) desired(v *operatorVersion) (any, error) {
	if !in.v1beta1 {
		return params.Clone(in.params), nil
	}
	m, ok := in.params.(map[string]any)
	if !ok {
		return nil, errors.New("a v1beta1 Instance holds its parameters as a map of strings")
	}
	texts := make(map[string]string, len(m))
	for k, x := range m {
		s, ok := x.(string)
		if !ok { // the KEP writes `BACKUP_ENABLED: false`
			s = string(params.MarshalJSON(nil, x, ""))
		}
		texts[k] = s
	}
	return convert.UnwrapValues(v.schema, texts)
}

// reconcile decides what an Instance needs: the update pipeline against
// what was last applied (an install when nothing was), or, when the
// operator version changed, an upgrade that first moves the old
// parameters to their new places by oldName.
func (o *operator) reconcile(in *instance) (*decision, error) {
	cur, err := o.version(in.version)
	if err != nil {
		return nil, err
	}
	want, err := in.desired(cur)
	if err != nil {
		return nil, err
	}
	d := &decision{Instance: in.name, OperatorVersion: cur.name, Changed: []string{}, Dropped: []string{}}

	if in.hasLast && in.lastOV != cur.name {
		// An upgrade. The Instance may still hold parameters in the old
		// version's shape (a user who only changed the version): both they
		// and the last applied ones are moved by oldName; values already in
		// the new shape stay where they are.
		prev, err := o.version(in.lastOV)
		if err != nil {
			return nil, fmt.Errorf("upgrade from %q: %w", in.lastOV, err)
		}
		d.Upgrade = in.lastOV
		// MigrateHiding: what the old version marks secret stays out of
		// the error messages.
		old := cur.migration.MigrateHiding(in.lastValue, prev.schema)
		moved := cur.migration.MigrateHiding(want, prev.schema)
		if !moved.OK() {
			return nil, fmt.Errorf("upgrade from %s to %s: %w", in.lastOV, cur.name, migrationErrors(moved.Errors))
		}
		for _, x := range moved.Dropped {
			d.Dropped = append(d.Dropped, x.Pointer)
		}
		// The single-plan rule does not apply to an upgrade: it runs one
		// plan whatever changed. Immutable values still may not change.
		values := params.Default(cur.schema, orEmpty(moved.Values))
		if err := params.Validate(cur.schema, values); err != nil {
			return nil, err
		}
		if err := params.CheckImmutable(cur.schema, orEmpty(old.Values), values); err != nil {
			return nil, err
		}
		d.Params, d.spec, d.schema = values, orEmpty(moved.Values), cur
		d.Changed = params.Diff(params.Default(cur.schema, orEmpty(old.Values)), values)
		d.Plan = trigger.Deploy
		if cur.hasPlan(upgradePlan) {
			d.Plan = upgradePlan
		}
		return d, nil
	}

	// The update pipeline: the change from the last applied values to the
	// Instance's, then defaults, validation, immutability and the plan.
	u := &params.Update{Schema: cur.schema, Triggers: cur.triggers}
	if in.hasLast {
		u.Old = in.lastValue
		u.Patches = []any{mergePatch(in.lastValue, want)}
	} else {
		u.Patches = []any{want}
	}
	res, err := u.Run()
	if err != nil {
		return nil, err
	}
	d.Params, d.Plan, d.Changed = res.Values, res.Plan, res.Changed
	for _, w := range res.Warnings {
		d.Warnings = append(d.Warnings, w.Error())
	}
	return d, nil
}

func orEmpty(v any) any {
	if v == nil {
		return map[string]any{}
	}
	return v
}

func migrationErrors(errs schema.ErrorList) error {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return errors.New(strings.Join(msgs, "; "))
}

// mergePatch is the RFC 7386 merge patch that turns from into to: removed
// keys become null, objects are patched key by key, anything else is
// replaced. (A null value in to cannot be expressed: it reads as removal.)
func mergePatch(from, to any) any {
	fm, fok := from.(map[string]any)
	tm, tok := to.(map[string]any)
	if !fok || !tok {
		return params.Clone(to)
	}
	p := map[string]any{}
	for k := range fm {
		if _, ok := tm[k]; !ok {
			p[k] = nil
		}
	}
	for k, tv := range tm {
		fv, ok := fm[k]
		switch {
		case !ok:
			p[k] = params.Clone(tv)
		case !params.Equal(fv, tv):
			p[k] = mergePatch(fv, tv)
		}
	}
	return p
}

// applied returns the Instance manifest with the decision recorded as
// the last applied state, ready to be written back.
func (in *instance) applied(d *decision) map[string]any {
	doc := params.Clone(in.doc).(map[string]any)
	md, _ := doc["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		doc["metadata"] = md
	}
	ann, _ := md["annotations"].(map[string]any)
	if ann == nil {
		ann = map[string]any{}
		md["annotations"] = ann
	}
	state := map[string]any{"operatorVersion": d.OperatorVersion, "parameters": d.Params}
	ann[LastAppliedAnnotation] = string(params.MarshalJSON(nil, state, ""))
	if d.spec != nil {
		spec, _ := doc["spec"].(map[string]any)
		var p any = d.spec
		if m, ok := d.spec.(map[string]any); ok && in.v1beta1 {
			// A v1beta1 Instance keeps text that unwraps to the values.
			if texts, err := convert.WrapValues(d.schema.schema, m); err == nil {
				out := make(map[string]any, len(texts))
				for k, t := range texts {
					out[k] = t
				}
				p = out
			}
		}
		spec["parameters"] = p
	}
	return doc
}
