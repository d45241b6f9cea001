package convert

import (
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/schema"
)

// readFS holds every kind of input ReadSchema reads, each schema with a
// property that names where it came from.
var readFS = fstest.MapFS{
	"schema.yaml":                 {Data: []byte("type: object\nproperties:\n  fromSchema: {type: string}\n")},
	"schema.json":                 {Data: []byte(`{"type": "object", "properties": {"fromJSON": {"type": "string"}}}`)},
	"trailing.json":               {Data: []byte("{\n  \"type\": \"object\",\n}\n")},
	"v1beta1.yaml":                {Data: []byte("apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: fromList\n    default: \"3\"\n")},
	"first.yaml":                  {Data: []byte("fromFirstFormat:\n  default: \"3\"\n  description: a parameter\n")},
	"crd.yaml":                    {Data: []byte(twoVersionCRD)},
	"values.yaml":                 {Data: []byte("replicas: 3\nimage: nginx\n")},
	"pkg/params.yaml":             {Data: []byte("apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: fromPackage\n")},
	"pkg/operator.yaml":           {Data: []byte("apiVersion: kudo.dev/v1beta1\nname: x\ntasks: []\nplans: {deploy: {}}\n")},
	"bare/operator.yaml":          {Data: []byte("apiVersion: kudo.dev/v1beta1\nname: x\nplans: {deploy: {}}\n")},
	"badpkg/params.yaml":          {Data: []byte("apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: a\n    type: nope\n")},
	"other/operator.yaml":         {Data: []byte("type: object\nproperties:\n  fromOperatorNamedFile: {}\n")},
	"chart/Chart.yaml":            {Data: []byte("apiVersion: v2\nname: c\n")},
	"chart/values.schema.json":    {Data: []byte(`{"type": "object", "properties": {"fromChart": {"type": "integer"}}}`)},
	"badchart/Chart.yaml":         {Data: []byte("apiVersion: v2\nname: c\n")},
	"badchart/values.schema.json": {Data: []byte("{\"type\": \"object\",}\n")},
	"noschema/Chart.yaml":         {Data: []byte("apiVersion: v2\nname: c\n")},
	"empty/README":                {Data: []byte("nothing here\n")},
}

func TestReadSchema(t *testing.T) {
	tests := []struct {
		name, path, property string
	}{
		{"a schema", "schema.yaml", "fromSchema"},
		{"a JSON schema", "schema.json", "fromJSON"},
		{"a v1beta1 params file", "v1beta1.yaml", "fromList"},
		{"KUDO's first format", "first.yaml", "fromFirstFormat"},
		{"a KUDO package folder", "pkg", "fromPackage"},
		{"a package's operator.yaml stands for its folder", "pkg/operator.yaml", "fromPackage"},
		{"a file named operator.yaml that is a schema is one", "other/operator.yaml", "fromOperatorNamedFile"},
		{"a Helm chart folder", "chart", "fromChart"},
		{"a chart's Chart.yaml stands for its folder", "chart/Chart.yaml", "fromChart"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ReadSchema(readFS, tt.path)
			require.NoError(t, err)
			assert.NotNil(t, s.Root().Child(tt.property), "the schema of %s declares %s", tt.path, tt.property)
		})
	}
}

// TestReadSchemaIsLoadSchema: for a file, ReadSchema is LoadSchema of its
// bytes (a CRD at its storage version).
func TestReadSchemaIsLoadSchema(t *testing.T) {
	read, err := ReadSchema(readFS, "crd.yaml")
	require.NoError(t, err)
	loaded, err := LoadSchema([]byte(twoVersionCRD))
	require.NoError(t, err)
	v := map[string]any{"spec": map[string]any{"size": 0}}
	assert.Error(t, loaded.Validate(v), "the storage version v1 has minimum 1")
	assert.Equal(t, loaded.Validate(v) == nil, read.Validate(v) == nil)
}

func TestReadSchemaPackageWithoutParams(t *testing.T) {
	for _, p := range []string{"bare", "bare/operator.yaml"} {
		s, err := ReadSchema(readFS, p)
		require.NoError(t, err, p)
		assert.NoError(t, s.Validate(map[string]any{}), "no parameters: the empty object is valid")
	}
}

func TestReadSchemaErrors(t *testing.T) {
	tests := []struct {
		name, path string
		kind       schema.Kind
		notExist   bool
		text       string
	}{
		{"missing file", "nope.yaml", schema.KindIO, true, "nope.yaml"},
		{"a folder that is neither package nor chart", "empty", schema.KindIO, true, "not a KUDO package folder: it holds neither params.yaml nor operator.yaml"},
		{"a chart without a values schema", "noschema", schema.KindIO, true, "the Helm chart has no values.schema.json"},
		{"a .json file that only YAML reads", "trailing.json", schema.KindSyntax, false, "read as JSON only"},
		{"a chart's schema that only YAML reads, named", "badchart", schema.KindSyntax, false, "values.schema.json: "},
		{"a package's params file that does not convert, named", "badpkg", schema.KindSchema, false, "params.yaml: "},
		{"a map of values is no schema", "values.yaml", schema.KindNotSchema, false, "found a flat map of values"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ReadSchema(readFS, tt.path)
			require.Error(t, err)
			assert.Nil(t, s)
			list := schema.ErrorsOf(err)
			require.NotEmpty(t, list)
			assert.Equal(t, tt.kind, list[0].Kind, "%v", err)
			assert.Equal(t, tt.notExist, errors.Is(err, fs.ErrNotExist), "%v", err)
			assert.Contains(t, err.Error(), tt.text)
		})
	}
}

// FuzzReadSchema: whatever a folder's files hold, ReadSchema does not
// panic, and it fails with a *schema.Error or a schema.ErrorList or gives
// the schema LoadSchema gives for the file's bytes.
func FuzzReadSchema(f *testing.F) {
	for _, name := range []string{"schema.yaml", "v1beta1.yaml", "first.yaml", "crd.yaml", "values.yaml", "pkg/operator.yaml", "trailing.json"} {
		f.Add(string(readFS[name].Data), string(readFS["pkg/operator.yaml"].Data), false)
	}
	f.Add("{\"type\": \"object\"}", "", true)
	f.Fuzz(func(t *testing.T, params, operator string, chart bool) {
		fsys := fstest.MapFS{"p/params.yaml": {Data: []byte(params)}, "p/operator.yaml": {Data: []byte(operator)}}
		file := "p/params.yaml"
		if chart {
			fsys = fstest.MapFS{"p/Chart.yaml": {Data: []byte("name: c\n")}, "p/values.schema.json": {Data: []byte(params)}}
			file = "p/values.schema.json"
		}
		for _, name := range []string{"p", file} {
			s, err := ReadSchema(fsys, name)
			if err != nil {
				require.Nil(t, s)
				var se *schema.Error
				var sl schema.ErrorList
				require.True(t, errors.As(err, &se) || problem.As(err, &sl), "%T: %v", err, err)
				continue
			}
			require.NotNil(t, s)
			_, lerr := LoadSchema([]byte(params))
			require.NoError(t, lerr, "ReadSchema took what LoadSchema refuses")
		}
	})
}
