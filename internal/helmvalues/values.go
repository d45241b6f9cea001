// Package helmvalues reads, merges and coalesces chart values as Helm v4
// does, for values headed for Helm: YAML read with sigs.k8s.io/yaml (YAML
// 1.1 booleans, every number a float64, the last of duplicate keys),
// values files merged in order, --set and its kin applied in Helm's order
// by Helm's own parser (the strvals package below), and the result
// coalesced over the chart's values.yaml with Helm's null rule.
//
// The functions follow helm.sh/helm/v4@v4.3.1: pkg/chart/v2/loader
// (LoadValues, MergeMaps), pkg/cli/values (Options.MergeValues) and
// pkg/chart/common/util (coalesceValues, coalesceTablesFullKey) for a chart
// without dependencies. The test suite in test/helm compares them with
// Helm itself.
//
// Values come back as paramkit's plain data: every number a json.Number
// holding the text encoding/json prints for the value Helm holds (1.10 is
// 1.1, 9007199254740993 read from YAML is 9007199254740992, an integer
// given with --set keeps its exact int64 text).
package helmvalues

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/paramkit/paramkit/internal/helmvalues/strvals"
)

// Read reads a values file as Helm's loader.LoadValues does: each
// `---`-separated document unmarshalled by sigs.k8s.io/yaml into a map, the
// maps merged in order; an empty or comment-only file is empty values.
func Read(data []byte) (map[string]any, error) {
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(append([]byte(nil), data...), '\n')
	}
	docs, err := splitDocs(data)
	if err != nil {
		return nil, err
	}
	values := map[string]any{}
	for _, d := range docs {
		m := map[string]any{}
		if err := yaml.Unmarshal(d, &m); err != nil {
			return nil, fmt.Errorf("cannot unmarshal yaml document: %w", err)
		}
		values = MergeMaps(values, m)
	}
	return Numbers(values).(map[string]any), nil
}

// splitDocs splits as k8s.io/apimachinery's YAMLReader does: a line
// starting with "---" ends a document; only a comment may follow the
// dashes on it. Empty documents are skipped.
func splitDocs(data []byte) ([][]byte, error) {
	var docs [][]byte
	var buf []byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		line := data
		if i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		if bytes.HasPrefix(line, []byte("---")) {
			rest := strings.TrimSpace(string(line[3:]))
			if rest != "" && rest[0] != '#' {
				return nil, fmt.Errorf("error reading yaml document: invalid Yaml document separator: %s", rest)
			}
			if len(buf) > 0 {
				docs = append(docs, buf)
				buf = nil
			}
			continue
		}
		buf = append(buf, line...)
	}
	if len(buf) > 0 {
		docs = append(docs, buf)
	}
	return docs, nil
}

// MergeMaps merges b over a as Helm's loader.MergeMaps does: maps merge
// key by key, anything else (null too) replaces.
func MergeMaps(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		if v, ok := v.(map[string]any); ok {
			if bv, ok := out[k]; ok {
				if bv, ok := bv.(map[string]any); ok {
					out[k] = MergeMaps(bv, v)
					continue
				}
			}
		}
		out[k] = v
	}
	return out
}

// Flags are the --set family in the order Helm applies them (after every
// -f file): pkg/cli/values.Options.MergeValues.
var Flags = [...]string{"set-json", "set", "set-string", "set-file", "set-literal"}

// ErrFlag is wrapped by Apply's error for a flag name not in Flags.
var ErrFlag = errors.New("not a Helm --set flag")

// Apply applies one --set-family assignment to base as Helm does, with
// Helm's own parser; readFile reads a --set-file's file. The result is
// base (changed) or, for a whole JSON object given to --set-json, a new
// map.
func Apply(flag, expr string, base map[string]any, readFile func(string) ([]byte, error)) (map[string]any, error) {
	var err error
	switch flag {
	case "set-json":
		trimmed := strings.TrimSpace(expr)
		if trimmed != "" && trimmed[0] == '{' {
			var m map[string]any
			if err := json.Unmarshal([]byte(trimmed), &m); err != nil {
				return base, fmt.Errorf("failed parsing --set-json data JSON: %s", expr)
			}
			return MergeMaps(base, Numbers(m).(map[string]any)), nil
		}
		if err := strvals.ParseJSON(expr, base); err != nil {
			return base, fmt.Errorf("failed parsing --set-json data %s", expr)
		}
	case "set":
		err = strvals.ParseInto(expr, base)
	case "set-string":
		err = strvals.ParseIntoString(expr, base)
	case "set-file":
		err = strvals.ParseIntoFile(expr, base, func(rs []rune) (any, error) {
			if readFile == nil {
				return nil, errors.New("--set-file: no files can be read here")
			}
			b, err := readFile(string(rs))
			if err != nil {
				return nil, err
			}
			return string(b), nil
		})
	case "set-literal":
		err = strvals.ParseLiteralInto(expr, base)
	default:
		return base, fmt.Errorf("--%s: %w", flag, ErrFlag)
	}
	if err != nil {
		return base, fmt.Errorf("failed parsing --%s data: %w", flag, err)
	}
	return Numbers(base).(map[string]any), nil
}

// Coalesce coalesces user values over a chart's values as Helm's
// util.CoalesceValues does for a chart without dependencies: user values
// win; a null in the user values removes the key where the chart has a
// value for it (and stays null where the chart has none); nulls in the
// chart's own values are dropped. Neither argument is changed.
func Coalesce(chart, user map[string]any) map[string]any {
	v, _ := deepCopy(user).(map[string]any)
	if v == nil {
		v = map[string]any{}
	}
	coalesceValues(&Chart{Values: chart}, v, false)
	return v
}

func cleanNilValues(m map[string]any) {
	for k, v := range m {
		if v == nil {
			delete(m, k)
		} else if sub, ok := v.(map[string]any); ok {
			cleanNilValues(sub)
		}
	}
}

func isTable(v any) bool {
	_, ok := v.(map[string]any)
	return ok
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		a := make([]any, len(t))
		for i, x := range t {
			a[i] = deepCopy(x)
		}
		return a
	}
	return v
}

// Numbers turns every number Helm's readers give (float64 from YAML and
// JSON, int64 from --set) into a json.Number with the text encoding/json
// prints for it, walking maps and slices in place.
func Numbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = Numbers(x)
		}
	case []any:
		for i, x := range t {
			t[i] = Numbers(x)
		}
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return t // json cannot hold it; Helm's YAML reader refuses it before
		}
		b, _ := json.Marshal(t)
		return json.Number(b)
	case float32:
		return Numbers(float64(t))
	case int64:
		return json.Number(strconv.FormatInt(t, 10))
	case int:
		return json.Number(strconv.Itoa(t))
	}
	return v
}

// ReadMap reads YAML as Helm reads Chart.yaml into a map (as helm lint's
// type checks do): sigs.k8s.io/yaml, numbers as float64 (not turned into
// json.Number), a document that is no map an error.
func ReadMap(data []byte) (map[string]any, error) {
	m := map[string]any{}
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	return m, nil
}
