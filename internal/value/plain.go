package value

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/problem"
)

// MaxDepth bounds the nesting of a value Plain takes: arrays, objects and
// Go pointers, counted together. The decoders stop at 1000 levels already;
// this bound is there so that a cycle (a map that holds itself) is an
// error, not a stack overflow.
const MaxDepth = 10000

// Plain returns v as a plain value. When v is one already (the common
// case) Plain returns v itself and allocates nothing. Otherwise it returns
// a converted copy that shares no maps or slices with v, converting as
// encoding/json would:
//
//   - Go integers and unsigned integers become json.Number with their
//     exact decimal text, floats json.Number with the shortest text that
//     reads back as the same float (NaN and infinities are refused);
//   - other string and bool kinds become string and bool;
//   - slices and arrays become []any (a []byte a base64 string), maps with
//     string, integer or encoding.TextMarshaler keys map[string]any, and a
//     nil slice, map, pointer or interface null;
//   - structs and types with a MarshalJSON or MarshalText method go
//     through encoding/json, its text read back with exact numbers.
//
// A json.Number whose text is no JSON number is refused, and so are
// channels, functions, complex numbers, other map keys and values nested
// deeper than MaxDepth. The error is a *problem.Error of kind problem.NotPlain (problem.Limit
// for a number out of range) naming the first
// such part (in sorted key order) by its JSON pointer.
func Plain(v any) (any, error) {
	if plainOK(v, 0) {
		return v, nil
	}
	var p plainer
	return p.conv(v, 0)
}

// PlainOr returns v as Plain converts it, or v as given when it cannot be
// a value: for the functions that have no error to return (params and its
// gates take Go data this way).
func PlainOr(v any) any {
	if x, err := Plain(v); err == nil {
		return x
	}
	return v
}

// Sound reports, in one walk and without allocating, whether v is a plain
// value (as Plain takes it) whose numbers are within the supported range
// (as BadNumber checks) and whose strings and keys are valid UTF-8 (as
// InvalidUTF8 checks): all that a value must be before any schema looks at
// it. When it is not, those functions say what and where.
func Sound(v any) bool { return walkPlain(v, 0, true) }

// plainOK reports whether v is a plain value, without allocating.
func plainOK(v any, depth int) bool { return walkPlain(v, depth, false) }

// walkPlain is plainOK, and Sound when sound is set: then numbers must
// also be within range and strings and keys valid UTF-8.
func walkPlain(v any, depth int, sound bool) bool {
	switch t := v.(type) {
	case nil, bool:
		return true
	case string:
		return !sound || utf8.ValidString(t)
	case json.Number:
		return number.IsJSON(string(t)) && (!sound || number.Check(t) == nil)
	case map[string]any:
		if depth >= MaxDepth {
			return false
		}
		for k, x := range t {
			if (sound && !utf8.ValidString(k)) || !walkPlain(x, depth+1, sound) {
				return false
			}
		}
		return true
	case []any:
		if depth >= MaxDepth {
			return false
		}
		for _, x := range t {
			if !walkPlain(x, depth+1, sound) {
				return false
			}
		}
		return true
	}
	return false
}

// plainer converts a value that is not plain; path holds the tokens of
// the part being converted, made into a pointer only for an error.
type plainer struct{ path []string }

func (p *plainer) fail(format string, a ...any) error {
	return &problem.Error{Pointer: pointer.Abbrev(pointer.Join(p.path...)), Kind: problem.NotPlain, Message: fmt.Sprintf(format, a...)}
}

func (p *plainer) tooDeep() error {
	return p.fail("nested deeper than %d levels (does the value hold itself?)", MaxDepth)
}

// child converts x, the part of a collection at tok.
func (p *plainer) child(tok string, x any, depth int) (any, error) {
	p.path = append(p.path, tok)
	y, err := p.conv(x, depth)
	p.path = p.path[:len(p.path)-1]
	return y, err
}

func (p *plainer) conv(v any, depth int) (any, error) {
	switch t := v.(type) {
	case nil, string, bool:
		return v, nil
	case json.Number:
		if !number.IsJSON(string(t)) {
			return nil, p.fail("the json.Number %q is not a JSON number", string(t))
		}
		return v, nil
	case map[string]any:
		if depth >= MaxDepth {
			return nil, p.tooDeep()
		}
		m := make(map[string]any, len(t))
		for _, k := range sortedKeys(t) {
			x, err := p.child(k, t[k], depth+1)
			if err != nil {
				return nil, err
			}
			m[k] = x
		}
		return m, nil
	case []any:
		if depth >= MaxDepth {
			return nil, p.tooDeep()
		}
		a := make([]any, len(t))
		for i, x := range t {
			y, err := p.child(strconv.Itoa(i), x, depth+1)
			if err != nil {
				return nil, err
			}
			a[i] = y
		}
		return a, nil
	}
	return p.reflect(reflect.ValueOf(v), depth)
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// reflect converts a Go value that is not plain. rv is never of interface
// kind: it comes from reflect.ValueOf or Elem of a pointer.
func (p *plainer) reflect(rv reflect.Value, depth int) (any, error) {
	if !rv.IsValid() {
		return nil, nil
	}
	if depth >= MaxDepth {
		return nil, p.tooDeep()
	}
	typ := rv.Type()
	if typ.Implements(jsonMarshaler) || typ.Implements(textMarshaler) {
		if rv.Kind() == reflect.Pointer && rv.IsNil() {
			return nil, nil
		}
		return p.viaJSON(rv)
	}
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil, nil
		}
		return p.conv(rv.Elem().Interface(), depth+1)
	case reflect.Bool:
		return rv.Bool(), nil
	case reflect.String:
		return rv.String(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return json.Number(strconv.FormatInt(rv.Int(), 10)), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return json.Number(strconv.FormatUint(rv.Uint(), 10)), nil
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, p.fail("the Go %s %v is not a value: JSON has no NaN or infinity", typ, f)
		}
		// encoding/json's text: the shortest that reads back as the same
		// float of typ's size.
		return p.viaJSON(rv)
	case reflect.Slice:
		if rv.IsNil() {
			return nil, nil
		}
		if typ.Elem().Kind() == reflect.Uint8 {
			pe := reflect.PointerTo(typ.Elem())
			if !pe.Implements(jsonMarshaler) && !pe.Implements(textMarshaler) {
				return p.viaJSON(rv) // base64, as encoding/json writes bytes
			}
		}
		return p.array(rv, depth)
	case reflect.Array:
		return p.array(rv, depth)
	case reflect.Map:
		if rv.IsNil() {
			return nil, nil
		}
		return p.object(rv, depth)
	case reflect.Struct:
		return p.viaJSON(rv)
	}
	return nil, p.fail("a Go %s is not a value: JSON has no %s", typ, kindName(rv.Kind()))
}

func kindName(k reflect.Kind) string {
	switch k {
	case reflect.Chan:
		return "channels"
	case reflect.Func:
		return "functions"
	case reflect.Complex64, reflect.Complex128:
		return "complex numbers"
	}
	return "such type"
}

func (p *plainer) array(rv reflect.Value, depth int) (any, error) {
	a := make([]any, rv.Len())
	for i := range a {
		x, err := p.child(strconv.Itoa(i), rv.Index(i).Interface(), depth+1)
		if err != nil {
			return nil, err
		}
		a[i] = x
	}
	return a, nil
}

// object converts a Go map, naming its keys as encoding/json does: a
// string kind as it is, else MarshalText's text, else an integer's decimal
// text.
func (p *plainer) object(rv reflect.Value, depth int) (any, error) {
	kt := rv.Type().Key()
	var name func(k reflect.Value) (string, error)
	switch {
	case kt.Kind() == reflect.String:
		name = func(k reflect.Value) (string, error) { return k.String(), nil }
	case kt.Implements(textMarshaler):
		name = func(k reflect.Value) (string, error) {
			if k.Kind() == reflect.Pointer && k.IsNil() {
				return "", nil
			}
			b, err := k.Interface().(encoding.TextMarshaler).MarshalText()
			return string(b), err
		}
	default:
		switch kt.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			name = func(k reflect.Value) (string, error) { return strconv.FormatInt(k.Int(), 10), nil }
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			name = func(k reflect.Value) (string, error) { return strconv.FormatUint(k.Uint(), 10), nil }
		default:
			return nil, p.fail("a Go %s is not a value: JSON object keys are text, and %s keys have none", rv.Type(), kt)
		}
	}
	m := make(map[string]any, rv.Len())
	vals := make(map[string]reflect.Value, rv.Len())
	for it := rv.MapRange(); it.Next(); {
		k, err := name(it.Key())
		if err != nil {
			return nil, p.fail("a key of the Go %s has no text: %v", rv.Type(), err)
		}
		if _, dup := vals[k]; dup {
			return nil, p.fail("two keys of the Go %s are both %q", rv.Type(), k)
		}
		vals[k] = it.Value()
	}
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		x, err := p.child(k, vals[k].Interface(), depth+1)
		if err != nil {
			return nil, err
		}
		m[k] = x
	}
	return m, nil
}

// viaJSON converts what encoding/json knows how to write (structs with
// their tags, marshalers, bytes, floats) by writing it and reading the
// text back with exact numbers.
func (p *plainer) viaJSON(rv reflect.Value) (any, error) {
	b, err := json.Marshal(rv.Interface())
	if err != nil {
		return nil, p.fail("the Go %s is not a value: %v", rv.Type(), err)
	}
	v, err := document.DecodeJSON(b)
	if err != nil {
		var le *document.JSONLimitError
		if errors.As(err, &le) {
			return nil, &problem.Error{Pointer: pointer.Abbrev(pointer.Join(p.path...) + le.Pointer), Kind: problem.Limit, Message: le.Msg}
		}
		return nil, p.fail("the Go %s is not a value: its JSON cannot be read back: %v", rv.Type(), err)
	}
	return v, nil
}
