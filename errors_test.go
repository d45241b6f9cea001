package paramkit_test

import (
	"context"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert"
	kudoversion "github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/convert/migrate/migratetest"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/lint"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/gates"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/schema/edit"
	"github.com/paramkit/paramkit/trigger"
)

// The error model, probed through the public API as a user meets it:
// every entry point that can fail with bad input gives a *schema.Error
// or a schema.ErrorList (never an error of an internal type, never a
// *fmt.wrapError around one), and every entry has a Kind.

const errorsSchema = `type: object
properties:
  name: {type: string, pattern: "^it's$"}
  replicas: {type: integer, minimum: 1, trigger: scale}
  size: {type: integer, enum: [1, 2]}
  id: {type: string, immutable: true}
  backup:
    type: object
    trigger: backup
    properties:
      enabled: {type: boolean}
  tags: {type: array, items: {type: string}}
`

// conditionReasonRE is metav1.Condition's pattern for Reason.
var conditionReasonRE = regexp.MustCompile(`^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`)

// requireSchemaError checks the error model on err: its dynamic type is
// *schema.Error or schema.ErrorList, and every entry has a Kind (whose
// reason a Kubernetes condition accepts) and a message.
func requireSchemaError(t *testing.T, err error) {
	t.Helper()
	require.Error(t, err)
	if e, ok := err.(*schema.Error); ok {
		checkEntry(t, e)
		return
	}
	// The error of ErrorList.Err: its entries through Unwrap() []error.
	u, ok := err.(interface{ Unwrap() []error })
	if !ok || reflect.TypeOf(err).String() != "*schema.listError" {
		t.Fatalf("%T is neither *schema.Error nor a schema.ErrorList's Err: %v", err, err)
	}
	entries := u.Unwrap()
	require.NotEmpty(t, entries, "an empty ErrorList as an error")
	for _, x := range entries {
		e, ok := x.(*schema.Error)
		require.True(t, ok, "an entry of type %T", x)
		checkEntry(t, e)
	}
}

func checkEntry(t *testing.T, e *schema.Error) {
	t.Helper()
	require.NotNil(t, e)
	assert.NotEmpty(t, e.Kind, "no Kind: %v", e)
	assert.Regexp(t, conditionReasonRE, e.Kind.Reason())
	assert.NotEmpty(t, e.Message, "no message: %#v", e)
	var pe *schema.Error
	if u := e.Unwrap(); u != nil && errors.As(u, &pe) {
		t.Errorf("an Error wraps another: %v", e)
	}
}

func TestPublicErrorsAreSchemaErrors(t *testing.T) {
	s, err := schema.Parse([]byte(errorsSchema))
	require.NoError(t, err)
	old := map[string]any{"id": "a", "replicas": jsonNum("1")}
	dir := t.TempDir()
	noSchemaCRD := []byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  versions: [{name: v1}]\n")
	noStorageCRD := []byte("kind: CustomResourceDefinition\nspec:\n  versions:\n  - {name: a, schema: {openAPIV3Schema: {type: object}}}\n  - {name: b, schema: {openAPIV3Schema: {type: object}}}\n")
	badCRD := []byte("kind: CustomResourceDefinition\nspec:\n  versions:\n  - {name: a, storage: true, schema: {openAPIV3Schema: {type: 7}}}\n")
	v1, err := schema.Parse([]byte(`{"properties": {"a": {"type": "string"}}}`))
	require.NoError(t, err)
	v2, err := schema.Parse([]byte(`{"properties": {"b": {"type": "string", "oldName": "a"}}}`))
	require.NoError(t, err)
	set, err := migrate.NewVersionSet([]migrate.Version{{Name: "v1", Schema: v1}, {Name: "v2", Schema: v2, NoDowngrade: true}})
	require.NoError(t, err)
	m, err := migrate.New(v2, migrate.FromVersion(v1))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "versions.yaml"), []byte("[{name: v1, storage: true}]\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "v1.yaml"), []byte("{}"), 0o644))
	kudo := lint.Kudo()

	tests := []struct {
		name string
		run  func() error
	}{
		// Reading schemas.
		{"schema.Parse syntax", func() error { _, err := schema.Parse([]byte("a: [")); return err }},
		{"schema.Parse empty", func() error { _, err := schema.Parse([]byte("# nothing\n")); return err }},
		{"schema.Parse not a schema", func() error { _, err := schema.Parse([]byte("a: 1\nb: 2\n")); return err }},
		{"schema.Parse bad keyword", func() error { _, err := schema.Parse([]byte("type: int\n")); return err }},
		{"schema.Parse refused $ref", func() error { _, err := schema.Parse([]byte(`{"$ref": "https://example.com/s.json"}`)); return err }},
		{"schema.Parse unknown dialect", func() error { _, err := schema.Parse([]byte(`{"$schema": "x"}`)); return err }},
		{"schema.Parse KUDO keyword", func() error { _, err := schema.Parse([]byte(`{"trigger": 1}`)); return err }},
		{"schema.Parse limit", func() error { _, err := schema.Parse([]byte(strings.Repeat("[", 20000))); return err }},
		{"schema.FromValue not plain", func() error { _, err := schema.FromValue(map[string]any{"x": make(chan int)}); return err }},
		{"Schema.Validate", func() error { return s.Validate(map[string]any{"name": "x", "size": jsonNum("3")}) }},
		{"Schema.ValidateAt no subschema", func() error { return s.ValidateAt("/nowhere", 1) }},
		{"Schema.ValidateAt invalid", func() error { return s.ValidateAt("/properties/replicas", "x") }},
		{"edit.AddProperty exists", func() error {
			_, err := edit.AddProperty([]byte(errorsSchema), "/name", edit.Property{Type: "string"})
			return err
		}},
		{"edit.AddProperty bad path", func() error {
			_, err := edit.AddProperty([]byte(errorsSchema), "x", edit.Property{Type: "string"})
			return err
		}},
		{"edit.AddProperty bad type", func() error {
			_, err := edit.AddProperty([]byte(errorsSchema), "/x", edit.Property{Type: "int"})
			return err
		}},
		{"edit.AddProperty trigger conflict", func() error {
			_, err := edit.AddProperty([]byte(errorsSchema), "/backup/x", edit.Property{Type: "string", Trigger: "deploy"})
			return err
		}},
		{"edit.AddProperty unreadable", func() error {
			_, err := edit.AddProperty([]byte("a: ["), "/x", edit.Property{Type: "string"})
			return err
		}},

		// Values.
		{"params.Decode syntax", func() error { _, err := params.Decode(s, []byte("name: [")); return err }},
		{"params.Decode empty", func() error { _, err := params.Decode(s, []byte("")); return err }},
		{"params.Decode two documents", func() error { _, err := params.Decode(s, []byte("a: 1\n---\nb: 2\n")); return err }},
		{"params.Decode limit", func() error { _, err := params.Decode(s, []byte(`{"replicas": 1e99999999}`)); return err }},
		{"params.Decode duplicate key", func() error { _, err := params.Decode(s, []byte("a: 1\na: 2\n")); return err }},
		{"params.DecodePatch syntax", func() error { _, err := params.DecodePatch(s, []byte("{a: ")); return err }},
		{"params.DecodeReader later document", func() error {
			return params.DecodeReader(context.Background(), s, strings.NewReader("a: 1\n---\nb: [\n"), 0, func(d params.Document[any]) error { return d.Err })
		}},
		{"params.DecodeReader unreadable", func() error { return firstDocErr(t, s, "a: [") }},
		{"params.DecodeReader invalid", func() error { return firstDocErr(t, s, "size: 3") }},
		{"params.DecodeReader invalid later document", func() error { return firstDocErr(t, s, "{}\n---\nsize: 3") }},
		{"params.Validate", func() error { return params.Validate(s, map[string]any{"replicas": jsonNum("0")}) }},
		{"params.Validate not plain", func() error { return params.Validate(s, map[string]any{"x": math.NaN()}) }},
		{"params.Validate Structural", func() error { return params.Validate(s, map[string]any{"tags": "x"}, params.Structural()) }},
		{"params.CheckImmutable", func() error { return params.CheckImmutable(s, old, map[string]any{"id": "b"}) }},
		{"params.CheckImmutable not plain", func() error { return params.CheckImmutable(s, old, map[string]any{"id": make(chan int)}) }},
		{"params.Plain", func() error { _, err := params.Plain(map[string]any{"f": func() {}}); return err }},
		{"params.MarshalYAML", func() error { _, err := params.MarshalYAML(s, math.Inf(1)); return err }},
		{"params.ParseText", func() error { _, err := params.ParseText(s.Lookup("/tags"), "[a, "); return err }},
		{"params.ParseText not UTF-8", func() error { _, err := params.ParseText(nil, "\xff"); return err }},
		{"params.ParseText out of range", func() error { _, err := params.ParseText(s.Lookup("/replicas"), "1e99999999"); return err }},
		{"params.String missing", func() error { _, err := params.String(old, "/none"); return err }},
		{"params.Int64 wrong type", func() error { _, err := params.Int64(old, "/id"); return err }},
		{"params.Bool bad pointer", func() error { _, err := params.Bool(old, "id"); return err }},
		{"params.Float wrong type", func() error { _, err := params.Float(old, "/id"); return err }},
		{"params.Map wrong type", func() error { _, err := params.Map(old, "/id"); return err }},
		{"params.Slice missing", func() error { _, err := params.Slice(old, "/tags"); return err }},

		// Updates, -p and patch operations.
		{"Update.Run -p nothing before =", func() error { _, err := (&params.Update{Schema: s, Set: []string{"=1"}}).Run(); return err }},
		{"Update.Run operation unknown", func() error {
			_, err := (&params.Update{Schema: s, Operations: []string{"move a=b"}}).Run()
			return err
		}},
		{"Update.Run operation malformed", func() error { _, err := (&params.Update{Schema: s, Operations: []string{"add a"}}).Run(); return err }},
		{"Update.Run remove nothing", func() error { _, err := (&params.Update{Schema: s, Operations: []string{"remove "}}).Run(); return err }},
		{"Update.Run operation bad key", func() error {
			_, err := (&params.Update{Schema: s, Operations: []string{"remove a..b"}}).Run()
			return err
		}},
		{"Update.Run nil", func() error { _, err := (*params.Update)(nil).Run(); return err }},
		{"Update.Run no schema", func() error { _, err := (&params.Update{}).Run(); return err }},
		{"Update.Run malformed -p", func() error { _, err := (&params.Update{Schema: s, Set: []string{"replicas"}}).Run(); return err }},
		{"Update.Run bad path", func() error { _, err := (&params.Update{Schema: s, Set: []string{"a..b=1"}}).Run(); return err }},
		{"Update.Run index out of range", func() error { _, err := (&params.Update{Schema: s, Set: []string{"tags/3=x"}}).Run(); return err }},
		{"Update.Run invalid", func() error { _, err := (&params.Update{Schema: s, Set: []string{"replicas=0"}}).Run(); return err }},
		{"Update.Run not a number", func() error { _, err := (&params.Update{Schema: s, Set: []string{"replicas=x"}}).Run(); return err }},
		{"Update.Run out of range", func() error {
			_, err := (&params.Update{Schema: s, Set: []string{"replicas=1e99999999"}}).Run()
			return err
		}},
		{"Update.Run immutable", func() error { _, err := (&params.Update{Schema: s, Old: old, Set: []string{"id=b"}}).Run(); return err }},
		{"Update.Run two plans", func() error {
			_, err := (&params.Update{Schema: s, Old: old, Set: []string{"replicas=2", "backup.enabled=true"}}).Run()
			return err
		}},
		{"Update.Run strict", func() error {
			_, err := (&params.Update{Schema: s, Set: []string{"nmae=x"}, Strict: true}).Run()
			return err
		}},
		{"Update.Run old not plain", func() error {
			_, err := (&params.Update{Schema: s, Old: map[string]any{"x": make(chan int)}}).Run()
			return err
		}},
		{"Update.Run patch not plain", func() error { _, err := (&params.Update{Schema: s, Patches: []any{math.NaN()}}).Run(); return err }},
		{"Update.Run bad operation", func() error {
			_, err := (&params.Update{Schema: s, Old: old, Operations: []string{"replace nothing=1"}}).Run()
			return err
		}},
		{"Update.Run conflicting triggers", func() error {
			bad, err := schema.Parse([]byte("properties:\n  a:\n    trigger: x\n    properties:\n      b: {trigger: y}\n"))
			require.NoError(t, err)
			_, err = (&params.Update{Schema: bad}).Run()
			return err
		}},

		// Gates.
		{"gates.Parse syntax", func() error { _, err := gates.Parse([]byte("[")); return err }},
		{"gates.Parse rules", func() error { _, err := gates.Parse([]byte("- name: a\n  preRelease: gamma\n")); return err }},
		{"gates.New rules", func() error {
			_, err := gates.New([]gates.Gate{{Name: "a b", PreRelease: "alpha", FieldPaths: []string{"x"}}})
			return err
		}},

		// Triggers.
		{"trigger.New conflicts", func() error {
			bad, err := schema.Parse([]byte("properties:\n  a:\n    trigger: x\n    properties:\n      b: {trigger: y}\n"))
			require.NoError(t, err)
			_, err = trigger.New(bad)
			return err
		}},
		{"trigger.New nil", func() error { _, err := trigger.New(nil); return err }},
		{"Resolver.Resolve two plans", func() error {
			r, err := trigger.New(s)
			require.NoError(t, err)
			_, err = r.Resolve([]string{"/replicas", "/backup/enabled"})
			return err
		}},

		// v1beta1 and CRDs.
		{"convert.LoadSchema syntax", func() error { _, err := convert.LoadSchema([]byte("a: [")); return err }},
		{"convert.LoadSchema empty", func() error { _, err := convert.LoadSchema([]byte("")); return err }},
		{"convert.LoadSchema not a schema", func() error { _, err := convert.LoadSchema([]byte("a: 1\n")); return err }},
		{"convert.LoadSchema bad v1beta1", func() error {
			_, err := convert.LoadSchema([]byte("apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: A\n    type: foo\n"))
			return err
		}},
		{"convert.ReadSchema missing file", func() error { _, err := convert.ReadSchema(fstest.MapFS{}, "nope.yaml"); return err }},
		{"convert.ReadSchema not a folder with a schema", func() error { _, err := convert.ReadSchema(fstest.MapFS{"x/README": {}}, "x"); return err }},
		{"convert.LoadSchema CRD without a storage version", func() error { _, err := convert.LoadSchema(noStorageCRD); return err }},
		{"kube.CRDVersions not a CRD", func() error { _, err := kube.CRDVersions([]byte("kind: Pod\n")); return err }},
		{"kube.CRDVersions no schema", func() error { _, err := kube.CRDVersions(noSchemaCRD); return err }},
		{"kube.CRDVersions syntax", func() error { _, err := kube.CRDVersions([]byte("kind: [")); return err }},
		{"kube.CRDVersions bad schema", func() error { _, err := kube.CRDVersions(badCRD); return err }},
		{"convert.FromV1beta1 syntax", func() error { _, err := convert.FromV1beta1([]byte("a: [")); return err }},
		{"convert.FromV1beta1 duplicate", func() error {
			_, err := convert.FromV1beta1([]byte("parameters:\n  - name: A\n  - name: A\n"))
			return err
		}},
		{"convert.ToV1beta1 not an OperatorVersion", func() error { _, err := convert.ToV1beta1([]byte("kind: Instance\n")); return err }},
		{"convert.ToV1beta1 a list", func() error { _, err := convert.ToV1beta1([]byte("[a]\n")); return err }},
		{"convert.Unwrap syntax", func() error { _, err := convert.Unwrap(s, []byte("a: [")); return err }},
		{"convert.Unwrap not text", func() error { _, err := convert.Unwrap(s, []byte("replicas: [1]\n")); return err }},
		{"convert.Unwrap wrong type", func() error { _, err := convert.Unwrap(s, []byte("replicas: x\n")); return err }},
		{"convert.UnwrapValues", func() error { _, err := convert.UnwrapValues(s, map[string]string{"replicas": "x"}); return err }},
		{"convert.UnwrapReader", func() error {
			var first error
			err := convert.UnwrapReader(context.Background(), s, strings.NewReader("replicas: 1\n---\nreplicas: x\n"), 1,
				func(d params.Document[*convert.Converted]) error {
					if first == nil {
						first = d.Err
					}
					return nil
				})
			require.NoError(t, err)
			return first
		}},

		// Migration.
		{"migrate.New nil target", func() error { _, err := migrate.New(nil); return err }},
		{"migrate.New Lossless alone", func() error { _, err := migrate.New(v2, migrate.Lossless()); return err }},
		{"migrate.New hooks twice", func() error {
			_, err := migrate.New(v2, migrate.StepHooks(0, nil, nil), migrate.StepHooks(0, nil, nil))
			return err
		}},
		{"migrate.New claimed twice", func() error {
			bad, err := schema.Parse([]byte(`{"properties": {"b": {"oldName": "a"}, "c": {"oldName": "a"}}}`))
			require.NoError(t, err)
			_, err = migrate.New(bad)
			return err
		}},
		{"Migration.Migrate", func() error { _, err := m.Migrate(map[string]any{"a": jsonNum("1")}); return err }},
		{"Migration.MigrateDocument syntax", func() error { _, err := m.MigrateDocument([]byte("a: [")); return err }},
		{"migrate.Reader", func() error {
			var first error
			err := migrate.Reader(context.Background(), m, strings.NewReader("a: x\n---\na: [\n"), 1, func(d params.Document[migrate.Result]) error {
				if first == nil {
					first = d.Err
				}
				return nil
			})
			require.NoError(t, err)
			return first
		}},
		{"migrate.NewVersionSet empty", func() error { _, err := migrate.NewVersionSet(nil); return err }},
		{"migrate.NewVersionSet twice", func() error {
			_, err := migrate.NewVersionSet([]migrate.Version{{Name: "v1", Schema: v1}, {Name: "v1", Schema: v1}})
			return err
		}},
		{"migrate.NewVersionSet hooks on the oldest", func() error {
			up := func(from, to any) (any, error) { return to, nil }
			_, err := migrate.NewVersionSet([]migrate.Version{{Name: "v1", Schema: v1, Up: up}})
			return err
		}},
		{"migrate.NewVersionSet an option not for it", func() error {
			_, err := migrate.NewVersionSet([]migrate.Version{{Name: "v1", Schema: v1}}, migrate.Total())
			return err
		}},
		{"migrate.LoadVersionSet missing folder", func() error { _, err := migrate.LoadVersionSet(os.DirFS(filepath.Join(dir, "none"))); return err }},
		{"migrate.LoadVersionSet bad versions.yaml", func() error { _, err := migrate.LoadVersionSet(os.DirFS(dir)); return err }},
		{"VersionSet.Convert unknown version", func() error { _, err := set.Convert(map[string]any{}, "v1", "v9"); return err }},
		{"VersionSet.Convert refused", func() error { _, err := set.Convert(map[string]any{}, "v2", "v1"); return err }},
		{"VersionSet.ConvertDocument syntax", func() error { _, err := set.ConvertDocument([]byte("a: ["), "v1", "v2"); return err }},
		{"VersionSet.ConvertObject bad apiVersion", func() error {
			_, err := set.ConvertObject(map[string]any{}, "v1", "v2", migrate.ObjectTarget{APIVersion: "a/b/c"})
			return err
		}},
		{"VersionSet.ConvertObjectDocument syntax", func() error {
			_, err := set.ConvertObjectDocument([]byte("a: ["), "v1", "v2", migrate.ObjectTarget{APIVersion: "x/v2"})
			return err
		}},
		{"VersionSet.RewriteObjects unknown version", func() error {
			_, _, err := set.RewriteObjects(nil, "v0", "v2", "x/v2", "")
			return err
		}},
		{"VersionSet.Refused", func() error { return set.Refused("v2", "v1") }},
		{"migratetest.RandomValue unsatisfiable", func() error {
			never, err := schema.Parse([]byte(`{"type": "string", "pattern": "^\\d{40}[a-z]{40}$"}`))
			require.NoError(t, err)
			_, err = migratetest.RandomValue(never, rand.New(rand.NewPCG(1, 2)))
			return err
		}},

		// Lint.
		{"lint.Document syntax", func() error { _, err := lint.Document([]byte("a: ["), kudo); return err }},
		{"lint.Document not a schema", func() error { _, err := lint.Document([]byte("a: 1\nb: 2\n"), kudo); return err }},
		{"lint.Document operator.yaml", func() error {
			_, err := lint.Document([]byte("apiVersion: kudo.dev/v1beta1\nname: x\noperatorVersion: 0.1.0\ntasks: []\nplans: {deploy: {}}\n"), kudo)
			return err
		}},
		{"lint.Document CRD without a schema", func() error {
			_, err := lint.Document([]byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: {versions: [{name: v1}]}\n"), kudo)
			return err
		}},
		{"Package.Lint nil", func() error { _, err := (*lint.Package)(nil).Lint(kudo); return err }},
		{"Package.Lint unreadable params", func() error { _, err := (&lint.Package{Params: []byte("a: [")}).Lint(kudo); return err }},
		{"lint.ReadPackage not a package", func() error { _, err := lint.ReadPackage(fstest.MapFS{"x.yaml": {}}); return err }},
		{"lint.ReadPackage bad operator.yaml", func() error {
			_, err := lint.ReadPackage(fstest.MapFS{"operator.yaml": {Data: []byte("plans: [a]\n")}})
			return err
		}},
		{"lint.ReadPackage unreadable operator.yaml", func() error {
			_, err := lint.ReadPackage(fstest.MapFS{"operator.yaml": {Data: []byte("plans: [")}})
			return err
		}},
		{"lint.ReadPackage operator.yaml no mapping", func() error {
			_, err := lint.ReadPackage(fstest.MapFS{"operator.yaml": {Data: []byte("[a]\n")}})
			return err
		}},
		{"lint.ReadChart not a chart", func() error { _, err := lint.ReadChart(fstest.MapFS{"x.yaml": {}}); return err }},
		{"Chart.Lint nil", func() error { _, err := (*lint.Chart)(nil).Lint(kudo); return err }},
		{"Chart.Lint schema not JSON", func() error {
			_, err := (&lint.Chart{Schema: []byte("{\n  \"type\": \"object\",\n}\n")}).Lint(kudo)
			return err
		}},
		{"Chart.Lint values not YAML", func() error {
			_, err := (&lint.Chart{Schema: []byte(`{"type": "object"}`), Values: []byte("a: [1,\n")}).Lint(kudo)
			return err
		}},
		{"Chart.Lint extra values not YAML", func() error {
			_, err := (&lint.Chart{Schema: []byte(`{"type": "object"}`), ExtraValues: []lint.ValuesFile{{Name: "x.yaml", Data: []byte("a: b: c\n")}}}).Lint(kudo)
			return err
		}},
		{"schema.CheckJSONFile", func() error { return schema.CheckJSONFile("x.json", []byte("{a: 1}")) }},
		{"kudo.New nil schema", func() error { _, err := kudoversion.New("v1", nil, nil); return err }},
		{"kudo.Load syntax", func() error { _, err := kudoversion.Load("v1", []byte("spec: [")); return err }},
		{"kudo.Load not an operator version", func() error { _, err := kudoversion.Load("v1", []byte("kind: Pod\nspec: {}\n")); return err }},
		{"kudo.ConvertObject not an object", func() error {
			_, err := kudoversion.ConvertObject(context.Background(), []byte("[1]"), "kudo.dev/v1beta2", nil)
			return err
		}},
		{"kudo.ConvertObject no schema", func() error {
			_, err := kudoversion.ConvertObject(context.Background(), []byte(`{"apiVersion":"kudo.dev/v1beta1","kind":"Instance","spec":{"operatorVersion":{"name":"x"},"parameters":{}}}`), "kudo.dev/v1beta2",
				func(context.Context, string, string) (*kudoversion.OperatorVersion, error) {
					return nil, errors.New("gone")
				})
			return err
		}},
		{"kudo.FromObject unidentified", func() error { _, err := kudoversion.FromObject(map[string]any{"a": "b"}); return err }},
		{"kudo.Upgrade zero versions", func() error { _, err := (&kudoversion.OperatorVersion{}).Upgrade(nil, nil, nil); return err }},
		{"kudo.Update invalid", func() error {
			v, err := kudoversion.Load("v1", []byte(`{"type": "object", "properties": {"n": {"type": "integer"}}}`))
			if err != nil {
				return err
			}
			_, err = v.Update(nil, map[string]any{"n": "x"})
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireSchemaError(t, tt.run())
		})
	}
}

// TestPublicWarningsHaveKinds: the warnings an update returns are
// *schema.Error values with a Kind, as errors are.
func TestPublicWarningsHaveKinds(t *testing.T) {
	s, err := schema.Parse([]byte(errorsSchema))
	require.NoError(t, err)
	res, err := (&params.Update{Schema: s, Set: []string{"nmae=x"}}).Run()
	require.NoError(t, err)
	require.NotEmpty(t, res.Warnings)
	for _, w := range res.Warnings {
		checkEntry(t, w)
	}
	ws, _, err := params.Undeclared(context.Background(), s, map[string]any{"nmae": "x"}, nil, 0)
	require.NoError(t, err)
	for _, w := range ws {
		checkEntry(t, w)
	}
}

// TestSentinelsAreReachable: every sentinel error the docs promise is
// found with errors.Is in the error that promises it, which is itself a
// *schema.Error or schema.ErrorList with a Kind.
func TestSentinelsAreReachable(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name   string
		err    func() error
		target error
		kind   schema.Kind
	}{
		{"a refused $ref", func() error {
			_, err := schema.Parse([]byte(`{"properties": {"a": {"$ref": "file:///etc/passwd"}}}`))
			return err
		}, nil, schema.KindRefused},
		{"a refused $ref, through convert.LoadSchema", func() error {
			_, err := convert.LoadSchema([]byte(`{"$ref": "https://example.com/x.json"}`))
			return err
		}, nil, schema.KindRefused},
		{"a malformed assignment", func() error {
			s, err := schema.Parse([]byte("{}"))
			require.NoError(t, err)
			_, err = (&params.Update{Schema: s, Set: []string{"novalue"}}).Run()
			return err
		}, params.ErrMalformed, schema.KindUsage},
		{"a malformed -p in an update", func() error {
			s, err := schema.Parse([]byte(errorsSchema))
			require.NoError(t, err)
			_, err = (&params.Update{Schema: s, Set: []string{"=1"}}).Run()
			return err
		}, params.ErrMalformed, schema.KindUsage},
		{"an unknown patch operation", func() error {
			s, err := schema.Parse([]byte("{}"))
			require.NoError(t, err)
			_, err = (&params.Update{Schema: s, Operations: []string{"copy a=b"}}).Run()
			return err
		}, params.ErrMalformed, schema.KindUsage},
		{"lint of an operator.yaml", func() error {
			_, err := lint.Document([]byte("apiVersion: kudo.dev/v1beta1\nname: x\ntasks: []\nplans: {deploy: {}}\n"))
			return err
		}, lint.ErrOperatorFile, schema.KindNotSchema},
		{"a folder that is no package", func() error { _, err := lint.ReadPackage(os.DirFS(dir)); return err }, fs.ErrNotExist, schema.KindIO},
		{"a folder that is no chart", func() error { _, err := lint.ReadChart(os.DirFS(dir)); return err }, fs.ErrNotExist, schema.KindIO},
		{"a missing version folder", func() error { _, err := migrate.LoadVersionSet(os.DirFS(filepath.Join(dir, "x"))); return err }, fs.ErrNotExist, schema.KindIO},
		{"a failing hook", func() error {
			s, err := schema.Parse([]byte(`{}`))
			require.NoError(t, err)
			m, err := migrate.New(s, migrate.StepHooks(0, func(_, _ any) (any, error) { return nil, context.Canceled }, nil))
			require.NoError(t, err)
			_, err = m.Migrate(map[string]any{})
			return err
		}, context.Canceled, schema.KindInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.err()
			requireSchemaError(t, err)
			if tt.target != nil {
				assert.ErrorIs(t, err, tt.target)
			}
			assert.Equal(t, tt.kind, schema.ErrorsOf(err)[0].Kind)
		})
	}
}

// TestErrorFieldPathsAndReasons: what an operator writes into a
// denial and a condition, from a validation error of the parameters.
func TestErrorFieldPathsAndReasons(t *testing.T) {
	s, err := schema.Parse([]byte(errorsSchema))
	require.NoError(t, err)
	err = params.Validate(s, map[string]any{"tags": []any{"a", true}, "replicas": jsonNum("0")})
	var got []string
	for _, e := range schema.ErrorsOf(err) {
		got = append(got, e.FieldPath("spec.parameters")+" "+e.Kind.Reason())
	}
	assert.Equal(t, []string{"spec.parameters.replicas Invalid", "spec.parameters.tags[1] Type"}, got)
}

func jsonNum(s string) json.Number { return json.Number(s) }

// TestNoErrorLiteralWithoutKind: library code builds a schema.Error with
// schema.NewError, or with a literal that sets Kind, so that no Kind is
// ever left empty by omission (the literals that remain are on paths
// where the message is built apart, such as validation).
func TestNoErrorLiteralWithoutKind(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != "." {
				return filepath.SkipDir // another module
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		inSchema := f.Name.Name == "schema"
		isError := func(e ast.Expr) bool {
			if st, ok := e.(*ast.StarExpr); ok {
				e = st.X
			}
			switch x := e.(type) {
			case *ast.SelectorExpr:
				id, ok := x.X.(*ast.Ident)
				return ok && id.Name == "schema" && x.Sel.Name == "Error"
			case *ast.Ident:
				return inSchema && x.Name == "Error"
			}
			return false
		}
		isList := func(e ast.Expr) bool {
			switch x := e.(type) {
			case *ast.SelectorExpr:
				id, ok := x.X.(*ast.Ident)
				return ok && id.Name == "schema" && x.Sel.Name == "ErrorList"
			case *ast.Ident:
				return inSchema && x.Name == "ErrorList"
			case *ast.ArrayType:
				return isError(x.Elt)
			}
			return false
		}
		check := func(lit *ast.CompositeLit) {
			for _, el := range lit.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Kind" {
						return
					}
				}
			}
			t.Errorf("%s: a schema.Error literal without Kind (use schema.NewError)", fset.Position(lit.Pos()))
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			switch {
			case isError(lit.Type):
				check(lit)
			case isList(lit.Type):
				for _, el := range lit.Elts {
					if u, ok := el.(*ast.UnaryExpr); ok {
						el = u.X
					}
					if c, ok := el.(*ast.CompositeLit); ok && c.Type == nil {
						check(c)
					}
				}
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
}

// firstDocErr is the verdict (Document.Err) of the first document of the
// stream that has one.
func firstDocErr(t *testing.T, s *schema.Schema, stream string) error {
	var first error
	err := params.DecodeReader(context.Background(), s, strings.NewReader(stream), 0, func(d params.Document[any]) error {
		if first == nil {
			first = d.Err
		}
		return nil
	})
	require.NoError(t, err)
	return first
}
