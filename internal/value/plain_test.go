package value

import (
	"encoding/json"
	"math"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
)

type color string

type tagged struct {
	Name    string            `json:"name"`
	Port    uint16            `json:"port,omitempty"`
	Ratio   float64           `json:"ratio"`
	Labels  map[string]string `json:"labels"`
	Skipped int               `json:"-"`
	hidden  int
}

type textKey struct{ a, b string }

func (k textKey) MarshalText() ([]byte, error) { return []byte(k.a + "." + k.b), nil }

type badText struct{}

func (badText) MarshalText() ([]byte, error) { return nil, assert.AnError }

func TestPlainConverts(t *testing.T) {
	n := func(s string) json.Number { return json.Number(s) }
	seven := 7
	var nilMap map[string]int
	var nilPtr *int
	tests := []struct {
		name string
		in   any
		want any
	}{
		{"Go int", 5, n("5")},
		{"int64 max", int64(math.MaxInt64), n("9223372036854775807")},
		{"int64 min", int64(math.MinInt64), n("-9223372036854775808")},
		{"uint64 max", uint64(math.MaxUint64), n("18446744073709551615")},
		{"uint8", uint8(255), n("255")},
		{"float64 2.5", 2.5, n("2.5")},
		{"float64 integral", 3.0, n("3")},
		{"float64 0.1 keeps its shortest text", 0.1, n("0.1")},
		{"float64 large", 1e21, n("1e+21")},
		{"float64 small", 1e-7, n("1e-7")},
		{"float32 keeps its own shortest text", float32(0.1), n("0.1")},
		{"named string", color("red"), "red"},
		{"named json.Number kind is a string, as encoding/json says", struct{ N color }{"1"}, map[string]any{"N": "1"}},
		{"[]string", []string{"a", "b"}, []any{"a", "b"}},
		{"[]int", []int{1, 2}, []any{n("1"), n("2")}},
		{"array", [2]bool{true, false}, []any{true, false}},
		{"[]byte is base64", []byte("hi"), "aGk="},
		{"nil slice is null", []string(nil), nil},
		{"map[string]string", map[string]string{"a": "x"}, map[string]any{"a": "x"}},
		{"map[string]int", map[string]int{"a": 1}, map[string]any{"a": n("1")}},
		{"nil map is null", nilMap, nil},
		{"int keys", map[int]bool{-1: true, 2: false}, map[string]any{"-1": true, "2": false}},
		{"uint keys", map[uint8]string{7: "x"}, map[string]any{"7": "x"}},
		{"TextMarshaler keys", map[textKey]int{{"a", "b"}: 1}, map[string]any{"a.b": n("1")}},
		{"named string keys", map[color]int{"red": 1}, map[string]any{"red": n("1")}},
		{"pointer", &seven, n("7")},
		{"nil pointer", nilPtr, nil},
		{"struct with json tags", tagged{Name: "db", Ratio: 0.5, Labels: map[string]string{"k": "v"}, Skipped: 3, hidden: 4},
			map[string]any{"name": "db", "ratio": n("0.5"), "labels": map[string]any{"k": "v"}}},
		{"pointer to struct", &tagged{Name: "db", Port: 80}, map[string]any{"name": "db", "port": n("80"), "ratio": n("0"), "labels": nil}},
		{"MarshalJSON", json.RawMessage(`{"big":123456789012345678901234567890}`), map[string]any{"big": n("123456789012345678901234567890")}},
		{"MarshalText", net.IPv4(10, 0, 0, 1), "10.0.0.1"},
		{"time.Time", time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), "2024-01-02T03:04:05Z"},
		{"plain map holding a Go int", map[string]any{"n": 5, "s": "x", "l": []any{true}}, map[string]any{"n": n("5"), "s": "x", "l": []any{true}}},
		{"plain list holding a []string", []any{[]string{"a"}, nil}, []any{[]any{"a"}, nil}},
		{"interface element", []any{any(map[string]any{"a": []int{1}})}, []any{map[string]any{"a": []any{n("1")}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Plain(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			again, err := Plain(got)
			require.NoError(t, err)
			assert.Equal(t, got, again, "the result is plain")
		})
	}
}

func TestPlainRefuses(t *testing.T) {
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	var selfPtr any
	selfPtr = &selfPtr
	tests := []struct {
		name, ptr, msg string
		in             any
	}{
		{"a channel", "/c", "a Go chan int is not a value: JSON has no channels", map[string]any{"c": make(chan int)}},
		{"a func", "/0", "a Go func() is not a value: JSON has no functions", []any{func() {}}},
		{"a complex number", "", "JSON has no complex numbers", complex(1, 2)},
		{"NaN", "/f", "the Go float64 NaN is not a value: JSON has no NaN or infinity", map[string]any{"f": math.NaN()}},
		{"+Inf in a Go slice", "/l/1", "+Inf is not a value", map[string]any{"l": []float64{1, math.Inf(1)}}},
		{"float32 -Inf", "", "the Go float32 -Inf", float32(math.Inf(-1))},
		{"a NaN inside a struct", "/s", "unsupported value: NaN", map[string]any{"s": struct{ F float64 }{math.NaN()}}},
		{"a channel inside a struct", "/s", "unsupported type: chan int", map[string]any{"s": struct{ C chan int }{}}},
		{"bool keys", "/m", "JSON object keys are text, and bool keys have none", map[string]any{"m": map[bool]int{true: 1}}},
		{"a key without text", "", "a key of the Go map[value.badText]int has no text", map[badText]int{{}: 1}},
		{"keys that collide", "", `two keys of the Go map[value.textKey]int are both "a.b.c"`, map[textKey]int{{"a", "b.c"}: 1, {"a.b", "c"}: 2}},
		{"a json.Number that is no number", "/n", `the json.Number "1,5" is not a JSON number`, map[string]any{"n": json.Number("1,5")}},
		{"an empty json.Number", "/0/n", `the json.Number "" is not a JSON number`, []any{map[string]any{"n": json.Number("")}}},
		{"the first bad part in key order", "/a", "JSON has no channels", map[string]any{"b": func() {}, "a": make(chan int)}},
		{"a map that holds itself", "/self/self", "nested deeper than 10000 levels", cyclic},
		{"a pointer to itself", "", "nested deeper than 10000 levels", selfPtr},
		{"out-of-range number from MarshalJSON", "/r/big", "number is out of the supported range", map[string]any{"r": json.RawMessage(`{"big":1e99999}`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got any
			var err error
			require.NotPanics(t, func() { got, err = Plain(tt.in) })
			assert.Nil(t, got)
			var npe *problem.Error
			require.ErrorAs(t, err, &npe)
			assert.Contains(t, []problem.Kind{problem.NotPlain, problem.Limit}, npe.Kind)
			assert.True(t, strings.HasPrefix(npe.Pointer, tt.ptr), "pointer %q, want one starting %q", npe.Pointer, tt.ptr)
			assert.Contains(t, npe.Message, tt.msg)
			assert.Contains(t, err.Error(), tt.msg)
			assert.LessOrEqual(t, len(err.Error()), 1024, "the error is bounded")
		})
	}
}

func TestPlainKeepsPlainValuesAndDoesNotAllocate(t *testing.T) {
	v := map[string]any{"a": "ok", "n": json.Number("1.5e3"), "l": []any{nil, true, map[string]any{"c": []any{}}}}
	got, err := Plain(v)
	require.NoError(t, err)
	got.(map[string]any)["new"] = true
	assert.Equal(t, true, v["new"], "a plain value comes back as itself, not a copy")
	assert.Zero(t, testing.AllocsPerRun(100, func() { _, _ = Plain(v) }))
}

func TestPlainCopiesWhatItConverts(t *testing.T) {
	inner := map[string]any{"k": "v"}
	v := map[string]any{"n": 1, "inner": inner}
	got, err := Plain(v)
	require.NoError(t, err)
	got.(map[string]any)["inner"].(map[string]any)["k"] = "changed"
	assert.Equal(t, "v", inner["k"], "the converted copy shares nothing with the input")
	assert.Equal(t, 1, v["n"], "the input is not changed")
}

func TestPlainNestingLimit(t *testing.T) {
	deep := func(n int) any {
		var v any = "leaf"
		for range n {
			v = []any{v}
		}
		return v
	}
	_, err := Plain(deep(MaxDepth))
	assert.NoError(t, err, "MaxDepth levels are allowed")
	_, err = Plain(deep(MaxDepth + 1))
	assert.ErrorContains(t, err, "nested deeper than 10000 levels")
}

func TestSound(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want bool
	}{
		{"plain", map[string]any{"a": []any{"é", json.Number("1e9999"), nil, true}}, true},
		{"a Go int", map[string]any{"a": 1}, false},
		{"number text that is no number", []any{json.Number("1,5")}, false},
		{"number out of range", []any{json.Number("1e99999")}, false},
		{"invalid UTF-8 string", []any{"\xff"}, false},
		{"invalid UTF-8 key", map[string]any{"\xff": nil}, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Sound(tt.v), tt.name)
	}
	v := tests[0].v
	assert.Zero(t, testing.AllocsPerRun(100, func() { Sound(v) }))
}

// FuzzPlain: Go data that encoding/json decodes from any JSON text (floats,
// []interface{}, map[string]interface{}), or into a typed struct, becomes
// a plain value that encoding/json writes byte for byte as it writes the
// Go data, and a plain value comes back as itself.
func FuzzPlain(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[1.5,"x",true,null],"c":{"d":1e21}}`, `[0.1,-0,1e-7,123456789012345678]`,
		`"s"`, `{"name":"n","port":80,"ratio":2.5,"labels":{"k":"v"}}`, `{"":{"":[[]]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var loose any
		if json.Unmarshal(data, &loose) == nil {
			checkPlainLikeJSON(t, loose)
		}
		var typed tagged
		if json.Unmarshal(data, &typed) == nil {
			checkPlainLikeJSON(t, typed)
		}
		var floats map[string][]float64
		if json.Unmarshal(data, &floats) == nil {
			checkPlainLikeJSON(t, floats)
		}
	})
}

func checkPlainLikeJSON(t *testing.T, x any) {
	t.Helper()
	want, err := json.Marshal(x)
	if err != nil {
		return
	}
	p, err := Plain(x)
	require.NoError(t, err, "%#v", x)
	require.True(t, plainOK(p, 0), "Plain gave a value that is not plain: %#v", p)
	got, err := json.Marshal(p)
	require.NoError(t, err)
	require.Equal(t, sortedJSON(t, want), string(got), "from %#v", x)
	again, err := Plain(p)
	require.NoError(t, err)
	require.True(t, Identical(p, again), "a plain value comes back as itself")
}

// sortedJSON writes JSON text again with object keys sorted (a struct
// writes its fields in their order) and numbers exactly as they were.
func sortedJSON(t *testing.T, b []byte) string {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	var v any
	require.NoError(t, d.Decode(&v))
	out, err := json.Marshal(v)
	require.NoError(t, err)
	return string(out)
}
