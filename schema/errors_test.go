package schema_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/schema"
)

// TestErrorTypesAreSchemas: the error types are package schema's own, as
// %T shows them (they were aliases of an internal package's).
func TestErrorTypesAreSchemas(t *testing.T) {
	assert.Equal(t, "*schema.Error", fmt.Sprintf("%T", schema.NewError(schema.KindType, "/a", "m")))
	assert.Equal(t, "schema.ErrorList", fmt.Sprintf("%T", schema.ErrorList{}))
	assert.Equal(t, "schema.Kind", fmt.Sprintf("%T", schema.KindType))
	assert.Equal(t, "*schema.ErrorDetail", fmt.Sprintf("%T", &schema.ErrorDetail{}))
	_, err := schema.Parse([]byte("{a: ["))
	assert.Equal(t, "*schema.listError", fmt.Sprintf("%T", err), "a list's Err")
	assert.Equal(t, "*schema.Error", fmt.Sprintf("%T", schema.ErrorsOf(err)[0]))
}

func TestErrorText(t *testing.T) {
	tests := []struct {
		name string
		e    *schema.Error
		want string
	}{
		{"pointer", &schema.Error{Pointer: "/a", Kind: schema.KindType, Message: "m"}, "/a: m"},
		{"root", &schema.Error{Kind: schema.KindType, Message: "m"}, `"": m`},
		{"line only", &schema.Error{Line: 3, Kind: schema.KindSyntax, Message: "m"}, "line 3: m"},
		{"pointer and line", &schema.Error{Pointer: "/a", Line: 3, Kind: schema.KindSyntax, Message: "m"}, "/a: m"},
		{"input", &schema.Error{Pointer: "/a", Kind: schema.KindUsage, Message: "m", Detail: &schema.ErrorDetail{Input: "a=1"}}, `/a: "a=1": m`},
		{"input whose key is no path", &schema.Error{Kind: schema.KindUsage, Message: "m", Detail: &schema.ErrorDetail{Input: "a..b=1"}}, `"a..b=1": m`},
		{"whole input unreadable", &schema.Error{Kind: schema.KindSyntax, Message: "empty"}, "empty"},
		{"refused conversion", &schema.Error{Kind: schema.KindRefused, Message: "refused"}, "refused"},
		{"usage", &schema.Error{Kind: schema.KindUsage, Message: "bad call"}, "bad call"},
		{"io", &schema.Error{Kind: schema.KindIO, Message: "no such file"}, "no such file"},
		{"not found, no place", &schema.Error{Kind: schema.KindNotFound, Message: "no version"}, "no version"},
		{"limit at a place", &schema.Error{Pointer: "/n", Kind: schema.KindLimit, Message: "big"}, "/n: big"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.e.Error())
		})
	}
}

func TestNewError(t *testing.T) {
	e := schema.NewError(schema.KindInvalid, "/n", "must be >= %d", 1)
	assert.Equal(t, &schema.Error{Pointer: "/n", Kind: schema.KindInvalid, Message: "must be >= 1"}, e)
	assert.NoError(t, e.Unwrap(), "nothing wrapped without %w")

	sentinel := errors.New("sentinel")
	w := schema.NewError(schema.KindUsage, "", "%w %q: want KEY=VALUE", sentinel, "x")
	assert.Equal(t, `sentinel "x": want KEY=VALUE`, w.Message)
	assert.Same(t, sentinel, w.Unwrap())
	assert.ErrorIs(t, w, sentinel)

	other := errors.New("other")
	two := schema.NewError(schema.KindInvalid, "", "%w and %w", sentinel, other)
	assert.ErrorIs(t, two, sentinel)
	assert.ErrorIs(t, two, other)

	empty := schema.NewError("", "/a", "something %s", "odd")
	assert.Equal(t, schema.KindUsage, empty.Kind, "an empty kind is refused, never kept")
	assert.Contains(t, empty.Message, "needs a Kind")
	assert.Contains(t, empty.Message, "something odd")
}

// TestErrorsIsFindsWhatAnErrorWraps: errors.Is and errors.As see through
// an *Error and an ErrorList to the error an entry wraps.
func TestErrorsIsFindsWhatAnErrorWraps(t *testing.T) {
	_, refused := schema.Parse([]byte(`{"properties": {"a": {"$ref": "https://example.com/a.json"}}}`))
	_, refusedEngine := schema.Parse([]byte(`{"$ref": "https://example.com/a.json"}`))
	for _, err := range []error{refused, refusedEngine} {
		l := schema.ErrorsOf(err)
		require.NotEmpty(t, l)
		assert.Equal(t, schema.KindRefused, l[0].Kind, "a $ref leaving the document: %v", err)
	}
	tests := []struct {
		name   string
		err    error
		target error
	}{
		{"a foreign error ErrorsOf took in", schema.ErrorsOf(fmt.Errorf("ctx: %w", context.Canceled)).Err(), context.Canceled},
		{"a wrapped sentinel in a list", schema.ErrorList{schema.NewError(schema.KindUsage, "", "%w", context.DeadlineExceeded)}.Err(), context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Error(t, tt.err)
			assert.ErrorIs(t, tt.err, tt.target)
			for _, e := range schema.ErrorsOf(tt.err) {
				assert.NotEmpty(t, e.Kind, "%v", e)
			}
		})
	}
	var refusedEntry *schema.Error
	require.True(t, errors.As(refused, &refusedEntry))
	assert.Equal(t, schema.KindRefused, refusedEntry.Kind)
}

func TestErrorsOf(t *testing.T) {
	e := &schema.Error{Pointer: "/a", Kind: schema.KindSyntax, Message: "bad"}
	assert.Nil(t, schema.ErrorsOf(nil))
	assert.Equal(t, schema.ErrorList{e}, schema.ErrorsOf(e))
	l := schema.ErrorList{e, {Kind: schema.KindType, Message: "t"}}
	assert.Equal(t, l, schema.ErrorsOf(l.Err()))

	wrapped := schema.ErrorsOf(fmt.Errorf("doc 2: %w", e))
	require.Len(t, wrapped, 1)
	assert.Equal(t, "doc 2: bad", wrapped[0].Message)
	assert.Equal(t, schema.KindSyntax, wrapped[0].Kind)
	assert.Equal(t, "/a", wrapped[0].Pointer)
	assert.Equal(t, "bad", e.Message, "the original is not changed")
	after := schema.ErrorsOf(fmt.Errorf("%w (more)", e))
	assert.Same(t, e, after[0])

	wrappedList := schema.ErrorsOf(fmt.Errorf("v2.yaml: %w", l.Err()))
	require.Len(t, wrappedList, 2)
	assert.Equal(t, "v2.yaml: bad", wrappedList[0].Message)
	assert.Equal(t, "v2.yaml: t", wrappedList[1].Message)
	assert.Equal(t, "bad", l[0].Message, "the original list is not changed")

	plain := errors.New("plain")
	other := schema.ErrorsOf(plain)
	require.Len(t, other, 1)
	assert.Equal(t, schema.KindForeign, other[0].Kind)
	assert.Equal(t, "plain", other[0].Message)
	assert.Same(t, plain, other[0].Unwrap())
}

func TestErrorListWorksWithErrorsAs(t *testing.T) {
	l := schema.ErrorList{{Pointer: "/a", Kind: schema.KindRequired, Message: "x"}, {Pointer: "/b", Kind: schema.KindType, Message: "y"}}
	err := fmt.Errorf("context: %w", l.Err())
	assert.Equal(t, "context: /a: x\n/b: y", err.Error())
	var got schema.ErrorList
	require.True(t, problem.As(err, &got))
	assert.Equal(t, l, got)
	var one *schema.Error
	require.True(t, errors.As(err, &one))
	assert.Same(t, l[0], one)
	assert.True(t, errors.Is(err, l[1]))
	assert.NoError(t, schema.ErrorList{}.Err())
	assert.NoError(t, schema.ErrorList(nil).Err())
}

// TestFieldPath: a pointer written as k8s.io/apimachinery's field.Path
// writes the same place (Child for a field name, Index for an array
// index, Key for any other map key: `[key]`, unquoted).
func TestFieldPath(t *testing.T) {
	tests := []struct {
		pointer, prefix, want string
	}{
		{"/a/b/0", "spec.parameters", "spec.parameters.a.b[0]"},
		{"/BACKUP_ENABLED", "spec.parameters", "spec.parameters.BACKUP_ENABLED"},
		{"/node-count", "spec.parameters", "spec.parameters.node-count"},
		{"", "spec.parameters", "spec.parameters"},
		{"", "", ""},
		{"/a/b/0", "", "a.b[0]"},
		{"/0", "", "[0]"},
		{"/a.b", "spec.parameters", "spec.parameters[a.b]"},
		{"/a~1b", "spec", "spec[a/b]"},
		{"/a~0b", "spec", "spec[a~b]"},
		{"/with space/x", "spec", "spec[with space].x"},
		{"/", "spec", "spec[]"},
		{"/2fa", "spec", "spec[2fa]"},
		{"/ünï", "spec", "spec[ünï]"},
		{"/a/10/b", "spec", "spec.a[10].b"},
		{"/_x/y_1", "spec", "spec._x.y_1"},
		{"not-a-pointer", "spec", "spec[not-a-pointer]"},
	}
	for _, tt := range tests {
		t.Run(tt.pointer, func(t *testing.T) {
			e := schema.NewError(schema.KindType, tt.pointer, "m")
			assert.Equal(t, tt.want, e.FieldPath(tt.prefix))
		})
	}
}

// TestFieldPathOfARule: the tokens ErrorDetail.Subscripts names (a
// rule's error on a map entry: TestRuleErrorInMapNamesTheKeyAsASubscript)
// are written as subscripts, as kube-apiserver names them (an Istio
// workloadSelector's label value: spec.workloadSelector.matchLabels[version]);
// the other tokens as in TestFieldPath.
func TestFieldPathOfARule(t *testing.T) {
	tests := []struct {
		name, pointer string
		subscripts    []int
		want          string
	}{
		{"map value", "/spec/selector/matchLabels/version", []int{3}, "spec.selector.matchLabels[version]"},
		{"the map itself", "/spec/selector/matchLabels", nil, "spec.selector.matchLabels"},
		{"items and a map of maps", "/rules/2/env/HOME/value", []int{3}, "rules[2].env[HOME].value"},
		{"a key that is no field name", "/spec/labels/app.kubernetes.io~1name", []int{2}, "spec.labels[app.kubernetes.io/name]"},
		{"no subscripts", "/spec/labels/app/name", nil, "spec.labels.app.name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &schema.Error{Pointer: tt.pointer, Kind: schema.KindInvalid, Keyword: "x-kubernetes-validations",
				Detail: &schema.ErrorDetail{Subscripts: tt.subscripts}}
			assert.Equal(t, tt.want, e.FieldPath(""))
		})
	}
}

// conditionReason is metav1.Condition's pattern for Reason.
var conditionReason = regexp.MustCompile(`^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`)

// TestKindReasonIsAConditionReason: every Kind constant of the package
// (read from its source, so that a new one is checked too) gives a
// CamelCase reason metav1.Condition accepts.
func TestKindReasonIsAConditionReason(t *testing.T) {
	kinds := kindConstants(t)
	require.Len(t, kinds, 22)
	want := map[schema.Kind]string{
		schema.KindForbidden: "Forbidden",
		schema.KindDuplicate: "Duplicate",
		schema.KindConflict:  "Conflict",
		schema.KindNotSchema: "NotSchema",
		schema.KindNotFound:  "NotFound",
		schema.KindRequired:  "Required",
		schema.KindIO:        "IO",
		schema.KindUsage:     "Usage",
	}
	seen := map[string]schema.Kind{}
	for name, k := range kinds {
		r := k.Reason()
		assert.Regexp(t, conditionReason, r, "%s (%q)", name, k)
		if w, ok := want[k]; ok {
			assert.Equal(t, w, r, name)
		}
		if other, dup := seen[r]; dup {
			t.Errorf("%s and %s give the same reason %s", other, k, r)
		}
		seen[r] = k
	}
	for _, odd := range []schema.Kind{"", "-", "9lives", "a--b", "x_y", "a.b:c", "ünï"} {
		assert.Regexp(t, conditionReason, odd.Reason(), "%q", odd)
	}
	assert.Equal(t, "Lives", schema.Kind("9lives").Reason())
	assert.Equal(t, "AB", schema.Kind("a--b").Reason())
}

// kindConstants reads the Kind constants declared in errors.go.
func kindConstants(t *testing.T) map[string]schema.Kind {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "errors.go", nil, parser.SkipObjectResolution)
	require.NoError(t, err)
	out := map[string]schema.Kind{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if len(vs.Values) <= i {
					continue
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok {
					continue
				}
				v, err := strconv.Unquote(lit.Value)
				require.NoError(t, err)
				out[n.Name] = schema.Kind(v)
			}
		}
	}
	return out
}

// TestErrorIn: the error of a file reads as if wrapped with the file's
// name, and is still a *schema.Error (or ErrorList) with its own fields
// and the file in its File field, never in the Message.
func TestErrorIn(t *testing.T) {
	e := &schema.Error{Line: 2, Column: 3, Kind: schema.KindSyntax, Message: "a trailing comma"}
	in := schema.ErrorIn("values.schema.json", e)
	got, ok := in.(*schema.Error)
	require.True(t, ok, "%T", in)
	assert.Equal(t, "values.schema.json: line 2: a trailing comma", in.Error())
	assert.Equal(t, fmt.Errorf("values.schema.json: %w", e).Error(), in.Error(), "as fmt.Errorf would write it")
	assert.Equal(t, 2, got.Line)
	assert.Equal(t, "values.schema.json", got.File)
	assert.Equal(t, "a trailing comma", got.Message, "the message is the entry's own")
	assert.Equal(t, "line 2: a trailing comma", e.Error(), "the original is not changed")
	assert.Empty(t, e.File, "the original is not changed")
	assert.Equal(t, "a trailing comma", schema.ErrorsOf(in)[0].Message, "the file stays out of the message")
	assert.Equal(t, "values.schema.json", schema.ErrorsOf(in)[0].File)

	twice := schema.ErrorIn("chart", in)
	assert.Equal(t, "chart: values.schema.json: line 2: a trailing comma", twice.Error())
	assert.Equal(t, "values.schema.json", schema.ErrorsOf(twice)[0].File, "the inner file is the one the error is in")

	l := schema.ErrorList{{Pointer: "/a", Kind: schema.KindType, Message: "x"}, {Pointer: "/b", Kind: schema.KindType, Message: "y"}}
	inErr := schema.ErrorIn("v.yaml", l.Err())
	var inList schema.ErrorList
	require.True(t, problem.As(inErr, &inList))
	assert.Equal(t, "v.yaml: /a: x\nv.yaml: /b: y", inErr.Error())
	assert.Equal(t, "x", inList[0].Message)
	assert.Equal(t, "v.yaml", inList[1].File)
	assert.Equal(t, "/a: x", l[0].Error(), "the original list is not changed")

	// A wrapping error inside the file: its words stay after the name.
	docIn := schema.ErrorIn("v.yaml", fmt.Errorf("doc 2: %w", l[0]))
	assert.Equal(t, "v.yaml: doc 2: /a: x", docIn.Error())
	assert.Equal(t, fmt.Errorf("v.yaml: %w", fmt.Errorf("doc 2: %w", l[0])).Error(), docIn.Error())

	sentinel := errors.New("boom")
	foreign := schema.ErrorIn("f", sentinel)
	assert.Equal(t, "f: boom", foreign.Error())
	assert.ErrorIs(t, foreign, sentinel)
	assert.Equal(t, schema.KindForeign, schema.ErrorsOf(foreign)[0].Kind)
	assert.Equal(t, "boom", schema.ErrorsOf(foreign)[0].Message)
	assert.NoError(t, schema.ErrorIn("x", nil))
}

// TestErrorJSONHasEveryField: the JSON form of an Error holds every field
// a caller can read, ErrorDetail included.
func TestErrorJSONHasEveryField(t *testing.T) {
	e := &schema.Error{Pointer: "/a", Line: 2, Column: 3, Kind: schema.KindType, Keyword: "type", Message: "m",
		Detail: &schema.ErrorDetail{SchemaPointer: "/properties/a", Input: "a=1", Plans: []string{"x", "y"}, Other: "/b",
			From: json.Number("1.5"), To: json.Number("1")}}
	out, err := json.Marshal(e)
	require.NoError(t, err)
	assert.JSONEq(t, `{"pointer":"/a","line":2,"column":3,"kind":"type","keyword":"type","message":"m",
		"detail":{"schemaPointer":"/properties/a","input":"a=1","plans":["x","y"],"other":"/b","from":1.5,"to":1}}`, string(out))
	out, err = json.Marshal(&schema.Error{Kind: schema.KindUsage, Message: "m"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"pointer":"","kind":"usage","message":"m"}`, string(out))
}

// TestErrorListIsNoError: an empty list given as an error is nil (the
// reviewer's complaint: an ErrorList stored in an error was non-nil even
// when empty), and a full one comes back whole from ErrorsOf, its text as
// the list printed before, errors.As finding its first entry.
func TestErrorListIsNoError(t *testing.T) {
	var empty schema.ErrorList
	var err error = empty.Err()
	assert.Nil(t, err, "an empty list is a nil error")
	require.NoError(t, schema.ErrorList{}.Err())
	assert.Nil(t, schema.ErrorsOf(empty.Err()))

	l := schema.ErrorList{
		{Pointer: "/a", Kind: schema.KindType, Message: "x"},
		{Line: 3, Kind: schema.KindSyntax, Message: "y"},
	}
	err = l.Err()
	require.Error(t, err)
	assert.Equal(t, l, schema.ErrorsOf(err))
	assert.Equal(t, "/a: x\nline 3: y", err.Error())
	var first *schema.Error
	require.ErrorAs(t, err, &first)
	assert.Same(t, l[0], first)
	wrapped := fmt.Errorf("doc 2: %w", err)
	assert.Equal(t, []string{"doc 2: x", "doc 2: y"}, []string{schema.ErrorsOf(wrapped)[0].Message, schema.ErrorsOf(wrapped)[1].Message})

	var _ any = l
	_, isError := any(l).(error)
	assert.False(t, isError, "ErrorList itself is no error")
}
