package params

import (
	"errors"
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/trigger"
)

// Update is one run of the update pipeline: the current values, what to
// change, and how to check the result. Run applies, in this order, the
// merge patches, the assignments, the operations, then defaults, then one
// validation of the result, then immutability, then the plan. Nothing is
// returned as new values unless every step passed.
//
// What to change is given either as edits (Patches, Set, Operations: a
// command line's -P and -p) or as Desired, the whole new state (what an
// operator holds: an Instance's spec.parameters). Desired is a field of
// Update rather than a function of its own because everything after the
// edits is the same pipeline with the same Result and errors; the two
// ways exclude each other, since a patch applied to a whole state would
// say nothing the state does not.
type Update struct {
	// Schema describes the values. Required.
	Schema *schema.Schema
	// Old is the current values; nil means a first install (plan
	// trigger.Deploy, no single-plan rule, no immutability). Old is not
	// changed. Go data in it is taken as Plain converts it.
	Old any
	// Patches are RFC 7386 merge patches (`-P` files, see DecodePatch).
	// Go data in them is taken as Plain converts it.
	Patches []any
	// Set are `-p KEY=VALUE` assignments as the user typed them, applied
	// in order after the patches. KEY is a JSON pointer when it holds a
	// "/" (the leading "/" optional, "~0" and "~1" escaping "~" and "/"),
	// else a dotted path in which `\.` is a literal dot (and `\\` a
	// backslash), and in which a name may be followed by Helm's indexes,
	// `hosts[1]` or `a.b[0][2].c` (`\[` and `\]` are literal brackets; an
	// index is at most 65536). VALUE is text typed by the schema node it
	// lands on (see ParseText); a VALUE written wholly as one quoted YAML
	// scalar (`"x"`, `'x'`) is the text inside, as a shell would have
	// passed it, and stays a string where the node allows strings. An
	// array index must already exist, except Helm's `[i]`, which grows the
	// list as Helm's --set does, so they can be repeated safely. The
	// package documentation ("Updates") says the rest.
	Set []string
	// Operations are the non-idempotent edits of `paramctl patch`, as
	// typed: "add PATH=VALUE", "remove PATH" or "replace PATH=VALUE",
	// applied in order after Set. They are not RFC 6902 (ApplyJSONPatch
	// applies that): PATH takes the forms of a -p KEY, VALUE is text typed
	// by the node it lands on as a -p VALUE is, and a Helm index
	// (`hosts[1]`) is an array index like any other, which must exist
	// except where add inserts. add on an existing array appends to it; on
	// an array index it inserts before that index ("-" or the length
	// appends); on an object member it sets the member. remove and replace
	// need the target to exist, and, as RFC 6902 says, the parent of the
	// target must exist.
	Operations []string
	// Desired, when not nil, is the whole new state: the values as they
	// should be after the update, not a patch. A key of Old that Desired
	// lacks is removed (and its change counts for the plan, like any
	// other), a null in it is a null value, not a deletion. It cannot be
	// combined with Patches, Set or Operations: Run refuses that (kind
	// schema.KindUsage). Desired is not changed; Go data in it is taken
	// as Plain converts it. Its undeclared keys are warned about only
	// where Old did not have them already.
	Desired any
	// Defaults are the options for defaulting the old and the new values.
	// Structural defaults as a kube-apiserver does; validation stays
	// JSON Schema's, as Validate without options.
	Defaults []Option
	// Strict refuses keys the schema does not declare (see
	// Result.Warnings): Run then fails with them (kind
	// schema.KindUndeclared).
	Strict bool
	// Sparse makes Result.Values sparse: the values as the user wrote
	// them (Old, or Desired) with the edits made, defaults not
	// materialized, as convert/migrate's Result.Values are. Defaults still
	// take part everywhere else: the result is validated, checked for
	// immutability and planned with its defaults applied, exactly as
	// without Sparse, so Sparse changes nothing but what Values hold (a
	// key set only by a default stays out of them). Write sparse values
	// back to a file (params/edit does) so that a later change of a
	// schema's default reaches the values the user never set; apply
	// Default to them where a whole state is needed (an operator's
	// templates). Defaulted values stay the default because that whole
	// state is what operators, the admission webhook's mutation and the
	// callers before Sparse read.
	Sparse bool
	// Triggers resolves the plan; nil means trigger.New(Schema) with the
	// default plan trigger.Deploy, built on every Run: build it once per
	// schema when running many updates (it costs more than the update).
	Triggers *trigger.Resolver
}

// Result is what an update produced. Like every Result of the module it
// is a value, returned by value (the zero Result with an error).
type Result struct {
	// Values are the new values, defaulted and valid; with
	// Update.Sparse, valid once defaulted but holding no default the
	// user did not write.
	Values any
	// Plan is the one plan the changes trigger; "" when nothing changed.
	Plan string
	// Changed lists the highest pointers that differ between the old and
	// the new values, both defaulted, sorted; [""] for an install, empty
	// (not nil) when nothing changed.
	Changed []string
	// Warnings name each key the merge patches, assignments and
	// operations wrote that the schema does not declare (Kind
	// schema.KindUndeclared, at the key's pointer, with the closest declared
	// names): a key is undeclared when its parent lists properties or
	// patternProperties, the key matches none, and the parent has no
	// additionalProperties schema. Keys of free-form objects never are.
	Warnings []*schema.Error
}

// Run runs the update. Its error is a schema.ErrorList: every problem of
// the first step that failed (Desired given with edits, reading Set, edits, validation, immutability
// or the plan, the same errors with the same kinds as Validate and
// CheckImmutable give; after a failed validation, immutability check or
// plan, the keys
// Result.Warnings would have named follow, since a misspelt key often
// explains the failure), or the trigger conflicts (kind
// schema.KindConflict) of building the trigger resolver, which
// refuses a schema with conflicting triggers even for an install. An entry
// of Set that is no assignment at all (no "=", or nothing before it) gives
// an error wrapping ErrMalformed before anything else is looked at: a
// usage error, not a fault of the values. A nil Update, or one without a
// Schema, gives one entry of kind schema.KindUsage (and the zero Result).
// Every failure comes in this one shape, a list (schema.ErrorsOf reads
// it).
func (u *Update) Run() (Result, error) {
	if u == nil {
		return Result{}, schema.ErrorList{schema.NewError(schema.KindUsage, "", "params: Run on a nil *Update")}.Err()
	}
	s := u.Schema
	if s == nil {
		return Result{}, schema.ErrorList{schema.NewError(schema.KindUsage, "", "params: Update needs a schema")}.Err()
	}
	if u.Desired != nil && (len(u.Patches) > 0 || len(u.Set) > 0 || len(u.Operations) > 0) {
		return Result{}, schema.ErrorList{{Kind: schema.KindUsage, Message: "params: Update.Desired is the whole new state and cannot be combined with Patches, Set or Operations: apply the edits to it first, or leave Desired nil"}}.Err()
	}
	assignments, err := parseSet(u.Set)
	if err != nil {
		return Result{}, schema.ErrorsOf(err).Err()
	}
	ops, err := parseOperations(u.Operations)
	if err != nil {
		return Result{}, err
	}
	oldV, err := value.Plain(u.Old)
	if err != nil {
		return Result{}, schema.ErrorList{notPlain(err, "in the old values: ")}.Err()
	}
	desired, err := value.Plain(u.Desired)
	if err != nil {
		return Result{}, schema.ErrorList{notPlain(err, "in the desired values: ")}.Err()
	}
	patches := make([]any, len(u.Patches))
	for i, p := range u.Patches {
		if patches[i], err = value.Plain(p); err != nil {
			return Result{}, schema.ErrorList{notPlain(err, fmt.Sprintf("in merge patch %d: ", i))}.Err()
		}
	}
	install := oldV == nil
	res := u.Triggers
	if res == nil {
		// Also for an install: a schema whose triggers conflict is refused
		// before anything is written with it.
		if res, err = trigger.New(s); err != nil {
			return Result{}, schema.ErrorsOf(err).Err()
		}
	}

	d := edits{s: s, desired: desired, patches: patches, set: assignments, ops: ops}
	var old any
	if !install {
		d.base = oldV
		old = defaults(s, oldV, u.Defaults, false)
	}
	var sparse any // the last passing result before its defaults
	v, ed, verr := d.run(func(v any) (any, error) {
		var before any
		if u.Sparse {
			before = value.DeepCopy(v)
		}
		v = defaults(s, v, u.Defaults, true) // v is this run's own copy
		var err error
		if install {
			err = Validate(s, v)
		} else {
			// The old values, defaulted, for transition rules (oldSelf).
			_, err = validate(s, v, &old)
		}
		if err == nil {
			sparse = before
		}
		return v, err
	})
	if len(ed.errs) > 0 {
		return Result{}, ed.errs.Err()
	}
	if u.Strict && len(ed.keys.warnings) > 0 {
		return Result{}, ed.keys.strictErrors().Err()
	}
	if verr != nil {
		return Result{}, ed.keys.also(validationErrors(verr, ed.notes, &ed.keys))
	}
	// Defaults stay in v for immutability and the plan; the caller gets
	// the sparse values when asked.
	out := v
	if u.Sparse {
		out = sparse
	}
	if install {
		return Result{Values: out, Plan: trigger.Deploy, Changed: []string{""}, Warnings: ed.keys.warnings}, nil
	}

	changed := value.Diff(old, v)
	if errs := immutable(s, old, v, changed); len(errs) > 0 {
		return Result{}, ed.keys.also(errs.Err())
	}
	plan, err := res.Resolve(changed)
	if err != nil {
		var conflicts schema.ErrorList
		if !problem.As(err, &conflicts) {
			return Result{}, schema.ErrorsOf(err).Err()
		}
		errs := make(schema.ErrorList, len(conflicts))
		for i, c := range conflicts {
			if c.Kind != schema.KindConflict || c.Detail == nil || len(c.Detail.Plans) == 0 {
				return Result{}, schema.ErrorsOf(err).Err()
			}
			plans := strings.Join(c.Detail.Plans[1:], ", ")
			errs[i] = schema.NewError(c.Kind, c.Pointer, "triggers plan %q, but the changes of one update must trigger one plan (these trigger %s); update them separately", c.Detail.Plans[0], plans)
			errs[i].Detail = c.Detail
		}
		return Result{}, ed.keys.also(errs.Err())
	}
	return Result{Values: out, Plan: plan, Changed: changed, Warnings: ed.keys.warnings}, nil
}

// parseSet reads the assignments of Update.Set: the first malformed one
// as it is (it wraps ErrMalformed), else every one whose KEY is no path.
func parseSet(set []string) ([]assignment, error) {
	out := make([]assignment, 0, len(set))
	var errs schema.ErrorList
	for _, s := range set {
		a, err := parseAssignment(s)
		if errors.Is(err, ErrMalformed) {
			return nil, err
		}
		if err != nil {
			errs = append(errs, keyError(s, err))
			continue
		}
		out = append(out, a)
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	return out, nil
}

// parseOperations reads the operations of Update.Operations: the first
// malformed one as it is (it wraps ErrMalformed), else every one whose
// PATH is no path.
func parseOperations(in []string) ([]operation, error) {
	out := make([]operation, 0, len(in))
	var errs schema.ErrorList
	for _, s := range in {
		op, arg, _ := strings.Cut(s, " ")
		o, err := parseOperation(opKind(op), arg)
		if errors.Is(err, ErrMalformed) {
			return nil, err
		}
		if err != nil {
			errs = append(errs, publicKeyError(err))
			continue
		}
		out = append(out, o)
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	return out, nil
}

// publicKeyError is the *schema.Error of a KEY that is no path.
func publicKeyError(err error) *schema.Error {
	var e *schema.Error
	if errors.As(err, &e) {
		return e
	}
	return schema.NewError(schema.KindUsage, "", "%v", err)
}

// validationErrors adds to validation errors, after each, where a text
// value could not take its node's type, and the closest declared names to
// a key the schema forbids.
func validationErrors(err error, notes map[string]string, keys *keyCheck) error {
	var ve schema.ErrorList
	if !problem.As(err, &ve) {
		return schema.ErrorList{{Kind: schema.KindInvalid, Message: err.Error()}}.Err()
	}
	if len(notes) == 0 && len(keys.forbidden) == 0 {
		return ve.Err()
	}
	out := make(schema.ErrorList, 0, len(ve))
	noted := map[string]bool{}
	for _, e := range ve {
		out = append(out, e)
		keys.explain(e)
		if n, ok := notes[e.Pointer]; ok && !noted[e.Pointer] {
			noted[e.Pointer] = true
			out = append(out, schema.NewError(e.Kind, e.Pointer, "from %s", n))
		}
	}
	// out keeps ve's order (schema.Schema.Validate's), each note right
	// after the error it explains.
	return out.Err()
}
