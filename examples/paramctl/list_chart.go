package main

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/go-openapi/jsonpointer"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// chartDocs fills, for a chart given as --schema, what helm-docs takes
// from values.yaml where the schema says nothing: the Default column
// from the values Helm uses (values.yaml as Helm reads it, nulls
// dropped) and the description from a helm-docs comment (`# -- text`,
// continued by `#` lines) above the key. A secret's default stays hidden.
func chartDocs(dir string, s *schema.Schema, rows []paramRow) {
	chart, err := readChart(dir)
	if err != nil || chart.Values == nil {
		return
	}
	chart.Schema, chart.Overlays = nil, nil
	values, _, err := chart.HelmValues()
	if err != nil {
		return
	}
	comments := map[string]string{}
	var n yaml.Node
	if yaml.Unmarshal(chart.Values, &n) == nil {
		helmDocsComments(&n, "", comments)
	}
	for i := range rows {
		r := &rows[i]
		if r.Description == "" {
			r.Description = comments[r.Pointer]
		}
		if r.Default != nil || r.hidden {
			continue
		}
		v, ok := valueAtPointer(values, r.Pointer)
		if _, isObject := v.(map[string]any); !ok || isObject {
			continue // an object's rows below it say what it holds
		}
		if s.SecretAt(r.Pointer) {
			r.Default, r.hidden = []byte(schema.Hidden), true
			continue
		}
		r.Default = mustBytes(params.MarshalJSON(nil, v, ""))
	}
}

// valueAtPointer follows an RFC 6901 pointer through plain values.
func valueAtPointer(v any, ptr string) (any, bool) {
	if ptr == "" {
		return v, true
	}
	p, err := jsonpointer.New(ptr)
	if err != nil {
		return nil, false
	}
	for _, tok := range p.DecodedTokens() {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[tok]; !ok {
			return nil, false
		}
	}
	return v, true
}

// helmDocsComments collects helm-docs descriptions: a key's head
// comment whose first line starts with "-- ", continued by the comment
// lines after it.
func helmDocsComments(n *yaml.Node, ptr string, out map[string]string) {
	for n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		p := ptr + "/" + jsonpointer.Escape(k.Value)
		if d := helmDocsText(k.HeadComment); d != "" {
			out[p] = d
		}
		helmDocsComments(n.Content[i+1], p, out)
	}
}

func helmDocsText(comment string) string {
	lines := strings.Split(comment, "\n")
	for i, l := range lines {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "#"))
		if text, ok := strings.CutPrefix(l, "-- "); ok {
			parts := []string{text}
			for _, c := range lines[i+1:] {
				c = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(c), "#"))
				if c == "" || strings.HasPrefix(c, "@") {
					break
				}
				parts = append(parts, c)
			}
			return strings.Join(parts, " ")
		}
	}
	return ""
}
