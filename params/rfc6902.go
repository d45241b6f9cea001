package params

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// ApplyJSONPatch applies an RFC 6902 JSON Patch document (the JSON array
// of operations, as text) to values and validates the result against the
// schema. All six operations are supported: add, remove, replace, move,
// copy and test.
//
// Unlike Update.Operations (the `-p`-style typed edits of `paramctl patch`),
// nothing is typed from text: every value is taken exactly as JSON gives
// it ("5" stays a string on an integer node, and is then reported by the
// validation), and numbers keep their text (9007199254740993 stays
// exact). test compares numbers by value, as RFC 6902 §4.6 says (1.0
// equals 1). Pointers are read strictly by RFC 6901: an index with a
// leading zero or a sign, or an escape other than ~0 and ~1, is refused;
// "-" names the end of an array for add (and the target of move or copy).
// Removing the whole document ("path": "") is refused.
//
// values is never modified: the result is built by copy on write and may
// share unchanged parts with values. The operations apply in order; the
// first that fails stops the patch. Every failure is a schema.ErrorList:
//   - a patch that is not JSON (or repeats a member name): one error of
//     kind schema.KindSyntax;
//   - a malformed operation (no or unknown op, a member of the wrong
//     type, a missing value or from): one error of kind schema.KindUsage
//     wrapping ErrMalformed, whose pointer is the offending member in the
//     patch document, such as "/2/op";
//   - a pointer that is malformed or names nothing (an index out of
//     range, a missing key, a move into its own child): kind
//     schema.KindUsage at "/2/path" or "/2/from";
//   - a test that fails: kind schema.KindInvalid at "/2/value";
//   - else the result's validation errors (every one, as Validate gives
//     them), whose pointers are inside the result.
//
// The pointers of the errors about the patch point into the patch
// document, and their messages start with "patch operation N". Values are
// never quoted in messages. A nil schema allows every value.
//
// github.com/evanphx/json-patch/v5 is not used: it takes indexes RFC 6901
// forbids (01, -1) and reads ~2 as text, and it works on JSON text, which
// would cost writing and reading every value
// (BenchmarkApplyJSONPatch).
func ApplyJSONPatch(s *schema.Schema, values any, patch []byte) (any, error) {
	if err := zeroSchema(s); err != nil {
		return nil, schema.ErrorList{err.(*schema.Error)}.Err()
	}
	if !value.Sound(values) {
		v, err := value.Plain(values)
		if err != nil {
			return nil, notPlainValidation(err).Err()
		}
		values = v
	}
	ops, err := decodeJSONPatch(patch)
	if err != nil {
		return nil, schema.ErrorList{err}.Err()
	}
	doc := values
	copied := 0 // values copied so far by copy operations
	for i, o := range ops {
		if doc, err = o.apply(i, doc, &copied); err != nil {
			return nil, schema.ErrorList{err}.Err()
		}
	}
	if _, err := validate(s, doc, nil); err != nil {
		return nil, err
	}
	return doc, nil
}

// jsonPatchOp is one decoded operation of an RFC 6902 document.
type jsonPatchOp struct {
	op, path, from string
	value          any
	pathToks       []string
	fromToks       []string
}

// decodeJSONPatch reads and checks the patch document.
func decodeJSONPatch(patch []byte) ([]jsonPatchOp, *schema.Error) {
	if !utf8.Valid(patch) {
		return nil, schema.NewError(schema.KindSyntax, "", "the JSON patch is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(patch))
	dec.UseNumber()
	doc, err := readJSON(dec, 0)
	if err == nil {
		if _, e := dec.Token(); e != io.EOF {
			err = errors.New("text after the JSON patch document")
		}
	}
	if err != nil {
		return nil, schema.NewError(schema.KindSyntax, "", "the JSON patch is not a JSON document: %v", err)
	}
	arr, ok := doc.([]any)
	if !ok {
		return nil, schema.NewError(schema.KindUsage, "", "%w: a JSON patch is an array of operations, not %s", ErrMalformed, value.TypeName(doc))
	}
	ops := make([]jsonPatchOp, len(arr))
	for i, item := range arr {
		at := "/" + strconv.Itoa(i)
		obj, ok := item.(map[string]any)
		if !ok {
			return nil, schema.NewError(schema.KindUsage, at, "%w: patch operation %d is %s, not an object", ErrMalformed, i, value.TypeName(item))
		}
		o := &ops[i]
		str := func(member string, required bool) (string, *schema.Error) {
			v, ok := obj[member]
			if !ok {
				if required {
					return "", schema.NewError(schema.KindUsage, at, "%w: patch operation %d has no %q", ErrMalformed, i, member)
				}
				return "", nil
			}
			t, ok := v.(string)
			if !ok {
				return "", schema.NewError(schema.KindUsage, at+"/"+member, "%w: patch operation %d: %q is %s, not a string", ErrMalformed, i, member, value.TypeName(v))
			}
			return t, nil
		}
		var e *schema.Error
		if o.op, e = str("op", true); e != nil {
			return nil, e
		}
		switch o.op {
		case "add", "remove", "replace", "move", "copy", "test":
		default:
			return nil, schema.NewError(schema.KindUsage, at+"/op", "%w: patch operation %d: unknown op %q (want add, remove, replace, move, copy or test)", ErrMalformed, i, o.op)
		}
		if o.path, e = str("path", true); e != nil {
			return nil, e
		}
		if o.pathToks, err = pointer.Split(o.path); err != nil {
			return nil, schema.NewError(schema.KindUsage, at+"/path", "patch operation %d (%s): %v", i, o.op, err)
		}
		switch o.op {
		case "add", "replace", "test":
			v, ok := obj["value"]
			if !ok {
				return nil, schema.NewError(schema.KindUsage, at, "%w: patch operation %d (%s) has no \"value\"", ErrMalformed, i, o.op)
			}
			o.value = v
		case "move", "copy":
			if o.from, e = str("from", true); e != nil {
				return nil, e
			}
			if o.fromToks, err = pointer.Split(o.from); err != nil {
				return nil, schema.NewError(schema.KindUsage, at+"/from", "patch operation %d (%s): %v", i, o.op, err)
			}
		}
	}
	return ops, nil
}

// readJSON reads one JSON value from dec: numbers as json.Number, a
// repeated member name an error.
func readJSON(dec *json.Decoder, depth int) (any, error) {
	if depth > value.MaxDepth {
		return nil, errors.New("nested too deeply")
	}
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch d := t.(type) {
	case json.Delim:
		switch d {
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := readJSON(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return arr, nil
		case '{':
			obj := map[string]any{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := k.(string) // the decoder gives only strings here
				if _, dup := obj[key]; dup {
					return nil, errors.New("member name " + strconv.Quote(key) + " repeated")
				}
				v, err := readJSON(dec, depth+1)
				if err != nil {
					return nil, err
				}
				obj[key] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return obj, nil
		}
		return nil, errors.New("unexpected " + d.String())
	}
	return t, nil // string, json.Number, bool or nil
}

// apply applies the operation (number i of the patch) to doc, returning
// the new document; doc is not modified.
func (o *jsonPatchOp) apply(i int, doc any, copied *int) (any, *schema.Error) {
	at := "/" + strconv.Itoa(i)
	fail := func(member string, err error) *schema.Error {
		return schema.NewError(schema.KindUsage, at+"/"+member, "patch operation %d (%s %s): %v", i, o.op, pointer.Quote(o.path), err)
	}
	switch o.op {
	case "add":
		out, err := patchAt(doc, o.pathToks, addLeaf(o.value))
		if err != nil {
			return nil, fail("path", err)
		}
		return out, nil
	case "remove":
		if len(o.pathToks) == 0 {
			return nil, fail("path", errors.New("the whole document cannot be removed"))
		}
		out, err := patchAt(doc, o.pathToks, removeLeaf)
		if err != nil {
			return nil, fail("path", err)
		}
		return out, nil
	case "replace":
		out, err := patchAt(doc, o.pathToks, replaceLeaf(o.value))
		if err != nil {
			return nil, fail("path", err)
		}
		return out, nil
	case "test":
		got, err := lookup(doc, o.pathToks)
		if err != nil {
			return nil, fail("path", err)
		}
		if !value.Equal(got, o.value) {
			return nil, schema.NewError(schema.KindInvalid, at+"/value", "patch operation %d (test %s): the value differs", i, pointer.Quote(o.path))
		}
		return doc, nil
	}
	// move and copy
	v, err := lookup(doc, o.fromToks)
	if err != nil {
		return nil, fail("from", err)
	}
	if o.op == "copy" {
		// The two places must not share what a caller may change. Each
		// copy can double the document: the values copied are counted
		// against a limit, as for the library's AccumulatedCopySizeLimit.
		*copied += countValues(v, jsonPatchCopyLimit-*copied)
		if *copied > jsonPatchCopyLimit {
			return nil, schema.NewError(schema.KindLimit, at+"/from", "patch operation %d (copy %s): the copies of the patch hold more than %d values", i, pointer.Quote(o.from), jsonPatchCopyLimit)
		}
		v = value.DeepCopy(v)
	} else {
		if len(o.fromToks) < len(o.pathToks) && hasTokPrefix(o.pathToks, o.fromToks) {
			return nil, fail("path", errors.New("a value cannot be moved into one of its own children"))
		}
		if len(o.fromToks) == len(o.pathToks) && hasTokPrefix(o.pathToks, o.fromToks) {
			return doc, nil // moved onto itself
		}
		if len(o.fromToks) == 0 {
			return nil, fail("from", errors.New("the whole document cannot be removed"))
		}
		if doc, err = patchAt(doc, o.fromToks, removeLeaf); err != nil {
			return nil, fail("from", err)
		}
	}
	out, err := patchAt(doc, o.pathToks, addLeaf(v))
	if err != nil {
		return nil, fail("path", err)
	}
	return out, nil
}

// hasTokPrefix reports whether prefix is a prefix of toks.
func hasTokPrefix(toks, prefix []string) bool {
	if len(prefix) > len(toks) {
		return false
	}
	for i := range prefix {
		if toks[i] != prefix[i] {
			return false
		}
	}
	return true
}

// lookup returns the value at toks inside doc.
func lookup(doc any, toks []string) (any, error) {
	for n, tok := range toks {
		switch c := doc.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, errors.New("nothing at " + pointer.Quote(pointer.Join(toks[:n+1]...)))
			}
			doc = v
		case []any:
			i, err := pointer.Index(tok, len(c))
			if err != nil {
				return nil, err
			}
			doc = c[i]
		default:
			return nil, errors.New(pointer.Quote(pointer.Join(toks[:n]...)) + " is " + value.TypeName(doc) + ", not an object or array")
		}
	}
	return doc, nil
}

// leafFunc changes the container parent at its last token: it returns
// the new container (a copy; parent is never modified), or the new root
// document when parent is nil and last "" with root set.
type leafFunc func(parent any, last string, root bool) (any, error)

// patchAt returns doc with the change leaf made at toks, copying every
// container on the way and nothing else.
func patchAt(doc any, toks []string, leaf leafFunc) (any, error) {
	if len(toks) == 0 {
		return leaf(doc, "", true)
	}
	if len(toks) == 1 {
		return leaf(doc, toks[0], false)
	}
	tok := toks[0]
	switch c := doc.(type) {
	case map[string]any:
		child, ok := c[tok]
		if !ok {
			return nil, errors.New("no member " + strconv.Quote(tok))
		}
		nc, err := patchAt(child, toks[1:], leaf)
		if err != nil {
			return nil, err
		}
		out := make(map[string]any, len(c))
		for k, v := range c {
			out[k] = v
		}
		out[tok] = nc
		return out, nil
	case []any:
		i, err := pointer.Index(tok, len(c))
		if err != nil {
			return nil, err
		}
		nc, err := patchAt(c[i], toks[1:], leaf)
		if err != nil {
			return nil, err
		}
		out := append([]any(nil), c...)
		out[i] = nc
		return out, nil
	}
	return nil, errors.New("a " + value.TypeName(doc) + " has no member " + strconv.Quote(tok))
}

// addLeaf is RFC 6902's add: a member set (or replaced), an item
// inserted, or "-" appended.
func addLeaf(v any) leafFunc {
	return func(parent any, last string, root bool) (any, error) {
		if root {
			return v, nil
		}
		switch c := parent.(type) {
		case map[string]any:
			out := make(map[string]any, len(c)+1)
			for k, x := range c {
				out[k] = x
			}
			out[last] = v
			return out, nil
		case []any:
			i := len(c)
			if last != "-" {
				var err error
				if i, err = pointer.Index(last, len(c)+1); err != nil {
					return nil, err
				}
			}
			out := make([]any, 0, len(c)+1)
			out = append(out, c[:i]...)
			out = append(out, v)
			return append(out, c[i:]...), nil
		}
		return nil, errors.New("a " + value.TypeName(parent) + " has no member " + strconv.Quote(last))
	}
}

// replaceLeaf is RFC 6902's replace: the target must exist.
func replaceLeaf(v any) leafFunc {
	return func(parent any, last string, root bool) (any, error) {
		if root {
			return v, nil
		}
		switch c := parent.(type) {
		case map[string]any:
			if _, ok := c[last]; !ok {
				return nil, errors.New("no member " + strconv.Quote(last))
			}
			out := make(map[string]any, len(c))
			for k, x := range c {
				out[k] = x
			}
			out[last] = v
			return out, nil
		case []any:
			i, err := pointer.Index(last, len(c))
			if err != nil {
				return nil, err
			}
			out := append([]any(nil), c...)
			out[i] = v
			return out, nil
		}
		return nil, errors.New("a " + value.TypeName(parent) + " has no member " + strconv.Quote(last))
	}
}

// removeLeaf is RFC 6902's remove: the target must exist.
func removeLeaf(parent any, last string, _ bool) (any, error) {
	switch c := parent.(type) {
	case map[string]any:
		if _, ok := c[last]; !ok {
			return nil, errors.New("no member " + strconv.Quote(last))
		}
		out := make(map[string]any, len(c)-1)
		for k, x := range c {
			if k != last {
				out[k] = x
			}
		}
		return out, nil
	case []any:
		i, err := pointer.Index(last, len(c))
		if err != nil {
			return nil, err
		}
		out := make([]any, 0, len(c)-1)
		out = append(out, c[:i]...)
		return append(out, c[i+1:]...), nil
	}
	return nil, errors.New("a " + value.TypeName(parent) + " has no member " + strconv.Quote(last))
}

// jsonPatchCopyLimit bounds the values (scalars, arrays and objects) all
// copy operations of one patch may copy together: each copy of the whole
// document doubles it, so that a patch of a few kilobytes could otherwise
// take all memory.
const jsonPatchCopyLimit = 1 << 16

// countValues counts the values in v (itself included), stopping once
// the count passes limit.
func countValues(v any, limit int) int {
	n := 1
	switch c := v.(type) {
	case map[string]any:
		for _, x := range c {
			if n > limit {
				break
			}
			n += countValues(x, limit-n)
		}
	case []any:
		for _, x := range c {
			if n > limit {
				break
			}
			n += countValues(x, limit-n)
		}
	}
	return n
}
