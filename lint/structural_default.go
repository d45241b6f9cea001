package lint

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
)

// defaultsWalk mirrors ValidateDefaults (pkg/apiserver/schema/defaulting/
// validation.go): every default reachable through properties and items must
// survive pruning unchanged and validate against its own schema. The root
// counts as an embedded resource, whose apiVersion, kind and metadata are
// checked by other means (left out here; defaults are forbidden in the
// top-level ones anyway). The apiserver does not follow
// additionalProperties; defaults there are checked too, as warnings, since
// the apiserver applies them without having validated them.
func (a *sanalysis) defaultsWalk(n *kNode, isRoot, insideMeta, unchecked bool) {
	a.defaults(n, isRoot, insideMeta, unchecked, 0)
}

func (a *sanalysis) defaults(n *kNode, isRoot, insideMeta, unchecked bool, depth int) {
	if n == nil || depth > maxSchemaDepth {
		return
	}
	embedded := n.embedded || isRoot
	if embedded {
		insideMeta = false
	}
	if n.hasDef && !insideMeta {
		sev, note := Error, ""
		if unchecked {
			sev, note = Warning, " (the apiserver does not check defaults under additionalProperties, but applies them)"
		}
		dp := at(n.ptr, "default")
		var dropped []string
		pruned := value.DeepCopy(n.def)
		prune(pruned, n, embedded, dp, &dropped)
		if len(dropped) > 0 {
			sort.Strings(dropped)
			a.add(ruleDefault, sev, dp, fInvalid(n.def, fmt.Sprintf("must not have unknown fields (pruning drops %s)", strings.Join(dropped, ", ")))+note)
		}
		v := &valueValidator{a: a, emit: func(ptr, msg string) { a.add(ruleDefault, sev, ptr, msg+note) }}
		v.validate(n.def, n, dp, 0)
	}
	a.defaults(n.itemSchema(), false, insideMeta, unchecked, depth+1)
	for _, k := range n.propNames() {
		a.defaults(n.properties[k], false, insideMeta || (embedded && metaField(k)), unchecked, depth+1)
	}
	a.defaults(n.apSchema(), false, insideMeta, true, depth+1)
}

// prune mirrors pruning.Prune on a copy of a default, recording the
// pointers of what it removes. root marks an embedded resource (or the
// resource root) whose apiVersion, kind and metadata are kept.
func prune(x any, s *kNode, root bool, ptr string, dropped *[]string) {
	if s != nil && root {
		pruneWith(x, s, true, ptr, dropped, 0)
		return
	}
	pruneWith(x, s, s != nil && s.embedded, ptr, dropped, 0)
}

func pruneWith(x any, s *kNode, embedded bool, ptr string, dropped *[]string, depth int) {
	if depth > maxSchemaDepth {
		return
	}
	if s != nil && s.preserveUnknown != nil && *s.preserveUnknown {
		skipPrune(x, s, embedded, ptr, dropped, depth)
		return
	}
	switch t := x.(type) {
	case map[string]any:
		for _, k := range sortedKeys(t) {
			kp := pointer.Append(ptr, k)
			if s == nil {
				*dropped = append(*dropped, kp)
				delete(t, k)
				continue
			}
			if embedded && metaField(k) {
				continue
			}
			if p, ok := s.properties[k]; ok {
				pruneWith(t[k], p, p.embedded, kp, dropped, depth+1)
			} else if s.additionalProps != nil {
				ap := s.additionalProps.schema
				pruneWith(t[k], ap, ap != nil && ap.embedded, kp, dropped, depth+1)
			} else {
				*dropped = append(*dropped, kp)
				delete(t, k)
			}
		}
	case []any:
		var is *kNode
		if s != nil {
			is = s.itemSchema()
		}
		for i, e := range t {
			pruneWith(e, is, is != nil && is.embedded, pointer.AppendIndex(ptr, i), dropped, depth+1)
		}
	}
}

func skipPrune(x any, s *kNode, embedded bool, ptr string, dropped *[]string, depth int) {
	if s == nil {
		return
	}
	switch t := x.(type) {
	case map[string]any:
		for _, k := range sortedKeys(t) {
			kp := pointer.Append(ptr, k)
			if embedded && metaField(k) {
				continue
			}
			if p, ok := s.properties[k]; ok {
				pruneWith(t[k], p, p.embedded, kp, dropped, depth+1)
			} else if s.additionalProps != nil {
				ap := s.additionalProps.schema
				pruneWith(t[k], ap, ap != nil && ap.embedded, kp, dropped, depth+1)
			}
		}
	case []any:
		is := s.itemSchema()
		for i, e := range t {
			skipPrune(e, is, is != nil && is.embedded, pointer.AppendIndex(ptr, i), dropped, depth+1)
		}
	}
}

// valueValidator checks a value against a decoded schema node the way
// the apiserver's kube-openapi validator checks a default (OpenAPI 3.0
// semantics: nullable, boolean exclusiveMaximum/exclusiveMinimum,
// x-kubernetes-int-or-string as integer-or-string).
type valueValidator struct {
	a    *sanalysis
	emit func(ptr, msg string)
	// quiet suppresses reporting (for anyOf/oneOf/not probes).
	quiet bool
	fails int
}

func (v *valueValidator) fail(ptr, msg string) {
	v.fails++
	if !v.quiet {
		v.emit(ptr, msg)
	}
}

// probe reports whether x validates against s, without reporting.
func (v *valueValidator) probe(x any, s *kNode, ptr string, depth int) bool {
	p := &valueValidator{a: v.a, quiet: true}
	p.validate(x, s, ptr, depth)
	return p.fails == 0
}

func (v *valueValidator) validate(x any, s *kNode, ptr string, depth int) {
	if s == nil || depth > maxSchemaDepth {
		return
	}
	types := []string{}
	if isV3Type(s.typ) { // another type is refused on its own
		types = append(types, s.typ)
	}
	if s.intOrString {
		types = []string{"integer", "string"}
	}
	if x == nil && s.nullable {
		return
	}
	if len(types) > 0 && !typeMatches(x, types) {
		v.fail(ptr, fInvalid(x, fmt.Sprintf("must be of type %s", strings.Join(types, " or "))))
		return
	}
	if len(s.enum) > 0 { // an empty enum constrains nothing
		found := false
		for _, e := range s.enum {
			if value.Equal(x, e) {
				found = true
				break
			}
		}
		if !found {
			allowed := make([]string, len(s.enum))
			for i, e := range s.enum {
				if str, ok := e.(string); ok {
					allowed[i] = str
				} else {
					allowed[i] = showValue(e)
				}
			}
			v.fail(ptr, fNotSupported(x, allowed))
		}
	}
	switch t := x.(type) {
	case json.Number:
		v.number(t, s, ptr)
	case string:
		v.str(t, s, ptr)
	case []any:
		if s.maxItems != nil && int64(len(t)) > *s.maxItems {
			v.fail(ptr, fmt.Sprintf("Too many: %d: must have at most %d items", len(t), *s.maxItems))
		}
		if s.minItems != nil && int64(len(t)) < *s.minItems {
			v.fail(ptr, fInvalid(x, fmt.Sprintf("should have at least %d items", *s.minItems)))
		}
		if is := s.itemSchema(); is != nil {
			for i, e := range t {
				v.validate(e, is, pointer.AppendIndex(ptr, i), depth+1)
			}
		}
	case map[string]any:
		if s.maxProperties != nil && int64(len(t)) > *s.maxProperties {
			v.fail(ptr, fmt.Sprintf("Too many: %d: must have at most %d items", len(t), *s.maxProperties))
		}
		if s.minProperties != nil && int64(len(t)) < *s.minProperties {
			v.fail(ptr, fInvalid(x, fmt.Sprintf("should have at least %d properties", *s.minProperties)))
		}
		for _, r := range s.required {
			if _, ok := t[r]; !ok {
				v.fail(pointer.Append(ptr, r), fRequired(""))
			}
		}
		for _, k := range sortedKeys(t) {
			kp := pointer.Append(ptr, k)
			if p, ok := s.properties[k]; ok {
				v.validate(t[k], p, kp, depth+1)
			} else if ap := s.additionalProps; ap != nil {
				if ap.schema != nil {
					v.validate(t[k], ap.schema, kp, depth+1)
				} else if !ap.allows {
					v.fail(kp, fInvalid(t[k], fmt.Sprintf("%s is a forbidden property", k)))
				}
			}
		}
	}
	for _, c := range s.allOf {
		v.validate(x, c, ptr, depth+1)
	}
	if len(s.anyOf) > 0 {
		ok := false
		for _, c := range s.anyOf {
			if v.probe(x, c, ptr, depth+1) {
				ok = true
				break
			}
		}
		if !ok {
			v.fail(ptr, fInvalid(x, "must validate at least one schema (anyOf)"))
		}
	}
	if len(s.oneOf) > 0 {
		n := 0
		for _, c := range s.oneOf {
			if v.probe(x, c, ptr, depth+1) {
				n++
			}
		}
		if n != 1 {
			v.fail(ptr, fInvalid(x, "must validate one and only one schema (oneOf)"))
		}
	}
	if s.not != nil && v.probe(x, s.not, ptr, depth+1) {
		v.fail(ptr, fInvalid(x, "must not validate the schema (not)"))
	}
}

func typeMatches(x any, types []string) bool {
	got := value.TypeName(x)
	for _, t := range types {
		if t == got || (t == "number" && got == "integer") {
			return true
		}
	}
	return false
}

func (v *valueValidator) number(n json.Number, s *kNode, ptr string) {
	x, ok := numRat(n)
	if !ok {
		return
	}
	cmp := func(bound json.Number) (int, bool) {
		b, ok := numRat(bound)
		if !ok {
			return 0, false
		}
		return x.Cmp(b), true
	}
	if s.maximum != "" {
		if c, ok := cmp(s.maximum); ok {
			if s.exclusiveMaximum && c >= 0 {
				v.fail(ptr, fInvalid(n, "should be less than "+string(s.maximum)))
			} else if c > 0 {
				v.fail(ptr, fInvalid(n, "should be less than or equal to "+string(s.maximum)))
			}
		}
	}
	if s.minimum != "" {
		if c, ok := cmp(s.minimum); ok {
			if s.exclusiveMinimum && c <= 0 {
				v.fail(ptr, fInvalid(n, "should be greater than "+string(s.minimum)))
			} else if c < 0 {
				v.fail(ptr, fInvalid(n, "should be greater than or equal to "+string(s.minimum)))
			}
		}
	}
	if s.multipleOf != "" {
		if m, ok := numRat(s.multipleOf); ok && m.Sign() > 0 {
			if q := new(big.Rat).Quo(x, m); !q.IsInt() {
				v.fail(ptr, fInvalid(n, "should be a multiple of "+string(s.multipleOf)))
			}
		}
	}
}

func (v *valueValidator) str(str string, s *kNode, ptr string) {
	if s.maxLength != nil && int64(utf8.RuneCountInString(str)) > *s.maxLength {
		v.fail(ptr, fmt.Sprintf("Too long: may not be more than %d bytes", *s.maxLength))
	}
	if s.minLength != nil && int64(utf8.RuneCountInString(str)) < *s.minLength {
		v.fail(ptr, fInvalid(str, fmt.Sprintf("should be at least %d chars long", *s.minLength)))
	}
	if s.pattern != "" {
		if re, err := v.a.regexp(s.pattern); err == nil && !re.MatchString(str) {
			v.fail(ptr, fInvalid(str, fmt.Sprintf("should match '%s'", s.pattern)))
		}
	}
	if s.format != "" {
		if check, ok := formatCheckers[normalizeFormat(s.format)]; ok && !check(str) {
			v.fail(ptr, fInvalid(str, fmt.Sprintf("must be of type %s", s.format)))
		}
	}
}

// recognizedStringFormats are the string formats the apiserver validates
// (supportedVersionedFormats in pkg/apiserver/validation/formats.go),
// normalised by dropping dashes as go-openapi does.
var recognizedStringFormats = map[string]bool{
	"bsonobjectid": true, "uri": true, "email": true, "hostname": true, "ipv4": true, "ipv6": true,
	"cidr": true, "mac": true, "uuid": true, "uuid3": true, "uuid4": true, "uuid5": true,
	"isbn": true, "isbn10": true, "isbn13": true, "creditcard": true, "ssn": true, "hexcolor": true,
	"rgbcolor": true, "byte": true, "password": true, "date": true, "duration": true, "datetime": true,
	"quantity": true, "k8sshortname": true, "k8slongname": true,
}

func normalizeFormat(f string) string { return strings.ReplaceAll(f, "-", "") }

var (
	uuidRE         = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	uuid3RE        = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	uuid4RE        = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	uuid5RE        = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	hexColorRE     = regexp.MustCompile(`^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)
	bsonObjectIDRE = regexp.MustCompile(`^[0-9a-fA-F]{24}$`)
	dns1123LabelRE = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	dns1123SubRE   = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
)

// formatCheckers validate the formats whose rules are plain and certain.
// The others the apiserver recognises (uri, email, hostname, duration,
// quantity, isbn, creditcard, ssn, rgbcolor) are accepted unchecked, so
// that this never refuses what the apiserver accepts.
var formatCheckers = map[string]func(string) bool{
	"bsonobjectid": bsonObjectIDRE.MatchString,
	"ipv4":         func(s string) bool { return strings.Contains(s, ".") && parseIPSloppy(s) != nil },
	"ipv6":         func(s string) bool { return strings.Contains(s, ":") && parseIPSloppy(s) != nil },
	"cidr": func(s string) bool {
		i := strings.IndexByte(s, '/')
		if i < 0 {
			return false
		}
		if _, _, err := net.ParseCIDR(s); err == nil {
			return true
		}
		return parseIPSloppy(s[:i]) != nil && allDigits(s[i+1:])
	},
	"mac":          func(s string) bool { _, err := net.ParseMAC(s); return err == nil },
	"uuid":         uuidRE.MatchString,
	"uuid3":        uuid3RE.MatchString,
	"uuid4":        uuid4RE.MatchString,
	"uuid5":        uuid5RE.MatchString,
	"hexcolor":     hexColorRE.MatchString,
	"byte":         func(s string) bool { _, err := base64.StdEncoding.DecodeString(s); return err == nil },
	"date":         isDate,
	"datetime":     isDateTime,
	"k8sshortname": func(s string) bool { return len(s) <= 63 && dns1123LabelRE.MatchString(s) },
	"k8slongname":  func(s string) bool { return len(s) <= 253 && dns1123SubRE.MatchString(s) },
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseIPSloppy parses an IP address allowing leading zeros in IPv4
// octets, as the apiserver's netutils.ParseIPSloppy does.
func parseIPSloppy(s string) net.IP {
	if ip := net.ParseIP(s); ip != nil {
		return ip
	}
	if strings.Contains(s, ":") {
		return nil
	}
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return nil
	}
	for i, p := range parts {
		if !allDigits(p) {
			return nil
		}
		p = strings.TrimLeft(p, "0")
		if p == "" {
			p = "0"
		}
		parts[i] = p
	}
	return net.ParseIP(strings.Join(parts, "."))
}

// dateTimeLayouts are the layouts go-openapi's strfmt accepts for date-time.
var dateTimeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999Z0700",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999Z0700",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999 -0700",
	time.RFC1123Z,
	time.RFC1123,
}

// looseDateTimeRE accepts what go-openapi's IsDateTime accepts (it
// lowercases first, and allows second 60), so that a default is never
// refused here that the apiserver takes.
var looseDateTimeRE = regexp.MustCompile(`^(?i)\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(z|[+-]\d{2}:?\d{2})?$`)

func isDateTime(s string) bool {
	for _, l := range dateTimeLayouts {
		if _, err := time.Parse(l, s); err == nil {
			return true
		}
		if _, err := time.Parse(l, strings.ToUpper(s)); err == nil {
			return true
		}
	}
	return looseDateTimeRE.MatchString(s) && isDate(s[:10])
}

func isDate(s string) bool { _, err := time.Parse("2006-01-02", s); return err == nil }

// formatWalk mirrors the apiserver's "unrecognized format" warnings
// (WarningsOnCreate in pkg/registry/customresourcedefinition/strategy.go,
// GetUnrecognizedFormats in pkg/apiserver/validation/formats.go), judging
// the format by the node's type. The apiserver ignores such formats.
func (a *sanalysis) formatWalk(n *kNode, depth int) {
	if n == nil || depth > maxSchemaDepth {
		return
	}
	if n.format != "" {
		ok := true
		switch n.typ {
		case "", "string":
			ok = recognizedStringFormats[normalizeFormat(n.format)]
		case "integer":
			ok = n.format == "int32" || n.format == "int64"
		case "number":
			ok = n.format == "float" || n.format == "double"
		default:
			ok = false
		}
		if !ok {
			a.add(ruleFormat, Warning, at(n.ptr, "format"), fmt.Sprintf("unrecognized format %q (the apiserver warns and does not validate it)", n.format))
		}
	}
	for _, c := range children(n) {
		a.formatWalk(c, depth+1)
	}
}

// children lists every subschema of n, in a stable order.
func children(n *kNode) []*kNode {
	var out []*kNode
	if n.items != nil {
		out = append(out, n.items.schema)
		out = append(out, n.items.array...)
	}
	out = append(out, n.allOf...)
	out = append(out, n.anyOf...)
	out = append(out, n.oneOf...)
	out = append(out, n.not)
	for _, m := range []map[string]*kNode{n.properties, n.patternProperties, n.definitions} {
		for _, k := range sortedKeys(m) {
			out = append(out, m[k])
		}
	}
	out = append(out, n.apSchema())
	if n.additionalItems != nil {
		out = append(out, n.additionalItems.schema)
	}
	for _, k := range sortedKeys(n.dependencies) {
		out = append(out, n.dependencies[k].schema)
	}
	return out
}
