package kcel

// Kubernetes resource quantities as apimachinery's resource.ParseQuantity
// reads them (adapted: Apache License 2.0, the Kubernetes Authors), held
// as exact rationals: a sign, digits, an optional fraction, then a suffix
// (n u m k M G T P E, Ki Mi Gi Ti Pi Ei, or e/E and an exponent); a
// non-zero value is rounded away from zero to a whole number of nanos;
// a binary-suffixed value is capped at 2^63-1.

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
)

var (
	errQtyFormat = errors.New("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	errQtySuffix = errors.New("unable to parse quantity's suffix")
	errQtyNum    = errors.New("unable to parse quantity's numeric part")
)

// maxQtyExponent bounds the decimal exponent of a quantity: the apiserver
// takes larger ones (1e1000000 is a quantity there); paramkit refuses
// them rather than hold a number of a million digits.
const maxQtyExponent = 1000

// Qty is a parsed quantity.
type Qty struct {
	r    *big.Rat
	text string
}

var (
	nano      = big.NewRat(1, 1000000000)
	maxBinary = new(big.Rat).SetInt64(math.MaxInt64)
)

var decSuffixes = map[string]int{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
var binSuffixes = map[string]uint{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}

// ParseQty reads a quantity as resource.ParseQuantity does.
func ParseQty(str string) (Qty, error) {
	if str == "" {
		return Qty{}, errQtyFormat
	}
	if str == "0" {
		return Qty{r: new(big.Rat), text: str}, nil
	}
	positive, num, denom, suf, err := splitQty(str)
	if err != nil {
		return Qty{}, err
	}
	r, ok := new(big.Rat).SetString(num + "." + denom + "0")
	if !ok {
		return Qty{}, errQtyNum
	}
	binary := false
	if e, ok := decSuffixes[suf]; ok {
		r.Mul(r, pow10(e))
	} else if e, ok := binSuffixes[suf]; ok {
		binary = true
		r.Mul(r, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), e)))
	} else if len(suf) > 1 && (suf[0] == 'e' || suf[0] == 'E') {
		e, err := strconv.ParseInt(suf[1:], 10, 64)
		if err != nil {
			return Qty{}, errQtySuffix
		}
		e = int64(int32(e)) // the apiserver keeps the exponent as an int32
		if e > maxQtyExponent || e < -maxQtyExponent {
			return Qty{}, errQtyNum
		}
		r.Mul(r, pow10(int(e)))
	} else {
		return Qty{}, errQtySuffix
	}
	if r.Sign() != 0 {
		// Round up to a whole number of nanos.
		n := new(big.Rat).Quo(r, nano)
		if !n.IsInt() {
			i := new(big.Int).Quo(n.Num(), n.Denom())
			i.Add(i, big.NewInt(1))
			r.Mul(new(big.Rat).SetInt(i), nano)
		}
	}
	if binary && r.Cmp(maxBinary) > 0 {
		r.Set(maxBinary)
	}
	if !positive {
		r.Neg(r)
	}
	return Qty{r: r, text: str}, nil
}

func pow10(e int) *big.Rat {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(e))), nil)
	if e < 0 {
		return new(big.Rat).SetFrac(big.NewInt(1), p)
	}
	return new(big.Rat).SetInt(p)
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// splitQty is parseQuantityString: sign, digits, fraction, suffix.
func splitQty(str string) (positive bool, num, denom, suffix string, err error) {
	positive = true
	pos, end := 0, len(str)
	if pos < end {
		switch str[0] {
		case '-':
			positive = false
			pos++
		case '+':
			pos++
		}
	}
	for pos < end && str[pos] == '0' {
		pos++
	}
	if pos >= end {
		return positive, "0", "", "", nil
	}
	start := pos
	for pos < end && str[pos] >= '0' && str[pos] <= '9' {
		pos++
	}
	num = str[start:pos]
	if num == "" {
		num = "0"
	}
	if pos < end && str[pos] == '.' {
		pos++
		start = pos
		for pos < end && str[pos] >= '0' && str[pos] <= '9' {
			pos++
		}
		denom = str[start:pos]
	}
	suffixStart := pos
	for pos < end && strings.ContainsRune("eEinumkKMGTP", rune(str[pos])) {
		pos++
	}
	if pos < end && (str[pos] == '-' || str[pos] == '+') {
		pos++
	}
	for pos < end && str[pos] >= '0' && str[pos] <= '9' {
		pos++
	}
	if pos < end {
		return false, "", "", "", errQtyFormat
	}
	return positive, num, denom, str[suffixStart:end], nil
}

// Sign is -1, 0 or 1.
func (q Qty) Sign() int { return q.r.Sign() }

// Cmp compares two quantities.
func (q Qty) Cmp(o Qty) int { return q.r.Cmp(o.r) }

// AsInt64 is the value as an int64, when it is a whole number in range.
func (q Qty) AsInt64() (int64, bool) {
	if !q.r.IsInt() || !q.r.Num().IsInt64() {
		return 0, false
	}
	return q.r.Num().Int64(), true
}

// AsApproximateFloat64 is the value as a float64.
func (q Qty) AsApproximateFloat64() float64 {
	f, _ := q.r.Float64()
	return f
}

// Add and Sub give a new quantity.
func (q Qty) Add(o Qty) Qty { return Qty{r: new(big.Rat).Add(q.r, o.r)} }
func (q Qty) Sub(o Qty) Qty { return Qty{r: new(big.Rat).Sub(q.r, o.r)} }

// String is the text the quantity was read from, or its decimal value.
func (q Qty) String() string {
	if q.text != "" {
		return q.text
	}
	if q.r.IsInt() {
		return q.r.Num().String()
	}
	return strings.TrimRight(q.r.FloatString(9), "0")
}
