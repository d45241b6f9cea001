package document

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeJSON(t *testing.T) {
	v, err := DecodeJSON([]byte(` {"a": [1, 2.50, -3e2, true, false, null, "x\u00e9\ud83d\ude00\n"], "b": {}} `))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{
		"a": []any{json.Number("1"), json.Number("2.50"), json.Number("-3e2"), true, false, nil, "xé😀\n"},
		"b": map[string]any{},
	}, v)
}

func TestDecodeJSONErrors(t *testing.T) {
	tests := []struct {
		in    string
		limit bool
		msg   string
	}{
		{`{"a":1,"a":2}`, true, "duplicate key"},
		{`{"a":{"b":1e99999}}`, true, "out of the supported range"},
		{"\"\xff\"", true, "UTF-8"},
		{`"\ud800"`, true, "surrogate"},
		{strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), true, "nesting"},
		{`{"a":}`, false, ""},
		{`[1,]`, false, ""},
		{`01`, false, ""},
		{`{"a":1} x`, false, ""},
		{`'a'`, false, ""},
		{"\"a\tb\"", false, "control"},
		{``, false, ""},
	}
	for _, tt := range tests {
		_, err := DecodeJSON([]byte(tt.in))
		require.Error(t, err, tt.in)
		var le *JSONLimitError
		var se *jsonSyntaxError
		if tt.limit {
			assert.True(t, errors.As(err, &le), "%q: %v", tt.in, err)
		} else {
			assert.True(t, errors.As(err, &se), "%q: %v", tt.in, err)
		}
		assert.Contains(t, err.Error(), tt.msg)
	}
	_, err := DecodeJSON([]byte(`{"a":{"b":[0,{"c":1,"c":2}]}}`))
	var le *JSONLimitError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "/a/b/1/c", le.Pointer)
}

// FuzzDecodeJSON checks DecodeJSON against encoding/json: same verdict on
// well-formed input (up to the limits) and the same value.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,"x",null,true]}`, `"\u00e9"`, `1e5`, `-0.0`, `{"a":1,"a":2}`, "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := DecodeJSON(data)
		var want any
		// json.Valid judges the whole text: a Decoder stops after the
		// first value, and its More cannot see "true }" is not JSON.
		stdErr := errors.New("not JSON")
		if json.Valid(data) {
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.UseNumber()
			stdErr = dec.Decode(&want)
		}
		if err == nil {
			if stdErr != nil {
				t.Fatalf("DecodeJSON accepted what encoding/json refuses: %q (%v)", data, stdErr)
			}
			assert.Equal(t, want, v)
			return
		}
		var se *jsonSyntaxError
		if errors.As(err, &se) && stdErr == nil {
			t.Fatalf("DecodeJSON refused valid JSON %q: %v", data, err)
		}
	})
}

// Objects of every width up to past where a map leaves its first group
// of slots: each read whole, nested ones too, and a repeated key refused
// at its pointer wherever it comes.
func TestDecodeJSONObjectWidths(t *testing.T) {
	for n := 1; n <= 34; n++ {
		var b strings.Builder
		b.WriteString(`{"outer":{`)
		want := map[string]any{}
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			k := fmt.Sprintf("k%02d", i)
			fmt.Fprintf(&b, `%q:{"in":[%d,{"x":%d}]}`, k, i, i)
			want[k] = map[string]any{"in": []any{json.Number(fmt.Sprint(i)), map[string]any{"x": json.Number(fmt.Sprint(i))}}}
		}
		b.WriteString(`},"after":true}`)
		v, err := DecodeJSON([]byte(b.String()))
		require.NoError(t, err, n)
		assert.Equal(t, map[string]any{"outer": want, "after": true}, v, n)

		for _, at := range []int{0, n / 2, n - 1} {
			dup := strings.Replace(b.String(), `},"after"`, fmt.Sprintf(`,"k%02d":1},"after"`, at), 1)
			_, err := DecodeJSON([]byte(dup))
			var le *JSONLimitError
			require.ErrorAs(t, err, &le, "%d members, k%02d twice", n, at)
			assert.True(t, le.Duplicate)
			assert.Equal(t, fmt.Sprintf("/outer/k%02d", at), le.Pointer)
		}
	}
}
