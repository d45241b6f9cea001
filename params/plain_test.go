package params_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/gates"
	"github.com/paramkit/paramkit/schema"
)

type goService struct {
	Name  string            `json:"name"`
	Port  int               `json:"port"`
	Extra map[string]string `json:"extra,omitempty"`
	Note  string            `json:"-"`
}

// plainCase is Go data placed at /x of the values: typ is the JSON type
// the schema gives /x, want the plain value Plain makes of it, or msg the
// error for what cannot be a value (always at /x).
type plainCase struct {
	name string
	in   any
	typ  string
	want any
	msg  string
}

var plainCases = []plainCase{
	{name: "Go int", in: 5, typ: "integer", want: json.Number("5")},
	{name: "int64 max", in: int64(math.MaxInt64), typ: "integer", want: json.Number("9223372036854775807")},
	{name: "uint64 max", in: uint64(math.MaxUint64), typ: "integer", want: json.Number("18446744073709551615")},
	{name: "float64 2.5", in: 2.5, typ: "number", want: json.Number("2.5")},
	{name: "[]string", in: []string{"a", "yes"}, typ: "array", want: []any{"a", "yes"}},
	{name: "map[string]string", in: map[string]string{"k": "007"}, typ: "object", want: map[string]any{"k": "007"}},
	{name: "struct with json tags", in: goService{Name: "db", Port: 5432, Note: "dropped"}, typ: "object",
		want: map[string]any{"name": "db", "port": json.Number("5432")}},
	{name: "chan", in: make(chan int), msg: "a Go chan int is not a value: JSON has no channels"},
	{name: "NaN", in: math.NaN(), msg: "the Go float64 NaN is not a value: JSON has no NaN or infinity"},
}

// plainSchema types /x, marks it immutable, and defaults /d.
func plainSchema(t *testing.T, typ string) *schema.Schema {
	t.Helper()
	x := map[string]any{"immutable": true}
	if typ != "" {
		x["type"] = typ
	}
	s, err := schema.FromValue(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"x": x,
			"d": map[string]any{"type": "string", "default": "dflt"},
		},
		"additionalProperties": false,
	})
	require.NoError(t, err)
	return s
}

// requireAtX checks an *Error or Errors of one entry at /x.
func requireAtX(t *testing.T, err error, msg string) {
	t.Helper()
	var list schema.ErrorList
	if problem.As(err, &list) {
		require.Len(t, list, 1, "%v", err)
		err = list[0]
	}
	var e *schema.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "/x", e.Pointer)
	assert.Contains(t, e.Message, msg)
}

func requireValidationAtX(t *testing.T, err error, msg string) {
	t.Helper()
	var list schema.ErrorList
	require.True(t, problem.As(err, &list))
	require.Len(t, list, 1, "%v", err)
	assert.Equal(t, "/x", list[0].Pointer)
	assert.Contains(t, list[0].Message, msg)
}

// TestGoValuesAtEveryBoundary: every function that takes values treats Go
// data as the plain value Plain makes of it, and refuses, naming the
// pointer, what cannot be a value.
func TestGoValuesAtEveryBoundary(t *testing.T) {
	funcs := []struct {
		name string
		run  func(t *testing.T, s *schema.Schema, c plainCase)
	}{
		{"Plain", func(t *testing.T, s *schema.Schema, c plainCase) {
			got, err := params.Plain(map[string]any{"x": c.in})
			if c.msg != "" {
				requireAtX(t, err, c.msg)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, map[string]any{"x": c.want}, got)
		}},
		{"Validate", func(t *testing.T, s *schema.Schema, c plainCase) {
			err := params.Validate(s, map[string]any{"x": c.in})
			if c.msg != "" {
				requireValidationAtX(t, err, c.msg)
				return
			}
			assert.NoError(t, err)
		}},
		{"Validate with no schema", func(t *testing.T, s *schema.Schema, c plainCase) {
			err := params.Validate(nil, map[string]any{"x": c.in})
			if c.msg != "" {
				requireValidationAtX(t, err, c.msg)
				return
			}
			assert.NoError(t, err)
		}},
		{"ValidateStructural", func(t *testing.T, s *schema.Schema, c plainCase) {
			err := params.Validate(s, map[string]any{"x": c.in}, params.Structural())
			if c.msg != "" {
				requireValidationAtX(t, err, c.msg)
				return
			}
			assert.NoError(t, err)
		}},
		{"Default", func(t *testing.T, s *schema.Schema, c plainCase) {
			in := map[string]any{"x": c.in}
			got, err := params.Default(s, in)
			if c.msg != "" {
				requireAtX(t, err, c.msg)
				assert.Nil(t, got, "no values with the error")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, map[string]any{"x": c.want, "d": "dflt"}, got)
			assert.Equal(t, map[string]any{"x": c.in}, in, "the Go data is left alone")
		}},
		{"MarshalYAML and MarshalJSON agree", func(t *testing.T, s *schema.Schema, c plainCase) {
			y, err := params.MarshalYAML(s, map[string]any{"x": c.in})
			j, jerr := params.MarshalJSON(s, map[string]any{"x": c.in}, "")
			if c.msg != "" {
				requireAtX(t, err, c.msg)
				requireAtX(t, jerr, c.msg)
				assert.Nil(t, j, "no JSON text for what cannot be a value")
				return
			}
			require.NoError(t, err)
			require.NoError(t, jerr)
			want := map[string]any{"x": c.want}
			fromYAML, err := params.Decode(s, y)
			require.NoError(t, err)
			assert.True(t, value.Identical(want, fromYAML), "YAML %s reads back as %v", y, fromYAML)
			fromJSON, err := params.Decode(nil, j)
			require.NoError(t, err)
			assert.True(t, value.Identical(want, fromJSON), "JSON %s reads back as %v", j, fromJSON)
		}},
		{"Diff", func(t *testing.T, s *schema.Schema, c plainCase) {
			got := params.Diff(map[string]any{"x": c.in}, map[string]any{"x": c.want})
			if c.msg != "" {
				assert.Equal(t, []string{"/x"}, got)
				return
			}
			assert.Equal(t, []string{}, got)
		}},
		{"CheckImmutable", func(t *testing.T, s *schema.Schema, c plainCase) {
			err := params.CheckImmutable(s, map[string]any{"x": c.in}, map[string]any{"x": c.want})
			if c.msg != "" {
				requireAtX(t, err, "in the old values: "+c.msg)
				return
			}
			assert.NoError(t, err, "no change, so nothing immutable changed")
			err = params.CheckImmutable(s, map[string]any{"x": c.want}, map[string]any{"x": c.in})
			assert.NoError(t, err)
		}},
		{"Update.Run", func(t *testing.T, s *schema.Schema, c plainCase) {
			r, err := (&params.Update{Schema: s, Old: map[string]any{"x": c.in}, Set: []string{"d=set"}}).Run()
			if c.msg != "" {
				assert.Zero(t, r)
				requireAtX(t, err, "in the old values: "+c.msg)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, []string{"/d"}, r.Changed, "/x is unchanged")
			assert.Equal(t, map[string]any{"x": c.want, "d": "set"}, r.Values)
		}},
		{"Update.Run, Go data in a patch", func(t *testing.T, s *schema.Schema, c plainCase) {
			r, err := (&params.Update{Schema: s, Old: map[string]any{"x": c.want}, Patches: []any{map[string]any{"x": c.in, "d": "p"}}}).Run()
			if c.msg != "" {
				assert.Zero(t, r)
				requireAtX(t, err, "in merge patch 0: "+c.msg)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, []string{"/d"}, r.Changed, "/x is unchanged")
			assert.Equal(t, map[string]any{"x": c.want, "d": "p"}, r.Values)
		}},
		{"MergePatch", func(t *testing.T, s *schema.Schema, c plainCase) {
			got := params.MergePatch(map[string]any{"x": c.in}, map[string]any{"d": "p"})
			if c.msg != "" {
				assert.Contains(t, got, "x", "merged as given")
				return
			}
			assert.Equal(t, map[string]any{"x": c.want, "d": "p"}, got)
		}},
		{"gates.Set.Apply", func(t *testing.T, s *schema.Schema, c plainCase) {
			res := (*gates.Set)(nil).Apply(map[string]any{"x": c.in}, map[string]any{"x": c.want})
			if c.msg != "" {
				assert.False(t, res.SpecUnchanged)
				return
			}
			assert.Equal(t, map[string]any{"x": c.want}, res.Object)
			assert.True(t, res.SpecUnchanged)
		}},
	}
	for _, f := range funcs {
		for _, c := range plainCases {
			t.Run(f.name+"/"+c.name, func(t *testing.T) {
				s := plainSchema(t, c.typ)
				require.NotPanics(t, func() { f.run(t, s, c) })
			})
		}
	}
}

// TestUpdateOfGoIntIsNoChange is the trial's case: old values built in
// Go, set again to what they hold.
func TestUpdateOfGoIntIsNoChange(t *testing.T) {
	s := mustSchema(t, "type: object\nproperties:\n  n: {type: integer}\n")
	r, err := (&params.Update{Schema: s, Old: map[string]any{"n": 5}, Set: []string{"n=5"}}).Run()
	require.NoError(t, err)
	assert.Equal(t, []string{}, r.Changed)
	assert.Equal(t, "", r.Plan)
}

// TestMarshalYAMLOfGoSliceIsAList is the trial's case: a []string used to
// come out as the string '["a","b"]'.
func TestMarshalYAMLOfGoSliceIsAList(t *testing.T) {
	out, err := params.MarshalYAML(nil, map[string]any{"tags": []string{"a", "b"}})
	require.NoError(t, err)
	assert.Equal(t, "tags:\n  - a\n  - b\n", string(out))
}
