package document

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/internal/pointer"
)

// jsonSyntaxError means the text is not JSON at all.
type jsonSyntaxError struct {
	Offset int
	Msg    string
}

func (e *jsonSyntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// JSONLimitError means the text is JSON but breaks one of the limits or holds
// a duplicate key; Pointer locates the value.
type JSONLimitError struct {
	Pointer string
	Msg     string
	// Duplicate is set for a duplicate key: a fault of the text
	// (problem.Syntax), not a limit, though located as one.
	Duplicate bool
}

// Error gives the pointer, quoted, and what is wrong there.
func (e *JSONLimitError) Error() string { return fmt.Sprintf("%q: %s", e.Pointer, e.Msg) }

type jsonDecoder struct {
	data []byte
	i    int
	// path is built lazily only for errors
	stack []string
}

// DecodeJSON decodes exactly one JSON value (surrounding whitespace allowed).
func DecodeJSON(data []byte) (any, error) {
	if len(data) > MaxDocumentBytes {
		return nil, &JSONLimitError{Msg: fmt.Sprintf("the document is %d bytes, larger than the %d MiB limit", len(data), MaxDocumentBytes>>20)}
	}
	d := &jsonDecoder{data: data}
	d.ws()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.ws()
	if d.i != len(d.data) {
		return nil, d.syntax("unexpected text after the JSON value")
	}
	return v, nil
}

func (d *jsonDecoder) syntax(msg string) error { return &jsonSyntaxError{Offset: d.i, Msg: msg} }

func (d *jsonDecoder) limit(msg string) error {
	return &JSONLimitError{Pointer: pointer.Abbrev(pointer.Join(d.stack...)), Msg: msg}
}

func (d *jsonDecoder) ws() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *jsonDecoder) value(depth int) (any, error) {
	if d.i >= len(d.data) {
		return nil, d.syntax("unexpected end of input")
	}
	switch c := d.data[d.i]; {
	case c == '{':
		if depth >= MaxDepth {
			return nil, d.limit(fmt.Sprintf("nesting deeper than %d levels", MaxDepth))
		}
		return d.object(depth + 1)
	case c == '[':
		if depth >= MaxDepth {
			return nil, d.limit(fmt.Sprintf("nesting deeper than %d levels", MaxDepth))
		}
		return d.array(depth + 1)
	case c == '"':
		return d.str()
	case c == 't':
		return d.lit("true", true)
	case c == 'f':
		return d.lit("false", false)
	case c == 'n':
		return d.lit("null", nil)
	case c == '-' || (c >= '0' && c <= '9'):
		return d.num()
	default:
		return nil, d.syntax(fmt.Sprintf("unexpected character %q", c))
	}
}

func (d *jsonDecoder) lit(s string, v any) (any, error) {
	if len(d.data)-d.i < len(s) || string(d.data[d.i:d.i+len(s)]) != s {
		return nil, d.syntax("invalid literal")
	}
	d.i += len(s)
	return v, nil
}

func (d *jsonDecoder) num() (any, error) {
	start := d.i
	for d.i < len(d.data) {
		c := d.data[d.i]
		if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			d.i++
			continue
		}
		break
	}
	s := string(d.data[start:d.i])
	if !number.IsJSON(s) {
		d.i = start
		return nil, d.syntax(fmt.Sprintf("invalid number %q", s))
	}
	n := json.Number(s)
	if err := number.Check(n); err != nil {
		return nil, d.limit(err.Error())
	}
	return n, nil
}

func (d *jsonDecoder) str() (string, error) {
	d.i++ // opening quote
	start := d.i
	// fast path: no escapes, ASCII or valid UTF-8
	for d.i < len(d.data) {
		c := d.data[d.i]
		if c == '"' {
			s := d.data[start:d.i]
			d.i++
			if !utf8.Valid(s) {
				return "", d.limit("string is not valid UTF-8")
			}
			return string(s), nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", d.syntax("control character in string")
		}
		d.i++
	}
	buf := append([]byte(nil), d.data[start:d.i]...)
	for d.i < len(d.data) {
		c := d.data[d.i]
		switch {
		case c == '"':
			d.i++
			if !utf8.Valid(buf) {
				return "", d.limit("string is not valid UTF-8")
			}
			return string(buf), nil
		case c < 0x20:
			return "", d.syntax("control character in string")
		case c == '\\':
			d.i++
			if d.i >= len(d.data) {
				return "", d.syntax("unexpected end of input in string")
			}
			e := d.data[d.i]
			d.i++
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, ok := d.hex4()
				if !ok {
					return "", d.syntax("invalid \\u escape")
				}
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if d.i+1 < len(d.data) && d.data[d.i] == '\\' && d.data[d.i+1] == 'u' {
						d.i += 2
						var ok2 bool
						r2, ok2 = d.hex4()
						if !ok2 {
							return "", d.syntax("invalid \\u escape")
						}
					}
					r = utf16.DecodeRune(r, r2)
					if r == utf8.RuneError {
						return "", d.limit("string holds an unpaired UTF-16 surrogate")
					}
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return "", d.syntax(fmt.Sprintf("invalid escape \\%c", e))
			}
		default:
			buf = append(buf, c)
			d.i++
		}
	}
	return "", d.syntax("unexpected end of input in string")
}

func (d *jsonDecoder) hex4() (rune, bool) {
	if len(d.data)-d.i < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(d.data[d.i:d.i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	d.i += 4
	return rune(v), true
}

func (d *jsonDecoder) object(depth int) (any, error) {
	d.i++
	m := map[string]any{}
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == '}' {
		d.i++
		return m, nil
	}
	for {
		d.ws()
		if d.i >= len(d.data) || d.data[d.i] != '"' {
			return nil, d.syntax("expected a string key")
		}
		k, err := d.str()
		if err != nil {
			return nil, err
		}
		d.ws()
		if d.i >= len(d.data) || d.data[d.i] != ':' {
			return nil, d.syntax("expected ':' after key")
		}
		d.i++
		d.ws()
		d.stack = append(d.stack, k)
		if _, dup := m[k]; dup {
			e := d.limit(fmt.Sprintf("duplicate key %q", k)).(*JSONLimitError)
			e.Duplicate = true
			return nil, e
		}
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		d.stack = d.stack[:len(d.stack)-1]
		m[k] = v
		d.ws()
		if d.i >= len(d.data) {
			return nil, d.syntax("unexpected end of input in object")
		}
		if d.data[d.i] == ',' {
			d.i++
			continue
		}
		if d.data[d.i] == '}' {
			d.i++
			return m, nil
		}
		return nil, d.syntax("expected ',' or '}' in object")
	}
}

func (d *jsonDecoder) array(depth int) (any, error) {
	d.i++
	a := []any{}
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == ']' {
		d.i++
		return a, nil
	}
	for {
		d.ws()
		d.stack = append(d.stack, strconv.Itoa(len(a)))
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		d.stack = d.stack[:len(d.stack)-1]
		a = append(a, v)
		d.ws()
		if d.i >= len(d.data) {
			return nil, d.syntax("unexpected end of input in array")
		}
		if d.data[d.i] == ',' {
			d.i++
			continue
		}
		if d.data[d.i] == ']' {
			d.i++
			return a, nil
		}
		return nil, d.syntax("expected ',' or ']' in array")
	}
}
