package kube

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// The apiserver's rules for a custom resource's metadata
// (k8s.io/apimachinery/pkg/api/validation.ValidateObjectMeta with
// NameIsDNSSubdomain, and util/validation), with its messages.
const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	qualifiedNameFmt    = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelValueFmt       = "(" + qualifiedNameFmt + ")?"

	dns1123SubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '" + dns1123SubdomainFmt + "')"
	dns1123LabelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '" + dns1123LabelFmt + "')"
	qualifiedNameMsg    = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '" + qualifiedNameFmt + "')"
	dns1035LabelMsg     = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
	labelValueMsg       = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '" + labelValueFmt + "')"

	// totalAnnotationSizeLimit is apimachinery's TotalAnnotationSizeLimitB.
	totalAnnotationSizeLimit = 256 * 1024
	// maxGeneratedNameLength is apiserver's names.MaxGeneratedNameLength:
	// the part of generateName a generated name keeps.
	maxGeneratedNameLength = 58
)

var (
	dns1123SubdomainRE = regexp.MustCompile("^" + dns1123SubdomainFmt + "$")
	dns1123LabelRE     = regexp.MustCompile("^" + dns1123LabelFmt + "$")
	qualifiedNameRE    = regexp.MustCompile("^" + qualifiedNameFmt + "$")
	labelValueRE       = regexp.MustCompile("^" + labelValueFmt + "$")
	dns1035LabelRE     = regexp.MustCompile("^[a-z]([-a-z0-9]*[a-z0-9])?$")
)

// dns1035Label is IsDNS1035Label's verdict: at most 63 characters of the
// label's form.
func dns1035Label(v string) bool { return len(v) <= 63 && dns1035LabelRE.MatchString(v) }

// dnsSubdomain is IsDNS1123Subdomain's list of messages.
func dnsSubdomain(v string) []string {
	var out []string
	if len(v) > 253 {
		out = append(out, "must be no more than 253 characters")
	}
	if !dns1123SubdomainRE.MatchString(v) {
		out = append(out, dns1123SubdomainMsg)
	}
	return out
}

// qualifiedName is IsQualifiedName's list of messages.
func qualifiedName(v string) []string {
	var out []string
	name := v
	if i := strings.IndexByte(v, '/'); i >= 0 {
		prefix := v[:i]
		name = v[i+1:]
		if strings.Contains(name, "/") {
			return []string{"a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '" + qualifiedNameFmt + "') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
		}
		if prefix == "" {
			out = append(out, "prefix part must be non-empty")
		} else {
			for _, m := range dnsSubdomain(prefix) {
				out = append(out, "prefix part "+m)
			}
		}
	}
	switch {
	case name == "":
		out = append(out, "name part must be non-empty")
	case len(name) > 63:
		out = append(out, "name part must be no more than 63 bytes")
	}
	if !qualifiedNameRE.MatchString(name) {
		out = append(out, qualifiedNameMsg)
	}
	return out
}

// invalid records the apiserver's "Invalid value" at a field.
func (j *judgement) invalid(ptr string, v any, msgs ...string) {
	for _, m := range msgs {
		j.fail(schema.KindInvalid, ptr, "Invalid value: %s: %s", quoteValue(v), m)
	}
}

func quoteValue(v any) string {
	switch t := v.(type) {
	case string:
		return fmt.Sprintf("%q", t)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

// validateMetadata checks the object's metadata as the apiserver checks a
// custom resource's, and on an update that name and namespace stay.
func validateMetadata(j *judgement, obj, old map[string]any) {
	raw, present := obj["metadata"]
	meta, ok := raw.(map[string]any)
	if present && raw != nil && !ok {
		j.fail(schema.KindType, "/metadata", "must be of type object, not %s", describe(raw))
		return
	}
	objectMeta(j, meta, "/metadata", false)
	if old != nil {
		oldMeta, _ := old["metadata"].(map[string]any)
		for _, key := range []string{"name", "namespace"} {
			was, _ := oldMeta[key].(string)
			now, _ := meta[key].(string)
			if key == "namespace" && !j.def.namespaced {
				continue
			}
			if was != now && now != "" {
				j.fail(schema.KindImmutable, "/metadata/"+key, "Invalid value: %q: field is immutable", now)
			}
		}
	}
}

// objectMeta checks the metadata at base: the object's own (embedded
// false), or that of an embedded resource, where the apiserver only asks
// of a name or generateName that it can be a path segment, and checks a
// namespace whatever the scope.
func objectMeta(j *judgement, meta map[string]any, base string, embedded bool) {
	str := func(key string) (string, bool) {
		v, ok := meta[key]
		if !ok || v == nil {
			return "", true
		}
		s, isStr := v.(string)
		if !isStr {
			j.fail(schema.KindType, base+"/"+key, "must be of type string, not %s", describe(v))
		}
		return s, isStr
	}
	name, nameOK := str("name")
	gen, genOK := str("generateName")
	ns, nsOK := str("namespace")
	if !embedded {
		objectName(j, name, nameOK, gen, genOK)
	} else {
		if nameOK && name != "" {
			j.invalid(base+"/name", name, pathSegmentName(name)...)
		}
		if genOK && gen != "" {
			j.invalid(base+"/generateName", gen, pathSegmentPrefix(gen)...)
		}
	}
	if !embedded {
		for _, key := range []string{"creationTimestamp", "deletionTimestamp"} {
			// metav1.Time's decoding: RFC 3339 or null; anything else is a
			// decoding error (400) before any validation.
			if v, ok := meta[key]; ok && v != nil {
				t, isStr := v.(string)
				if _, err := time.Parse(time.RFC3339, t); !isStr || err != nil {
					j.fail(schema.KindType, base+"/"+key, "must be a time in RFC 3339 form (2006-01-02T15:04:05Z), not %s", quoteValue(v))
				}
			}
		}
	}
	if nsOK && ns != "" && (embedded || j.def.namespaced) {
		var msgs []string
		if len(ns) > 63 {
			msgs = append(msgs, "must be no more than 63 characters")
		}
		if !dns1123LabelRE.MatchString(ns) {
			msgs = append(msgs, dns1123LabelMsg)
		}
		j.invalid(base+"/namespace", ns, msgs...)
	}
	if labels, ok := stringMap(j, meta, base, "labels"); ok {
		for _, k := range slices.Sorted(maps.Keys(labels)) {
			j.invalid(base+"/labels", k, qualifiedName(k)...)
			v := labels[k]
			var msgs []string
			if len(v) > 63 {
				msgs = append(msgs, "must be no more than 63 bytes")
			}
			if !labelValueRE.MatchString(v) {
				msgs = append(msgs, labelValueMsg)
			}
			j.invalid(base+"/labels", v, msgs...)
		}
	}
	if ann, ok := stringMap(j, meta, base, "annotations"); ok {
		total := 0
		for _, k := range slices.Sorted(maps.Keys(ann)) {
			j.invalid(base+"/annotations", k, qualifiedName(strings.ToLower(k))...)
			total += len(k) + len(ann[k])
		}
		if total > totalAnnotationSizeLimit {
			j.fail(schema.KindInvalid, base+"/annotations", "Too long: must have at most %d bytes", totalAnnotationSizeLimit)
		}
	}
	if raw, ok := meta["finalizers"]; ok && raw != nil {
		list, isList := raw.([]any)
		if !isList {
			j.fail(schema.KindType, base+"/finalizers", "must be of type array, not %s", describe(raw))
		}
		for i, f := range list {
			s, isStr := f.(string)
			if !isStr {
				j.fail(schema.KindType, pointer.AppendIndex(base+"/finalizers", i), "must be of type string, not %s", describe(f))
				continue
			}
			j.invalid(base+"/finalizers", s, qualifiedName(s)...)
		}
	}
	ownerReferences(j, meta, base)
}

// pathSegmentName is IsValidPathSegmentName's list of messages.
func pathSegmentName(v string) []string {
	if v == "." || v == ".." {
		return []string{fmt.Sprintf("may not be '%s'", v)}
	}
	return pathSegmentPrefix(v)
}

// pathSegmentPrefix is IsValidPathSegmentPrefix's list of messages.
func pathSegmentPrefix(v string) []string {
	var out []string
	for _, c := range []string{"/", "%"} {
		if strings.Contains(v, c) {
			out = append(out, fmt.Sprintf("may not contain '%s'", c))
		}
	}
	return out
}

// objectName checks the object's own name and generateName.
func objectName(j *judgement, name string, nameOK bool, gen string, genOK bool) {
	if genOK && gen != "" {
		// A prefix: a trailing dash is allowed.
		j.invalid("/metadata/generateName", gen, dnsSubdomain(maskTrailingDash(gen))...)
	}
	switch {
	case !nameOK:
	case name == "" && gen == "":
		j.fail(schema.KindRequired, "/metadata/name", "Required value: name or generateName is required")
	case name != "":
		j.invalid("/metadata/name", name, dnsSubdomain(name)...)
	case genOK:
		// The apiserver names the object generateName and five random
		// characters of [a-z0-9] (the prefix cut to 58), then checks that
		// name too.
		base := generatedPrefix(gen)
		for _, m := range dnsSubdomain(base + generatedSuffix) {
			j.fail(schema.KindInvalid, "/metadata/name", "Invalid value: %q and 5 random characters: %s", base, m)
		}
	}
}

// maskTrailingDash is apimachinery's: a generateName prefix may end in a
// dash, so its last two characters are checked as one letter (sic).
func maskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-2] + "a"
	}
	return name
}

// stringMap reads metadata's labels or annotations: a map of strings; a
// value of another type is an error at its own pointer.
func stringMap(j *judgement, meta map[string]any, base, key string) (map[string]string, bool) {
	raw, ok := meta[key]
	if !ok || raw == nil {
		return nil, false
	}
	m, isMap := raw.(map[string]any)
	if !isMap {
		j.fail(schema.KindType, base+"/"+key, "must be of type object, not %s", describe(raw))
		return nil, false
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		s, isStr := v.(string)
		if !isStr && v != nil {
			j.fail(schema.KindType, base+"/"+key+"/"+pointer.Escape(k), "must be of type string, not %s (quote it: %q)", describe(v), quoteValue(v))
			continue
		}
		out[k] = s
	}
	return out, true
}

// ownerReferences checks metadata.ownerReferences as
// ValidateOwnerReferences does: apiVersion, kind, name and uid given
// (each a required value at the reference's own field), apiVersion a
// GROUP/VERSION or a VERSION, at most one controller.
func ownerReferences(j *judgement, meta map[string]any, base string) {
	raw, ok := meta["ownerReferences"]
	if !ok || raw == nil {
		return
	}
	list, isList := raw.([]any)
	if !isList {
		j.fail(schema.KindType, base+"/ownerReferences", "must be of type array, not %s", describe(raw))
		return
	}
	var controllers []string
	for i, r := range list {
		p := pointer.AppendIndex(base+"/ownerReferences", i)
		m, isMap := r.(map[string]any)
		if !isMap {
			j.fail(schema.KindType, p, "must be of type object, not %s", describe(r))
			continue
		}
		for _, key := range []string{"apiVersion", "kind", "name", "uid"} {
			s, _ := m[key].(string)
			if s == "" {
				j.fail(schema.KindRequired, p+"/"+key, "Required value: must not be empty")
			}
		}
		if av, _ := m["apiVersion"].(string); strings.Count(av, "/") > 1 {
			j.fail(schema.KindInvalid, p+"/apiVersion", "Invalid value: %q: must be <group>/<version> or <version>", av)
		}
		if c, _ := m["controller"].(bool); c {
			kind, _ := m["kind"].(string)
			name, _ := m["name"].(string)
			controllers = append(controllers, kind+"/"+name)
		}
	}
	if len(controllers) > 1 {
		j.fail(schema.KindInvalid, base+"/ownerReferences", "Only one reference can have Controller set to true. Found \"true\" in references for %s", strings.Join(controllers, " and "))
	}
}
