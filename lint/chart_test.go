package lint

import (
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

const chartSchema = `{
  "type": "object",
  "required": ["image"],
  "properties": {
    "image": {"type": "string"},
    "replicas": {"type": "integer", "minimum": 1},
    "ports": {"type": "array", "items": {"type": "integer"}},
    "tls": {
      "type": "object",
      "required": ["secret"],
      "properties": {"secret": {"type": "string"}}
    }
  }
}
`

func TestReadChart(t *testing.T) {
	_, err := ReadChart(fstest.MapFS{"values.yaml": {Data: []byte("a: 1\n")}})
	assert.ErrorIs(t, err, fs.ErrNotExist)

	c, err := ReadChart(fstest.MapFS{"Chart.yaml": {Data: []byte("name: x\n")}})
	require.NoError(t, err)
	assert.Nil(t, c.Schema)
	assert.Nil(t, c.Values)
	assert.Equal(t, "values.schema.json", c.SchemaFile)
	assert.Equal(t, "values.yaml", c.ValuesFile)

	c, err = ReadChart(fstest.MapFS{
		"Chart.yaml":         {Data: []byte("name: x\n")},
		"values.schema.json": {Data: []byte("{}")},
		"values.yaml":        {Data: []byte("a: 1\n")},
	})
	require.NoError(t, err)
	assert.Equal(t, "{}", string(c.Schema))
	assert.Equal(t, "a: 1\n", string(c.Values))
}

// TestLintChart: the schema's findings and the values' errors, each with
// its file, pointer and line; extra values files layered over values.yaml
// as Helm coalesces them, each error in the file that writes the value.
func TestLintChart(t *testing.T) {
	type want struct {
		file    string
		line    int
		pointer string
		rule    string
	}
	tests := []struct {
		name   string
		chart  Chart
		sets   []*Set
		want   []want
		errMsg string
	}{
		{name: "valid values, clean schema", chart: Chart{Schema: []byte(chartSchema), Values: []byte("image: nginx\nreplicas: 2\n")}, want: nil},
		{name: "values errors at their lines", chart: Chart{Schema: []byte(chartSchema), Values: []byte("image: nginx\nreplicas: 0\nports: [80, http]\ntls: {}\n")},
			want: []want{
				{"values.yaml", 2, "/replicas", "chart-values"},
				{"values.yaml", 3, "/ports/1", "chart-values"},
				{"values.yaml", 4, "/tls/secret", "chart-values"},
			}},
		{name: "a null in values.yaml drops the key, as Helm v4 coalesces it", chart: Chart{Schema: []byte(chartSchema), Values: []byte("image: ~\n")},
			want: []want{{"values.yaml", 1, "/image", "chart-values"}}}, // required image missing
		{name: "empty values start from {}", chart: Chart{Schema: []byte(chartSchema), Values: []byte("# nothing\n")},
			want: []want{{"values.yaml", 0, "/image", "chart-values"}}},
		{name: "no values file", chart: Chart{Schema: []byte(chartSchema)},
			want: []want{{"values.yaml", 0, "/image", "chart-values"}}},
		{name: "schema findings carry the schema file", chart: Chart{Schema: []byte("{\n  \"properties\": {\n    \"a\": {\"enum\": [1], \"default\": 2}\n  }\n}\n"), Values: []byte("a: 1\n")},
			sets: []*Set{kudoSet}, want: []want{{"values.schema.json", 3, "/properties/a/default", "kudo-enum-default"}}},
		{name: "a schema that does not compile: its findings, no values check", chart: Chart{Schema: []byte(`{"type": "int"}`), Values: []byte("a: 1\n")},
			sets: []*Set{kudoSet}, want: []want{{"values.schema.json", 1, "/type", "schema-compile"}}},
		{name: "extra values: layered, null removes, errors in the file that writes them",
			chart: Chart{Schema: []byte(chartSchema), Values: []byte("image: nginx\nreplicas: 2\nports: [80]\n"), ExtraValues: []ValuesFile{
				{Name: "ci/a.yaml", Data: []byte("replicas: 0\n")},
				{Name: "ci/b.yaml", Data: []byte("image: null\ntls:\n  other: x\n")},
			}},
			want: []want{
				{"ci/a.yaml", 1, "/replicas", "chart-values"},
				{"ci/b.yaml", 1, "/image", "chart-values"}, // image, required, removed by ci/b.yaml: the root of the last file
				{"ci/b.yaml", 2, "/tls/secret", "chart-values"},
			}},
		{name: "trailing comma in the schema", chart: Chart{Schema: []byte("{\n  \"type\": \"object\",\n}\n")}, errMsg: "values.schema.json: line 2: a trailing comma before '}' is not JSON: remove it (a file named .json is read as JSON only)"},
		{name: "values that are no YAML", chart: Chart{Schema: []byte(chartSchema), Values: []byte("a: [1,\n")}, errMsg: "values.yaml: line 1: the '[' here is never closed"},
		{name: "extra values that are no YAML", chart: Chart{Schema: []byte(chartSchema), ExtraValues: []ValuesFile{{Name: "x.yaml", Data: []byte("a: b: c\n")}}}, errMsg: "x.yaml: line 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs, err := (&tt.chart).Lint(tt.sets...)
			if tt.errMsg != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.errMsg)
				var se *schema.Error
				assert.True(t, errors.As(err, &se), "a *schema.Error inside: %T", err)
				return
			}
			require.NoError(t, err)
			got := []want{}
			for _, f := range fs {
				got = append(got, want{f.File, f.Line, f.Pointer, f.Rule})
			}
			if tt.want == nil {
				tt.want = []want{}
			}
			assert.Equal(t, tt.want, got)
		})
	}

	fs, err := (&Chart{}).Lint(kudoSet)
	require.NoError(t, err)
	require.Len(t, fs, 1)
	assert.Equal(t, Finding{Rule: "chart-values", Severity: Info, File: "Chart.yaml", Message: "the chart has no values.schema.json: nothing checks the values users give"}, fs[0])

	_, err = (*Chart)(nil).Lint()
	assert.Error(t, err)
}
