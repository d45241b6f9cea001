package kube

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// Option configures Admit: the one option type of the package.
type Option func(*config)

type config struct {
	field      string
	validating bool
	set        *migrate.VersionSet // Stored
	stored     string
}

func newConfig(opts []Option) *config {
	c := &config{field: "/spec/parameters"}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	return c
}

// Field names the schema-typed field of the object by its JSON pointer;
// the default is "/spec/parameters".
func Field(pointer string) Option { return func(c *config) { c.field = pointer } }

// Validating makes Admit answer as a validating webhook: the same
// denials and warnings, judged on the values with defaults filled in,
// but no patch. Without it Admit answers as a mutating webhook that also
// denies what is invalid.
func Validating() Option { return func(c *config) { c.validating = true } }

// Admit judges the field of the object in an admission request by the
// schema s (a KUDO operator version passes its Schema()).
//
// On CREATE and UPDATE it fills the schema's defaults into the field's
// values ({} when the field is missing) and validates them, and on an
// UPDATE it refuses changes to immutable values (compared after
// defaulting). Invalid values are denied with code 422, reason Invalid
// and one StatusCause per problem (at most 50, the message counting the
// rest; see the package doc for the cause types and field paths). An
// allowed answer carries the defaults as an exact RFC 6902 JSON patch
// (JSONPatch's: one replace of the field where that is shorter than an
// operation per default; none under Validating, and none when nothing is
// missing) and a
// warning for each key the schema does not declare (on an UPDATE only
// keys the old object did not have), capped as Respond caps them. Other
// operations and requests without an object are allowed unchanged.
//
// With Stored, the object is judged a second time as it will be
// stored: converted to the storage version (the conversion annotation
// restored and checked), by that version's schema and the old object
// converted alike, so that neither a laxer older version nor an edited
// annotation stores what the stored version refuses.
//
// The context is the review's deadline: when it is done, the work stops
// and the answer is a failure (code 504, reason Timeout). The response
// is never nil: when the request cannot be judged (no request or schema,
// an object that is not JSON, the deadline) it is a denial saying why,
// and the error says the same.
func Admit(ctx context.Context, s *schema.Schema, req *AdmissionRequest, opts ...Option) (*AdmissionResponse, error) {
	c := newConfig(opts)
	if req == nil {
		err := schema.NewError(schema.KindUsage, "", "kube.Admit needs an admission request")
		return &AdmissionResponse{Result: failure(400, "BadRequest", err.Message, nil)}, err
	}
	a := &admission{ctx: ctx, s: s, req: req, c: c, resp: &AdmissionResponse{UID: req.UID, Allowed: true}}
	return a.settle(a.run())
}

// settle returns the answer with the error of run: never an allowed
// answer beside an error (a caller that looks only at the response
// must not let through what could not be judged), so an error that left
// the answer allowed turns it into a failure saying why.
func (a *admission) settle(err error) (*AdmissionResponse, error) {
	if err == nil {
		return a.resp, nil
	}
	if a.resp == nil || a.resp.Allowed || a.resp.Result == nil {
		_ = a.fail(500, "InternalError", err)
	}
	return a.resp, err
}

// admission is the work of one request.
type admission struct {
	ctx  context.Context
	s    *schema.Schema
	req  *AdmissionRequest
	c    *config
	resp *AdmissionResponse
	// generateName is the object's metadata.generateName, for
	// messages about an object without a name yet.
	generateName string
}

// fail denies the request because it could not be judged and returns
// the error saying why.
func (a *admission) fail(code int32, reason string, err error) error {
	a.resp = &AdmissionResponse{UID: a.req.UID, Result: failure(code, reason, shorten(a.what()+": "+err.Error(), 4*maxMessage), nil)}
	return err
}

// deadline fails the request when its context is done.
func (a *admission) deadline(when string) error {
	if a.ctx.Err() == nil {
		return nil
	}
	return a.fail(504, "Timeout", deadlineError(a.ctx, when+"; nothing was decided"))
}

// what names the object for messages: Workspace demo/ws1; an object
// still without a name (a CREATE with metadata.generateName, whose name
// the apiserver picks after admission) as Workspace (generateName ws-)
// in demo.
func (a *admission) what() string {
	kind := a.req.Kind.Kind
	if kind == "" {
		kind = "object"
	}
	if a.req.Name != "" {
		name := a.req.Name
		if a.req.Namespace != "" {
			name = a.req.Namespace + "/" + name
		}
		return kind + " " + shorten(name, 2*maxQuoted)
	}
	out := kind
	if a.generateName != "" {
		out += " (generateName " + shorten(a.generateName, maxQuoted) + ")"
	}
	if a.req.Namespace != "" {
		out += " in " + shorten(a.req.Namespace, maxQuoted)
	}
	return out
}

func (a *admission) run() error {
	if a.s.Root() == nil {
		return a.fail(500, "InternalError", schema.NewError(schema.KindUsage, "", "kube.Admit needs a schema made by schema.Parse or FromValue"))
	}
	if a.req.Operation != opCreate && a.req.Operation != opUpdate {
		return nil
	}
	toks, err := pointer.Split(a.c.field)
	if err != nil || len(toks) == 0 {
		return a.fail(500, "InternalError", schema.NewError(schema.KindUsage, "", "kube.Field %s is not a JSON pointer to a field of the object", quoteShort(a.c.field)))
	}
	if err := a.deadline("before decoding the object"); err != nil {
		return err
	}
	obj, err := decodeObject(a.req.Object)
	if err != nil {
		return a.fail(400, "BadRequest", fmt.Errorf("object: %w", err))
	}
	if meta, ok := obj["metadata"].(map[string]any); ok {
		a.generateName, _ = meta["generateName"].(string)
	}
	if err := a.deadline("while decoding the object"); err != nil {
		return err
	}
	raw, present, where := fieldValue(obj, toks)
	if where >= 0 {
		a.deny([]StatusCause{{Type: "FieldValueTypeInvalid", Field: fieldPath(pointer.Join(toks[:where+1]...), ""),
			Message: "Invalid value: must be an object, to hold " + fieldPath(a.c.field, "")}}, 1)
		return nil
	}
	var old any
	if a.req.Operation == opUpdate && len(a.req.OldObject) > 0 {
		oldObj, err := decodeObject(a.req.OldObject)
		if err != nil {
			return a.fail(400, "BadRequest", fmt.Errorf("oldObject: %w", err))
		}
		old, _, _ = fieldValue(oldObj, toks)
		if old == nil {
			old = map[string]any{}
		}
		if err := a.deadline("while decoding the old object"); err != nil {
			return err
		}
	}
	values, err := params.Default(a.s, raw)
	if err != nil {
		return a.fail(500, "InternalError", fmt.Errorf("filling in defaults: %w", err))
	}
	if err := a.deadline("while filling in defaults"); err != nil {
		return err
	}
	verr := params.Validate(a.s, values)
	if verr == nil {
		// Valid to JSON Schema, yet rounded: the apiserver turned an
		// integer beyond int64 into a float before this webhook saw it.
		if r := roundedIntegers(a.s, raw); len(r) > 0 {
			verr = r.Err()
		}
	}
	if err := a.deadline("while validating"); err != nil {
		return err
	}
	if old != nil && verr == nil {
		verr = params.CheckImmutable(a.s, old, raw)
	}
	if verr == nil && a.c.set != nil {
		serr, err := a.judgeStored(toks, values)
		if err != nil {
			return err
		}
		if len(serr) > 0 {
			verr = serr.Err()
		}
	}
	if verr != nil {
		cs, total := causes(a.c.field, verr, a.s)
		a.deny(cs, total)
		return nil
	}
	if err := a.warnUndeclared(raw, old); err != nil {
		return err
	}
	if !a.c.validating {
		var ops []any
		if present {
			ops = JSONPatch(a.c.field, raw, values)
		} else if m, ok := values.(map[string]any); !ok || len(m) > 0 {
			ops = addOps(obj, toks, values)
		}
		if len(ops) > 0 {
			patch, err := params.MarshalJSON(nil, ops, "")
			if err != nil {
				return a.fail(500, "InternalError", err)
			}
			a.resp.Patch, a.resp.PatchType = patch, "JSONPatch"
		}
	}
	return nil
}

// decodeObject decodes an object exactly (numbers keep their text,
// duplicate keys refused).
func decodeObject(raw []byte) (map[string]any, error) {
	if len(raw) == 0 {
		return nil, errors.New("the request carries no object")
	}
	v, err := params.Decode(nil, raw)
	if err != nil {
		return nil, errors.New(shorten(err.Error(), maxMessage))
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("it is not a JSON object")
	}
	return m, nil
}

// fieldValue returns the value at toks in obj ({} when missing or null)
// and whether it is there; where is the index of a token whose value is
// there but not an object (the field cannot be), else -1.
func fieldValue(obj map[string]any, toks []string) (v any, present bool, where int) {
	cur := obj
	for i, t := range toks {
		x, ok := cur[t]
		if !ok || x == nil {
			return map[string]any{}, false, -1
		}
		if i == len(toks)-1 {
			return x, true, -1
		}
		m, ok := x.(map[string]any)
		if !ok {
			return nil, false, i
		}
		cur = m
	}
	return map[string]any{}, false, -1
}

// addOps adds value at toks, creating the missing objects above it.
func addOps(obj map[string]any, toks []string, value any) []any {
	cur := obj
	for i, t := range toks {
		x, ok := cur[t]
		m, isMap := x.(map[string]any)
		if !ok || !isMap || i == len(toks)-1 {
			v := value
			for j := len(toks) - 1; j > i; j-- {
				v = map[string]any{toks[j]: v}
			}
			return []any{map[string]any{"op": "add", "path": pointer.Join(toks[:i+1]...), "value": v}}
		}
		cur = m
	}
	return nil
}

// deny answers 422 Invalid with the causes (total counts all of them).
func (a *admission) deny(cs []StatusCause, total int) {
	var b strings.Builder
	b.WriteString(a.what())
	b.WriteString(": invalid ")
	b.WriteString(fieldPath(a.c.field, ""))
	b.WriteString(": ")
	for i, c := range cs {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(c.Field)
		b.WriteString(": ")
		b.WriteString(c.Message)
	}
	if total > len(cs) {
		fmt.Fprintf(&b, "; and %d more", total-len(cs))
	}
	a.resp = &AdmissionResponse{UID: a.req.UID, Result: failure(422, "Invalid", b.String(), cs)}
}

// warnUndeclared warns of keys the schema does not declare, on an UPDATE
// only of those the old values did not have.
func (a *admission) warnUndeclared(raw, old any) error {
	// Only what can be kept is built (a warning takes 16 bytes at
	// least); the rest is counted, so that a hostile object with many
	// undeclared keys costs one walk, and the walk stops at the deadline.
	ws, more, err := params.Undeclared(a.ctx, a.s, raw, old, maxWarningBytes/16)
	if err != nil {
		return a.deadline("while looking for undeclared keys")
	}
	if len(ws) == 0 && more == 0 {
		return nil
	}
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		out = append(out, fieldPath(a.c.field, w.Pointer)+": "+shorten(w.Message, maxMessage))
	}
	a.resp.Warnings = capWarnings(out, more)
	return nil
}
