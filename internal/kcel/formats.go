package kcel

// The formats a kube-apiserver v1.37 checks in a custom resource
// (apiextensions-apiserver's supported formats, checked as kube-openapi's
// strfmt registry checks them; adapted: Apache License 2.0, the
// Kubernetes Authors).

import (
	"encoding/json"
	"math"
	"math/big"
	"net"
	"net/mail"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

var (
	rxUUID3     = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	rxUUID4     = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	rxUUID5     = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	rxHostname  = regexp.MustCompile(`^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$`)
	rxHexColor  = regexp.MustCompile(`^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)
	rxSSN       = regexp.MustCompile(`^\d{3}[- ]?\d{2}[- ]?\d{4}$`)
	rxBSONID    = regexp.MustCompile(`^[0-9a-fA-F]{24}$`)
	rxLongName  = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
	rxISBN10    = regexp.MustCompile(`^(?:[0-9]{9}X|[0-9]{10})$`)
	rxISBN13    = regexp.MustCompile(`^(?:[0-9]{13})$`)
	rxCard      = regexp.MustCompile(`^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$`)
	rxNotDigit  = regexp.MustCompile(`[^0-9]+`)
	rxSpaceDash = regexp.MustCompile(`[\s-]+`)
	rxRGB       = regexp.MustCompile(`^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$`)
)

// stringFormats are the string formats the apiserver checks, by name
// with dashes removed (go-openapi's normalization); a format not here is
// not checked (the apiserver strips it).
var stringFormats = map[string]func(string) bool{
	"bsonobjectid": rxBSONID.MatchString,
	"uri":          isRequestURI,
	"email":        isEmail,
	"hostname":     isHostname,
	"ipv4":         func(s string) bool { return parseIPSloppy(s) != nil && strings.Contains(s, ".") },
	"ipv6":         func(s string) bool { ip := net.ParseIP(s); return ip != nil && strings.Contains(s, ":") },
	"cidr":         isCIDRSloppy,
	"mac":          func(s string) bool { _, err := net.ParseMAC(s); return err == nil },
	"uuid":         IsUUID,
	"uuid3":        rxUUID3.MatchString,
	"uuid4":        rxUUID4.MatchString,
	"uuid5":        rxUUID5.MatchString,
	"hexcolor":     rxHexColor.MatchString,
	"rgbcolor":     rxRGB.MatchString,
	"ssn":          rxSSN.MatchString,
	"byte":         IsBase64,
	"password":     func(string) bool { return true },
	"date":         IsDate,
	"duration":     IsDuration,
	"datetime":     IsDateTime,
	"k8sshortname": func(s string) bool { return len(s) <= 63 && dns1123LabelRegexp.MatchString(s) },
	"k8slongname":  func(s string) bool { return len(s) <= 253 && rxLongName.MatchString(s) },
	"isbn":         func(s string) bool { return isISBN(s, 10) || isISBN(s, 13) },
	"isbn10":       func(s string) bool { return isISBN(s, 10) },
	"isbn13":       func(s string) bool { return isISBN(s, 13) },
	"creditcard":   isCreditCard,
}

// FormatChecked reports whether the apiserver checks a format on a node
// of the type.
func FormatChecked(typ, format string) bool {
	switch typ {
	case "", "string":
		_, ok := stringFormats[strings.ReplaceAll(format, "-", "")]
		return ok
	case "integer":
		return format == "int32" || format == "int64"
	case "number":
		return format == "float"
	}
	return false
}

// CheckFormat checks a value against its node's format as the apiserver
// does; it returns "" when the value passes (or the format is not one the
// apiserver checks), else what it must be ("must be of type byte").
func CheckFormat(typ, format string, v any) string {
	if format == "" {
		return ""
	}
	switch x := v.(type) {
	case string:
		if typ != "" && typ != "string" {
			return ""
		}
		name := strings.ReplaceAll(format, "-", "")
		if ok, known := stringFormats[name]; known && !ok(x) {
			return "must be of type " + name
		}
	case json.Number:
		if typ == "number" && format == "float" {
			// kube-openapi's range check: the number must parse as a
			// float32 (swag.ConvertFloat32).
			if _, err := strconv.ParseFloat(string(x), 32); err != nil {
				return "must fit in a 32-bit float (format float: at most 3.4028234663852886e+38 in size)"
			}
			return ""
		}
		if typ != "integer" {
			return ""
		}
		r, ok := new(big.Rat).SetString(string(x))
		if !ok || !r.IsInt() {
			return ""
		}
		n := r.Num()
		switch format {
		case "int32":
			if !n.IsInt64() || n.Int64() < math.MinInt32 || n.Int64() > math.MaxInt32 {
				return "must fit in a 32-bit integer (format int32: -2147483648 to 2147483647)"
			}
		case "int64":
			if !n.IsInt64() {
				return "must fit in a 64-bit integer (format int64: -9223372036854775808 to 9223372036854775807)"
			}
		}
	}
	return ""
}

// isISBN reports whether s is an ISBN of the version (10 or 13) once
// blanks and dashes are dropped, its check digit right (kube-openapi's
// govalidator.IsISBN).
func isISBN(s string, version int) bool {
	d := rxSpaceDash.ReplaceAllString(s, "")
	var sum int32
	switch version {
	case 10:
		if !rxISBN10.MatchString(d) {
			return false
		}
		for i := int32(0); i < 9; i++ {
			sum += (i + 1) * int32(d[i]-'0')
		}
		if d[9] == 'X' {
			sum += 10 * 10
		} else {
			sum += 10 * int32(d[9]-'0')
		}
		return sum%11 == 0
	case 13:
		if !rxISBN13.MatchString(d) {
			return false
		}
		factor := []int32{1, 3}
		for i := 0; i < 12; i++ {
			sum += factor[i%2] * int32(d[i]-'0')
		}
		return int32(d[12]-'0')-((10-(sum%10))%10) == 0
	}
	return false
}

// isCreditCard reports whether s, its non-digits dropped, is a card
// number of a known issuer whose Luhn checksum holds (kube-openapi's
// govalidator.IsCreditCard).
func isCreditCard(s string) bool {
	d := rxNotDigit.ReplaceAllString(s, "")
	if !rxCard.MatchString(d) {
		return false
	}
	sum, double := 0, false
	for i := len(d) - 1; i >= 0; i-- {
		n := int(d[i] - '0')
		if double {
			n *= 2
			if n >= 10 {
				n = n%10 + 1
			}
		}
		sum += n
		double = !double
	}
	return sum%10 == 0
}

func isRequestURI(s string) bool {
	_, err := url.ParseRequestURI(s)
	return err == nil
}

func isEmail(s string) bool {
	addr, err := mail.ParseAddress(s)
	return err == nil && addr.Address != ""
}

func isHostname(s string) bool {
	if !rxHostname.MatchString(s) || len(s) > 255 {
		return false
	}
	for _, p := range strings.Split(s, ".") {
		if len(p) > 63 {
			return false
		}
	}
	return true
}

// parseIPSloppy parses an IP address, tolerating leading zeros in IPv4
// octets as Kubernetes does for compatibility with go < 1.17.
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
		t := strings.TrimLeft(p, "0")
		if t == "" && p != "" {
			t = "0"
		}
		parts[i] = t
	}
	return net.ParseIP(strings.Join(parts, "."))
}

func isCIDRSloppy(s string) bool {
	i := strings.IndexByte(s, '/')
	if i < 0 {
		return false
	}
	ip := parseIPSloppy(s[:i])
	if ip == nil {
		return false
	}
	addr := ip.String()
	if _, err := netip.ParsePrefix(addr + s[i:]); err != nil {
		_, _, err = net.ParseCIDR(addr + s[i:])
		return err == nil
	}
	return true
}
