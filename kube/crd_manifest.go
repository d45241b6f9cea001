package kube

import (
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// CRD describes a CustomResourceDefinition whose versions type one field
// by paramkit schemas; Manifest writes it.
type CRD struct {
	// Group, Kind and Plural name the resource (example.paramkit.dev,
	// Cache, caches). The singular is the kind in lower case, the list
	// kind KIND+"List".
	Group, Kind, Plural string
	// Scope is Namespaced (the default) or Cluster.
	Scope string
	// Field is the pointer of the schema-typed field; /spec/parameters
	// when empty.
	Field string
	// Versions, oldest first; each has a schema for the field.
	Versions []CRDVersion
	// ConversionService is the conversion webhook's Service as
	// NAMESPACE/NAME, with ConversionPath (/convert when empty) and port
	// 443; empty: no conversion (strategy None), only possible when the
	// versions' schemas are the same.
	ConversionService, ConversionPath string
	// ConversionURL is the conversion webhook's URL instead of a Service
	// (https://host:port/convert, a webhook outside the cluster); it
	// excludes ConversionService.
	ConversionURL string
	// CABundle is the PEM of the CA that signed the conversion webhook's
	// serving certificate, written as the clientConfig's caBundle; empty:
	// the apiserver's own trust (or cert-manager's injection).
	CABundle []byte
	// CertManager names the cert-manager Certificate (NAMESPACE/NAME)
	// whose CA cert-manager's CA injector copies into the caBundle: the
	// annotation cert-manager.io/inject-ca-from.
	CertManager string
}

// CertManagerInjectAnnotation is the annotation by which cert-manager's
// CA injector fills a CRD's or webhook configuration's caBundle from a
// Certificate (NAMESPACE/NAME).
const CertManagerInjectAnnotation = "cert-manager.io/inject-ca-from"

// CRDVersion is one version of a CRD: the schema of its field, and
// whether the apiserver serves and stores it (exactly one version is
// stored). CRDVersions returns the versions of a manifest it reads in the
// same type, the schema then being the version's whole openAPIV3Schema.
type CRDVersion struct {
	Name            string
	Schema          *schema.Schema
	Served, Storage bool
	// Pointer is where CRDVersions found the schema in the manifest
	// (/spec/versions/1/schema/openAPIV3Schema); Manifest ignores it.
	Pointer string
}

// Manifest writes the CRD as YAML (apiextensions.k8s.io/v1): each
// version's openAPIV3Schema holds apiVersion, kind, metadata, the field's
// schema from CRDSchema at its place, and a status with
// observedGeneration and conditions (the status subresource is on).
// Each version that is not stored takes the stored version's tighter
// bounds (maximum, minimum, lengths, counts, pattern, multipleOf, enum)
// where its value maps there by oldName with the same type (a string the
// stored version holds as an integer gets a rule refusing integer text
// out of range): without the
// webhooks the apiserver judges a write by its own version's schema, and
// a laxer older version must not store, converted, what the stored one
// refuses. The output is the same for the same input, so that a CI check
// can compare it with the file in the repository.
func (c CRD) Manifest() ([]byte, error) {
	var errs schema.ErrorList
	usage := func(format string, args ...any) {
		errs = append(errs, schema.NewError(schema.KindUsage, "", "kube: "+format, args...))
	}
	if c.Group == "" || !strings.Contains(c.Group, ".") {
		usage("a CRD's group is a domain name with a dot (example.paramkit.dev), not %q", c.Group)
	}
	if c.Kind == "" || c.Plural == "" {
		usage("a CRD needs a kind and a plural")
	}
	if c.Plural != strings.ToLower(c.Plural) {
		usage("the plural %q must be lower case", c.Plural)
	}
	scope := c.Scope
	if scope == "" {
		scope = "Namespaced"
	}
	if scope != "Namespaced" && scope != "Cluster" {
		usage("scope is Namespaced or Cluster, not %q", scope)
	}
	field := c.Field
	if field == "" {
		field = "/spec/parameters"
	}
	toks, err := pointer.Split(field)
	if err != nil || len(toks) < 2 || toks[0] == "metadata" || toks[0] == "status" {
		usage("the field %q is not the pointer of a field below spec (such as /spec/parameters)", field)
	}
	if len(c.Versions) == 0 {
		usage("a CRD needs at least one version")
	}
	storage := 0
	seen := map[string]bool{}
	for _, v := range c.Versions {
		if v.Storage {
			storage++
		}
		if v.Name == "" || seen[v.Name] {
			usage("version names must be given and different (%q)", v.Name)
		}
		seen[v.Name] = true
	}
	if len(c.Versions) > 0 && storage != 1 {
		usage("exactly one version is stored, not %d", storage)
	}
	ns, name, ok := strings.Cut(c.ConversionService, "/")
	if c.ConversionService != "" && (!ok || ns == "" || name == "" || strings.Contains(name, "/")) {
		usage("the conversion service is NAMESPACE/NAME, not %q", c.ConversionService)
	}
	if c.ConversionURL != "" {
		if c.ConversionService != "" {
			usage("a conversion webhook has a service or a URL, not both")
		}
		if err := checkWebhookURL(c.ConversionURL); err != "" {
			usage("the conversion URL %q: %s", c.ConversionURL, err)
		}
	}
	if len(c.CABundle) > 0 {
		if c.ConversionService == "" && c.ConversionURL == "" {
			usage("a caBundle needs a conversion webhook (a service or a URL)")
		}
		if err := checkPEMCertificates(c.CABundle); err != "" {
			usage("the CA bundle: %s", err)
		}
	}
	if c.CertManager != "" {
		cns, cname, ok := strings.Cut(c.CertManager, "/")
		if !ok || cns == "" || cname == "" || strings.Contains(cname, "/") {
			usage("the cert-manager Certificate is NAMESPACE/NAME, not %q", c.CertManager)
		}
		if len(c.CABundle) > 0 {
			usage("cert-manager injects the caBundle: give a CA bundle or a Certificate, not both")
		}
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	fields := make([]map[string]any, len(c.Versions))
	for i, v := range c.Versions {
		fs, err := CRDSchema(v.Schema)
		if err != nil {
			return nil, schema.WrapError("version "+v.Name, err)
		}
		fields[i] = fs
	}
	storedBounds(c.Versions, fields)
	versions := make([]any, 0, len(c.Versions))
	for i, v := range c.Versions {
		obj := wrapField(fields[i], field)
		obj["properties"].(map[string]any)["status"] = statusSchema()
		obj["description"] = c.Kind + " is the Schema for the " + c.Plural + " API."
		versions = append(versions, map[string]any{
			"name":         v.Name,
			"served":       v.Served,
			"storage":      v.Storage,
			"schema":       map[string]any{"openAPIV3Schema": obj},
			"subresources": map[string]any{"status": map[string]any{}},
		})
	}
	spec := map[string]any{
		"group": c.Group,
		"names": map[string]any{
			"kind":     c.Kind,
			"listKind": c.Kind + "List",
			"plural":   c.Plural,
			"singular": strings.ToLower(c.Kind),
		},
		"scope":    scope,
		"versions": versions,
	}
	if c.ConversionService != "" || c.ConversionURL != "" {
		cc := map[string]any{}
		if c.ConversionURL != "" {
			cc["url"] = c.ConversionURL
		} else {
			path := c.ConversionPath
			if path == "" {
				path = "/convert"
			}
			cc["service"] = map[string]any{"namespace": ns, "name": name, "path": path, "port": jsonInt(443)}
		}
		if len(c.CABundle) > 0 {
			cc["caBundle"] = base64.StdEncoding.EncodeToString(c.CABundle)
		}
		spec["conversion"] = map[string]any{
			"strategy": "Webhook",
			"webhook": map[string]any{
				"conversionReviewVersions": []any{"v1"},
				"clientConfig":             cc,
			},
		}
	}
	meta := map[string]any{"name": c.Plural + "." + c.Group}
	if c.CertManager != "" {
		meta["annotations"] = map[string]any{CertManagerInjectAnnotation: c.CertManager}
	}
	doc := map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   meta,
		"spec":       spec,
	}
	return encode.YAML(doc, crdOrder{})
}

// statusSchema is the status the CRD's objects carry: the generation
// last judged and conditions (ParametersValid), as metav1.Condition.
func statusSchema() map[string]any {
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	cond := map[string]any{
		"type":     "object",
		"required": []any{"type", "status", "lastTransitionTime", "reason", "message"},
		"properties": map[string]any{
			"type":               str("Type of the condition (ParametersValid)."),
			"status":             map[string]any{"type": "string", "enum": []any{"True", "False", "Unknown"}, "description": "Status of the condition."},
			"reason":             str("Reason in CamelCase."),
			"message":            str("Message for people."),
			"lastTransitionTime": map[string]any{"type": "string", "format": "date-time", "description": "When the status last changed."},
			"observedGeneration": map[string]any{"type": "integer", "format": "int64", "minimum": jsonInt(0), "description": "The generation the condition was set for."},
		},
	}
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"observedGeneration": map[string]any{"type": "integer", "format": "int64", "description": "The generation of the spec last judged."},
			"conditions": map[string]any{
				"type":                       "array",
				"items":                      cond,
				"x-kubernetes-list-type":     "map",
				"x-kubernetes-list-map-keys": []any{"type"},
			},
		},
	}
}

// crdOrder writes a manifest's keys as people write them: the usual
// keywords first, property names sorted.
type crdOrder struct{ names bool }

var crdKeyRank = func() map[string]int {
	m := map[string]int{}
	for i, k := range []string{"apiVersion", "kind", "metadata", "spec", "status", "name", "namespace", "group", "names", "scope",
		"served", "storage", "rule", "message", "conversion", "strategy", "webhook", "versions", "description", "title", "type", "format", "nullable", "enum",
		"default", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "minLength", "maxLength", "pattern", "minItems", "maxItems",
		"required", "properties", "additionalProperties", "items"} {
		m[k] = i + 1
	}
	return m
}()

func (o crdOrder) Order(keys []string) []string {
	if o.names {
		return keys
	}
	out := append([]string(nil), keys...)
	sort.SliceStable(out, func(i, j int) bool {
		ri, rj := crdKeyRank[out[i]], crdKeyRank[out[j]]
		if ri == 0 {
			ri = len(crdKeyRank) + 1
		}
		if rj == 0 {
			rj = len(crdKeyRank) + 1
		}
		return ri < rj
	})
	return out
}

func (o crdOrder) Key(k string) encode.Orderer {
	if !o.names && k == "properties" {
		return crdOrder{names: true}
	}
	return crdOrder{}
}

func (o crdOrder) Elem(int) encode.Orderer { return crdOrder{} }

func jsonInt(i int) json.Number { return json.Number(strconv.Itoa(i)) }

// checkWebhookURL says what the apiserver refuses in a webhook's URL
// (k8s.io/apiserver's ValidateWebhookURL): an https URL with a host and no
// user, query or fragment; "" when it is fine.
func checkWebhookURL(raw string) string {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return err.Error()
	case u.Scheme != "https":
		return "the scheme must be https"
	case u.Host == "":
		return "a host is required"
	case u.User != nil:
		return "user information is not permitted in the URL"
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return "fragments are not permitted in the URL"
	case u.RawQuery != "" || strings.Contains(raw, "?"):
		return "query parameters are not permitted in the URL"
	}
	return ""
}

// checkPEMCertificates says what is wrong with a CA bundle: it must hold
// PEM certificates and nothing else; "" when it is fine.
func checkPEMCertificates(data []byte) string {
	n := 0
	for rest := data; ; {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			if len(strings.TrimSpace(string(rest))) > 0 {
				return "text that is no PEM block"
			}
			break
		}
		if b.Type != "CERTIFICATE" {
			return "a PEM block of type " + b.Type + ", not CERTIFICATE"
		}
		if _, err := x509.ParseCertificate(b.Bytes); err != nil {
			return err.Error()
		}
		n++
	}
	if n == 0 {
		return "no PEM certificate"
	}
	return ""
}
