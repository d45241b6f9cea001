package lint

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const helmSchema = `{
  "type": "object",
  "properties": {
    "image": {"type": "object", "properties": {
      "repository": {"type": "string"},
      "tag": {"type": "string"},
      "digest": {"type": "string"}}},
    "awsAccountId": {"type": "string"},
    "auth": {"type": "object", "properties": {"enabled": {"type": "boolean"}}},
    "ingress": {"type": "object", "properties": {"enabled": {"type": "boolean"}}},
    "port": {"type": "string"},
    "password": {"type": "string", "writeOnly": true},
    "podAnnotations": {"type": "object", "additionalProperties": {"type": "string"}},
    "tolerations": {"type": "array", "items": {"type": "object", "properties": {
      "key": {"type": "string"}, "operator": {"type": "string"}}}}
  }
}`

const helmValuesYAML = "image:\n  repository: nginx\n  tag: \"1.25\"\nauth:\n  enabled: false\n"

// TestHelmValues: the cases of issue 27 where paramkit's schema-typed
// reading and Helm's differed, now judged as helm template judges them,
// each finding in the file (or --set) that wrote the value.
func TestHelmValues(t *testing.T) {
	type want struct {
		file    string
		line    int
		pointer string
		sev     Severity
		message string
	}
	tests := []struct {
		name  string
		extra string
		sets  []HelmSet
		want  []want
		check func(t *testing.T, v map[string]any)
	}{
		{name: "1.10 is the number 1.1", extra: "image:\n  tag: 1.10\n",
			want: []want{{"ci/x.yaml", 2, "/image/tag", Error, `Helm reads 1.10 as the number 1.1; the schema wants a string: write "1.10"`}}},
		{name: "an unquoted account id", extra: "awsAccountId: 1234567890\n",
			want: []want{{"ci/x.yaml", 1, "/awsAccountId", Error, `Helm reads 1234567890 as the number 1234567890; the schema wants a string: write "1234567890"`}}},
		{name: "a null where values.yaml has no key stays null", extra: "image:\n  digest:\n",
			want: []want{{"ci/x.yaml", 2, "/image/digest", Error, `Helm reads an empty value as null; the schema wants a string: write "" or remove the key`}}},
		{name: "a null where values.yaml has the key removes it", extra: "image:\n  tag: null\n",
			check: func(t *testing.T, v map[string]any) {
				assert.Equal(t, map[string]any{"repository": "nginx"}, v["image"])
			}},
		{name: "YAML 1.1 booleans pass", extra: "auth:\n  enabled: yes\ningress:\n  enabled: on\n",
			check: func(t *testing.T, v map[string]any) {
				assert.Equal(t, true, v["auth"].(map[string]any)["enabled"])
				assert.Equal(t, true, v["ingress"].(map[string]any)["enabled"])
			}},
		{name: "yes on a string node", extra: "port: yes\n",
			want: []want{{"ci/x.yaml", 1, "/port", Error, `Helm reads yes as the boolean true; the schema wants a string: write "yes"`}}},
		{name: "a secret is never quoted", extra: "password: 1234\n",
			want: []want{{"ci/x.yaml", 1, "/password", Error, `Helm reads the value (value hidden) as a number; the schema wants a string: quote it`}}},
		{name: "a duplicate key: a warning, the last value", extra: "port: \"1\"\nport: \"2\"\n",
			want:  []want{{"ci/x.yaml", 2, "/port", Warning, `"port" is given twice (lines 1 and 2): Helm keeps the last value, other YAML readers refuse the file`}},
			check: func(t *testing.T, v map[string]any) { assert.Equal(t, "2", v["port"]) }},
		{name: "a comment-only overlay is empty values", extra: "# only a comment\n"},
		{name: "--set escapes and lists", sets: []HelmSet{{"set", `podAnnotations.prometheus\.io/scrape=true,tolerations[0].key=dedicated,tolerations[0].operator=Exists`}},
			want: []want{{"--set " + `podAnnotations.prometheus\.io/scrape=true,tolerations[0].key=dedicated,tolerations[0].operator=Exists`, 0, "/podAnnotations/prometheus.io~1scrape", Error, "--set reads true as the boolean true; the schema wants a string: give it with --set-string"}},
			check: func(t *testing.T, v map[string]any) {
				assert.Equal(t, []any{map[string]any{"key": "dedicated", "operator": "Exists"}}, v["tolerations"])
			}},
		{name: "--set-string", sets: []HelmSet{{"set-string", `podAnnotations.prometheus\.io/scrape=true,port=80`}}},
		{name: "--set-json before --set, whatever the order given", sets: []HelmSet{{"set", "port=a"}, {"set-json", `port="b"`}},
			check: func(t *testing.T, v map[string]any) { assert.Equal(t, "a", v["port"]) }},
		{name: "--set-file", sets: []HelmSet{{"set-file", "port=p.txt"}},
			check: func(t *testing.T, v map[string]any) { assert.Equal(t, "file p.txt", v["port"]) }},
		{name: "--set of an integer keeps its text", sets: []HelmSet{{"set", "port=9007199254740993"}},
			want: []want{{"--set port=9007199254740993", 0, "/port", Error, "--set reads 9007199254740993 as the number 9007199254740993; the schema wants a string: give it with --set-string"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Chart{Schema: []byte(helmSchema), Values: []byte(helmValuesYAML), Sets: tt.sets,
				ReadFile: func(name string) ([]byte, error) { return []byte("file " + name), nil }}
			if tt.extra != "" {
				c.ExtraValues = []ValuesFile{{Name: "ci/x.yaml", Data: []byte(tt.extra)}}
			}
			v, fs, err := c.HelmValues()
			require.NoError(t, err)
			got := []want{}
			for _, f := range fs {
				got = append(got, want{f.File, f.Line, f.Pointer, f.Severity, f.Message})
			}
			if tt.want == nil {
				tt.want = []want{}
			}
			assert.Equal(t, tt.want, got)
			if tt.check != nil {
				tt.check(t, v)
			}
		})
	}
}

func TestHelmValuesErrors(t *testing.T) {
	c := &Chart{Values: []byte("a: 1\n"), Sets: []HelmSet{{"set", "a[70000]=1"}}}
	_, _, err := c.HelmValues()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--set a[70000]=1: ")

	c = &Chart{Sets: []HelmSet{{"set-other", "a=1"}}}
	_, _, err = c.HelmValues()
	require.Error(t, err)

	c = &Chart{Values: []byte("- a\n")}
	_, _, err = c.HelmValues()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "values.yaml: ")

	c = &Chart{Values: []byte("a: 9007199254740993\nb: 1.10\n")}
	v, fs, err := c.HelmValues()
	require.NoError(t, err)
	assert.Empty(t, fs)
	assert.Equal(t, map[string]any{"a": json.Number("9007199254740992"), "b": json.Number("1.1")}, v)

	_, _, err = (*Chart)(nil).HelmValues()
	assert.Error(t, err)
}

// TestChartValuesDrift: keys of values.yaml the schema does not declare
// are warnings at their lines (closest names suggested); a key the schema
// forbids is ChartValues' error only; overlays are not drift.
func TestChartValuesDrift(t *testing.T) {
	c := &Chart{
		Schema:   []byte(`{"type":"object","properties":{"image":{"type":"object","properties":{"tag":{"type":"string"}}},"strict":{"type":"object","additionalProperties":false,"properties":{"a":{}}},"free":{"type":"object"}}}`),
		Values:   []byte("image:\n  tag: \"1\"\n  tga: x\nfree:\n  anything: 1\nstrict:\n  b: 1\n"),
		Overlays: []ValuesFile{{Name: "ci/x.yaml", Data: []byte("other: 1\n")}},
	}
	fs, err := c.Lint()
	require.NoError(t, err)
	type got struct {
		rule    string
		sev     Severity
		file    string
		line    int
		pointer string
	}
	var gs []got
	for _, f := range fs {
		gs = append(gs, got{f.Rule, f.Severity, f.File, f.Line, f.Pointer})
	}
	assert.Equal(t, []got{
		{"chart-values-drift", Warning, "values.yaml", 3, "/image/tga"},
		{"chart-values", Error, "values.yaml", 7, "/strict/b"},
	}, gs)
	assert.Contains(t, fs[0].Message, `did you mean "tag"?`)
}
