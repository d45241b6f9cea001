package paramkit_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/convert/kudo"
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

// TestZeroValues calls every exported function and method of the library
// packages with zero values: nil and zero receivers, a zero
// (&schema.Schema{}) schema, nil arguments. None may panic; where the call
// returns an error and fails, the failure is a schema.Error of kind
// KindUsage when the fault is the zero value itself. A new exported
// function or method belongs in this table.
func TestZeroValues(t *testing.T) {
	ctx := context.Background()
	zero := &schema.Schema{}
	var nilSchema *schema.Schema
	// usage: the call must fail with KindUsage.
	usage := func(err error) error {
		if err == nil {
			return errors.New("no error for a zero value")
		}
		list := schema.ErrorsOf(err)
		if len(list) == 0 || list[0].Kind != schema.KindUsage {
			return fmt.Errorf("want a KindUsage error, got %T %v", err, err)
		}
		return nil
	}
	// any: the call may succeed or fail, it must not panic.
	anyErr := func(error) error { return nil }
	none := func() error { return nil }
	_ = none
	tests := []struct {
		name  string
		check func(error) error
		call  func() error
	}{
		// schema
		{"schema.Schema{}.Validate", usage, func() error { return zero.Validate(map[string]any{}) }},
		{"schema.Schema(nil).Validate", usage, func() error { return nilSchema.Validate(map[string]any{}) }},
		{"schema.Schema{}.ValidateAt", usage, func() error { return zero.ValidateAt("", 1) }},
		{"schema.Schema(nil).ValidateAt", usage, func() error { return nilSchema.ValidateAt("", 1) }},
		{"schema.Schema{}.Valid", anyErr, func() error { zero.Valid(1); nilSchema.Valid(1); return nil }},
		{"schema.Schema{}.readers", anyErr, func() error {
			for _, s := range []*schema.Schema{zero, nilSchema} {
				_ = s.Dialect()
				_ = s.Document()
				_ = s.HoldsSecretAt("/a")
				_ = s.Lookup("/a")
				_ = s.NodeAt("/a")
				_ = s.Root()
				_ = s.SecretAt("/a")
				s.Walk(func(*schema.Node) bool { return true })
			}
			return nil
		}},
		{"schema.Node(nil)", anyErr, func() error {
			var n *schema.Node
			_ = n.Allows("a")
			_ = n.Child("a")
			_, _ = n.ChildNodes("a")
			_ = n.Elem(0)
			_, _ = n.ElemNodes(0)
			_ = n.HoldsSecret()
			_ = n.IsFalse()
			_, _ = n.Keyword("type")
			_ = n.Keywords()
			_ = n.Property("a")
			_ = n.Scope()
			_ = n.Secret()
			_ = n.SecretAt("/a")
			_ = n.Subschemas()
			_ = n.Types()
			return nil
		}},
		{"schema.Node{}", anyErr, func() error {
			n := &schema.Node{}
			_ = n.Allows("a")
			_ = n.Child("a")
			_, _ = n.ChildNodes("a")
			_ = n.Elem(0)
			_, _ = n.ElemNodes(0)
			_ = n.HoldsSecret()
			_ = n.IsFalse()
			_, _ = n.Keyword("type")
			_ = n.Keywords()
			_ = n.Property("a")
			_ = n.Scope()
			_ = n.Secret()
			_ = n.SecretAt("/a")
			_ = n.Subschemas()
			_ = n.Types()
			return nil
		}},
		{"schema.Error(nil)", anyErr, func() error {
			var e *schema.Error
			_ = e.Error()
			_ = e.FieldPath("spec")
			_ = e.Unwrap()
			e = &schema.Error{}
			_ = e.Error()
			_ = e.FieldPath("spec")
			_ = e.Unwrap()
			var l schema.ErrorList
			_ = l.Err()
			l = schema.ErrorList{nil}
			_ = l.Err().Error()
			_ = schema.ErrorsOf(l.Err())
			_ = schema.ErrorIn("x", l.Err())
			_ = schema.Kind("").Reason()
			_ = schema.ErrorsOf(nil)
			_ = schema.ErrorIn("", nil)
			_ = schema.NewError("", "", "")
			return nil
		}},
		{"schema.Parse(nil)", anyErr, func() error { _, err := schema.Parse(nil); return err }},
		{"schema.FromValue(nil)", anyErr, func() error { _, err := schema.FromValue(nil); return err }},
		{"schema.CheckJSONFile", anyErr, func() error { return schema.CheckJSONFile("", nil) }},
		{"schema.DefaultDialect", anyErr, func() error { _, err := schema.Parse([]byte("{}"), schema.DefaultDialect("")); return err }},
		{"edit.AddProperty", anyErr, func() error { _, err := edit.AddProperty(nil, "", edit.Property{}); return err }},

		// params
		{"params.Update{}.Run", usage, func() error { _, err := (&params.Update{}).Run(); return err }},
		{"params.Update{Schema: zero}.Run", usage, func() error { _, err := (&params.Update{Schema: zero}).Run(); return err }},
		{"params.Update(nil).Run", usage, func() error { var u *params.Update; _, err := u.Run(); return err }},
		{"params.Validate(zero)", usage, func() error { return params.Validate(zero, map[string]any{}) }},
		{"params.Validate(zero, Structural)", usage, func() error { return params.Validate(zero, map[string]any{}, params.Structural()) }},
		{"params.ApplyJSONPatch(zero)", usage, func() error { _, err := params.ApplyJSONPatch(zero, nil, []byte("[]")); return err }},
		{"params.ApplyJSONPatch(nil, nil, nil)", anyErr, func() error { _, err := params.ApplyJSONPatch(nil, nil, nil); return err }},
		{"params.Decode(zero)", usage, func() error { _, err := params.Decode(zero, []byte("a: 1")); return err }},
		{"params.DecodePatch(zero)", usage, func() error { _, err := params.DecodePatch(zero, []byte("a: 1")); return err }},
		{"params.DecodeReader(zero)", usage, func() error {
			return params.DecodeReader(ctx, zero, strings.NewReader("a: 1"), 0, func(params.Document[any]) error { return nil })
		}},
		{"params.DecodeReader(nil emit)", usage, func() error {
			return params.DecodeReader(ctx, nil, strings.NewReader("a: 1"), 0, nil)
		}},
		{"params.DecodeReader(nil reader)", usage, func() error {
			return params.DecodeReader(ctx, nil, nil, 0, func(params.Document[any]) error { return nil })
		}},
		{"params.MapStream(nil reader)", usage, func() error {
			return params.MapStream(ctx, nil, 0, func(params.Document[int]) (int, error) { return 0, nil }, func(params.Document[int]) error { return nil })
		}},
		{"params.MapStream(nil)", usage, func() error {
			return params.MapStream[int](ctx, nil, 0, nil, nil)
		}},
		{"params.Default(zero)", usage, func() error { _, err := params.Default(zero, map[string]any{}); return err }},
		{"params.CheckImmutable(zero)", usage, func() error { return params.CheckImmutable(zero, map[string]any{}, map[string]any{}) }},
		{"params.MarshalJSON(zero)", usage, func() error { _, err := params.MarshalJSON(zero, map[string]any{}, ""); return err }},
		{"params.MarshalYAML(zero)", usage, func() error { _, err := params.MarshalYAML(zero, map[string]any{}); return err }},
		{"params.Undeclared(zero)", usage, func() error {
			_, _, err := params.Undeclared(ctx, zero, map[string]any{"a": 1}, nil, 0)
			return err
		}},
		{"params.Undeclared(nil ctx)", usage, func() error {
			var none context.Context // a nil context is what is tested
			_, _, err := params.Undeclared(none, nil, map[string]any{"a": 1}, nil, 0)
			return err
		}},
		{"params.ParseText(nil)", anyErr, func() error { _, err := params.ParseText(nil, ""); return err }},
		{"params.ParseText(Node{})", anyErr, func() error { _, err := params.ParseText(&schema.Node{}, "1"); return err }},
		{"params getters", anyErr, func() error {
			_, _ = params.Bool(nil, "")
			_, _ = params.Float(nil, "")
			_, _ = params.Int64(nil, "")
			_, _ = params.Map(nil, "")
			_, _ = params.Slice(nil, "")
			_, _ = params.String(nil, "")
			_ = params.Diff(nil, nil)
			_ = params.Equal(nil, nil)
			_ = params.Identical(nil, nil)
			_, _ = params.Plain(nil)
			_, _ = (&params.Update{Schema: zero}).Run()
			_, _ = (&params.Update{Operations: []string{""}}).Run()
			_ = params.Document[any]{}.Locate(nil)
			_ = params.Document[any]{}.Locate(errors.New("x"))
			_ = params.Document[int]{Line: 3}.Locate(errors.New("x"))
			return nil
		}},

		// params/gates
		{"gates.Set(nil).Apply", anyErr, func() error { var s *gates.Set; s.Apply(nil, nil); _ = s.Status(); return nil }},
		{"gates.Set{}.Apply", anyErr, func() error { s := &gates.Set{}; s.Apply(nil, nil); _ = s.Status(); return nil }},
		{"gates.New(nil)", anyErr, func() error { _, err := gates.New(nil); return err }},
		{"gates.Parse(nil)", anyErr, func() error { _, err := gates.Parse(nil); return err }},

		// kube
		{"kube.Admit(zero)", usage, func() error {
			_, err := kube.Admit(ctx, zero, &kube.AdmissionRequest{})
			return err
		}},
		{"kube.Admit(nil request)", usage, func() error {
			_, err := kube.Admit(ctx, nil, nil)
			return err
		}},
		{"kube misc", anyErr, func() error {
			_ = kube.JSONPatch("", nil, nil)
			_, _ = kube.DecodeReview[kube.AdmissionReview](ctx, nil)
			_, _ = kube.DecodeReview[kube.ConversionReview](ctx, nil)
			_, _ = kube.NewClientCA("", nil)
			_ = kube.Field("")
			_ = kube.Validating()
			return nil
		}},
		{"kube.AdmissionReview(nil).Respond", anyErr, func() error {
			var r *kube.AdmissionReview
			_, err := r.Respond(nil)
			_, _ = (&kube.AdmissionReview{}).Respond(nil)
			return err
		}},
		{"kube.ConversionReview(nil).Respond", anyErr, func() error {
			var r *kube.ConversionReview
			_, err := r.Respond(nil)
			_, _ = (&kube.ConversionReview{}).Respond(nil)
			return err
		}},
		{"kube.ClientCA(nil)", anyErr, func() error {
			var c *kube.ClientCA
			c.ConfigureTLS(nil)
			_ = c.Require(http.NotFoundHandler())
			c = &kube.ClientCA{}
			c.ConfigureTLS(nil)
			_ = c.Require(nil)
			return nil
		}},

		{"kube.Convert(nil set)", usage, func() error { _, err := kube.Convert(nil, []byte("{}"), "a", "b"); return err }},
		{"kube.Convert(zero set)", usage, func() error { _, err := kube.Convert(&migrate.VersionSet{}, []byte("{}"), "a", "b"); return err }},
		{"kube.ConvertReview(nil)", anyErr, func() error {
			_ = kube.ConvertReview(ctx, nil, nil)
			_ = kube.ConvertReview(ctx, &kube.ConversionRequest{Objects: []json.RawMessage{nil}}, nil)
			return nil
		}},
		{"kube.CRDSchema(zero)", usage, func() error { _, err := kube.CRDSchema(zero); return err }},
		{"kube.CRDSchema(nil)", usage, func() error { _, err := kube.CRDSchema(nil); return err }},
		{"kube.CRD{}.Manifest", anyErr, func() error { _, err := kube.CRD{}.Manifest(); return err }},
		{"kube.BodyBudget(nil).Limit", anyErr, func() error {
			var b *kube.BodyBudget
			h := b.Limit(10, nil)
			h2 := (&kube.BodyBudget{}).Limit(0, nil)
			for _, h := range []http.Handler{h, h2} {
				h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/x", strings.NewReader("{}")))
			}
			return nil
		}},

		// convert
		{"convert.Unwrap(zero)", usage, func() error { _, err := convert.Unwrap(zero, []byte("a: '1'")); return err }},
		{"convert.UnwrapValues(zero)", usage, func() error { _, err := convert.UnwrapValues(zero, map[string]string{"a": "1"}); return err }},
		{"convert.WrapValues(zero)", usage, func() error { _, err := convert.WrapValues(zero, map[string]any{"a": "1"}); return err }},
		{"convert.UnwrapReader(zero)", usage, func() error {
			return convert.UnwrapReader(ctx, zero, strings.NewReader("a: '1'"), 0, func(params.Document[*convert.Converted]) error { return nil })
		}},
		{"convert.UnwrapReader(nil emit)", usage, func() error {
			return convert.UnwrapReader(ctx, nil, strings.NewReader("a: '1'"), 0, nil)
		}},
		{"convert misc", anyErr, func() error {
			_, _ = kube.CRDVersions(nil)
			_, _ = convert.FromV1beta1(nil)
			_, _ = convert.FromV1beta1(nil, convert.InferStringTypes())
			_, _ = convert.UnwrapValues(nil, nil)
			_, _ = convert.LoadSchema(nil)
			_, _ = convert.ReadSchema(fstest.MapFS{}, "")
			_, _ = convert.ToV1beta1(nil)
			_ = convert.Note{}.String()
			return nil
		}},
		{"convert.ReadSchema(nil fs)", usage, func() error { _, err := convert.ReadSchema(nil, "x"); return err }},
		{"convert.Converted(nil).YAML", usage, func() error { var c *convert.Converted; _, err := c.YAML(); return err }},
		{"convert.Converted(nil).JSON", usage, func() error { var c *convert.Converted; _, err := c.JSON(""); return err }},
		{"convert.Converted{}", anyErr, func() error {
			_, _ = (&convert.Converted{}).JSON("")
			_, err := (&convert.Converted{}).YAML()
			return err
		}},
		{"params.MarshalJSON(not plain)", anyErr, func() error {
			_, err := params.MarshalJSON(nil, map[string]any{"c": make(chan int)}, "")
			if err == nil {
				return errors.New("MarshalJSON of a channel gave no error")
			}
			return nil
		}},

		// convert/kudo
		{"kudo.New(zero)", usage, func() error { _, err := kudo.New("", zero, nil); return err }},
		{"kudo misc", anyErr, func() error {
			_, _ = kudo.FromObject(nil)
			_, _ = kudo.Load("", nil)
			return nil
		}},
		{"kudo.OperatorVersion(nil)", anyErr, func() error {
			for _, v := range []*kudo.OperatorVersion{nil, {}} {
				_ = v.DefaultPlan()
				_ = v.HasPlan("")
				_ = v.Migration()
				_ = v.Name()
				_ = v.Plans()
				_ = v.Schema()
				_ = v.Triggers()
				_ = v.UpgradePlan()
			}
			return nil
		}},
		{"kudo.OperatorVersion(nil).Update", usage, func() error { var v *kudo.OperatorVersion; _, err := v.Update(nil, nil); return err }},
		{"kudo.OperatorVersion{}.Update", usage, func() error { _, err := (&kudo.OperatorVersion{}).Update(nil, nil); return err }},
		{"kudo.OperatorVersion(nil).Upgrade", usage, func() error {
			var v *kudo.OperatorVersion
			_, err := v.Upgrade(nil, nil, nil)
			return err
		}},
		{"kudo.OperatorVersion{}.Upgrade", usage, func() error {
			_, err := (&kudo.OperatorVersion{}).Upgrade(&kudo.OperatorVersion{}, nil, nil)
			return err
		}},

		// convert/migrate
		{"migrate.New(zero)", usage, func() error { _, err := migrate.New(zero); return err }},
		{"migrate.New(nil)", usage, func() error { _, err := migrate.New(nil); return err }},
		{"migrate.New(zero, options)", usage, func() error {
			_, err := migrate.New(zero, migrate.FromVersion(zero), migrate.Lossless(), migrate.ThroughVersions(zero, nil), migrate.StepHooks(0, nil, nil))
			return err
		}},
		{"migrate.Migration{}.Migrate", usage, func() error { return zeroResult((&migrate.Migration{}).Migrate(nil)) }},
		{"migrate.Migration(nil).Migrate", usage, func() error { var m *migrate.Migration; return zeroResult(m.Migrate(nil)) }},
		{"migrate.Migration{}.MigrateHiding", usage, func() error { return zeroResult((&migrate.Migration{}).MigrateHiding(nil, nil)) }},
		{"migrate.Migration{}.MigrateDocument", usage, func() error { return zeroResult((&migrate.Migration{}).MigrateDocument(nil)) }},
		{"migrate.Migration{}.Down", usage, func() error { return zeroResult((&migrate.Migration{}).Down(nil)) }},
		{"migrate.Migration{}.Target", anyErr, func() error {
			_ = (&migrate.Migration{}).Target()
			var m *migrate.Migration
			_ = m.Target()
			return nil
		}},
		{"migrate.Reader(zero migration)", usage, func() error {
			return migrate.Reader(ctx, &migrate.Migration{}, strings.NewReader("a: 1"), 0, func(params.Document[migrate.Result]) error { return nil })
		}},
		{"migrate.Reader(nil)", usage, func() error {
			return migrate.Reader(ctx, nil, strings.NewReader("a: 1"), 0, func(params.Document[migrate.Result]) error { return nil })
		}},
		{"migrate.LoadVersionSet", anyErr, func() error {
			_, err := migrate.LoadVersionSet(nil, migrate.CaseInsensitiveNames())
			return err
		}},
		{"migrate.NewVersionSet(nil)", anyErr, func() error { _, err := migrate.NewVersionSet(nil); return err }},
		{"migrate.NewVersionSet(zero versions)", usage, func() error {
			_, err := migrate.NewVersionSet([]migrate.Version{{}, {Schema: zero}})
			return err
		}},
		{"migrate.VersionSet readers", anyErr, func() error {
			for _, vs := range []*migrate.VersionSet{nil, {}} {
				_ = vs.Hub()
				_ = vs.Notes()
				_ = vs.Order()
				_, _ = vs.Losses("", "", 0)
				_ = vs.Refused("", "")
				_, _ = vs.Version("")
			}
			return nil
		}},
		{"migrate.VersionSet{}.Convert(Total)", usage, func() error { _, err := (&migrate.VersionSet{}).Convert(nil, "a", "b", migrate.Total()); return err }},
		{"migrate.VersionSet(nil).Convert", usage, func() error { var vs *migrate.VersionSet; _, err := vs.Convert(nil, "a", "b"); return err }},
		{"migrate.VersionSet{}.Convert", usage, func() error {
			_, err := (&migrate.VersionSet{}).Convert(nil, "a", "b", migrate.AllowLossy())
			return err
		}},
		{"migrate.VersionSet{}.Losses", usage, func() error { _, err := (&migrate.VersionSet{}).Losses("a", "b", 1); return err }},
		{"migrate.VersionSet(nil).Losses", usage, func() error { _, err := (*migrate.VersionSet)(nil).Losses("a", "b", 1); return err }},
		{"migrate.LoadVersionSet(nil)", usage, func() error { _, err := migrate.LoadVersionSet(nil); return err }},
		{"migrate.VersionSet{}.ConvertDocument", usage, func() error { _, err := (&migrate.VersionSet{}).ConvertDocument(nil, "a", "b"); return err }},
		{"migrate.VersionSet{}.ConvertObject", usage, func() error {
			_, err := (&migrate.VersionSet{}).ConvertObject(nil, "a", "b", migrate.ObjectTarget{})
			return err
		}},
		{"migrate.VersionSet{}.ConvertObjectDocument", usage, func() error {
			_, err := (&migrate.VersionSet{}).ConvertObjectDocument(nil, "a", "b", migrate.ObjectTarget{})
			return err
		}},
		{"migrate.VersionSet{}.RewriteObjects", usage, func() error {
			_, _, err := (&migrate.VersionSet{}).RewriteObjects([]any{map[string]any{}}, "a", "b", "", "")
			return err
		}},
		{"migratetest.RandomValue(zero)", usage, func() error {
			_, err := migratetest.RandomValue(zero, rand.New(rand.NewPCG(1, 2)))
			return err
		}},
		{"migratetest.RandomValue(nil rand)", usage, func() error {
			_, err := migratetest.RandomValue(nil, nil)
			return err
		}},

		// trigger
		{"trigger.New(zero)", usage, func() error { _, err := trigger.New(zero, trigger.DefaultPlan(""), nil); return err }},
		{"trigger.New(nil)", usage, func() error { _, err := trigger.New(nil); return err }},
		{"trigger.Resolver(nil).Resolve", usage, func() error { var r *trigger.Resolver; _, err := r.Resolve([]string{"/a"}); return err }},
		{"trigger.Resolver{}.Resolve", usage, func() error { _, err := (&trigger.Resolver{}).Resolve([]string{"/a"}); return err }},
		{"trigger.Parameters(zero)", anyErr, func() error { trigger.Parameters(zero); trigger.Parameters(nil); return nil }},
		{"trigger.Resolver(nil)", anyErr, func() error {
			for _, r := range []*trigger.Resolver{nil, {}} {
				_ = r.DefaultPlan()
				_ = r.Effective("/a")
				_, _ = r.Resolve([]string{"/a"})
			}
			return nil
		}},

		// lint
		{"lint.Run(zero)", anyErr, func() error {
			lint.Run(zero, map[string]any{})
			lint.Run(nil, nil)
			lint.Run(zero, map[string]any{}, nil, &lint.Set{}, &lint.Set{Rules: []*lint.Rule{nil, {}}})
			return nil
		}},
		{"lint misc", anyErr, func() error {
			_, _ = lint.Document(nil)
			_, _ = lint.Document([]byte("{}"), nil, &lint.Set{Rules: []*lint.Rule{nil, {}}})
			_, _ = lint.ReadChart(fstest.MapFS{})
			_, _ = lint.ReadPackage(fstest.MapFS{})
			_ = (*lint.Chart)(nil).Rules()
			_ = lint.ClusterApp("")
			_ = lint.Finding{}.String()
			_, _ = lint.Finding{}.MarshalJSON()
			return nil
		}},
		{"lint.ReadChart(nil)", usage, func() error { _, err := lint.ReadChart(nil); return err }},
		{"lint.ReadPackage(nil)", usage, func() error { _, err := lint.ReadPackage(nil); return err }},
		{"lint.Chart(nil).Lint", usage, func() error { var c *lint.Chart; _, err := c.Lint(); return err }},
		{"lint.Chart(nil).HelmValues", usage, func() error { var c *lint.Chart; _, _, err := c.HelmValues(); return err }},
		{"lint.Chart{}.HelmValues", anyErr, func() error { _, _, err := (&lint.Chart{}).HelmValues(); return err }},
		{"lint.Chart{}.Lint", anyErr, func() error { _, err := (&lint.Chart{}).Lint(); return err }},
		{"lint.Package(nil).Lint", usage, func() error { var p *lint.Package; _, err := p.Lint(); return err }},
		{"lint.Package{}.Lint", anyErr, func() error { _, err := (&lint.Package{}).Lint(); return err }},
		{"lint.Pass", anyErr, func() error {
			for _, p := range []*lint.Pass{nil, {}} {
				p.Report("", "")
				p.ReportAt("", 0, "", "")
				p.ReportSeverity("", "", "")
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			require.NotPanics(t, func() { err = tt.call() }, "zero values must not panic")
			assert.NoError(t, tt.check(err))
		})
	}
}

// zeroResult is the error of a migration that did not run, checking that
// its Result is the zero Result, as migrate.Result documents.
func zeroResult(r migrate.Result, err error) error {
	if r.Values != nil || r.Dropped != nil || r.Lossy != nil {
		return fmt.Errorf("a migration that did not run returned a Result: %+v (error %v)", r, err)
	}
	return err
}
