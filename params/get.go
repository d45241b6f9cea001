package params

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"

	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// getError is a failed typed read, as a *schema.Error: kind
// schema.KindNotFound when nothing is at ptr, schema.KindType when the
// value is of another JSON type than want, schema.KindUsage for a malformed
// pointer, schema.KindInvalid for a number that does not fit.
func getError(kind schema.Kind, ptr, format string, a ...any) error {
	return schema.NewError(kind, ptr, format, a...)
}

func typeError(ptr, want string, x any) error {
	return getError(schema.KindType, ptr, "is %s, want %s", value.TypeName(x), want)
}

func get(v any, ptr, want string) (any, error) {
	if _, err := pointer.Split(ptr); err != nil {
		return nil, getError(schema.KindUsage, ptr, "%v", err)
	}
	x, ok := pointer.Get(v, ptr)
	if !ok {
		return nil, getError(schema.KindNotFound, ptr, "no value (want %s)", want)
	}
	return x, nil
}

// String returns the string at the JSON pointer ptr of v (RFC 6901, ""
// is the whole document). Like every typed getter (Int64, Bool, Float,
// Map, Slice), its error is a *schema.Error naming ptr: kind
// schema.KindNotFound when nothing is there, schema.KindType for another
// JSON type, schema.KindUsage for a malformed pointer, schema.KindInvalid
// for a number that does not fit.
func String(v any, ptr string) (string, error) {
	x, err := get(v, ptr, "string")
	if err != nil {
		return "", err
	}
	s, ok := x.(string)
	if !ok {
		return "", typeError(ptr, "string", x)
	}
	return s, nil
}

// Bool returns the boolean at ptr; errors as String says.
func Bool(v any, ptr string) (bool, error) {
	x, err := get(v, ptr, "boolean")
	if err != nil {
		return false, err
	}
	b, ok := x.(bool)
	if !ok {
		return false, typeError(ptr, "boolean", x)
	}
	return b, nil
}

// Int64 returns the integer at ptr. A number with a fraction, or one
// outside the int64 range, is an error rather than a silent truncation;
// other errors as String says.
func Int64(v any, ptr string) (int64, error) {
	x, err := get(v, ptr, "integer")
	if err != nil {
		return 0, err
	}
	n, ok := x.(json.Number)
	if !ok {
		return 0, typeError(ptr, "integer", x)
	}
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return i, nil
	}
	r, ok := number.Rat(n)
	if !ok || !r.IsInt() {
		return 0, typeError(ptr, "integer", x)
	}
	if !r.Num().IsInt64() {
		return 0, getError(schema.KindInvalid, ptr, "%s does not fit in an int64", n)
	}
	return r.Num().Int64(), nil
}

// Float returns the number at ptr as a float64, for code that wants one.
// A number a float64 cannot hold even approximately (beyond ±1.8e308) is
// an error; other errors as String says.
func Float(v any, ptr string) (float64, error) {
	x, err := get(v, ptr, "number")
	if err != nil {
		return 0, err
	}
	n, ok := x.(json.Number)
	if !ok {
		return 0, typeError(ptr, "number", x)
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) {
		if r, ok := number.Rat(n); ok {
			if bf, _ := new(big.Float).SetRat(r).Float64(); !math.IsInf(bf, 0) {
				return bf, nil
			}
		}
		return 0, getError(schema.KindInvalid, ptr, "%s does not fit in a float64", n)
	}
	return f, nil
}

// Map returns the object at ptr (shared, not copied); errors as String says.
func Map(v any, ptr string) (map[string]any, error) {
	x, err := get(v, ptr, "object")
	if err != nil {
		return nil, err
	}
	m, ok := x.(map[string]any)
	if !ok {
		return nil, typeError(ptr, "object", x)
	}
	return m, nil
}

// Slice returns the array at ptr (shared, not copied); errors as String
// says.
func Slice(v any, ptr string) ([]any, error) {
	x, err := get(v, ptr, "array")
	if err != nil {
		return nil, err
	}
	a, ok := x.([]any)
	if !ok {
		return nil, typeError(ptr, "array", x)
	}
	return a, nil
}
