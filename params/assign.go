package params

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
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

// maxBracketIndex is the largest index Helm's `name[i]` form takes, as in
// Helm's strvals parser: a larger one is an error of the KEY, so that a
// typo cannot grow a list by millions of nulls.
const maxBracketIndex = 65536

// assignment is one `-p KEY=VALUE`.
//
// KEY is a JSON pointer when it holds a "/" (the leading "/" optional,
// "~0" and "~1" escaping "~" and "/"), else a dotted path in which `\.`
// is a literal dot (and `\\` a backslash), and in which a name may be
// followed by Helm's indexes, `hosts[1]` or `a.b[0][2].c` (`\[` and `\]`
// are literal brackets). VALUE is text typed by the schema node it lands
// on (see ParseText); a VALUE written wholly as one quoted YAML scalar
// (`"x"`, `'x'`) is the text inside, as a shell would have passed it, and
// stays a string where the node allows strings.
//
// How Update applies it (the package documentation, "Updates", says it
// in full): the key is found through properties, patternProperties,
// additionalProperties, $ref, allOf and into every branch of anyOf, oneOf
// and if/then/else (see schema.Node.ChildNodes), and refused only where
// every branch forbids it; where the schema says array, `{a,b}` is a list
// and `name[i]` sets element i, growing the list as Helm does; and the
// VALUE `null` removes the key unless its node allows null.
type assignment struct {
	// Input is the assignment as the user typed it, for messages.
	Input string
	// Path is the location, as unescaped tokens (never empty).
	Path []string
	// Value is the text after the first "=".
	Value string
	// Brackets marks the tokens of Path written as Helm's `[i]`:
	// Brackets[i] is true when Path[i] is such an index (in decimal,
	// without leading zeros). nil when there is none, always for a JSON
	// pointer KEY. Such an index may lie past the end of the list, which
	// then grows as Helm's --set grows it; any other index must exist.
	Brackets []bool
}

// Pointer returns the assignment's location as a JSON pointer.
func (a assignment) Pointer() string { return pointer.Join(a.Path...) }

// bracket reports whether Path[i] was written as Helm's `[i]`.
func (a *assignment) bracket(i int) bool { return i < len(a.Brackets) && a.Brackets[i] }

// readAssignment reads `KEY=VALUE`. Text without "=" or with nothing
// before it gives a *schema.Error of kind schema.KindUsage wrapping
// ErrMalformed; a KEY that is no valid path gives one of kind
// schema.KindUsage, naming the assignment in Detail.Input.
func readAssignment(s string) (assignment, error) {
	a, err := parseAssignment(s)
	if err != nil && !errors.Is(err, ErrMalformed) {
		return assignment{}, keyError(s, err)
	}
	return a, err
}

// keyError is a KEY that is no path (schema.KindUsage), naming the input.
func keyError(input string, err error) *schema.Error {
	e := schema.NewError(schema.KindUsage, "", "%v", err)
	e.Detail = &schema.ErrorDetail{Input: input}
	return e
}

// parseAssignment is readAssignment with the error of a bad KEY not
// naming the assignment (Update.Run puts it in Error.Input).
func parseAssignment(s string) (assignment, error) {
	eq := strings.IndexByte(s, '=')
	if eq < 0 {
		return assignment{}, schema.NewError(schema.KindUsage, "", "%w %q: want KEY=VALUE", ErrMalformed, s)
	}
	if eq == 0 {
		return assignment{}, schema.NewError(schema.KindUsage, "", "%w %q: nothing before \"=\"; want KEY=VALUE", ErrMalformed, s)
	}
	path, brackets, err := parseKey(s[:eq])
	if err != nil {
		return assignment{}, err
	}
	return assignment{Input: s, Path: path, Value: s[eq+1:], Brackets: brackets}, nil
}

// parseKey reads the KEY of an assignment into tokens, marking those
// written as Helm's `[i]`.
func parseKey(key string) ([]string, []bool, error) {
	if strings.Contains(key, "/") {
		if key[0] != '/' {
			key = "/" + key
		}
		toks, err := pointer.Split(key)
		return toks, nil, err
	}
	var toks []string
	var brackets []bool
	var b strings.Builder
	// indexed is set after a name's first "[i]": only another "[i]", a
	// dot or the end may follow.
	indexed := false
	for i := 0; i < len(key); i++ {
		c := key[i]
		if indexed && c != '[' && c != '.' {
			return nil, nil, fmt.Errorf("dotted path %q: %q after an index: write `\\[` for a literal bracket", key, key[i:])
		}
		switch {
		case c == '\\' && i+1 < len(key) && strings.IndexByte(`.\[]`, key[i+1]) >= 0:
			b.WriteByte(key[i+1])
			i++
		case c == '.':
			if !indexed {
				toks = append(toks, b.String())
				brackets = append(brackets, false)
			}
			b.Reset()
			indexed = false
		case c == '[':
			if !indexed {
				if b.Len() == 0 {
					return nil, nil, fmt.Errorf("dotted path %q: an index needs a name before it (name[i]); write `\\[` for a literal bracket", key)
				}
				toks = append(toks, b.String())
				brackets = append(brackets, false)
				b.Reset()
			}
			end := strings.IndexByte(key[i:], ']')
			if end < 0 {
				return nil, nil, fmt.Errorf("dotted path %q: %q has no closing ]; write `\\[` for a literal bracket", key, key[i:])
			}
			idx, err := bracketIndex(key[i+1 : i+end])
			if err != nil {
				return nil, nil, fmt.Errorf("dotted path %q: %q is no index (%v); write `\\[` for a literal bracket", key, key[i:i+end+1], err)
			}
			toks = append(toks, strconv.Itoa(idx))
			brackets = append(brackets, true)
			indexed = true
			i += end
		default:
			b.WriteByte(c)
		}
	}
	if !indexed {
		toks = append(toks, b.String())
		brackets = append(brackets, false)
	}
	for i, t := range toks {
		if t == "" && !brackets[i] {
			return nil, nil, fmt.Errorf("dotted path %q has an empty name (write a JSON pointer, such as /a//b, for an empty key)", key)
		}
	}
	for _, br := range brackets {
		if br {
			return toks, brackets, nil
		}
	}
	return toks, nil, nil
}

// bracketIndex reads the digits of Helm's `[i]`: decimal, at most
// maxBracketIndex. Leading zeros are taken, as Helm takes them.
func bracketIndex(digits string) (int, error) {
	if digits == "" {
		return 0, errors.New("want digits")
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, errors.New("want digits")
		}
	}
	trimmed := strings.TrimLeft(digits, "0")
	if len(trimmed) > 6 {
		return 0, fmt.Errorf("larger than %d", maxBracketIndex)
	}
	n, _ := strconv.Atoi("0" + trimmed)
	if n > maxBracketIndex {
		return 0, fmt.Errorf("larger than %d", maxBracketIndex)
	}
	return n, nil
}

// opKind is an RFC 6902 operation that `paramctl patch` takes: opAdd,
// opRemove or opReplace.
type opKind string

// The operations of `paramctl patch`, as RFC 6902 names them.
const (
	opAdd     opKind = "add"
	opRemove  opKind = "remove"
	opReplace opKind = "replace"
)

// operation is one RFC 6902 operation written the way `paramctl patch`
// takes it: a path in the forms of assignment and, except for remove, a
// text value typed by the node it lands on. A Helm index (`hosts[1]`) is
// an array index like any other here: it must exist, except where add
// inserts.
//
// add on an existing array appends to it; on an array index it inserts
// before that index ("-" or the length appends); on an object member it
// sets the member. remove and replace need the target to exist. As RFC
// 6902 says, the parent of the target must exist.
type operation struct {
	// Op is opAdd, opRemove or opReplace.
	Op opKind
	// assignment holds the input, path and value (Value is "" for remove).
	assignment
}

// parseOperation reads the argument of an operation: PATH=VALUE for add
// and replace, PATH for remove. Errors are as for readAssignment; an
// unknown op wraps ErrMalformed. An entry of Update.Operations is
// "OP ARG".
func parseOperation(op opKind, arg string) (operation, error) {
	switch op {
	case opAdd, opReplace:
		a, err := readAssignment(arg)
		if errors.Is(err, ErrMalformed) {
			return operation{}, schema.NewError(schema.KindUsage, "", "%w %q: want %s KEY=VALUE", ErrMalformed, string(op)+" "+arg, op)
		}
		if err != nil {
			return operation{}, err
		}
		a.Input = string(op) + " " + arg
		return operation{Op: op, assignment: a}, nil
	case opRemove:
		if arg == "" {
			return operation{}, schema.NewError(schema.KindUsage, "", "%w: remove needs a path", ErrMalformed)
		}
		path, brackets, err := parseKey(arg)
		if err != nil {
			return operation{}, keyError(arg, err)
		}
		return operation{Op: op, assignment: assignment{Input: string(op) + " " + arg, Path: path, Brackets: brackets}}, nil
	}
	return operation{}, schema.NewError(schema.KindUsage, "", "%w: unknown operation %q (want \"add PATH=VALUE\", \"remove PATH\" or \"replace PATH=VALUE\")", ErrMalformed, op)
}

// place is what the schema says about one location of the values, as
// schema.Node.ChildNodes reads it: every node that may govern the value
// there (from every branch that allows it), and whether some reading of
// the schema leaves it free. An edit refuses a key only when no node
// allows it; the final validation decides the rest.
type place struct {
	nodes []*schema.Node
	open  bool
}

// rootPlace is the place of the whole values.
func rootPlace(s *schema.Schema) place {
	if r := s.Root(); r != nil {
		return place{nodes: []*schema.Node{r}}
	}
	return place{open: true}
}

// free reports a place the schema says nothing about.
func (p place) free() bool { return len(p.nodes) == 0 }

// child is the place of key in an object at p; allowed is false when
// every node there forbids the key.
func (p place) child(key string) (c place, allowed bool) {
	return p.step(func(n *schema.Node) ([]*schema.Node, bool) { return n.ChildNodes(key) })
}

// elem is the place of element i of an array at p; allowed as for child.
func (p place) elem(i int) (c place, allowed bool) {
	return p.step(func(n *schema.Node) ([]*schema.Node, bool) { return n.ElemNodes(i) })
}

// step is the place below p that next finds from each of p's nodes (their
// ChildNodes or ElemNodes); allowed is false when every node forbids it.
func (p place) step(next func(*schema.Node) ([]*schema.Node, bool)) (c place, allowed bool) {
	if p.free() {
		return place{open: true}, true
	}
	c.open, allowed = p.open, p.open
	for _, n := range p.nodes {
		ns, open := next(n)
		allowed = allowed || open || len(ns) > 0
		c.open = c.open || open
		for _, x := range ns {
			if !slices.Contains(c.nodes, x) {
				c.nodes = append(c.nodes, x)
			}
		}
	}
	return c, allowed
}

// allows reports whether some reading lets the value be of type t.
func (p place) allows(t string) bool {
	if p.open || p.free() {
		return true
	}
	for _, n := range p.nodes {
		if n.Allows(t) {
			return true
		}
	}
	return false
}

// says reports whether some node names type t (an array node may say so
// by items or prefixItems alone): unlike allows, a node without a type
// says nothing.
func (p place) says(t string) bool {
	for _, n := range p.nodes {
		if ts := n.Types(); ts != nil && n.Allows(t) {
			return true
		}
		if t == "array" && n.Elem(0) != nil { // items or prefixItems
			return true
		}
	}
	return false
}

// allowsNull reports whether some node lets the value be null in so many
// words: a type list with "null", OpenAPI's nullable: true, or null in an
// enum or const. A node without a type allows null without saying so.
func (p place) allowsNull() bool {
	for _, n := range p.nodes {
		if n.Types() != nil && n.Allows("null") || nullableNode(n) {
			return true
		}
		for _, sc := range n.Scope() {
			for _, x := range sc.Enum() {
				if x == nil {
					return true
				}
			}
			if c, ok := sc.Keyword("const"); ok && c == nil {
				return true
			}
		}
	}
	return false
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
	// edit is the index of the edit being applied (assignments first,
	// then operations); readings counts, by edit, the ways its text could
	// be read where there are several, and pick says which reading to
	// take (0, the schema's first, when absent).
	edit     int
	readings map[int]int
	pick     map[int]int
	// null is set while an assignment of null sets null (see assign).
	null bool
}

// fail reports a path that cannot be set (schema.KindUsage).
func (e *editor) fail(ptr, input, format string, a ...any) {
	e.failKind(schema.KindUsage, ptr, input, format, a...)
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

// note records why the text of an edit could not take its node's type.
func (e *editor) note(ptr, input string, err error) {
	if e.notes == nil {
		e.notes = map[string]string{}
	}
	if e.hide {
		e.notes[ptr] = fmt.Sprintf("%q: the text cannot take this node's type", secret.Assignment(true, input))
	} else {
		e.notes[ptr] = fmt.Sprintf("%q: %v", input, err)
	}
}

// hides reports whether the value of an edit at ptr may hold a secret:
// the node there, or one below it, is secret (see schema.Schema.SecretAt).
func (e *editor) hides(ptr string) bool {
	return e.s.HoldsSecretAt(ptr)
}

// text types an assignment's value for place p at ptr: the reading the
// editor's pick names among those textReadings finds (the first unless a
// later run of the update asks for another).
func (e *editor) text(p place, ptr string, a *assignment) any {
	rs := e.textReadings(p, ptr, a)
	if len(rs) == 0 {
		return nil // the failure is recorded
	}
	if len(rs) > 1 {
		if e.readings == nil {
			e.readings = map[int]int{}
		}
		e.readings[e.edit] = len(rs)
	}
	return rs[min(e.pick[e.edit], len(rs)-1)]
}

// textReadings lists the values an assignment's text may stand for at
// place p, best first, each once: the text inside quotes where a string
// may stand; the reading of each node that governs the place (nodes with a
// type first, then one reading by YAML's core rules where some reading
// leaves the place free), those that are no string first; where a node says
// array and the text is Helm's `{a,b}`, that list (first where no node
// says object); the text itself where a node says string; and last the
// text kept as a string where it could take no node's type (validation
// refuses it, after a note saying why), and the text itself where some
// reading allows a string without saying so. It records the failure and
// returns nil where no reading is possible at all.
func (e *editor) textReadings(p place, ptr string, a *assignment) []any {
	var out []any
	add := func(v any) {
		for _, x := range out {
			if value.Equal(x, v) {
				return
			}
		}
		out = append(out, v)
	}
	t := a.Value
	if u, ok := unquote(t); ok {
		if p.allows("string") {
			add(u)
		}
		t = u
	}
	var (
		nodes    = p.typedFirst()
		clean    []any  // the nodes' readings
		mismatch []any  // text kept as a string: no node's type
		firstErr error  // why, for the note
		hard     func() // the failure to report when nothing reads
	)
	helm, isHelm := e.helmList(p, t)
	if isHelm && !p.says("object") {
		add(helm)
	}
	for _, n := range nodes {
		v, err := parseText(n, t)
		switch {
		case err == nil:
			clean = append(clean, v)
		case n == nil:
			// No schema node to judge a string: text that reads as
			// neither YAML nor a flow collection is no value there.
			if hard == nil {
				hard = func() { e.failKind(schema.KindSyntax, ptr, a.Input, "%v", err) }
			}
		case errors.Is(err, number.ErrTooLarge) && !n.Allows("string"):
			// ParseText hands the text back as a string, which validation
			// would refuse as "expected integer, but got string": not what
			// was wrong. Say the number is out of range (the message
			// quotes no value, so it stands for secrets too).
			if hard == nil {
				hard = func() { e.failKind(schema.KindLimit, ptr, a.Input, "%v", err) }
			}
		default:
			mismatch = append(mismatch, v)
			if firstErr == nil {
				firstErr = err
			}
		}
	}
	// As ParseText reads text for one node that takes several types, a
	// reading as something else than a string comes before the string:
	// "12" is 12 where one branch takes integers and another strings.
	for _, v := range clean {
		if _, isString := v.(string); !isString {
			add(v)
		}
	}
	for _, v := range clean {
		add(v)
	}
	if isHelm {
		add(helm)
	}
	if p.says("string") {
		add(t)
	}
	if len(out) == 0 && len(mismatch) == 0 && hard != nil {
		hard()
		return nil
	}
	if len(out) == 0 && firstErr != nil {
		e.note(ptr, a.Input, firstErr)
	}
	for _, v := range mismatch {
		add(v)
	}
	if p.allows("string") || len(out) == 0 {
		// An enum or const of strings without a type, or a branch that
		// says nothing, takes the text as it is.
		add(t)
	}
	return out
}

// typedFirst lists the nodes of p to read text by: those with a type in
// document order, then those without, then nil (YAML's core rules) where
// some reading leaves the place free.
func (p place) typedFirst() []*schema.Node {
	out := make([]*schema.Node, 0, len(p.nodes)+1)
	for _, n := range p.nodes {
		if n.Types() != nil {
			out = append(out, n)
		}
	}
	for _, n := range p.nodes {
		if n.Types() == nil {
			out = append(out, n)
		}
	}
	if p.open || p.free() {
		out = append(out, nil)
	}
	return out
}

// helmList reads t as Helm's list syntax where p says array: `{a,b}` is
// the list of a and b, each typed by the node of its element (see
// readItem); `\,` is a comma inside an element (and `\` escapes any
// character, as in Helm); `{}` is the empty list (Helm's gives one empty
// string, which nobody means). ok is false where p says no array or t is
// no such list.
func (e *editor) helmList(p place, t string) (list []any, ok bool) {
	if len(t) < 2 || t[0] != '{' || !p.says("array") {
		return nil, false
	}
	var items []string
	var b strings.Builder
	closed := false
	for i := 1; i < len(t); i++ {
		c := t[i]
		switch {
		case closed:
			return nil, false // text after the closing brace
		case c == '\\' && i+1 < len(t):
			b.WriteByte(t[i+1])
			i++
		case c == ',':
			items = append(items, b.String())
			b.Reset()
		case c == '}':
			items = append(items, b.String())
			closed = true
		default:
			b.WriteByte(c)
		}
	}
	if !closed {
		return nil, false
	}
	if len(items) == 1 && items[0] == "" {
		return []any{}, true
	}
	list = make([]any, len(items))
	for i, it := range items {
		ep, _ := p.elem(i)
		list[i] = e.readItem(ep, it)
	}
	return list, true
}

// readItem types one element of a Helm list: the first reading of the
// text (each node's, those that are no string first, then the text
// itself where a string may stand) that a node of the element's place
// accepts, else the first reading. An element is judged alone, so that a
// list of many elements costs no combinations.
func (e *editor) readItem(p place, t string) any {
	var rs []any
	add := func(v any) {
		for _, x := range rs {
			if value.Equal(x, v) {
				return
			}
		}
		rs = append(rs, v)
	}
	var strs []any
	for _, n := range p.typedFirst() {
		if v, err := parseText(n, t); err == nil {
			if _, isString := v.(string); isString {
				strs = append(strs, v)
			} else {
				add(v)
			}
		}
	}
	for _, v := range strs {
		add(v)
	}
	if p.allows("string") || len(rs) == 0 {
		add(t)
	}
	if len(rs) == 1 || p.free() {
		return rs[0]
	}
	for _, v := range rs {
		for _, n := range p.nodes {
			if e.s.ValidateAt(n.Pointer(), v) == nil {
				return v
			}
		}
	}
	return rs[0]
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

// isNullText reports the text Helm reads as null: `null`, and as YAML
// spells it, `Null` and `NULL` (`~` and the empty text stay text, typed by
// the node, as Helm keeps them).
func isNullText(t string) bool {
	return t == "null" || t == "Null" || t == "NULL"
}

// assign applies one assignment to v and returns the new value; v's maps
// and slices are changed in place. On failure it records the error and
// returns nil, false.
//
// The text null removes the key (nothing is created on the way) unless
// the node there allows null in so many words, as Helm's --set removes
// it; in an array it sets the element to null, as Helm does. Where null
// is set and the final validation refuses it, removal is tried instead.
func (e *editor) assign(v any, a *assignment) (any, bool) {
	e.hide = e.hides(a.Pointer())
	root := rootPlace(e.s)
	if !isNullText(a.Value) {
		return e.set(v, root, a, 0, "")
	}
	if !e.placeOf(root, a).allowsNull() {
		return e.remove(v, root, a, 0, "")
	}
	// Null it is; but where the final validation refuses it (nullable:
	// true, which JSON Schema's validation does not read), removing the
	// key is the second reading.
	if e.readings == nil {
		e.readings = map[int]int{}
	}
	e.readings[e.edit] = 2
	if e.pick[e.edit] == 1 {
		return e.remove(v, root, a, 0, "")
	}
	e.null = true
	defer func() { e.null = false }()
	return e.set(v, root, a, 0, "")
}

// placeOf follows a's path through the schema alone: a Helm index, or a
// number where the schema says array and not object, is an element.
func (e *editor) placeOf(p place, a *assignment) place {
	for i, tok := range a.Path {
		if idx, err := strconv.Atoi(tok); err == nil && idx >= 0 && (a.bracket(i) || (p.says("array") && !p.says("object"))) {
			p, _ = p.elem(idx)
		} else {
			p, _ = p.child(tok)
		}
	}
	return p
}

// set puts a's value at a.Path[i:] inside v (at ptr, governed by p) and
// returns the new v.
func (e *editor) set(v any, p place, a *assignment, i int, ptr string) (any, bool) {
	if i == len(a.Path) {
		if e.null {
			return nil, true
		}
		x := e.text(p, ptr, a)
		e.keys.walk(p, x, ptr, a.Input)
		return x, true
	}
	tok := a.Path[i]
	if a.bracket(i) {
		return e.setIndex(v, p, a, i, ptr)
	}
	next := pointer.Append(ptr, tok)
	switch c := v.(type) {
	case nil:
		// Missing (or null): create the object, unless the schema says
		// the value here is something else.
		if !p.allows("object") {
			if _, err := strconv.Atoi(tok); err == nil && p.allows("array") {
				e.fail(ptr, a.Input, "%s is not set and is an array: an array index must already exist (set the whole array, or write Helm's %s[%s])", quote(ptr), lastName(a, i), tok)
			} else if p.allows("array") {
				e.fail(ptr, a.Input, "%s is not set and is an array: an array index must already exist (set the whole array instead)", quote(ptr))
			} else {
				e.fail(ptr, a.Input, "%s is not set and the schema makes it %s: nothing can be set below it", quote(ptr), typeList(p))
			}
			return nil, false
		}
		return e.member(map[string]any{}, p, a, i, next)
	case map[string]any:
		return e.member(c, p, a, i, next)
	case []any:
		idx, err := pointer.Index(tok, len(c))
		if err != nil {
			if !e.notAnArray(ptr, tok, a.Input) {
				e.fail(next, a.Input, "%v: an array index must already exist (no append; set the whole array, or write Helm's %s[%s])", err, lastName(a, i), tok)
			}
			return nil, false
		}
		ep, _ := p.elem(idx)
		x, ok := e.set(c[idx], ep, a, i+1, next)
		if !ok {
			return nil, false
		}
		c[idx] = x
		return c, true
	}
	e.fail(ptr, a.Input, "%s is %s: nothing can be set below it", quote(ptr), article(value.TypeName(v)))
	return nil, false
}

// lastName is the name before token i of a's path, for a message that
// shows Helm's form of an index ("hosts" in hosts[1]); "name" at the root.
func lastName(a *assignment, i int) string {
	if i == 0 {
		return "name"
	}
	return a.Path[i-1]
}

// setIndex applies Helm's `name[i]` (token i of a's path) to v, the value
// at ptr: element i is set, and a missing list is created and a short one
// grown with nulls to reach it, as Helm's --set does. The padding nulls
// get a note, in case the schema's items refuse null.
func (e *editor) setIndex(v any, p place, a *assignment, i int, ptr string) (any, bool) {
	tok := a.Path[i]
	idx, _ := strconv.Atoi(tok) // parseKey wrote it
	next := pointer.Append(ptr, tok)
	var c []any
	switch t := v.(type) {
	case []any:
		c = t
	case nil:
		if !p.allows("array") {
			e.fail(ptr, a.Input, "%s is not set and the schema makes it %s: [%s] indexes an array", quote(ptr), typeList(p), tok)
			return nil, false
		}
	case map[string]any:
		e.fail(ptr, a.Input, "the values at %s are an object, not an array: [%s] indexes an array", quote(ptr), tok)
		return nil, false
	default:
		e.fail(ptr, a.Input, "%s is %s: [%s] indexes an array", quote(ptr), article(value.TypeName(v)), tok)
		return nil, false
	}
	for len(c) < idx {
		if e.notes == nil {
			e.notes = map[string]string{}
		}
		e.notes[pointer.AppendIndex(ptr, len(c))] = fmt.Sprintf("%q: Helm's index [%d] fills the elements before it with null", secret.Assignment(e.hide, a.Input), idx)
		c = append(c, nil)
	}
	if len(c) == idx {
		c = append(c, nil)
	}
	ep, _ := p.elem(idx)
	x, ok := e.set(c[idx], ep, a, i+1, next)
	if !ok {
		return nil, false
	}
	c[idx] = x
	return c, true
}

// member sets a's value at key (token i of a's path) in the object m at
// ptr's parent, governed by p.
func (e *editor) member(m map[string]any, p place, a *assignment, i int, ptr string) (any, bool) {
	key := a.Path[i]
	c, allowed := e.keys.key(p, parentOf(ptr), key, a.Input)
	if !allowed {
		e.failKind(schema.KindAdditional, ptr, a.Input, "not allowed here: %q (the schema does not declare it)%s", key, forbidSuggestion(p, key))
		return nil, false
	}
	x, ok := e.set(m[key], c, a, i+1, ptr)
	if !ok {
		return nil, false
	}
	m[key] = x
	return m, true
}

// parentOf is the pointer of the object that holds the member at ptr.
func parentOf(ptr string) string {
	return ptr[:strings.LastIndexByte(ptr, '/')]
}

// remove applies an assignment of null that removes its key: it follows
// a.Path[i:] through what exists in v (at ptr, governed by p), creating
// nothing, deletes the key at its end from its object, or sets the
// element at its end to null in its array. A path that leads nowhere
// removes nothing.
func (e *editor) remove(v any, p place, a *assignment, i int, ptr string) (any, bool) {
	tok := a.Path[i]
	last := i == len(a.Path)-1
	next := pointer.Append(ptr, tok)
	switch c := v.(type) {
	case map[string]any:
		if a.bracket(i) {
			e.fail(ptr, a.Input, "the values at %s are an object, not an array: [%s] indexes an array", quote(ptr), tok)
			return nil, false
		}
		x, ok := c[tok]
		if !ok {
			return v, true
		}
		if last {
			delete(c, tok)
			return v, true
		}
		cp, _ := p.child(tok)
		nx, ok := e.remove(x, cp, a, i+1, next)
		if !ok {
			return nil, false
		}
		c[tok] = nx
	case []any:
		idx, err := pointer.Index(tok, len(c))
		if err != nil {
			if !a.bracket(i) && e.notAnArray(ptr, tok, a.Input) {
				return nil, false
			}
			return v, true // no such element: nothing to remove
		}
		if last {
			c[idx] = nil
			return v, true
		}
		ep, _ := p.elem(idx)
		nx, ok := e.remove(c[idx], ep, a, i+1, next)
		if !ok {
			return nil, false
		}
		c[idx] = nx
	}
	return v, true
}

// missingSuggestion is the "; did you mean" tail for key, which the
// object m (at place p) does not hold: the closest names p declares or m
// holds (declared ones only where the edit may hold a secret), or "" when
// none is close.
func (e *editor) missingSuggestion(p place, m map[string]any, key string) string {
	names := p.declaredNames()
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
func (e *editor) operate(v any, o *operation) (any, bool) {
	e.hide = len(o.Path) > 0 && e.hides(o.Pointer())
	switch {
	case len(o.Path) == 0:
		e.fail("", o.Input, "the operation has no path")
		return nil, false
	case o.Op != opAdd && o.Op != opRemove && o.Op != opReplace:
		e.fail(o.Pointer(), o.Input, "unknown operation %q (want add, remove or replace)", o.Op)
		return nil, false
	}
	// Find the parent; it must exist.
	p := rootPlace(e.s)
	parent := v
	ptr := ""
	toks := o.Path
	for _, tok := range toks[:len(toks)-1] {
		next := pointer.Append(ptr, tok)
		switch c := parent.(type) {
		case map[string]any:
			x, ok := c[tok]
			if !ok {
				e.fail(next, o.Input, "%s does not exist%s", quote(next), e.missingSuggestion(p, c, tok))
				return nil, false
			}
			cp, _ := e.keys.key(p, ptr, tok, o.Input)
			parent, p = x, cp
		case []any:
			i, err := pointer.Index(tok, len(c))
			if err != nil {
				if !e.notAnArray(ptr, tok, o.Input) {
					e.fail(next, o.Input, "%v", err)
				}
				return nil, false
			}
			parent = c[i]
			p, _ = p.elem(i)
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
		cur, exists := c[last]
		var cp place
		allowed := true
		if o.Op != opRemove {
			cp, allowed = e.keys.key(p, ptr, last, o.Input)
		}
		switch {
		case o.Op == opAdd && exists:
			if arr, ok := cur.([]any); ok {
				ep, _ := cp.elem(len(arr))
				at := pointer.AppendIndex(target, len(arr))
				x := e.text(ep, at, &o.assignment)
				e.keys.walk(ep, x, at, o.Input)
				c[last] = append(arr, x)
				return v, true
			}
		case o.Op == opAdd:
		case !exists:
			e.fail(target, o.Input, "%s does not exist%s", quote(target), e.missingSuggestion(p, c, last))
			return nil, false
		case o.Op == opRemove:
			delete(c, last)
			return v, true
		}
		if !allowed {
			e.failKind(schema.KindAdditional, target, o.Input, "not allowed here: %q (the schema does not declare it)%s", last, forbidSuggestion(p, last))
			return nil, false
		}
		c[last] = e.text(cp, target, &o.assignment)
		e.keys.walk(cp, c[last], target, o.Input)
		return v, true
	case []any:
		if o.Op == opAdd {
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
			ip, _ := p.elem(i)
			if i < len(c) {
				if arr, ok := c[i].([]any); ok {
					ep, _ := ip.elem(len(arr))
					at := pointer.AppendIndex(target, len(arr))
					x := e.text(ep, at, &o.assignment)
					e.keys.walk(ep, x, at, o.Input)
					c[i] = append(arr, x)
					return v, true
				}
			}
			at := pointer.AppendIndex(ptr, i)
			x := e.text(ip, at, &o.assignment)
			e.keys.walk(ip, x, at, o.Input)
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
		if o.Op == opRemove {
			c = append(c[:i:i], c[i+1:]...)
			return e.replaceAt(v, toks[:len(toks)-1], c), true
		}
		ep, _ := p.elem(i)
		c[i] = e.text(ep, target, &o.assignment)
		e.keys.walk(ep, c[i], target, o.Input)
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

// edits are the changes of one update, in the pipeline's order: merge
// patches, assignments, operations.
type edits struct {
	s       *schema.Schema
	base    any // the old values, plain; nil for an install
	desired any // the whole new state, plain, instead of edits; nil for none
	patches []any
	set     []assignment
	ops     []operation
}

// maxReadingTries bounds the combinations of readings an update tries
// when its first reading fails validation: 64 validations at most.
const maxReadingTries = 64

// apply applies the edits to a copy of the base, each text read as pick
// says (see editor.pick).
func (d *edits) apply(pick map[int]int) (any, *editor) {
	var v any = map[string]any{}
	ed := &editor{s: d.s, pick: pick}
	switch {
	case d.desired != nil:
		v = value.DeepCopy(d.desired)
		ed.keys.walkNew(rootPlace(d.s), v, d.base, d.base != nil, "")
	case d.base != nil:
		v = value.DeepCopy(d.base)
	}
	for _, p := range d.patches {
		// The result shares only v's parts (a copy) and copies of p's.
		v = mergePatch(v, p)
	}
	for _, p := range d.patches {
		ed.keys.walk(rootPlace(d.s), p, "", "")
	}
	for i := range d.set {
		ed.edit = i
		if x, ok := ed.assign(v, &d.set[i]); ok {
			v = x
		}
	}
	for i := range d.ops {
		ed.edit = len(d.set) + i
		if x, ok := ed.operate(v, &d.ops[i]); ok {
			v = x
		}
	}
	return v, ed
}

// run applies the edits, then finish (defaults, then validation). Where
// a text could be read more than one way (several branches govern its
// place, the node takes several types) and the first readings fail
// validation, it tries the other readings, those that change the fewest
// edits first (at most maxReadingTries validations), and keeps the first
// combination that passes: the final validation decides. Otherwise the
// first readings' result stands, with its errors. ed.errs non-empty means
// the edits themselves failed (v and verr are then unset).
func (d *edits) run(finish func(any) (any, error)) (v any, ed *editor, verr error) {
	v, ed = d.apply(nil)
	if len(ed.errs) > 0 {
		return nil, ed, nil
	}
	v, verr = finish(v)
	if verr == nil || len(ed.readings) == 0 {
		return v, ed, verr
	}
	var found any
	var foundEd *editor
	otherReadings(ed.readings, func(pick map[int]int) bool {
		x, xed := d.apply(pick)
		if len(xed.errs) > 0 {
			return false
		}
		x, err := finish(x)
		if err != nil {
			return false
		}
		found, foundEd = x, xed
		return true
	})
	if foundEd != nil {
		return found, foundEd, nil
	}
	return v, ed, verr
}

// otherReadings calls try with the combinations of readings other than
// the first of every edit (counts gives, by edit, how many readings it
// has): first those that change one edit, then two, and so on, each in
// command-line order, until try returns true or maxReadingTries-1
// combinations were tried.
func otherReadings(counts map[int]int, try func(pick map[int]int) bool) {
	ks := make([]int, 0, len(counts))
	for k := range counts {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	tries := 1 // the first readings
	done := false
	pick := map[int]int{}
	var choose func(start, left int)
	choose = func(start, left int) {
		if left == 0 {
			tries++
			done = tries > maxReadingTries || try(pick)
			return
		}
		for i := start; i <= len(ks)-left && !done; i++ {
			k := ks[i]
			for r := 1; r < counts[k] && !done; r++ {
				pick[k] = r
				choose(i+1, left-1)
			}
			delete(pick, k)
		}
	}
	for changed := 1; changed <= len(ks) && !done; changed++ {
		choose(0, changed)
	}
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

// typeList names the types the nodes of p allow, in the order they give
// them.
func typeList(p place) string {
	var parts []string
	seen := map[string]bool{}
	for _, n := range p.nodes {
		for _, t := range n.Types() {
			if !seen[t] {
				seen[t] = true
				parts = append(parts, article(t))
			}
		}
	}
	return strings.Join(parts, " or ")
}
