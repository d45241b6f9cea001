// Package number keeps numbers exact: it recognises number text (JSON and
// YAML 1.2 core forms), normalises it to json.Number text and bounds it so
// that no value can make the validator build an enormous big.Rat.
package number

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
)

// Limits on number text, chosen so that every accepted number converts to
// an exact big.Rat quickly. 1e999999999 would otherwise take minutes.
const (
	MaxDigits   = 4096 // significant text length
	MaxExponent = 9999 // |exponent| after normalisation
)

// ErrTooLarge is returned for number text beyond MaxDigits or MaxExponent.
var ErrTooLarge = fmt.Errorf("number is out of the supported range (at most %d digits, exponent within ±%d)", MaxDigits, MaxExponent)

// IsJSON reports whether s is a JSON number literal.
func IsJSON(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i >= len(s) {
		return false
	}
	if s[i] == '0' {
		i++
	} else if s[i] >= '1' && s[i] <= '9' {
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	} else {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || !isDigit(s[i]) {
			return false
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !isDigit(s[i]) {
			return false
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	return i == len(s)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// Check bounds a JSON number literal.
func Check(n json.Number) error {
	s := string(n)
	if len(s) > MaxDigits {
		return ErrTooLarge
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e := strings.TrimLeft(s[i+1:], "+-")
		e = strings.TrimLeft(e, "0")
		if len(e) > 4 || (len(e) == 4 && e > "9999") {
			return ErrTooLarge
		}
	}
	return nil
}

// ParseCore recognises a YAML 1.2 core-schema integer or float in plain
// text and returns it as normalised JSON number text. ok is false when the
// text is not a number at all; err is set for a number out of range or one
// JSON cannot hold (.inf, .nan).
func ParseCore(s string) (n json.Number, ok bool, err error) {
	if s == "" {
		return "", false, nil
	}
	switch s {
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN":
		return "", true, fmt.Errorf("%s is not representable in JSON", s)
	}
	// 0x and 0o forms (unsigned in YAML 1.2 core).
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o') {
		base := 16
		if s[1] == 'o' {
			base = 8
		}
		if len(s) > MaxDigits {
			return "", true, ErrTooLarge
		}
		v, good := new(big.Int).SetString(s[2:], base)
		if !good || strings.ContainsAny(s[2:], "+-_") {
			return "", false, nil
		}
		return json.Number(v.String()), true, nil
	}
	// [-+]?[0-9]+ and [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
	i := 0
	neg := false
	if s[0] == '-' || s[0] == '+' {
		neg = s[0] == '-'
		i++
	}
	intStart := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intPart := s[intStart:i]
	frac := ""
	hasDot := false
	if i < len(s) && s[i] == '.' {
		hasDot = true
		i++
		fs := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		frac = s[fs:i]
	}
	if intPart == "" && frac == "" {
		return "", false, nil
	}
	exp := ""
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		es := i
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		ds := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if ds == i {
			return "", false, nil
		}
		exp = s[es:i]
	}
	if i != len(s) {
		return "", false, nil
	}
	// Normalise to JSON: strip leading zeros, give "1." a fraction digit,
	// give ".5" an integer digit.
	intPart = strings.TrimLeft(intPart, "0")
	if intPart == "" {
		intPart = "0"
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	b.WriteString(intPart)
	if hasDot && frac != "" {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	if exp != "" {
		b.WriteByte('e')
		b.WriteString(exp)
	}
	n = json.Number(b.String())
	if n == "-0" && !hasDot {
		n = "0"
	}
	if err := Check(n); err != nil {
		return "", true, err
	}
	return n, true, nil
}

// Rat converts a checked JSON number to a big.Rat.
func Rat(n json.Number) (*big.Rat, bool) {
	if Check(n) != nil {
		return nil, false
	}
	return new(big.Rat).SetString(string(n))
}

// IsInteger reports whether n has an integral value (2.0 and 1e3 count,
// as JSON Schema says).
func IsInteger(n json.Number) bool {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") {
		return true
	}
	r, ok := Rat(n)
	return ok && r.IsInt()
}

// Truncate returns n truncated toward zero as integer text, and whether
// anything was lost.
func Truncate(n json.Number) (json.Number, bool, error) {
	r, ok := Rat(n)
	if !ok {
		return "", false, fmt.Errorf("%s is not a supported number", n)
	}
	q := new(big.Int).Quo(r.Num(), r.Denom())
	lost := !r.IsInt()
	return json.Number(q.String()), lost, nil
}

// Equal reports whether two numbers have the same value.
func Equal(a, b json.Number) bool {
	if a == b {
		return true
	}
	ra, ok1 := Rat(a)
	rb, ok2 := Rat(b)
	return ok1 && ok2 && ra.Cmp(rb) == 0
}
