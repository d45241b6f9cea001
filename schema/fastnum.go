package schema

import (
	"math"
	"math/big"
	"math/bits"
)

// decimal is an exact number m × 10^-k with |m| < 10^18 and 0 ≤ k ≤ 18:
// what most numbers of a document and most limits of a schema are
// (integers, prices, ratios), compared and divided without big.Rat.
// Anything else (more digits, a large exponent) is not a decimal and goes
// the exact slow way; nothing here goes through float64.
type decimal struct {
	m int64
	k int
}

// maxDecimalDigits bounds m's digits so that m and its scaled forms fit
// an int64 (10^18 < 2^63).
const maxDecimalDigits = 18

var pow10 = [...]uint64{
	1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

// parseDecimal reads JSON number text as a decimal; ok is false when the
// text is no JSON number or its value is not a decimal (in which case the
// caller asks big.Rat).
func parseDecimal(s string) (d decimal, ok bool) {
	i, n := 0, len(s)
	neg := false
	if i < n && s[i] == '-' {
		neg = true
		i++
	}
	if i == n || !isDigit(s[i]) || (s[i] == '0' && i+1 < n && isDigit(s[i+1])) {
		return decimal{}, false
	}
	var m uint64
	digits, k := 0, 0
	for ; i < n && isDigit(s[i]); i++ {
		if m == 0 && s[i] == '0' {
			continue
		}
		if digits == maxDecimalDigits {
			return decimal{}, false
		}
		m = m*10 + uint64(s[i]-'0')
		digits++
	}
	if i < n && s[i] == '.' {
		i++
		if i == n || !isDigit(s[i]) {
			return decimal{}, false
		}
		for ; i < n && isDigit(s[i]); i++ {
			k++
			if m == 0 && s[i] == '0' {
				continue
			}
			if digits == maxDecimalDigits {
				return decimal{}, false
			}
			m = m*10 + uint64(s[i]-'0')
			digits++
		}
	}
	exp := 0
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < n && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		if i == n || !isDigit(s[i]) {
			return decimal{}, false
		}
		for ; i < n && isDigit(s[i]); i++ {
			if exp < 10000 { // past that, only zero is a decimal
				exp = exp*10 + int(s[i]-'0')
			}
		}
		if eneg {
			exp = -exp
		}
	}
	if i != n {
		return decimal{}, false
	}
	if m == 0 {
		return decimal{}, true // 0, -0, 0.000, 0e400
	}
	k -= exp
	if k < 0 {
		if digits-k > maxDecimalDigits {
			return decimal{}, false
		}
		m *= pow10[-k]
		k = 0
	}
	if k > maxDecimalDigits {
		return decimal{}, false
	}
	d = decimal{m: int64(m), k: k}
	if neg {
		d.m = -d.m
	}
	return d, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// ratDecimal returns r as a decimal when it is one.
func ratDecimal(r *big.Rat) (decimal, bool) {
	den := r.Denom()
	ten := big.NewInt(10)
	p := big.NewInt(1)
	var q, rem big.Int
	for k := 0; k <= maxDecimalDigits; k++ {
		if q.QuoRem(p, den, &rem); rem.Sign() == 0 {
			m := new(big.Int).Mul(r.Num(), &q)
			if !m.IsInt64() {
				return decimal{}, false
			}
			mi := m.Int64()
			if mi <= -int64(pow10[maxDecimalDigits]) || mi >= int64(pow10[maxDecimalDigits]) {
				return decimal{}, false
			}
			return decimal{m: mi, k: k}, true
		}
		p.Mul(p, ten)
	}
	return decimal{}, false
}

// cmp returns -1, 0 or +1 as a is less than, equal to or greater than b.
func (a decimal) cmp(b decimal) int {
	if a.k > b.k {
		return -b.cmp(a)
	}
	if a.k == b.k {
		return cmpInt(a.m, b.m)
	}
	// Both times 10^a.k: a.m against b.m / 10^(b.k-a.k) = q + r/p, where
	// |r/p| < 1 and r has the sign of b.m.
	p := int64(pow10[b.k-a.k])
	q, r := b.m/p, b.m%p
	if c := cmpInt(a.m, q); c != 0 {
		return c
	}
	return -cmpInt(r, 0)
}

func cmpInt(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// multipleOf reports whether a divided by d is an integer; ok is false
// when the check needs numbers past an int64 (then big.Rat decides). d
// must not be zero.
func (a decimal) multipleOf(d decimal) (multiple, ok bool) {
	k := max(a.k, d.k)
	x, okx := scaleAbs(a.m, k-a.k)
	y, oky := scaleAbs(d.m, k-d.k)
	if !okx || !oky || y == 0 {
		return false, false
	}
	return x%y == 0, true
}

// scaleAbs returns |m| × 10^e when it fits an int64.
func scaleAbs(m int64, e int) (uint64, bool) {
	u := uint64(m)
	if m < 0 {
		u = uint64(-m)
	}
	hi, lo := bits.Mul64(u, pow10[e])
	return lo, hi == 0 && lo <= math.MaxInt64
}
