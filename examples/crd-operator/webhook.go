package main

import (
	"context"
	"embed"
	"io"
	"net/http"

	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/schema"
)

// The webhook paths, as config/webhook and config/crd name them, and
// their body limits: an admission review is bounded by the apiserver's
// own request limit; a conversion review of a LIST carries many objects.
const (
	MutatePath         = "/mutate-example-paramkit-dev-cache"
	ValidatePath       = "/validate-example-paramkit-dev-cache"
	ConvertPath        = "/convert"
	maxReviewBytes     = 3 << 20
	maxConversionBytes = 64 << 20
)

// schemas holds the parameter schema of each version and versions.yaml
// (paramctl crd --versions schemas writes config/crd from them).
//
//go:embed schemas
var schemas embed.FS

// Versions is the version set of the Cache's parameters: v1, then v2
// (the hub, which the CRD stores).
func Versions() (*migrate.VersionSet, error) {
	var vs []migrate.Version
	for _, name := range []string{"v1", "v2"} {
		data, _ := schemas.ReadFile("schemas/" + name + ".yaml") // embedded: always there
		s, err := schema.Parse(data)
		if err != nil {
			return nil, schema.ErrorIn(name, err)
		}
		vs = append(vs, migrate.Version{Name: name, Schema: s})
	}
	return migrate.NewVersionSet(vs)
}

// Register serves admission and conversion on the webhook server. A
// request is judged by the schema of its own version, so that a v1 user
// reads v1's names, and as it will be stored (kube.Stored). With clientCA, admission answers only the callers it
// signed; conversion stays open (kube-apiserver presents no client
// certificate to CRD conversion webhooks). Every body is read within
// budget.
func Register(srv webhook.Server, set *migrate.VersionSet, clientCA *kube.ClientCA, budget *kube.BodyBudget) {
	guard := func(h http.Handler) http.Handler {
		if clientCA == nil {
			return h
		}
		return clientCA.Require(h)
	}
	admit := func(opts ...kube.Option) http.Handler {
		return budget.Limit(maxReviewBytes, serve(func(ctx context.Context, body []byte) ([]byte, error) {
			review, err := kube.DecodeReview[kube.AdmissionReview](ctx, body)
			if err != nil {
				return nil, err
			}
			v, _ := set.Version(review.Request.Kind.Version) // none: Admit denies
			resp, _ := kube.Admit(ctx, v.Schema, review.Request, opts...)
			return review.Respond(resp)
		}))
	}
	// Stored: every write is judged as it will be stored too (v2, after
	// conversion), so neither v1's laxer schema nor an edited conversion
	// annotation stores what v2 refuses.
	stored := kube.Stored(set, "")
	srv.Register(MutatePath, guard(admit(stored)))
	srv.Register(ValidatePath, guard(admit(kube.Validating(), stored)))
	srv.Register(ConvertPath, budget.Limit(maxConversionBytes, serve(func(ctx context.Context, body []byte) ([]byte, error) {
		review, err := kube.DecodeReview[kube.ConversionReview](ctx, body)
		if err != nil {
			return nil, err
		}
		return review.Respond(kube.ConvertReview(ctx, review.Request, func(_ context.Context, obj []byte, to string) ([]byte, error) {
			return kube.Convert(set, obj, "/spec/parameters", to)
		}))
	})))
}

// serve writes what answer returns for the body (400 with its error when
// it fails).
func serve(answer func(ctx context.Context, body []byte) ([]byte, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		var out []byte
		if err == nil {
			out, err = answer(r.Context(), body)
		}
		if err != nil && out == nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(out)
	})
}
