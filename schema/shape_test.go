package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/schema/edit"
)

// TestOneFailureShapePerFunction (issue 28): every exported function of
// schema and schema/edit that can fail gives its failures in one shape,
// whatever the failure: ErrorsOf reads a non-empty list of *schema.Error
// from it, each with a Kind, and the error is always a list
// (ErrorList.Err) or, for CheckJSONFile, always a lone *Error.
func TestOneFailureShapePerFunction(t *testing.T) {
	valid, err := schema.Parse([]byte(`{"type":"object","required":["a"],"properties":{"a":{"type":"integer","maximum":3}},"additionalProperties":false}`))
	require.NoError(t, err)
	parse := func(src string, opts ...schema.Option) func() error {
		return func() error { _, err := schema.Parse([]byte(src), opts...); return err }
	}
	fromValue := func(doc any) func() error {
		return func() error { _, err := schema.FromValue(doc); return err }
	}
	addProperty := func(doc, at string, p edit.Property) func() error {
		return func() error { _, err := edit.AddProperty([]byte(doc), at, p); return err }
	}
	type failure struct {
		name string
		call func() error
		kind schema.Kind
	}
	lists := map[string][]failure{
		"Parse": {
			{"syntax", parse("{a: ["), schema.KindSyntax},
			{"empty", parse(""), schema.KindSyntax},
			{"duplicate key", parse(`{"type":"object","type":"string"}`), schema.KindSyntax},
			{"bad keyword", parse(`{"type":"integr"}`), schema.KindSchema},
			{"not a schema", parse(`{"replicas":3,"image":"x"}`), schema.KindNotSchema},
			{"refused $ref", parse(`{"$ref":"https://example.com/a.json"}`), schema.KindRefused},
			{"unknown dialect", parse(`{"$schema":"https://example.com/draft"}`), schema.KindSchema},
			{"unknown default dialect", parse(`{}`, schema.DefaultDialect("draft-99")), schema.KindSchema},
		},
		"FromValue": {
			{"bad keyword", fromValue(map[string]any{"minimum": "x"}), schema.KindSchema},
			{"not a schema", fromValue(json.Number("3")), schema.KindSchema},
		},
		"Schema.Validate": {
			{"type", func() error { return valid.Validate(map[string]any{"a": "x"}) }, schema.KindType},
			{"required", func() error { return valid.Validate(map[string]any{}) }, schema.KindRequired},
			{"extra key", func() error { return valid.Validate(map[string]any{"a": json.Number("1"), "b": true}) }, schema.KindAdditional},
			{"maximum", func() error { return valid.Validate(map[string]any{"a": json.Number("9")}) }, schema.KindInvalid},
			{"zero Schema", func() error { return (&schema.Schema{}).Validate(nil) }, schema.KindUsage},
			{"nil Schema", func() error { return (*schema.Schema)(nil).Validate(nil) }, schema.KindUsage},
		},
		"Schema.ValidateAt": {
			{"invalid", func() error { return valid.ValidateAt("/properties/a", "x") }, schema.KindType},
			{"no subschema", func() error { return valid.ValidateAt("/properties/zz", "x") }, schema.KindNotFound},
			{"not a pointer", func() error { return valid.ValidateAt("properties", "x") }, schema.KindNotFound},
			{"zero Schema", func() error { return (&schema.Schema{}).ValidateAt("", nil) }, schema.KindUsage},
		},
		"edit.AddProperty": {
			{"unusable schema", addProperty("{a: [", "/x", edit.Property{Type: "string"}), schema.KindSyntax},
			{"malformed path", addProperty("type: object\n", "x", edit.Property{Type: "string"}), schema.KindUsage},
			{"bad type", addProperty("type: object\n", "/x", edit.Property{Type: "str"}), schema.KindUsage},
			{"exists", addProperty("properties: {x: {}}\n", "/x", edit.Property{Type: "string"}), schema.KindUsage},
			{"default refused", addProperty("properties: {x: {type: object, properties: {y: {maximum: 1}}}}\n", "/x/z", edit.Property{Type: "integer", Default: json.Number("5"), HasDefault: true, Enum: []any{json.Number("1")}}), schema.KindUsage},
		},
	}
	for fn, failures := range lists {
		for _, f := range failures {
			t.Run(fn+"/"+f.name, func(t *testing.T) {
				err := f.call()
				require.Error(t, err)
				entries, isList := problem.List[*schema.Error](err)
				assert.True(t, isList, "%s fails with a list (ErrorList.Err), not %T: %v", fn, err, err)
				assert.NotEmpty(t, entries)
				l := schema.ErrorsOf(err)
				require.NotEmpty(t, l)
				for _, e := range l {
					assert.NotEmpty(t, e.Kind, "%v", e)
					assert.NotEmpty(t, e.Message, "%v", e)
				}
				assert.Equal(t, f.kind, l[0].Kind, "%v", err)
			})
		}
	}

	// CheckJSONFile: always one *Error (KindSyntax, at a line).
	for _, src := range []string{`{"a": 1,}`, `{a: 1}`, "", `{"a": 1} // c`} {
		err := schema.CheckJSONFile("x.json", []byte(src))
		require.Error(t, err, "%q", src)
		e, one := err.(*schema.Error)
		require.True(t, one, "%T", err)
		assert.Equal(t, schema.KindSyntax, e.Kind)
		assert.Positive(t, e.Line)
		assert.Len(t, schema.ErrorsOf(err), 1)
	}
}
