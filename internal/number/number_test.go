package number

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseCore(t *testing.T) {
	tests := []struct {
		in   string
		want json.Number
		ok   bool
		err  bool
	}{
		{"3", "3", true, false},
		{"-3", "-3", true, false},
		{"+3", "3", true, false},
		{"007", "7", true, false},
		{"0", "0", true, false},
		{"-0", "0", true, false},
		{"0x1F", "31", true, false},
		{"0o17", "15", true, false},
		{"9007199254740993", "9007199254740993", true, false},
		{"1.10", "1.10", true, false},
		{"1.", "1", true, false},
		{".5", "0.5", true, false},
		{"-.5", "-0.5", true, false},
		{"1e3", "1e3", true, false},
		{"1.5E-3", "1.5e-3", true, false},
		{"1e999999999", "", true, true},
		{".inf", "", true, true},
		{".nan", "", true, true},
		{"yes", "", false, false},
		{"1_000", "", false, false},
		{"0b101", "", false, false},
		{"1:20", "", false, false},
		{"0x", "", false, false},
		{"0xG", "", false, false},
		{"", "", false, false},
		{"-", "", false, false},
		{".", "", false, false},
		{"1e", "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			n, ok, err := ParseCore(tt.in)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.err, err != nil, "%v", err)
			if tt.ok && !tt.err {
				assert.Equal(t, tt.want, n)
				assert.True(t, IsJSON(string(n)), "normalised text is JSON")
			}
		})
	}
}

func TestCheckIntegerTruncateEqual(t *testing.T) {
	assert.NoError(t, Check("1e9999"))
	assert.Error(t, Check("1e10000"))
	assert.Error(t, Check("1e-10000"))
	assert.True(t, IsInteger("2.0"))
	assert.True(t, IsInteger("1e3"))
	assert.False(t, IsInteger("2.5"))
	for in, want := range map[json.Number]struct {
		out  json.Number
		lost bool
	}{"2593.75": {"2593", true}, "-2593.75": {"-2593", true}, "2593.0": {"2593", false}, "7": {"7", false}} {
		got, lost, err := Truncate(in)
		assert.NoError(t, err)
		assert.Equal(t, want.out, got, in)
		assert.Equal(t, want.lost, lost, in)
	}
	assert.True(t, Equal("1.0", "1"))
	assert.True(t, Equal("1e2", "100"))
	assert.False(t, Equal("9007199254740993", "9007199254740992"))
}

func FuzzParseCore(f *testing.F) {
	for _, s := range []string{"3", "0x1F", "1.10", ".5", "1e3", "007", "-0", "1e999999999", "yes"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok, err := ParseCore(s)
		if ok && err == nil {
			if !IsJSON(string(n)) {
				t.Fatalf("ParseCore(%q) = %q is not JSON", s, n)
			}
			if _, good := Rat(n); !good {
				t.Fatalf("ParseCore(%q) = %q is not a number", s, n)
			}
		}
	})
}
