package schema

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/number"
)

// numberEdges are the numbers the fast comparisons are checked on
// against big.Rat: decimals and what is not one.
var numberEdges = []string{
	"0", "-0", "0.0", "-0.000", "0e400", "0E-400",
	"1", "-1", "7", "10", "100", "100000", "100001", "99999.99999",
	"0.1", "1e-1", "0.10", "10e-2", "-0.1", "-1e-1",
	"0.5", "5e-1", "1.25", "75.15", "85.757", "-75.15",
	"1e2", "1E+2", "100e-2", "3.0", "2.5e1", "25",
	"123456789012345678", "-123456789012345678", "999999999999999999",
	"1234567890123456789", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
	"123456789012345678901234567890",
	"0.000000000000000001", "0.0000000000000000001", "1e-18", "1e-19",
	"1e17", "1e18", "1e19", "12e16", "1.5e17",
	"1e400", "-1e400", "1e-400", "1.5e-20",
	"0.333333333333333333", "0.3333333333333333333",
}

func ratOf(t testing.TB, s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	require.True(t, ok, s)
	return r
}

func TestParseDecimalIsExact(t *testing.T) {
	for _, s := range numberEdges {
		d, ok := parseDecimal(s)
		if !ok {
			continue
		}
		got := new(big.Rat).SetFrac(big.NewInt(d.m), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.k)), nil))
		assert.Zero(t, got.Cmp(ratOf(t, s)), "%s read as %d×10^-%d", s, d.m, d.k)
	}
}

func TestParseDecimalTable(t *testing.T) {
	for _, c := range []struct {
		text string
		want decimal
		ok   bool
	}{
		{"0", decimal{}, true},
		{"-0", decimal{}, true},
		{"0e400", decimal{}, true},
		{"0.1", decimal{1, 1}, true},
		{"1e-1", decimal{1, 1}, true},
		{"1E+2", decimal{100, 0}, true},
		{"-75.15", decimal{-7515, 2}, true},
		{"123456789012345678", decimal{123456789012345678, 0}, true},
		{"0.000000000000000001", decimal{1, 18}, true},
		{"1e17", decimal{1e17, 0}, true},
		// past an int64's safe digits or scale: big.Rat decides
		{"1234567890123456789", decimal{}, false},
		{"9223372036854775808", decimal{}, false},
		{"1e18", decimal{}, false},
		{"1e400", decimal{}, false},
		{"1e-400", decimal{}, false},
		{"0.0000000000000000001", decimal{}, false},
		// no JSON number
		{"", decimal{}, false},
		{"-", decimal{}, false},
		{"+1", decimal{}, false},
		{"01", decimal{}, false},
		{"-01", decimal{}, false},
		{"1.", decimal{}, false},
		{".5", decimal{}, false},
		{"1e", decimal{}, false},
		{"1e+", decimal{}, false},
		{"1x", decimal{}, false},
		{"0x10", decimal{}, false},
		{"NaN", decimal{}, false},
	} {
		d, ok := parseDecimal(c.text)
		assert.Equal(t, c.ok, ok, c.text)
		if c.ok {
			assert.Equal(t, c.want, d, c.text)
		}
	}
}

func TestDecimalCmpMatchesRat(t *testing.T) {
	for _, a := range numberEdges {
		da, oka := parseDecimal(a)
		for _, b := range numberEdges {
			db, okb := parseDecimal(b)
			if !oka || !okb {
				continue
			}
			assert.Equal(t, ratOf(t, a).Cmp(ratOf(t, b)), da.cmp(db), "%s against %s", a, b)
		}
	}
}

func TestDecimalMultipleOfMatchesRat(t *testing.T) {
	divisors := []string{"1", "2", "3", "0.1", "0.01", "1e-1", "0.5", "2.5", "7", "100", "0.000000000000000001", "999999999999999999"}
	for _, a := range numberEdges {
		da, oka := parseDecimal(a)
		for _, b := range divisors {
			db, okb := parseDecimal(b)
			require.True(t, okb, b)
			if !oka {
				continue
			}
			got, decided := da.multipleOf(db)
			if !decided {
				continue
			}
			want := new(big.Rat).Quo(ratOf(t, a), ratOf(t, b)).IsInt()
			assert.Equal(t, want, got, "%s multiple of %s", a, b)
		}
	}
}

func TestRatDecimal(t *testing.T) {
	for _, c := range []struct {
		text string
		want decimal
		ok   bool
	}{
		{"0", decimal{}, true},
		{"100000", decimal{100000, 0}, true},
		{"0.5", decimal{5, 1}, true},
		{"-2.25", decimal{-225, 2}, true},
		{"1e-18", decimal{1, 18}, true},
		{"1e-19", decimal{}, false},
		{"1/3", decimal{}, false},
		{"1e18", decimal{}, false},
		{"123456789012345678901234567890", decimal{}, false},
	} {
		d, ok := ratDecimal(ratOf(t, c.text))
		assert.Equal(t, c.ok, ok, c.text)
		if c.ok {
			assert.Equal(t, c.want, d, c.text)
		}
	}
}

// numberOKRat is numberOK done with big.Rat alone: what the fast paths
// must agree with.
func numberOKRat(n *fastNode, v string) bool {
	num, _ := new(big.Rat).SetString(v)
	if n.minimum.rat != nil && num.Cmp(n.minimum.rat) < 0 {
		return false
	}
	if n.exclMinimum.rat != nil && num.Cmp(n.exclMinimum.rat) <= 0 {
		return false
	}
	if n.maximum.rat != nil && num.Cmp(n.maximum.rat) > 0 {
		return false
	}
	if n.exclMax.rat != nil && num.Cmp(n.exclMax.rat) >= 0 {
		return false
	}
	if n.multipleOf.rat != nil && !new(big.Rat).Quo(num, n.multipleOf.rat).IsInt() {
		return false
	}
	return true
}

func TestNumberOKMatchesRat(t *testing.T) {
	bounds := append([]string{"1/3", "-1/7"}, numberEdges...)
	divisors := []string{"", "1", "0.1", "0.5", "3", "1e-30", "1e30", "1/3"}
	for _, v := range numberEdges {
		for _, b := range bounds {
			for _, m := range divisors {
				for kind := 0; kind < 4; kind++ {
					var n fastNode
					fb := newFastBound(ratOf(t, b))
					switch kind {
					case 0:
						n.minimum = fb
					case 1:
						n.exclMinimum = fb
					case 2:
						n.maximum = fb
					case 3:
						n.exclMax = fb
					}
					if m != "" {
						n.multipleOf = newFastBound(ratOf(t, m))
					}
					var r fastRun
					got := r.numberOK(&n, json.Number(v))
					require.False(t, r.gaveUp, v)
					assert.Equal(t, numberOKRat(&n, v), got, "%s, bound %d %s, multipleOf %q", v, kind, b, m)
				}
			}
		}
	}
}

func TestNumberOKGivesUpOnNonNumbers(t *testing.T) {
	n := fastNode{minimum: newFastBound(big.NewRat(0, 1))}
	for _, v := range []string{"", "01", "1.", "+1", "abc"} {
		var r fastRun
		assert.False(t, r.numberOK(&n, json.Number(v)), v)
		assert.True(t, r.gaveUp, v)
	}
}

// FuzzDecimal checks the decimal fast path against big.Rat: what it
// reads is a JSON number of the same value, and it compares and divides
// as big.Rat does.
func FuzzDecimal(f *testing.F) {
	for i, s := range numberEdges {
		f.Add(s, numberEdges[(i*7+3)%len(numberEdges)])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		da, oka := parseDecimal(a)
		db, okb := parseDecimal(b)
		for _, c := range []struct {
			s  string
			d  decimal
			ok bool
		}{{a, da, oka}, {b, db, okb}} {
			if !c.ok {
				continue
			}
			if !number.IsJSON(c.s) {
				t.Fatalf("%q read as a decimal but is no JSON number", c.s)
			}
			want, exact := new(big.Rat).SetString(c.s)
			if !exact {
				return // an exponent past what big.Rat reads: no reference
			}
			got := new(big.Rat).SetFrac(big.NewInt(c.d.m), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(c.d.k)), nil))
			if got.Cmp(want) != 0 {
				t.Fatalf("%q read as %d×10^-%d", c.s, c.d.m, c.d.k)
			}
		}
		if !oka || !okb {
			return
		}
		ra, _ := new(big.Rat).SetString(a)
		rb, _ := new(big.Rat).SetString(b)
		if got, want := da.cmp(db), ra.Cmp(rb); got != want {
			t.Fatalf("%s against %s: %d, big.Rat says %d", a, b, got, want)
		}
		if db.m != 0 {
			if got, decided := da.multipleOf(db); decided {
				if want := new(big.Rat).Quo(ra, rb).IsInt(); got != want {
					t.Fatalf("%s multiple of %s: %v, big.Rat says %v", a, b, got, want)
				}
			}
		}
	})
}
