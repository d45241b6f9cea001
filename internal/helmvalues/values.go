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
//
// A document is read a batch of entries at a time where that gives what
// reading it whole gives (see Entries and Batches): a large values file then costs the values
// it holds and never sigs.k8s.io/yaml's intermediate forms of the whole
// document (a YAML tree, a JSON-able tree and JSON text, about 30 times
// the text between them).
func Read(data []byte) (map[string]any, error) { return read(data, BatchBytes) }

// read is Read with batches of about batch bytes.
func read(data []byte, batch int) (map[string]any, error) {
	docs, err := splitDocs(data)
	if err != nil {
		return nil, err
	}
	values := map[string]any{}
	for _, d := range docs {
		// The file's last line gets the newline Helm's reader gives it.
		m, err := readDoc(d, d[len(d)-1] != '\n', batch)
		if err != nil {
			return nil, fmt.Errorf("cannot unmarshal yaml document: %w", err)
		}
		if len(docs) == 1 {
			values = m
			if values == nil {
				values = map[string]any{}
			}
			break
		}
		values = MergeMaps(values, m)
	}
	return Numbers(values).(map[string]any), nil
}

// readDoc reads one document as sigs.k8s.io/yaml does, into a map, in
// batches of about batch bytes; nl says that the document needs a
// newline at its end.
func readDoc(doc []byte, nl bool, batch int) (map[string]any, error) {
	if entries := Batches(doc, batch); len(entries) > 1 {
		if m, ok := readEntries(entries, nl); ok {
			return m, nil
		}
	}
	if nl {
		doc = append(doc[:len(doc):len(doc)], '\n')
	}
	m := map[string]any{}
	if err := yaml.Unmarshal(doc, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// readEntries reads a document's entries one at a time and joins their
// maps; ok is false when an entry does not read as a map, or two give the
// same key: then only reading the whole document says what it means.
func readEntries(entries []Entry, nl bool) (values map[string]any, ok bool) {
	values = make(map[string]any, len(entries))
	for i, e := range entries {
		text := e.Text
		if nl && i == len(entries)-1 {
			text = append(text[:len(text):len(text)], '\n')
		}
		// An entry reads as a map with a key at least: an entry that is
		// null reads as an empty map, and no entry may be null.
		m := map[string]any{}
		if err := yaml.Unmarshal(text, &m); err != nil || len(m) == 0 {
			return nil, false
		}
		for k, v := range m {
			if _, twice := values[k]; twice {
				return nil, false
			}
			values[k] = v
		}
	}
	return values, true
}

// splitDocs splits as k8s.io/apimachinery's YAMLReader does: a line
// starting with "---" ends a document; only a comment may follow the
// dashes on it. Empty documents are skipped. The documents are slices of
// data.
func splitDocs(data []byte) ([][]byte, error) {
	var docs [][]byte
	start := 0
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off + 1
		}
		line := data[off:end]
		if bytes.HasPrefix(line, []byte("---")) {
			rest := strings.TrimSpace(string(line[3:]))
			if rest != "" && rest[0] != '#' {
				return nil, fmt.Errorf("error reading yaml document: invalid Yaml document separator: %s", rest)
			}
			if start < off {
				docs = append(docs, data[start:off])
			}
			start = end
		}
		off = end
	}
	if start < len(data) {
		docs = append(docs, data[start:])
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
	return CoalesceOwned(deepCopy(chart).(map[string]any), v)
}

// CoalesceOwned is Coalesce for values the caller gives up: the result is
// built of both arguments' maps and lists, which it changes, rather than
// of copies (a large values file is not held twice). Neither argument may
// be used afterwards, and they must share no map or list.
func CoalesceOwned(chart, user map[string]any) map[string]any {
	if user == nil {
		user = map[string]any{}
	}
	coalesceOwned(&Chart{Values: chart}, user, false)
	return user
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
