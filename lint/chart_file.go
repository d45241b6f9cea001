package lint

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/helmvalues"
	"github.com/paramkit/paramkit/internal/problem"
)

// chartMetadataRule is helm lint's check of Chart.yaml (helm v4's
// pkg/chart/v2/lint/rules/chartfile.go and the chart loader's
// Metadata.Validate): YAML Helm can read, apiVersion v1 or v2, a name
// that is a plain file name, a version that is a string and SemVer (a
// warning where it is not strict SemVer 2), appVersion a string, type
// application or library (only with apiVersion v2), dependencies only
// with apiVersion v2, each an object with an alias of letters, digits,
// _ and -, no two with one name or alias; maintainers each with a name.
// Chart.Lint runs it whatever the sets.
var chartMetadataRule = &Rule{
	ID: "chart-file", Set: "chart", Severity: Error,
	Doc: "in a Helm chart, Chart.yaml is what helm lint and helm install accept (apiVersion, name, SemVer version, type, dependencies)",
	Run: func(*Pass) {}, // Chart.Lint reports its findings
}

var (
	// looseSemVer is Masterminds/semver v3's loose version (Helm's
	// semver.NewVersion with CoerceNewVersion, its default).
	looseSemVer = regexp.MustCompile(`^v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?$`)
	// strictSemVer is SemVer 2.0.0 (semver.StrictNewVersion).
	strictSemVer = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)
	chartAlias   = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)
)

// chartFileFindings checks Chart.yaml as helm lint does.
func chartFileFindings(data []byte) []Finding {
	node, _ := document.ParseNode(data)
	at := func(ptr string, sev Severity, format string, a ...any) Finding {
		f := Finding{Rule: chartMetadataRule.ID, Severity: sev, File: chartFile, Pointer: ptr, Message: fmt.Sprintf(format, a...)}
		if node != nil {
			f.Line, f.Column, _ = document.Locate(node, ptr)
		}
		return f
	}
	m, err := helmvalues.ReadMap(data)
	if err != nil {
		f := at("", Error, "unable to parse YAML: %s", strings.TrimPrefix(err.Error(), "error converting YAML to JSON: "))
		if _, derr := document.Read(data, document.Options{}); derr != nil {
			var pe *problem.Error
			if errors.As(derr, &pe) && pe.Line > 0 {
				f.Line, f.Column = pe.Line, pe.Column
				f.Message = fmt.Sprintf("unable to parse YAML: line %d: %s", pe.Line, pe.Message)
			}
		}
		return []Finding{f}
	}
	str := func(key string) (string, bool) {
		switch v := m[key].(type) {
		case string:
			return v, true
		case nil:
			return "", true
		case bool:
			return strconv.FormatBool(v), true
		case float64:
			return strconv.FormatFloat(v, 'g', -1, 64), true
		}
		return "", false
	}
	var out []Finding
	for _, key := range []string{"apiVersion", "name", "version", "appVersion", "kubeVersion", "description", "type", "home", "icon", "condition", "tags"} {
		if _, ok := str(key); !ok {
			return append(out, at("/"+key, Error, "unable to parse YAML: %s is no string", key))
		}
	}
	apiVersion, _ := str("apiVersion")
	name, _ := str("name")
	version, _ := str("version")
	switch {
	case apiVersion == "":
		out = append(out, at("", Error, `apiVersion is required. The value must be either "v1" or "v2"`))
	case apiVersion != "v1" && apiVersion != "v2":
		out = append(out, at("/apiVersion", Error, `apiVersion '%s' is not valid. The value must be either "v1" or "v2"`, apiVersion))
	}
	switch {
	case name == "":
		out = append(out, at("", Error, "name is required"))
	case name == "." || name == ".." || path.Base(strings.ReplaceAll(name, `\`, "/")) != name:
		out = append(out, at("/name", Error, "chart name %q is invalid", name))
	}
	for _, key := range []string{"version", "appVersion"} {
		switch v := m[key].(type) {
		case nil, string:
		case float64:
			// The advice keeps the user's text (1.0, not the 1 Helm
			// holds): quoted, it means what was written.
			text := strconv.FormatFloat(v, 'g', -1, 64)
			if n := nodeAt(node, "/"+key); n != nil && n.Kind == yaml.ScalarNode && n.Value != "" {
				text = n.Value
			}
			out = append(out, at("/"+key, Error, `%s should be of type string but it's of type float64: quote it (%q)`, key, text))
		default:
			out = append(out, at("/"+key, Error, "%s should be of type string but it's of type %T", key, v))
		}
	}
	switch {
	case version == "":
		out = append(out, at("", Error, "version is required"))
	case !validSemVer(version):
		out = append(out, at("/version", Error, "version '%s' is not a valid SemVer", version))
	case zeroPre(version):
		out = append(out, at("/version", Error, `version %q is less than or equal to "0.0.0-0"`, version))
	}
	if !strictSemVer.MatchString(version) {
		ptr := "/version"
		if version == "" {
			ptr = ""
		}
		out = append(out, at(ptr, Warning, "version '%s' is not a valid SemVerV2", version))
	}
	if t, _ := str("type"); t != "" {
		switch {
		case t != "application" && t != "library":
			out = append(out, at("/type", Error, "chart.metadata.type must be application or library"))
		case apiVersion != "v2":
			out = append(out, at("/type", Error, "chart type is not valid in apiVersion '%s'. It is valid in apiVersion 'v2'", apiVersion))
		}
	}
	out = append(out, listOfObjects(m, "maintainers", at, func(i int, e map[string]any) []Finding {
		if scalarString(e["name"]) == "" {
			return []Finding{at(fmt.Sprintf("/maintainers/%d", i), Error, "each maintainer requires a name")}
		}
		return nil
	})...)
	seen := map[string]bool{}
	deps := listOfObjects(m, "dependencies", at, func(i int, e map[string]any) []Finding {
		ptr := fmt.Sprintf("/dependencies/%d", i)
		n, alias := scalarString(e["name"]), scalarString(e["alias"])
		if alias != "" && !chartAlias.MatchString(alias) {
			return []Finding{at(ptr+"/alias", Error, "dependency %q has disallowed characters in the alias", n)}
		}
		key := n
		if alias != "" {
			key = alias
		}
		if seen[key] {
			return []Finding{at(ptr, Error, "more than one dependency with name or alias %q", key)}
		}
		seen[key] = true
		return nil
	})
	out = append(out, deps...)
	if d, ok := m["dependencies"].([]any); ok && len(d) > 0 && apiVersion != "v2" {
		out = append(out, at("/dependencies", Error, "dependencies are not valid in the Chart file with apiVersion '%s'. They are valid in apiVersion 'v2'", apiVersion))
	}
	return out
}

// listOfObjects checks that m[key], where given, is a list of objects
// and runs each through check.
func listOfObjects(m map[string]any, key string, at func(string, Severity, string, ...any) Finding, check func(int, map[string]any) []Finding) []Finding {
	v, ok := m[key]
	if !ok || v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		return []Finding{at("/"+key, Error, "unable to parse YAML: %s is no list", key)}
	}
	var out []Finding
	for i, e := range list {
		obj, ok := e.(map[string]any)
		if !ok {
			if e == nil {
				return append(out, at(fmt.Sprintf("/%s/%d", key, i), Error, "%s must not contain empty or null nodes", key))
			}
			return append(out, at(fmt.Sprintf("/%s/%d", key, i), Error, "unable to parse YAML: an entry of %s is no object", key))
		}
		out = append(out, check(i, obj)...)
	}
	return out
}

// validSemVer is semver.NewVersion's verdict (loose: v1.2 passes).
func validSemVer(v string) bool {
	if len(v) > 256 {
		return false
	}
	m := looseSemVer.FindStringSubmatch(v)
	if m == nil {
		return false
	}
	for _, seg := range []string{m[1], strings.TrimPrefix(m[2], "."), strings.TrimPrefix(m[3], ".")} {
		if seg == "" {
			continue
		}
		if _, err := strconv.ParseUint(seg, 10, 64); err != nil {
			return false
		}
	}
	if pre := m[5]; pre != "" {
		for _, p := range strings.Split(pre, ".") {
			if strings.Trim(p, "0123456789") == "" && len(p) > 1 && p[0] == '0' {
				return false
			}
		}
	}
	return true
}

// zeroPre reports whether a loose version is 0.0.0-0 (build metadata
// aside), the one version Helm's constraint >0.0.0-0 refuses.
func zeroPre(v string) bool {
	m := looseSemVer.FindStringSubmatch(v)
	return m != nil && m[5] == "0" && zeroVersion(m)
}

func zeroVersion(m []string) bool {
	for _, seg := range []string{m[1], strings.TrimPrefix(m[2], "."), strings.TrimPrefix(m[3], ".")} {
		if strings.Trim(seg, "0") != "" {
			return false
		}
	}
	return true
}

// scalarString is a scalar as the string field of Helm's Metadata holds
// it (a YAML 1.1 boolean such as y is "true" here, where Helm keeps "y":
// only emptiness and the characters of an alias are judged on it).
func scalarString(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case bool:
		return strconv.FormatBool(t)
	case float64:
		return strconv.FormatFloat(t, 'g', -1, 64)
	}
	return ""
}
