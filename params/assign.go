package params

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/secret"
	"github.com/paramkit/paramkit/internal/suggest"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// ErrMalformed is wrapped by the error for an assignment or operation that
// is not of the form KEY=VALUE at all (no "=", or nothing before it): a
// usage error (a *schema.Error of kind schema.KindUsage), unlike a path or
// value that is wrong for the values.
var ErrMalformed = errors.New("malformed assignment")

// Assignment is one `-p KEY=VALUE`.
//
// KEY is a JSON pointer when it holds a "/" (the leading "/" optional,
// "~0" and "~1" escaping "~" and "/"), else a dotted path in which `\.`
// is a literal dot (and `\\` a backslash). VALUE is text typed by the
// schema node it lands on (see ParseText); a VALUE written wholly as one
// quoted YAML scalar (`"x"`, `'x'`) is the text inside, as a shell would
// have passed it, and stays a string where the node allows strings.
type Assignment struct {
	// Input is the assignment as the user typed it, for messages.
	Input string
	// Path is the location, as unescaped tokens (never empty).
	Path []string
	// Value is the text after the first "=".
	Value string
}

// Pointer returns the assignment's location as a JSON pointer.
func (a Assignment) Pointer() string { return pointer.Join(a.Path...) }

// ParseAssignment reads `KEY=VALUE`. Text without "=" or with nothing
// before it gives a *schema.Error of kind schema.KindUsage wrapping
// ErrMalformed; a KEY that is no valid path gives one of kind
// schema.KindPath, naming the assignment in Detail.Input.
func ParseAssignment(s string) (Assignment, error) {
	a, err := parseAssignment(s)
	if err != nil && !errors.Is(err, ErrMalformed) {
		return Assignment{}, keyError(s, err)
	}
	return a, err
}

// keyError is a KEY that is no path (schema.KindPath), naming the input.
func keyError(input string, err error) *schema.Error {
	e := schema.NewError(schema.KindPath, "", "%v", err)
	e.Detail = &schema.ErrorDetail{Input: input}
	return e
}

// parseAssignment is ParseAssignment with the error of a bad KEY not
// naming the assignment (Update.Run puts it in Error.Input).
func parseAssignment(s string) (Assignment, error) {
	eq := strings.IndexByte(s, '=')
	if eq < 0 {
		return Assignment{}, schema.NewError(schema.KindUsage, "", "%w %q: want KEY=VALUE", ErrMalformed, s)
	}
	if eq == 0 {
		return Assignment{}, schema.NewError(schema.KindUsage, "", "%w %q: nothing before \"=\"; want KEY=VALUE", ErrMalformed, s)
	}
	path, err := parseKey(s[:eq])
	if err != nil {
		return Assignment{}, err
	}
	return Assignment{Input: s, Path: path, Value: s[eq+1:]}, nil
}

// parseKey reads the KEY of an assignment into tokens.
func parseKey(key string) ([]string, error) {
	if strings.Contains(key, "/") {
		if key[0] != '/' {
			key = "/" + key
		}
		return pointer.Split(key)
	}
	var toks []string
	var b strings.Builder
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == '\\' && i+1 < len(key) && (key[i+1] == '.' || key[i+1] == '\\'):
			b.WriteByte(key[i+1])
			i++
		case c == '.':
			toks = append(toks, b.String())
			b.Reset()
		default:
			b.WriteByte(c)
		}
	}
	toks = append(toks, b.String())
	for _, t := range toks {
		if t == "" {
			return nil, fmt.Errorf("dotted path %q has an empty name (write a JSON pointer, such as /a//b, for an empty key)", key)
		}
	}
	return toks, nil
}

// The operations of `paramctl patch`, as RFC 6902 names them.
const (
	OpAdd     = "add"
	OpRemove  = "remove"
	OpReplace = "replace"
)

// Operation is one RFC 6902 operation written the way `paramctl patch`
// takes it: a path in the forms of Assignment and, except for remove, a
// text value typed by the node it lands on.
//
// add on an existing array appends to it; on an array index it inserts
// before that index ("-" or the length appends); on an object member it
// sets the member. remove and replace need the target to exist. As RFC
// 6902 says, the parent of the target must exist.
type Operation struct {
	// Op is OpAdd, OpRemove or OpReplace.
	Op string
	// Assignment holds the input, path and value (Value is "" for remove).
	Assignment
}

// ParseOperation reads the argument of an operation: PATH=VALUE for add
// and replace, PATH for remove. Errors are as for ParseAssignment; an
// unknown op wraps ErrMalformed.
func ParseOperation(op, arg string) (Operation, error) {
	switch op {
	case OpAdd, OpReplace:
		a, err := ParseAssignment(arg)
		if err != nil {
			return Operation{}, err
		}
		a.Input = op + " " + arg
		return Operation{Op: op, Assignment: a}, nil
	case OpRemove:
		if arg == "" {
			return Operation{}, schema.NewError(schema.KindUsage, "", "%w: remove needs a path", ErrMalformed)
		}
		path, err := parseKey(arg)
		if err != nil {
			return Operation{}, keyError(arg, err)
		}
		return Operation{Op: op, Assignment: Assignment{Input: op + " " + arg, Path: path}}, nil
	}
	return Operation{}, schema.NewError(schema.KindUsage, "", "%w: unknown operation %q (want add, remove or replace)", ErrMalformed, op)
}

// editor applies assignments and operations to a value, typing text by
// the schema, and collects what went wrong.
type editor struct {
	s    *schema.Schema
	errs schema.ErrorList
	// notes says why a text value could not take its node's type, by
	// pointer, to explain the validation error that follows.
	notes map[string]string
	// keys collects the undeclared keys the edits write.
	keys keyCheck
	// hide is set while an edit whose value holds a secret is applied:
	// its messages then show the input without the value.
	hide bool
}

// fail reports a path that cannot be set (schema.KindPath).
func (e *editor) fail(ptr, input, format string, a ...any) {
	e.failKind(schema.KindPath, ptr, input, format, a...)
}

// failKind reports an edit that cannot be made, with the input as typed
// (its value hidden when the edit may hold a secret).
func (e *editor) failKind(kind schema.Kind, ptr, input, format string, a ...any) {
	err := &schema.Error{Pointer: ptr, Kind: kind, Message: fmt.Sprintf(format, a...)}
	if input != "" {
		err.Detail = &schema.ErrorDetail{Input: secret.Assignment(e.hide, input)}
	}
	e.errs = append(e.errs, err)
}

// hides reports whether the value of an edit at ptr may hold a secret:
// the node there, or one below it, is secret (see schema.Schema.SecretAt).
func (e *editor) hides(ptr string) bool {
	return e.s.HoldsSecretAt(ptr)
}

// text types an assignment's value for node n at ptr.
func (e *editor) text(n *schema.Node, ptr string, a *Assignment) any {
	t := a.Value
	if u, ok := unquote(t); ok {
		if n == nil || n.Allows("string") {
			return u
		}
		t = u
	}
	v, err := parseText(n, t)
	if err != nil && n == nil {
		// No schema node to judge a string: refuse text that reads as
		// neither YAML nor a flow collection instead of keeping it.
		e.failKind(schema.KindSyntax, ptr, a.Input, "%v", err)
		return nil
	}
	if errors.Is(err, number.ErrTooLarge) && !n.Allows("string") {
		// ParseText hands the text back as a string, which validation
		// would refuse as "expected integer, but got string": not what was
		// wrong. Say the number is out of range (the message quotes no
		// value, so it stands for secrets too).
		e.failKind(schema.KindLimit, ptr, a.Input, "%v", err)
		return nil
	}
	if err != nil {
		if e.notes == nil {
			e.notes = map[string]string{}
		}
		if e.hide {
			e.notes[ptr] = fmt.Sprintf("%q: the text cannot take this node's type", secret.Assignment(true, a.Input))
		} else {
			e.notes[ptr] = fmt.Sprintf("%q: %v", a.Input, err)
		}
	}
	return v
}

// unquote returns the text inside a value written wholly as one YAML
// double-quoted (JSON escapes) or single-quoted scalar.
func unquote(t string) (string, bool) {
	if len(t) < 2 {
		return "", false
	}
	switch {
	case t[0] == '"' && t[len(t)-1] == '"':
		var s string
		if json.Unmarshal([]byte(t), &s) != nil {
			return "", false
		}
		return s, true
	case t[0] == '\'' && t[len(t)-1] == '\'':
		in := t[1 : len(t)-1]
		if strings.Contains(strings.ReplaceAll(in, "''", ""), "'") {
			return "", false
		}
		return strings.ReplaceAll(in, "''", "'"), true
	}
	return "", false
}

// assign applies one assignment to v and returns the new value; v's maps
// and slices are changed in place. On failure it records the error and
// returns nil, false.
func (e *editor) assign(v any, a *Assignment) (any, bool) {
	e.hide = e.hides(a.Pointer())
	return e.set(v, e.s.Root(), a.Path, "", a)
}

func (e *editor) set(v any, n *schema.Node, toks []string, ptr string, a *Assignment) (any, bool) {
	if len(toks) == 0 {
		x := e.text(n, ptr, a)
		e.keys.walk(n, x, ptr, a.Input)
		return x, true
	}
	tok := toks[0]
	next := pointer.Append(ptr, tok)
	if _, isArr := v.([]any); !isArr {
		e.keys.key(n, ptr, tok, a.Input)
	}
	switch c := v.(type) {
	case nil:
		// Missing (or null): create the object, unless the schema says
		// the value here is something else.
		if n != nil && n.Types() != nil && !n.Allows("object") {
			if n.Allows("array") {
				e.fail(ptr, a.Input, "%s is not set and is an array: an array index must already exist (set the whole array instead)", quote(ptr))
			} else {
				e.fail(ptr, a.Input, "%s is not set and the schema makes it %s: nothing can be set below it", quote(ptr), typeList(n))
			}
			return nil, false
		}
		return e.member(map[string]any{}, n, tok, toks[1:], next, a)
	case map[string]any:
		return e.member(c, n, tok, toks[1:], next, a)
	case []any:
		i, err := pointer.Index(tok, len(c))
		if err != nil {
			if !e.notAnArray(ptr, tok, a.Input) {
				e.fail(next, a.Input, "%v: an array index must already exist (no append; set the whole array instead)", err)
			}
			return nil, false
		}
		x, ok := e.set(c[i], n.Elem(i), toks[1:], next, a)
		if !ok {
			return nil, false
		}
		c[i] = x
		return c, true
	}
	e.fail(ptr, a.Input, "%s is %s: nothing can be set below it", quote(ptr), article(value.TypeName(v)))
	return nil, false
}

func (e *editor) member(m map[string]any, n *schema.Node, key string, rest []string, ptr string, a *Assignment) (any, bool) {
	c := n.Child(key)
	if c.IsFalse() {
		e.failKind(schema.KindAdditional, ptr, a.Input, "the schema does not allow a property %q here%s", key, suggestion(n, c, key))
		return nil, false
	}
	x, ok := e.set(m[key], c, rest, ptr, a)
	if !ok {
		return nil, false
	}
	m[key] = x
	return m, true
}

// missingSuggestion is the "; did you mean" tail for key, which the
// object m (at schema node n) does not hold: the closest names n declares
// or m holds (declared ones only where the edit may hold a secret), or ""
// when none is close.
func (e *editor) missingSuggestion(n *schema.Node, m map[string]any, key string) string {
	names := declaredNames(n, 0, nil)
	if !e.hide {
		for k := range m {
			names = append(names, k)
		}
		sort.Strings(names[len(names)-len(m):])
	}
	near := suggest.Closest(key, names)
	if len(near) == 0 {
		return ""
	}
	q := make([]string, len(near))
	for i, s := range near {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "; did you mean " + strings.Join(q, " or ") + "?"
}

// notAnArray reports tok, which failed to index the array at ptr, when
// it is no index at all but a name (an object key): the user took the
// array for an object, so the array is the thing to name. An index that is
// only out of range or malformed (01, -) is left to the caller's message.
func (e *editor) notAnArray(ptr, tok, input string) bool {
	if tok == "-" {
		return false
	}
	named := tok == ""
	for i := 0; i < len(tok) && !named; i++ {
		named = tok[i] < '0' || tok[i] > '9'
	}
	if named {
		e.fail(ptr, input, "the values at %s are an array, not an object: %q is no array index", quote(ptr), tok)
	}
	return named
}

// operate applies one RFC 6902 operation to v and returns the new value.
func (e *editor) operate(v any, o *Operation) (any, bool) {
	e.hide = len(o.Path) > 0 && e.hides(o.Pointer())
	switch {
	case len(o.Path) == 0:
		e.fail("", o.Input, "the operation has no path")
		return nil, false
	case o.Op != OpAdd && o.Op != OpRemove && o.Op != OpReplace:
		e.fail(o.Pointer(), o.Input, "unknown operation %q (want add, remove or replace)", o.Op)
		return nil, false
	}
	// Find the parent; it must exist.
	n := e.s.Root()
	parent := v
	ptr := ""
	toks := o.Path
	for _, tok := range toks[:len(toks)-1] {
		next := pointer.Append(ptr, tok)
		switch c := parent.(type) {
		case map[string]any:
			x, ok := c[tok]
			if !ok {
				e.fail(next, o.Input, "%s does not exist%s", quote(next), e.missingSuggestion(n, c, tok))
				return nil, false
			}
			e.keys.key(n, ptr, tok, o.Input)
			parent, n = x, n.Child(tok)
		case []any:
			i, err := pointer.Index(tok, len(c))
			if err != nil {
				if !e.notAnArray(ptr, tok, o.Input) {
					e.fail(next, o.Input, "%v", err)
				}
				return nil, false
			}
			parent, n = c[i], n.Elem(i)
		default:
			e.fail(ptr, o.Input, "%s is %s: nothing lies below it", quote(ptr), article(value.TypeName(parent)))
			return nil, false
		}
		ptr = next
	}
	last := toks[len(toks)-1]
	target := pointer.Append(ptr, last)
	switch c := parent.(type) {
	case map[string]any:
		cn := n.Child(last)
		cur, exists := c[last]
		if o.Op != OpRemove {
			e.keys.key(n, ptr, last, o.Input)
		}
		switch {
		case o.Op == OpAdd && exists:
			if arr, ok := cur.([]any); ok {
				en, ep := cn.Elem(len(arr)), pointer.AppendIndex(target, len(arr))
				x := e.text(en, ep, &o.Assignment)
				e.keys.walk(en, x, ep, o.Input)
				c[last] = append(arr, x)
				return v, true
			}
		case o.Op == OpAdd:
		case !exists:
			e.fail(target, o.Input, "%s does not exist%s", quote(target), e.missingSuggestion(n, c, last))
			return nil, false
		case o.Op == OpRemove:
			delete(c, last)
			return v, true
		}
		if cn.IsFalse() {
			e.failKind(schema.KindAdditional, target, o.Input, "the schema does not allow a property %q here%s", last, suggestion(n, cn, last))
			return nil, false
		}
		c[last] = e.text(cn, target, &o.Assignment)
		e.keys.walk(cn, c[last], target, o.Input)
		return v, true
	case []any:
		if o.Op == OpAdd {
			i := len(c)
			if last != "-" {
				var err error
				if i, err = pointer.Index(last, len(c)+1); err != nil {
					if !e.notAnArray(ptr, last, o.Input) {
						e.fail(target, o.Input, "%v", err)
					}
					return nil, false
				}
			}
			if i < len(c) {
				if arr, ok := c[i].([]any); ok {
					en, ep := n.Elem(i).Elem(len(arr)), pointer.AppendIndex(target, len(arr))
					x := e.text(en, ep, &o.Assignment)
					e.keys.walk(en, x, ep, o.Input)
					c[i] = append(arr, x)
					return v, true
				}
			}
			x := e.text(n.Elem(i), pointer.AppendIndex(ptr, i), &o.Assignment)
			e.keys.walk(n.Elem(i), x, pointer.AppendIndex(ptr, i), o.Input)
			c = append(c, nil)
			copy(c[i+1:], c[i:])
			c[i] = x
			return e.replaceAt(v, toks[:len(toks)-1], c), true
		}
		i, err := pointer.Index(last, len(c))
		if err != nil {
			if !e.notAnArray(ptr, last, o.Input) {
				e.fail(target, o.Input, "%v", err)
			}
			return nil, false
		}
		if o.Op == OpRemove {
			c = append(c[:i:i], c[i+1:]...)
			return e.replaceAt(v, toks[:len(toks)-1], c), true
		}
		c[i] = e.text(n.Elem(i), target, &o.Assignment)
		e.keys.walk(n.Elem(i), c[i], target, o.Input)
		return v, true
	case nil:
		if len(toks) == 1 {
			// No values yet: the root is an empty object.
			return e.operate(map[string]any{}, o)
		}
	}
	e.fail(ptr, o.Input, "%s is %s: nothing lies below it", quote(ptr), article(value.TypeName(parent)))
	return nil, false
}

// replaceAt puts x at the location of toks inside v (which exists) and
// returns v; for the root it returns x.
func (e *editor) replaceAt(v any, toks []string, x any) any {
	if len(toks) == 0 {
		return x
	}
	cur := v
	for _, tok := range toks[:len(toks)-1] {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[tok]
		case []any:
			i, _ := pointer.Index(tok, len(c))
			cur = c[i]
		}
	}
	last := toks[len(toks)-1]
	switch c := cur.(type) {
	case map[string]any:
		c[last] = x
	case []any:
		i, _ := pointer.Index(last, len(c))
		c[i] = x
	}
	return v
}

func quote(p string) string {
	if p == "" {
		return `""`
	}
	return p
}

func article(t string) string {
	switch t {
	case "integer", "array", "object":
		return "an " + t
	case "null":
		return "null"
	}
	return "a " + t
}

func typeList(n *schema.Node) string {
	ts := n.Types()
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = article(t)
	}
	return strings.Join(parts, " or ")
}
