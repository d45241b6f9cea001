package main

import (
	"context"
	"embed"
	"fmt"
	"io"
	"net/http"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/schema"
)

// The webhook paths, as config/webhook and config/crd name them. Their
// body limits are kube.Reviews': an admission review is bounded by the
// apiserver's own request limit (3 MiB); a conversion review of a LIST
// carries many objects (64 MiB).
const (
	MutatePath         = "/mutate-example-paramkit-dev-cache"
	ValidatePath       = "/validate-example-paramkit-dev-cache"
	ConvertPath        = "/convert"
	maxConversionBytes = kube.DefaultMaxConversionBytes
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

// Handler serves admission and conversion, and /healthz, through the
// handlers of rv (kube.Reviews: a body budget, the review's deadline from
// the first byte, fair turns, capped answers, repeated envelope keys
// refused). A request is judged by the schema of its own version, so
// that a v1 user reads v1's names, and as it will be stored
// (kube.Stored); an error of kube.Admit denies the
// request (Reviews never drops it). Serve it with kube.Server; with a
// client CA, leave ConvertPath open (kube-apiserver presents no client
// certificate to CRD conversion webhooks).
func Handler(set *migrate.VersionSet, rv *kube.Reviews) http.Handler {
	admit := func(opts ...kube.Option) http.Handler {
		return rv.Admission(func(ctx context.Context, req *kube.AdmissionRequest) (*kube.AdmissionResponse, error) {
			v, ok := set.Version(req.Kind.Version)
			if !ok {
				return &kube.AdmissionResponse{UID: req.UID, Result: &kube.Status{Status: "Failure", Code: http.StatusBadRequest, Reason: "BadRequest",
					Message: fmt.Sprintf("this webhook judges Caches of version v1 and v2, not %q", req.Kind.Version)}}, nil
			}
			return kube.Admit(ctx, v.Schema, req, opts...)
		})
	}
	// Stored: every write is judged as it will be stored too (v2, after
	// conversion), so neither v1's laxer schema nor an edited conversion
	// annotation stores what v2 refuses.
	stored := kube.Stored(set, "")
	mux := http.NewServeMux()
	mux.Handle(MutatePath, admit(stored))
	mux.Handle(ValidatePath, admit(kube.Validating(), stored))
	mux.Handle(ConvertPath, rv.Conversion(func(ctx context.Context, req *kube.ConversionRequest) *kube.ConversionResponse {
		return kube.ConvertReview(ctx, req, func(_ context.Context, obj []byte, to string) ([]byte, error) {
			return kube.Convert(set, obj, "/spec/parameters", to)
		})
	}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok\n") })
	return mux
}

// webhookServer runs the webhook server in the manager, on every replica
// (webhooks need no leader).
type webhookServer struct{ *kube.Server }

// Start serves until ctx is done.
func (s webhookServer) Start(ctx context.Context) error { return s.ListenAndServe(ctx) }

// NeedLeaderElection is false: every replica serves webhooks.
func (webhookServer) NeedLeaderElection() bool { return false }
