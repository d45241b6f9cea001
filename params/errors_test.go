package params_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/gates"
	"github.com/paramkit/paramkit/schema"
)

const errorsSchema = `
type: object
properties:
  replicas: {type: integer, minimum: 1}
  name: {type: string, immutable: true}
  size: {type: string, enum: [small, large]}
  auth:
    type: object
    trigger: auth-update
    properties:
      user: {type: string}
  list: {type: array, items: {type: string}}
`

func jsonNumber(s string) json.Number { return json.Number(s) }

// firstError returns the *schema.Error that errors.As finds in err,
// checking that err is one.
func firstError(t *testing.T, err error) *schema.Error {
	t.Helper()
	require.Error(t, err)
	var e *schema.Error
	require.True(t, errors.As(err, &e), "%T: %v", err, err)
	return e
}

// TestOneErrorTypeFromEveryEntryPoint: each failure comes back as a
// *schema.Error of the right Kind, whichever function reports it.
func TestOneErrorTypeFromEveryEntryPoint(t *testing.T) {
	s, err := schema.Parse([]byte(errorsSchema))
	require.NoError(t, err)
	old := map[string]any{"replicas": jsonNumber("2"), "name": "a", "size": "small"}
	update := func(assign ...string) error {
		u := params.Update{Schema: s, Old: old, Set: assign}
		_, err := u.Run()
		return err
	}
	getter := func(f func() error) error { return f() }
	tests := []struct {
		name    string
		err     error
		kind    schema.Kind
		pointer string
	}{
		{"Validate: type", params.Validate(s, map[string]any{"replicas": "x"}), schema.KindType, "/replicas"},
		{"Update.Run: type", update("replicas=x"), schema.KindType, "/replicas"},
		{"Validate: range", params.Validate(s, map[string]any{"replicas": jsonNumber("0")}), schema.KindInvalid, "/replicas"},
		{"Update.Run: range", update("replicas=0"), schema.KindInvalid, "/replicas"},
		{"Validate: enum", params.Validate(s, map[string]any{"size": "huge"}), schema.KindEnum, "/size"},
		{"Update.Run: enum", update("size=huge"), schema.KindEnum, "/size"},
		{"Update.Run: immutable", update("name=b"), schema.KindImmutable, "/name"},
		{"Update.Run: path", update("list.0=x"), schema.KindUsage, "/list"},
		{"Update.Run: plan conflict", update("replicas=3", "auth.user=u"), schema.KindConflict, "/auth"},
		{"Validate: not plain", params.Validate(s, map[string]any{"c": make(chan int)}), schema.KindUsage, "/c"},
		{"Decode: syntax", func() error { _, err := params.Decode(s, []byte("a: [1,\n")); return err }(), schema.KindSyntax, ""},
		{"Decode: limit", func() error { _, err := params.Decode(s, []byte(`{"a":1e999999999}`)); return err }(), schema.KindLimit, "/a"},
		{"Decode: second document", func() error { _, err := params.Decode(s, []byte("a: 1\n---\nb: 2\n")); return err }(), schema.KindSyntax, ""},
		{"getter: missing", getter(func() error { _, err := params.String(old, "/nope"); return err }), schema.KindNotFound, "/nope"},
		{"getter: type", getter(func() error { _, err := params.Bool(old, "/name"); return err }), schema.KindType, "/name"},
		{"getter: malformed pointer", getter(func() error { _, err := params.Map(old, "nope"); return err }), schema.KindUsage, "nope"},
		{"getter: range", getter(func() error {
			_, err := params.Int64(map[string]any{"n": jsonNumber("1e30")}, "/n")
			return err
		}), schema.KindInvalid, "/n"},
		{"gates: rules", func() error {
			_, err := gates.Parse([]byte("- {name: a, preRelease: nope, fieldPaths: [.spec.x]}\n"))
			return err
		}(), schema.KindGateList, "/0/preRelease"},
		{"gates: syntax", func() error { _, err := gates.Parse([]byte("- [\n")); return err }(), schema.KindSyntax, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := firstError(t, tt.err)
			assert.Equal(t, tt.kind, e.Kind, "%v", tt.err)
			assert.Equal(t, tt.pointer, e.Pointer, "%v", tt.err)
		})
	}
}

// TestValidateAndRunGiveTheSameError: the same validation failure is the
// same list of the same errors from Validate and from Update.Run.
func TestValidateAndRunGiveTheSameError(t *testing.T) {
	s, err := schema.Parse([]byte(errorsSchema))
	require.NoError(t, err)
	verr := params.Validate(s, map[string]any{"replicas": jsonNumber("0"), "size": "huge"})
	_, rerr := (&params.Update{Schema: s, Patches: []any{map[string]any{"replicas": jsonNumber("0"), "size": "huge"}}}).Run()
	var vl, rl schema.ErrorList
	require.True(t, problem.As(verr, &vl))
	require.True(t, problem.As(rerr, &rl))
	assert.Equal(t, vl.Err().Error(), rl.Err().Error())
	require.Len(t, rl, len(vl))
	for i := range vl {
		assert.Equal(t, vl[i].Kind, rl[i].Kind)
		assert.Equal(t, vl[i].Pointer, rl[i].Pointer)
	}
}

// TestConflictDetail: the two plans of a conflict and the typed input of
// an assignment are data, not only text.
func TestConflictDetail(t *testing.T) {
	s, err := schema.Parse([]byte(errorsSchema))
	require.NoError(t, err)
	u := params.Update{Schema: s, Old: map[string]any{"replicas": jsonNumber("2")}, Set: []string{"replicas=3", "auth.user=u"}}
	_, err = u.Run()
	var list schema.ErrorList
	require.True(t, problem.As(err, &list))
	require.Len(t, list, 2)
	plans := map[string][]string{}
	for _, e := range list {
		assert.Equal(t, schema.KindConflict, e.Kind)
		require.NotNil(t, e.Detail)
		plans[e.Pointer] = e.Detail.Plans
	}
	assert.Equal(t, map[string][]string{
		"/auth":     {"auth-update", "auth-update", "deploy"},
		"/replicas": {"deploy", "auth-update", "deploy"},
	}, plans)

	_, err = (&params.Update{Schema: s, Old: map[string]any{"list": []any{"a"}}, Set: []string{"list.3=x"}}).Run()
	e := firstError(t, err)
	require.NotNil(t, e.Detail)
	assert.Equal(t, "list.3=x", e.Detail.Input)
	assert.Contains(t, e.Error(), `"list.3=x"`)
}

// Every error of paramkit prints the same way: no type switch is needed,
// whichever function returned it.
func Example_errors() {
	s, _ := schema.Parse([]byte(`
type: object
properties:
  replicas: {type: integer, minimum: 1}
  size: {type: string, enum: [small, large]}
  name: {type: string, immutable: true}
`))
	print := func(err error) {
		for _, e := range schema.ErrorsOf(err) {
			fmt.Printf("%s [%s] %s\n", e.Pointer, e.Kind, e.Message)
		}
	}
	v, _ := params.Decode(s, []byte("replicas: 0\nsize: huge\n"))
	print(params.Validate(s, v))

	_, err := (&params.Update{Schema: s, Old: map[string]any{"name": "old"}, Set: []string{"name=new"}}).Run()
	print(err)

	_, err = params.Int64(v, "/missing")
	print(err)

	_, err = params.Decode(s, []byte(`{"replicas": 1e999999999}`))
	print(err)
	// Output:
	// /replicas [invalid] must be >= 1 but found 0
	// /size [enum] value must be one of "small", "large"
	// /name [immutable] cannot be changed: immutable (schema /properties/name)
	// /missing [not-found] no value (want integer)
	// /replicas [limit] number is out of the supported range (at most 4096 digits, exponent within ±9999)
}
