// Package kube is paramkit for a schema-typed field of a Kubernetes
// object, such as the spec.parameters of a custom resource: what every
// operator and webhook needs around it, in the shapes the kube-apiserver
// speaks, without importing anything from k8s.io.
//
// # Wire shapes
//
// AdmissionReview and ConversionReview (with their requests, responses,
// Status, StatusDetails and StatusCause) are small structs of this
// package with the JSON names of admission.k8s.io/v1 and
// apiextensions.k8s.io/v1 (v1beta1 reviews have the same shape and are
// answered in the version they came in). Objects stay raw JSON, so that
// numbers keep their text. DecodeReview reads a review body and refuses
// one that is not a review, has no uid, or repeats a key of its envelope
// (two "uid", "object" or "oldObject" keys: encoding/json would keep the
// last one, which is not what the apiserver meant). The Respond methods
// write the answer.
//
// # Admission
//
// Admit judges the field of one admission request by a schema: it fills
// the schema's defaults and returns them as an exact JSON patch (numbers
// as written: 9007199254740993 stays 9007199254740993, where a patch
// built through float64 stores ...992), denies invalid values and changes
// to immutable ones with one StatusCause per problem, and warns of keys
// the schema does not declare. A KUDO operator version passes its
// Schema().
//
// A cause has Kubernetes' cause type in Type (the JSON name is "reason",
// as in metav1.StatusCause): FieldValueRequired, FieldValueInvalid,
// FieldValueNotSupported, FieldValueForbidden, FieldValueDuplicate,
// FieldValueTooLong or FieldValueTypeInvalid, and the object's field path
// in Field (spec.parameters.engine, spec.parameters.tiers[0]). A missing
// required property and a property the schema forbids are named at the
// property's own path, one cause each.
//
// # Every write judged by the stored version
//
// With webhooks registered per served version (matchPolicy: Exact), an
// admission webhook sees a write in its own version only; the object
// the apiserver stores is the conversion of it to the storage version.
// Admit with the option Stored judges that object too: the request is
// converted as Convert converts it (the annotation
// conversion.paramkit.dev/kept restored), defaulted and validated by
// the stored version's schema, and compared with the old object
// converted alike (immutability). A write that an older version's
// laxer schema allows but the stored version refuses, or whose
// annotation a client edited (kubectl annotate, a patch, a put, a
// server-side apply: the annotation is data, not proof), is denied:
// in the writer's version's names where the field maps back through
// oldName, else in the stored version's names, saying which version
// and naming the annotation when it brought the value.
//
// # Bounded work, bounded answers
//
// A webhook sits where every user who can create the resource reaches
// it, so the answer is bounded whatever the request holds:
//
//   - the caller's context is the review's deadline (a server derives it
//     from the apiserver's ?timeout=); when it passes, decoding and
//     validation stop and the answer is a failure saying so (code 504,
//     reason Timeout);
//   - warnings are capped as the apiserver caps them: 256 characters
//     each and 4 KiB in total, the last one saying how many were left out
//     (AdmissionReview.Respond caps them);
//   - at most 50 causes, each message and field path cut to a short
//     prefix (a key of two megabytes is not echoed), so that an
//     admission answer stays under 256 KiB.
//
// # Serving hostile clients
//
// Reviews makes the net/http handlers of a webhook's paths (Admission
// with an AdmitFunc such as Admit, Conversion with a ConvertFunc such as
// ConvertReview) and Server serves them over HTTPS; paramctl webhook and
// both example operators use them, so every server has the same bounds:
//
//   - bodies read as their bytes arrive within a path's limit and a
//     budget of body bytes for the whole server (BodyBudget);
//   - the review's ?timeout= counted from the first byte of the body;
//   - at most AtOnce reviews worked on at once, served fairly: waiting
//     reviews get turns smallest body first and costly ones (above
//     SmallBytes) hold at most CostlyAtOnce turns (a quarter of them,
//     never the last), so a small valid review is answered within its
//     deadline however many costly ones wait, and what costly reviews
//     hold in memory does not grow with the clients;
//   - repeated envelope keys refused, answers and warnings capped, an
//     AdmitFunc's error always a denial, objects nested deeper than 1,000
//     levels refused by conversion as by admission;
//   - the TLS handshake and headers within ReadHeaderTimeout, HTTP/2 off
//     unless asked, and the serving certificate (Certificate) read again
//     when cert-manager rotates its files.
//
// # Only the apiserver may call
//
// ClientCA admits only callers with a client certificate a certificate
// authority signed, reloading the CA file when it changes: ConfigureTLS
// on the server's tls.Config (controller-runtime's webhook.Options.TLSOpts
// takes it as is) and Require around the handler. kube-apiserver (up to
// at least v1.37) presents no client certificate to CRD conversion
// webhooks: leave the conversion path open (Require's open paths).
//
// # Conversion
//
// ConvertReview answers a conversion review with a function that
// converts one object; Convert is that function for a field whose
// versions a migrate.VersionSet types. Conversion is total: it never
// fails because a value is invalid (admission judges, see Stored).
//
// # CRDs
//
// CRD and CRDVersion describe a CustomResourceDefinition whose versions
// type the field; CRD.Manifest writes it, with CRDSchema's structural
// schema for the field: as strict as the webhook when no webhook
// answers (no unknown key stored, an immutable value neither changed nor
// removed and re-added, defaults from the CRD alone; see CRDSchema).
// CRDVersions reads the other way: the versions of
// a manifest, each schema compiled and located in the manifest
// (convert.LoadSchema reads a manifest's storage version alone).
//
// # The apiserver's verdict
//
// ReadDefinition compiles a CustomResourceDefinition once; its Judge
// judges an object (a manifest as kubectl sends it) as kube-apiserver
// judges a create, or an update given the stored object, in the
// apiserver's order: the object read as kubectl reads YAML, its identity
// (group, kind, a served version, whose schema then judges it), its
// metadata, unknown fields pruned and reported as the fieldValidation
// mode says (Strict, Warn, Ignore), nulls dropped and defaults applied,
// status as the subresource leaves it, then validation by the version's
// schema as Kubernetes reads it. Errors carry the object's pointer, from
// which FieldPath gives the field path the apiserver names, and
// CauseType the cause type.
//
// # Options
//
// Admit takes options of the package's one Option type: Field (the
// schema-typed field, /spec/parameters by default), Validating and
// Stored.
package kube
