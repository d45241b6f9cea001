package lint

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestChartValuesHints (issue 36 item 4): where Helm's handling of values
// explains a refusal, the message names it and says how to fix it.
func TestChartValuesHints(t *testing.T) {
	const hintSchema = `{"type": "object", "additionalProperties": false, "properties": {
  "replicas": {"type": "integer"},
  "ratio": {"type": "number"},
  "image": {"type": "object", "required": ["tag"], "properties": {"tag": {"type": "string"}}},
  "tolerations": {"type": "array", "items": {"type": "object"}},
  "service": {"type": "object", "additionalProperties": false, "properties": {"port": {"type": "integer"}}}}}`
	const values = "replicas: 1\nimage:\n  tag: v1\nservice:\n  port: 80\n"
	for _, c := range []struct {
		name    string
		overlay string
		sets    []HelmSet
		file    string
		line    int
		want    string
	}{
		{"a key typo at the root", "replicsa: 2\n", nil, "ci.yaml", 1, `not allowed here: "replicsa" (the schema does not declare it); did you mean "replicas"?`},
		{"a key typo below", "service:\n  prot: 80\n", nil, "ci.yaml", 2, `did you mean "port"?`},
		{"--set-string of a number", "", []HelmSet{{"set-string", "replicas=3"}}, "--set-string replicas=3", 0, `--set-string keeps 3 as the text "3"; the schema wants an integer: give it with --set`},
		{"--set-literal of a number", "", []HelmSet{{"set-literal", "ratio=0.5"}}, "--set-literal ratio=0.5", 0, `--set-literal keeps 0.5 as the text "0.5"; the schema wants a number: give it with --set`},
		{"--set keeps 02 text", "", []HelmSet{{"set", "replicas=02"}}, "--set replicas=02", 0, `--set keeps 02 as the text "02" (a number with a leading zero stays text in Helm); the schema wants an integer: write 2`},
		{"--set keeps 007 text", "", []HelmSet{{"set", "replicas=007"}}, "--set replicas=007", 0, `write 7`},
		{"a list padded with nulls", "", []HelmSet{{"set", "tolerations[2].key=x"}}, "--set tolerations[2].key=x", 0, `--set tolerations[2].key=x sets tolerations[2], beyond the list's end: Helm pads the gap with nulls; set the elements before it too, or give the whole list with --set-json`},
		{"a null removed a required key", "image:\n  tag: null\n", nil, "ci.yaml", 2, `missing required property: "tag" (the null at ci.yaml:2 removed the key: Helm deletes a key set to null; remove that line to keep the chart's default)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			ch := &Chart{Schema: []byte(hintSchema), Values: []byte(values), Sets: c.sets}
			if c.overlay != "" {
				ch.ExtraValues = []ValuesFile{{Name: "ci.yaml", Data: []byte(c.overlay)}}
			}
			_, fs, err := ch.HelmValues()
			require.NoError(t, err)
			var msgs []string
			found := false
			for _, f := range fs {
				msgs = append(msgs, f.File+": "+f.Message)
				if f.Severity == Error && strings.Contains(f.Message, c.want) {
					found = true
					assert.Equal(t, c.file, f.File)
					assert.Equal(t, c.line, f.Line)
				}
			}
			assert.True(t, found, "want %q in\n%s", c.want, strings.Join(msgs, "\n"))
		})
	}
}
