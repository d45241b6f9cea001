// Package webhook serves paramkit's admission and conversion webhooks for
// KUDO-style structured parameters over HTTPS.
//
// # An example to copy, not a supported API
//
// This package is an example to copy and embed. It is part of the module
// and follows the module's versioning, but its exported API may change in
// a minor version: copy it into your project, or pin the version you
// embed. The supported, stable API is the core packages (schema, params,
// convert, trigger, lint and the packages below them), which decide
// everything this package answers: it is the HTTP and review plumbing on
// top of them. Its manual (endpoints, flags, client certificates and the
// apiserver's side, limits and timeouts, speed, where the conversion
// webhook finds the schema, storage migration) is examples/webhook/README.md.
//
// # Endpoints
//
//   - /mutate applies the schema's defaults to an Instance's
//     spec.parameters and returns them as a JSONPatch; on an upgrade
//     (spec.operatorVersion.name changes) it first moves the parameters to
//     their new places by oldName.
//   - /validate denies invalid parameters (every error with its pointer),
//     changes to immutable parameters and updates that trigger more than
//     one plan, and returns the plan the change runs as the warning
//     "plan: NAME".
//   - /convert converts Instances and OperatorVersions between
//     kudo.dev/v1beta1 and kudo.dev/v1beta2, both ways and losslessly.
//   - /healthz answers "ok".
//
// The Kubernetes wire formats are the package's own small structs
// (AdmissionReview, ConversionReview); nothing here imports k8s.io. The
// schema of an operator version comes from a SchemaResolver: DirResolver
// reads one file per operator version from a directory and recompiles a
// schema only when its file changes.
//
// A Server serves a Handler with TLS 1.2 or later, reloading its
// certificate when the files change; Handler.Validate, Mutate and Convert
// can also be called directly from another server.
//
// # Only the apiserver may call
//
// A Handler answers whoever reaches it. To serve only callers with a
// client certificate signed by a given CA (the kube-apiserver, configured
// with an AdmissionConfiguration whose kubeconfig names the webhook's
// host:port), set Server.ClientCAFile, or in a server of your own use a
// ClientCA: ConfigureTLS on its tls.Config (controller-runtime's
// webhook.Options.TLSOpts takes it as is) and Require around the handler.
// /healthz stays open for probes; the CA file is read again when it
// changes. kube-apiserver (up to at least v1.37) presents no client
// certificate to CRD conversion webhooks, so a /convert that requires one
// refuses the apiserver's conversions: Server.PathsWithoutClientCert
// leaves it open (see examples/webhook/README.md, "Only the apiserver may
// call").
//
// # Entry points
//
// Embed the handler in a server of your own (ExampleNewHandler), or call
// one review at a time (ExampleHandler_Validate, ExampleHandler_Convert):
//
//	h, err := webhook.NewHandler(webhook.Options{Resolver: webhook.NewDirResolver("schemas")})
//	mux.Handle("/", h) // serves /validate, /mutate, /convert and /healthz
//
// Server runs it alone over HTTPS, as `paramctl webhook` does.
package webhook
